"""Frames read back through a ring of pixel-pack buffers (OBS's readback): each frame's copy
is queued on the GPU into a buffer and mapped only `depth - 1` frames later, when the GPU has
long finished it, so the CPU never waits for the frame it has just submitted."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Generic, TypeVar

import moderngl

T = TypeVar("T")
DEPTH = 2


class ReadbackRing(Generic[T]):
    """`push` queues a frame's copy (with what goes with it, `meta`) and returns the oldest
    frame's bytes once `depth` are in flight; `drain` returns the rest, oldest first."""

    def __init__(self, ctx: moderngl.Context, depth: int = DEPTH) -> None:
        self.ctx = ctx
        self.depth = depth
        self._buffers: list[moderngl.Buffer] = []
        self._pending: deque[tuple[int, T]] = deque()
        self._count = 0

    def push(self, copy: Callable[[moderngl.Buffer], None], nbytes: int, meta: T
             ) -> tuple[bytes, T] | None:
        """Queue `copy(buffer)` (e.g. `texture.read_into`) for a frame of `nbytes`."""
        if not self._buffers or self._buffers[0].size != nbytes:
            if self._pending:
                raise ValueError("a frame of another size: drain the ring first")
            self.release()
            self._buffers = [self.ctx.buffer(reserve=nbytes) for _ in range(self.depth)]
        slot = self._count % self.depth
        self._count += 1
        copy(self._buffers[slot])
        self._pending.append((slot, meta))
        return self._collect() if len(self._pending) >= self.depth else None

    def drain(self) -> list[tuple[bytes, T]]:
        """Every frame still in flight, oldest first."""
        return [self._collect() for _ in range(len(self._pending))]

    def _collect(self) -> tuple[bytes, T]:
        slot, meta = self._pending.popleft()
        return self._buffers[slot].read(), meta

    def release(self) -> None:
        for buf in self._buffers:
            buf.release()
        self._buffers = []
        self._pending.clear()
        self._count = 0
