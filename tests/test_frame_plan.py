"""Frame plans: a frame's passes decided once per key, and targets whose lives in the frame
do not overlap sharing one texture, with no picture changed by it."""

from __future__ import annotations

from typing import Any

import moderngl
import numpy as np
import pytest
from conftest import smooth_noise, to_u8

from aquarelle.engine.chain import build_pipeline
from aquarelle.engine.frame_plan import BYPASS, CLEAR, FOREVER, RUN, build_plan
from aquarelle.engine.style import InputSpec, PassSpec, list_styles

CHAIN = "denoise+enhance+watercolor+upscale"


def clip(n: int = 3, h: int = 72, w: int = 96) -> list[np.ndarray]:
    """A picture panned 3 px a frame (motion, history and temporal passes at work)."""
    big = to_u8(smooth_noise(h, w + 3 * n, seed=4, sigma=3.0))
    return [np.ascontiguousarray(big[:, 3 * k:3 * k + w]) for k in range(n)]


@pytest.mark.parametrize("scale", [1.0, 0.5])
@pytest.mark.parametrize("style", [*list_styles(), CHAIN])
def test_sharing_textures_changes_no_picture(gl_ctx: moderngl.Context, style: str,
                                             scale: float) -> None:
    with build_pipeline(gl_ctx, style, scale=scale) as shared, \
            build_pipeline(gl_ctx, style, scale=scale) as kept:
        kept.inspect = True
        for frame in clip():
            assert np.array_equal(shared.render_array(frame), kept.render_array(frame)), style


def test_sharing_holds_fewer_textures(gl_ctx: moderngl.Context) -> None:
    frame = clip(1, 180, 320)[0]
    with build_pipeline(gl_ctx, "watercolor") as shared, \
            build_pipeline(gl_ctx, "watercolor") as kept:
        kept.inspect = True
        shared.render_array(frame)
        kept.render_array(frame)
        ratio = shared.graph.pool.resident_bytes() / kept.graph.pool.resident_bytes()
    assert ratio < 0.75, ratio


def test_a_video_allocates_nothing_after_its_first_frames(gl_ctx: moderngl.Context) -> None:
    with build_pipeline(gl_ctx, "watercolor") as p:
        frames = clip(8)
        for f in frames[:3]:
            p.render(f)
        count, plans = p.graph.pool.allocations, p.graph.plans_built
        for f in frames[3:]:
            p.render(f)
        assert p.graph.pool.allocations == count
        assert p.graph.plans_built == plans == 2  # the first frame (no history), the rest


def test_a_slider_that_feeds_only_uniforms_builds_no_plan(gl_ctx: moderngl.Context) -> None:
    with build_pipeline(gl_ctx, "watercolor") as p:
        frames = clip(6)
        for f in frames[:3]:
            p.render(f)
        plans = p.graph.plans_built
        for k, f in enumerate(frames[3:]):
            p.set_params({"saturation": 1.0 + 0.1 * k})
            p.render(f)
        assert p.graph.plans_built == plans
        p.set_params({"outline_strength": 0.5})  # a pass turned on: a plan of its own
        p.render(frames[0])
        assert p.graph.plans_built == plans + 1


def test_only_kept_targets_are_readable(gl_ctx: moderngl.Context) -> None:
    frame = clip(1)[0]
    with build_pipeline(gl_ctx, "watercolor") as p:
        p.render(frame)
        with pytest.raises(Exception, match="not kept"):
            p.target("tensor_s")
        p.keep_targets(["tensor_s"])  # a debug view on screen
        p.render(frame)
        tensor = p.read_target("tensor_s")
        p.inspect = True
        p.render(frame)
        assert np.array_equal(tensor, p.read_target("tensor_s"))


def _pass(name: str, output: str, *reads: str, **kw: Any) -> PassSpec:
    return PassSpec(name, "x.frag", output, {r: InputSpec(r) for r in reads}, **kw)


def test_lifetimes_end_at_the_last_read_before_the_next_write() -> None:
    passes = [
        _pass("a", "t", "source"),
        _pass("b", "u", "t"),
        _pass("c", "t", "t", "u"),  # reads t, writes a new t
        _pass("d", "v", "u", when="off", bypass="u"),
        _pass("e", "w", "v", when="off", clear=(1.0,)),
        _pass("f", "out", "t", "v"),
    ]
    runs = {p.name: p.when is None for p in passes}
    steps = build_plan(passes, runs, frozenset({"out"})).steps
    assert [(s.spec.name, s.action, s.last_read) for s in steps] == [
        ("a", RUN, 2), ("b", RUN, 3), ("c", RUN, 5), ("d", BYPASS, 5), ("e", CLEAR, 4),
        ("f", RUN, FOREVER)]


def test_an_alternative_that_ran_is_not_cleared() -> None:
    passes = [_pass("fast", "t", "source", when="draft"),
              _pass("slow", "t", "source", when="!draft"),
              _pass("out", "out", "t")]
    steps = build_plan(passes, {"fast": True, "slow": False, "out": True},
                       frozenset({"out"})).steps
    assert [s.spec.name for s in steps] == ["fast", "out"]
    assert steps[0].last_read == 1
