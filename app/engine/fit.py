"""Fit a rendered picture to a fixed output size on the GPU (letterbox or crop, mirror)."""

from __future__ import annotations

from pathlib import Path

import moderngl
import numpy as np

from .glsl import build_program

FIT_MODES = ("pad", "crop")
VERTEX_SHADER = "common/fullscreen.vert"
FRAGMENT_SHADER = "common/fit.frag"


def fit_scale(src: tuple[int, int], dst: tuple[int, int], mode: str) -> tuple[float, float]:
    """Output uv -> source uv scale factors for fitting `src` into `dst` (sizes as (w, h)).

    "pad" shows the whole picture (bars on two sides), "crop" fills the frame (the picture's
    overflow is cut off). Equal aspect ratios give (1, 1) in both modes.
    """
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
        self.program = build_program(ctx, VERTEX_SHADER, FRAGMENT_SHADER, shader_root)
        self.vao = ctx.vertex_array(self.program, [])
        self.sampler = ctx.sampler(filter=(moderngl.LINEAR, moderngl.LINEAR), repeat_x=False,
                                   repeat_y=False)
        self._fbo: moderngl.Framebuffer | None = None
        self._tex: moderngl.Texture | None = None

    def fit(self, tex: moderngl.Texture, size: tuple[int, int], mode: str = "pad",
            mirror: bool = False, pad: tuple[float, float, float] = (0.0, 0.0, 0.0)
            ) -> np.ndarray:
        """`tex` fitted into `size` (w, h) as a uint8 (h, w, 3) RGB array."""
        sx, sy = fit_scale(tex.size, size, mode)
        if self._tex is None or self._tex.size != tuple(size):
            self._release_target()
            self._tex = self.ctx.texture(tuple(size), 4)
            self._fbo = self.ctx.framebuffer(color_attachments=[self._tex])
        assert self._fbo is not None
        self._fbo.use()
        tex.use(0)
        self.sampler.use(0)
        self.program["src"].value = 0
        self.program["u_scale"].value = (sx, sy)
        self.program["u_mirror"].value = int(mirror)
        self.program["u_pad"].value = pad
        self.vao.render(moderngl.TRIANGLES, vertices=3)
        self.ctx.clear_samplers(0, 1)
        w, h = size
        data = self._fbo.read(components=3, alignment=1)
        return np.frombuffer(data, np.uint8).reshape(h, w, 3)

    def _release_target(self) -> None:
        if self._fbo is not None:
            self._fbo.release()
        if self._tex is not None:
            self._tex.release()
        self._fbo = self._tex = None

    def release(self) -> None:
        """Release the GL objects."""
        self._release_target()
        self.vao.release()
        self.program.release()
        self.sampler.release()
