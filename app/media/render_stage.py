"""The GL stage of an export: stylize frames and read them back, optionally ping-ponged."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass

import moderngl
import numpy as np

from ..engine.chain import AnyPipeline
from .video_reader import DecodedFrame


@dataclass
class Rendered:
    """A stylized frame read back, with its source timestamp."""

    image: np.ndarray  # (H, W, 4) RGBA, uint8 (uint16 from a deep pipeline)
    pts: int
    duration: int | None


class RenderStage:
    """The GL stage: stylize frames and read them back, optionally ping-ponged.

    With `pingpong`, each rendered texture is copied into one of two pixel-pack buffers
    (`Texture.read_into`) and the previous frame's buffer is mapped only after the next frame
    was submitted, so the GPU works on frame k while frame k-1 is read. Calls from the thread
    that owns the context only.
    """

    def __init__(self, pipeline: AnyPipeline, size: tuple[int, int], pingpong: bool = True) -> None:
        self.pipeline = pipeline
        self.size = size
        self.pingpong = pingpong
        self.dtype = np.uint16 if pipeline.deep else np.uint8
        w, h = size
        frame_bytes = w * h * 4 * np.dtype(self.dtype).itemsize
        self._buffers: list[moderngl.Buffer] = (
            [pipeline.ctx.buffer(reserve=frame_bytes) for _ in range(2)] if pingpong else [])
        self._pending: deque[tuple[DecodedFrame, int]] = deque()
        self._count = 0
        self.busy = 0.0  # seconds spent in push/flush

    def push(self, frame: DecodedFrame) -> list[Rendered]:
        """Render a frame; returns the frames whose pixels are ready (0 or 1 of them)."""
        t = time.perf_counter()
        try:
            return self._push(frame)
        finally:
            self.busy += time.perf_counter() - t

    def _push(self, frame: DecodedFrame) -> list[Rendered]:
        tex = self.pipeline.render(frame.image, motion=frame.motion)
        if not self.pingpong:
            data = tex.read(alignment=1)
            return [self._wrap(frame, data)]
        slot = self._count % 2
        self._count += 1
        tex.read_into(self._buffers[slot], alignment=1)
        ready = [self._collect()] if self._pending else []
        self._pending.append((frame, slot))
        return ready

    def flush(self) -> list[Rendered]:
        """The frames still waiting in the buffers."""
        t = time.perf_counter()
        ready = [self._collect() for _ in range(len(self._pending))]
        self.busy += time.perf_counter() - t
        return ready

    def _collect(self) -> Rendered:
        frame, slot = self._pending.popleft()
        return self._wrap(frame, self._buffers[slot].read())

    def _wrap(self, frame: DecodedFrame, data: bytes) -> Rendered:
        w, h = self.size
        image = np.frombuffer(data, self.dtype).reshape(h, w, 4)
        return Rendered(image, frame.pts, frame.duration)

    def release(self) -> None:
        """Release the readback buffers."""
        for b in self._buffers:
            b.release()
        self._buffers = []
