"""A frame's GPU time without waiting for it: timer queries in a ring, each read a few frames
after it was issued (by then the GPU has long finished that frame)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

import moderngl

DEPTH = 3  # queries in the ring: a frame's time is read two frames later


class FrameTimer:
    """Times whole frames on the GPU (`with timer.frame(): ...`); `seconds` is the time of
    the frame DEPTH - 1 frames back, None until the ring is full. Calls from the context's
    thread only."""

    def __init__(self, ctx: moderngl.Context, depth: int = DEPTH) -> None:
        self._queries = [ctx.query(time=True) for _ in range(depth)]
        self._count = 0
        self.seconds: float | None = None

    @contextmanager
    def frame(self) -> Iterator[None]:
        """Time the GL work issued inside the block as one frame."""
        q = self._queries[self._count % len(self._queries)]
        with q:
            yield
        self._count += 1
        if self._count >= len(self._queries):
            # the oldest frame of the ring, reused next: issued DEPTH - 1 frames ago
            self.seconds = self._queries[self._count % len(self._queries)].elapsed / 1e9

    def take(self, seconds: float) -> None:
        """A frame timed otherwise (its passes' own queries, while they are profiled: GL's
        time queries do not nest)."""
        self._count = 0
        self.seconds = seconds

    def reset(self) -> None:
        """Forget what was measured (another pipeline, another source)."""
        self._count = 0
        self.seconds = None


def frame_cost(host_seconds: float, gpu_seconds: float | None, cpu_renderer: bool) -> float:
    """What a live frame costs: the host's work and the GPU's overlap on a GPU (the slower
    one sets the rate), and add up on a CPU renderer (llvmpipe: the same cores do both)."""
    if gpu_seconds is None:
        return host_seconds
    return host_seconds + gpu_seconds if cpu_renderer else max(host_seconds, gpu_seconds)


def timed_render(timer: FrameTimer, pipeline: Any, frame: Any, motion: Any = None
                 ) -> moderngl.Texture:
    """`pipeline.render(frame, motion=motion)` timed by `timer`; while the pipeline times
    its passes (`profile`), their sum, read right away, stands for the frame's time."""
    if pipeline.profile:
        tex = pipeline.render(frame, motion=motion)
        timer.take(sum(pipeline.pass_times_ms().values()) / 1e3)
        return tex
    with timer.frame():
        return pipeline.render(frame, motion=motion)


_UNTIMED = nullcontext()


class StepTimes:
    """GPU time of a frame's steps outside its pass graphs (the upload, a resize, the
    enlargement), while profiled: one timer query a step, read when asked, so the per-pass
    table accounts for the whole frame. Calls from the context's thread only."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self.on = False
        self._pool: list[moderngl.Query] = []
        self._taken: list[tuple[str, moderngl.Query]] = []

    def start(self) -> None:
        """A new frame: forget the last one's steps."""
        self._taken.clear()

    def step(self, name: str) -> AbstractContextManager[Any]:
        """Time the GL work issued inside the block as the step `name` (while `on`; else a
        shared no-op: nothing made per frame)."""
        return self._timed(name) if self.on else _UNTIMED

    @contextmanager
    def _timed(self, name: str) -> Iterator[None]:
        if len(self._pool) <= len(self._taken):
            self._pool.append(self.ctx.query(time=True))
        q = self._pool[len(self._taken)]
        with q:
            yield
        self._taken.append((name, q))

    def ms(self) -> dict[str, float]:
        """GPU milliseconds per step of the frame (a step taken twice: summed)."""
        out: dict[str, float] = {}
        for name, q in self._taken:
            out[name] = out.get(name, 0.0) + q.elapsed / 1e6
        return out

    def release(self) -> None:
        """Drop the queries (moderngl's queries are freed with their context)."""
        self._pool.clear()
        self._taken.clear()
