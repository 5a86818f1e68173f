"""Frames into a texture through a ring of pixel-unpack buffers (OBS's and GPUImage's upload
path): the frame's copy into a buffer returns at once, and the texture takes it from there
(on a GPU by DMA, while the previous frame still renders); the buffer written is the one the
ring used `depth` frames ago, orphaned first so that no upload waits for a draw."""

from __future__ import annotations

import moderngl
import numpy as np

DEPTH = 2


class UploadRing:
    """Uploads through `depth` buffers sized to the frame (remade when its size changes)."""

    def __init__(self, ctx: moderngl.Context, depth: int = DEPTH) -> None:
        self.ctx = ctx
        self.depth = depth
        self._buffers: list[moderngl.Buffer] = []
        self._next = 0

    def write(self, tex: moderngl.Texture, frame: np.ndarray) -> None:
        """`tex.write(frame)`, through the ring (1-byte row alignment)."""
        data = np.ascontiguousarray(frame)
        if not self._buffers or self._buffers[0].size != data.nbytes:
            self.release()
            self._buffers = [self.ctx.buffer(reserve=data.nbytes) for _ in range(self.depth)]
        buf = self._buffers[self._next]
        self._next = (self._next + 1) % self.depth
        buf.orphan(data.nbytes)
        buf.write(data)
        tex.write(buf, alignment=1)

    def release(self) -> None:
        for buf in self._buffers:
            buf.release()
        self._buffers = []
        self._next = 0
