"""The painted frames handed to a recording: on a GPU through a readback ring (a frame later,
never a wait for the GPU) and packed there into the recording's YUV when it takes them so;
on a CPU renderer read at once. Runs on the GL thread, with the context current."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import moderngl
import numpy as np

from ..engine.readback_ring import ReadbackRing
from ..engine.renderer import Renderer
from ..engine.yuv_pack import YuvFormat, YuvPacker, packed_array, packed_bytes
from ..media.image_pixels import to_8bit

Sink = Callable[[np.ndarray, "float | None"], None]
# a frame in the ring: its width, height, media time and whether it is packed YUV
Meta = tuple[int, int, "float | None", bool]


class FrameSinkReader:
    """Reads the painted frames back for a sink (`send`), the last ones at `drain`."""

    def __init__(self) -> None:
        self._ring: ReadbackRing[Meta] | None = None
        self._packer: YuvPacker | None = None

    def send(self, p: Renderer, tex: moderngl.Texture, pts: float | None, sink: Sink,
             packed: YuvFormat | None, queued: bool) -> None:
        """`tex` (painted by `p`) to `sink`: through the ring when `queued` (a GPU) and the
        texture is 8-bit RGBA, packed as `packed` says; else read now as RGB."""
        if not queued or tex.components != 4 or tex.dtype != "f1":
            sink(to_8bit(p.read(tex)), pts)
            return
        if self._ring is None:
            self._ring = ReadbackRing(p.ctx)
        out, nbytes = tex, tex.width * tex.height * 4
        if packed is not None:
            if self._packer is None:
                self._packer = YuvPacker(p.ctx)
            out, nbytes = self._packer.pack(tex, packed), packed_bytes(tex.size)
        meta: Meta = (*tex.size, pts, packed is not None)
        try:
            ready = self._ring.push(lambda b: out.read_into(b, alignment=1), nbytes, meta)
        except ValueError:  # another size: the frames in flight go first
            self.drain(sink)
            ready = self._ring.push(lambda b: out.read_into(b, alignment=1), nbytes, meta)
        if ready is not None:
            _give(sink, *ready)

    def drain(self, sink: Sink) -> None:
        """The frames still in the ring to `sink`, oldest first (before a recording stops)."""
        if self._ring is not None:
            for data, meta in self._ring.drain():
                _give(sink, data, meta)

    def release(self) -> None:
        """Release the ring's buffers and the packer (the context is going away)."""
        if self._ring is not None:
            self._ring.release()
            self._ring = None
        if self._packer is not None:
            self._packer.release()
            self._packer = None


def _give(sink: Sink, data: bytes, meta: Meta) -> None:
    w, h, pts, packed = meta
    if packed:
        sink(packed_array(data, (w, h)), pts)
        return
    rgba = np.frombuffer(data, np.uint8).reshape(h, w, 4)
    sink(cv2.cvtColor(rgba, cv2.COLOR_RGBA2RGB), pts)
