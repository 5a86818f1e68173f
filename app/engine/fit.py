"""Fit a rendered picture to a fixed output size on the GPU (letterbox or crop, mirror)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import moderngl
import numpy as np

from .context import release_framebuffer, reset_draw_state
from .glsl import fullscreen_pass
from .readback_ring import ReadbackRing
from .yuv_pack import YuvFormat, YuvPacker, packed_array, packed_bytes

FIT_MODES = ("pad", "crop")
FRAGMENT_SHADER = "common/fit.frag"


def fit_scale(src: tuple[int, int], dst: tuple[int, int], mode: str) -> tuple[float, float]:
    """Output uv -> source uv scale factors for fitting `src` into `dst` (sizes as (w, h)).

    "pad" shows the whole picture (bars on two sides), "crop" fills the frame (the picture's
    overflow is cut off). Equal aspect ratios give (1, 1) in both modes. "stretch" (the
    engine's own resizes: the same picture at sizes that differ by rounding, 1280x851 and
    640x426) maps edge to edge, where "pad" would leave sub-pixel bars.
    """
    if mode == "stretch":
        return 1.0, 1.0
    if mode not in FIT_MODES:
        raise ValueError(f"fit mode must be one of {', '.join(FIT_MODES)}, got {mode!r}")
    sw, sh = src
    dw, dh = dst
    k = min(dw / sw, dh / sh) if mode == "pad" else max(dw / sw, dh / sh)
    # the picture covers (sw k, sh k) output px: its uv span per output uv
    return dw / (sw * k), dh / (sh * k)


class FrameFitter:
    """Draws a texture into a reused framebuffer of the output size and reads it back.

    Call only from the thread that owns the context.
    """

    def __init__(self, ctx: moderngl.Context, shader_root: Path | None = None) -> None:
        self.ctx = ctx
        self.program, self.vao = fullscreen_pass(ctx, FRAGMENT_SHADER, shader_root)
        self.sampler = ctx.sampler(filter=(moderngl.LINEAR, moderngl.LINEAR), repeat_x=False,
                                   repeat_y=False)
        # Minifying by more than 2x: trilinear from the input's mipmaps (no aliasing).
        self.min_sampler = ctx.sampler(filter=(moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR),
                                       repeat_x=False, repeat_y=False)
        self._targets: dict[tuple[int, int, str],
                            tuple[moderngl.Texture, moderngl.Framebuffer]] = {}
        self._ring: ReadbackRing[tuple[int, int, Any]] | None = None  # fit_queued's
        self._ring_key: tuple[int, int, YuvFormat | None] = (0, 0, None)
        self._packer: YuvPacker | None = None

    def draw(self, tex: moderngl.Texture, size: tuple[int, int], mode: str = "pad",
             mirror: bool = False, pad: tuple[float, float, float] = (0.0, 0.0, 0.0),
             dtype: str = "f1") -> moderngl.Texture:
        """`tex` fitted into `size` (w, h), as an RGBA texture (`dtype` f1: 8-bit, f2: half
        float) the fitter owns: one per size and type, overwritten by the next such draw."""
        return self._draw(tex, size, mode, mirror, pad, dtype)[0]

    def _draw(self, tex: moderngl.Texture, size: tuple[int, int], mode: str, mirror: bool,
              pad: tuple[float, float, float], dtype: str
              ) -> tuple[moderngl.Texture, moderngl.Framebuffer]:
        size = (int(size[0]), int(size[1]))
        sx, sy = fit_scale(tex.size, size, mode)
        key = (*size, dtype)
        target = self._targets.get(key)
        if target is None:
            out = self.ctx.texture(size, 4, dtype=dtype)
            target = self._targets[key] = (out, self.ctx.framebuffer(color_attachments=[out]))
        out, fbo = target
        reset_draw_state(self.ctx)
        fbo.use()
        shrink = min(size[0] / tex.width, size[1] / tex.height)
        tex.use(0)
        if shrink < 0.5:
            tex.build_mipmaps()
            self.min_sampler.use(0)
        else:
            self.sampler.use(0)
        self.program["src"].value = 0
        self.program["u_scale"].value = (sx, sy)
        self.program["u_mirror"].value = int(mirror)
        self.program["u_pad"].value = pad
        self.vao.render(moderngl.TRIANGLES, vertices=3)
        self.ctx.clear_samplers(0, 1)
        return out, fbo

    def fit(self, tex: moderngl.Texture, size: tuple[int, int], mode: str = "pad",
            mirror: bool = False, pad: tuple[float, float, float] = (0.0, 0.0, 0.0)
            ) -> np.ndarray:
        """`tex` fitted into `size` (w, h) as a uint8 (h, w, 3) RGB array."""
        out, fbo = self._draw(tex, size, mode, mirror, pad, "f1")
        w, h = out.size
        # RGB straight from the framebuffer: no alpha to strip, no copy
        return np.frombuffer(fbo.read(components=3, alignment=1), np.uint8).reshape(h, w, 3)

    def fit_queued(self, tex: moderngl.Texture, size: tuple[int, int], mode: str = "pad",
                   mirror: bool = False, meta: Any = None, packed: YuvFormat | None = None
                   ) -> tuple[np.ndarray, Any] | None:
        """`fit`, read back through a ring of pixel buffers: returns the frame queued before
        this one (with its `meta`), or None while the ring fills: one frame later, and the
        CPU never waits for the GPU (a virtual camera's frames on a GPU). `packed`: the
        frame's 4:2:0 bytes in that layout (engine/yuv_pack.py), not RGB."""
        out, fbo = self._draw(tex, size, mode, mirror, (0.0, 0.0, 0.0), "f1")
        w, h = out.size
        if self._ring is None or self._ring_key != (w, h, packed):
            self.drain_queued()  # another size (the output changed): the frame in flight goes
            self._ring = ReadbackRing(self.ctx)
            self._ring_key = (w, h, packed)
        if packed is None:
            ready = self._ring.push(lambda buf: fbo.read_into(buf, components=3, alignment=1),
                                    w * h * 3, (w, h, meta))
        else:
            if self._packer is None:
                self._packer = YuvPacker(self.ctx)
            yuv = self._packer.pack(out, packed)
            ready = self._ring.push(lambda buf: yuv.read_into(buf, alignment=1),
                                    packed_bytes((w, h)), (w, h, meta))
        return None if ready is None else self._frame(*ready)

    def drain_queued(self) -> list[tuple[np.ndarray, Any]]:
        """The frames `fit_queued` still holds, oldest first."""
        if self._ring is None:
            return []
        ready = [self._frame(data, meta) for data, meta in self._ring.drain()]
        self._ring.release()
        self._ring = None
        return ready

    def release(self) -> None:
        """Release the GL objects."""
        if self._ring is not None:
            self._ring.release()
            self._ring = None
        if self._packer is not None:
            self._packer.release()
            self._packer = None
        for tex, fbo in self._targets.values():
            release_framebuffer(fbo)
            tex.release()
        self._targets.clear()
        self.vao.release()
        self.program.release()
        self.sampler.release()
        self.min_sampler.release()

    def _frame(self, data: bytes, meta: tuple[int, int, Any]) -> tuple[np.ndarray, Any]:
        w, h, user = meta
        if self._ring_key[2] is not None:
            return packed_array(data, (w, h)), user
        return np.frombuffer(data, np.uint8).reshape(h, w, 3), user
