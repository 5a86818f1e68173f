"""A frame's GPU time from a ring of timer queries, read frames later (no wait on the GPU)."""

from __future__ import annotations

import pytest
from conftest import smooth_noise, to_u8

from aquarelle.engine.chain import build_pipeline
from aquarelle.engine.frame_timer import DEPTH, FrameTimer, frame_cost


def test_a_frame_is_timed_when_the_ring_comes_round(gl_ctx) -> None:
    frame = to_u8(smooth_noise(90, 160, seed=3))
    timer = FrameTimer(gl_ctx)
    with build_pipeline(gl_ctx, "watercolor") as p:
        seen = []
        for _ in range(DEPTH + 1):
            with timer.frame():
                p.render(frame)
            seen.append(timer.seconds)
    assert seen[:DEPTH - 1] == [None] * (DEPTH - 1)  # nothing read before it came round
    assert all(s is not None and 0.0 < s < 60.0 for s in seen[DEPTH - 1:])
    timer.reset()
    assert timer.seconds is None


def test_a_frame_costs_the_slower_side_on_a_gpu_and_both_on_the_cpu() -> None:
    assert frame_cost(0.004, None, cpu_renderer=False) == 0.004
    assert frame_cost(0.004, 0.010, cpu_renderer=False) == 0.010
    assert frame_cost(0.004, 0.010, cpu_renderer=True) == pytest.approx(0.014)
