"""The GL stage of an export: stylize frames and read them back, optionally ping-ponged."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..engine.context import cpu_renderer
from ..engine.readback_ring import ReadbackRing
from ..engine.renderer import Renderer
from ..engine.yuv_pack import YuvFormat, YuvPacker, coded_size, packed_array, packed_bytes
from .frame_range import DecodedFrame


@dataclass
class Rendered:
    """A stylized frame read back, with its source timestamp."""

    # (H, W, 4) RGBA, uint8 (uint16 from a deep pipeline); or packed 4:2:0 bytes, an
    # (H * 3 / 2, W) uint8 array (sides even), when `yuv` names its layout
    image: np.ndarray
    pts: int
    duration: int | None
    yuv: str | None = None


class RenderStage:
    """The GL stage: stylize frames and read them back, optionally ping-ponged.

    With `pingpong`, each rendered texture is copied through a ring of two pixel-pack buffers
    (engine/readback_ring.py) and the previous frame's buffer is mapped only after the next
    frame was submitted, so the GPU works on frame k while frame k-1 is read. On a GPU the
    frames can be packed into the encoder's 4:2:0 layout first (`pack_yuv`): 1.5 bytes a
    pixel read back instead of 4, and no colour conversion on the CPU; a CPU renderer hands
    over RGBA (its shader pass costs more than the encoder's SIMD conversion). Calls from
    the thread that owns the context only.
    """

    def __init__(self, pipeline: Renderer, size: tuple[int, int], pingpong: bool = True) -> None:
        self.pipeline = pipeline
        self.size = size
        self.pingpong = pingpong
        self.dtype = np.uint16 if pipeline.deep else np.uint8
        w, h = size
        self._frame_bytes = w * h * 4 * np.dtype(self.dtype).itemsize
        self._ring: ReadbackRing[DecodedFrame] | None = (
            ReadbackRing(pipeline.ctx) if pingpong else None)
        self.busy = 0.0  # seconds spent in push/flush
        self.gpu_yuv = not cpu_renderer(pipeline.ctx)  # whether `pack_yuv` packs (tests force)
        self.yuv: YuvFormat | None = None
        self._coded = size
        self._packer: YuvPacker | None = None

    def pack_yuv(self, fmt: YuvFormat | None, size: tuple[int, int]) -> None:
        """Frames packed on the GPU as the encoder takes them (`fmt`, None: RGBA), at its
        `size` (the frame's, rounded up to even sides), where `gpu_yuv` says so; call
        before the first frame."""
        if fmt is None or not self.gpu_yuv or self.dtype != np.uint8 \
                or coded_size(self.size) != size:
            return
        self.yuv, self._coded = fmt, size
        self._frame_bytes = packed_bytes(size)
        if self._packer is None:
            self._packer = YuvPacker(self.pipeline.ctx)

    def push(self, frame: DecodedFrame) -> list[Rendered]:
        """Render a frame; returns the frames whose pixels are ready (0 or 1 of them)."""
        t = time.perf_counter()
        try:
            return self._push(frame)
        finally:
            self.busy += time.perf_counter() - t

    def _push(self, frame: DecodedFrame) -> list[Rendered]:
        tex = self.pipeline.render(frame.image, motion=frame.motion, subject=frame.subject)
        if self._packer is not None and self.yuv is not None:
            tex = self._packer.pack(tex, self.yuv, self._coded)
        if self._ring is None:
            return [self._wrap(frame, tex.read(alignment=1))]
        ready = self._ring.push(lambda buf: tex.read_into(buf, alignment=1),
                                self._frame_bytes, frame)
        return [] if ready is None else [self._wrap(ready[1], ready[0])]

    def flush(self) -> list[Rendered]:
        """The frames still waiting in the buffers."""
        t = time.perf_counter()
        ready = [self._wrap(f, data) for data, f in self._ring.drain()] if self._ring else []
        self.busy += time.perf_counter() - t
        return ready

    def _wrap(self, frame: DecodedFrame, data: bytes) -> Rendered:
        if self.yuv is not None:
            return Rendered(packed_array(data, self._coded), frame.pts, frame.duration,
                            self.yuv.layout)
        w, h = self.size
        image = np.frombuffer(data, self.dtype).reshape(h, w, 4)
        return Rendered(image, frame.pts, frame.duration)

    def release(self) -> None:
        """Release the readback buffers and the packer."""
        if self._ring is not None:
            self._ring.release()
        if self._packer is not None:
            self._packer.release()
            self._packer = None
