"""Drawing textures into the viewport's framebuffer: aspect fit, zoom, split, debug mapping.

Pure moderngl (no Qt): the viewport widget calls it from paintGL with its context current.
"""

from __future__ import annotations

from enum import IntEnum

import moderngl
import numpy as np

from ..engine.glsl import build_program
from .view_transform import Rect

BACKGROUND = (0.12, 0.12, 0.13)
DIVIDER_COLOR = (0.95, 0.95, 0.95, 1.0)  # opaque: the widget is composited with alpha


class DisplayMode(IntEnum):
    """How texture values become colours (matches u_mode in shaders/ui/display.frag)."""

    COLOR = 0
    GRAY = 1
    FLOW = 2
    TENSOR = 3
    SOLID = 4
    COORDS = 5


def display_mode_for(target: str, tex: moderngl.Texture) -> DisplayMode:
    """The mapping that makes an intermediate target readable."""
    if target.startswith("tfm"):
        return DisplayMode.FLOW
    if target.startswith(("tensor", "pyr", "fill")):
        return DisplayMode.TENSOR
    if target.startswith("canvas"):
        return DisplayMode.COORDS
    if tex.components == 1:
        return DisplayMode.GRAY
    return DisplayMode.COLOR


def rgb_texture(ctx: moderngl.Context, tex: moderngl.Texture | None,
                rgb: np.ndarray) -> moderngl.Texture:
    """`rgb` (8- or 16-bit RGB) written to `tex`, or to a new texture (`tex` released) where
    that one is another size or depth."""
    h, w = rgb.shape[:2]
    dtype = "nu2" if rgb.dtype == np.uint16 else "f1"
    if tex is None or tex.size != (w, h) or tex.dtype != dtype:
        if tex is not None:
            tex.release()
        tex = ctx.texture((w, h), 3, alignment=1, dtype=dtype)
    tex.write(np.ascontiguousarray(rgb), alignment=1)
    return tex


def averaged(footprint: tuple[float, float], pixelated: bool) -> bool:
    """Whether a screen pixel shows the mean of the texels it covers (`footprint` texels a
    side), as INTER_AREA shrinks a picture: where it is drawn smaller than 1:1. At 1:1 and
    magnified it is one sample (exact at 100%)."""
    return not pixelated and max(footprint) > 1.0 + 1e-3


class DisplayRenderer:
    """Owns the display program and samplers; draws textures as image-space quads."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self.program = build_program(ctx, "ui/display.vert", "ui/display.frag")
        self.vao = ctx.vertex_array(self.program, [])
        self.program["u_tex"].value = 0
        self._linear = ctx.sampler(filter=(moderngl.LINEAR, moderngl.LINEAR),
                                   repeat_x=False, repeat_y=False)
        self._nearest = ctx.sampler(filter=(moderngl.NEAREST, moderngl.NEAREST),
                                    repeat_x=False, repeat_y=False)

    def begin(self, fbo: moderngl.Framebuffer, size: tuple[int, int]) -> None:
        """Bind the target framebuffer, set the viewport and clear to the background."""
        fbo.use()
        self.ctx.viewport = (0, 0, size[0], size[1])
        self.ctx.disable(moderngl.BLEND | moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        self.ctx.scissor = None
        fbo.clear(*BACKGROUND, 1.0)

    def draw(self, tex: moderngl.Texture, rect: Rect, view: tuple[int, int], *,
             offset_x: int = 0, mode: DisplayMode = DisplayMode.COLOR,
             crop: tuple[float, float] = (0.0, 1.0), gain: float = 1000.0,
             pixelated: bool = False) -> None:
        """Draw `tex` over `rect` of a view of size `view` placed at `offset_x`."""
        self.ctx.viewport = (offset_x, 0, view[0], view[1])
        p = self.program
        p["u_rect"].value = rect.to_ndc(view[0], view[1])
        p["u_mode"].value = int(mode)
        p["u_crop"].value = crop
        p["u_gain"].value = gain
        footprint = (tex.size[0] / max(rect.w, 1e-6), tex.size[1] / max(rect.h, 1e-6))
        p["u_footprint"].value = footprint
        p["u_area"].value = averaged(footprint, pixelated)
        p["u_pixelated"].value = pixelated
        p["u_origin"].value = (offset_x + rect.x, view[1] - rect.y)  # y up, as gl_FragCoord
        tex.use(0)
        sampler = self._nearest if pixelated else self._linear
        sampler.use(0)
        self.vao.render(moderngl.TRIANGLE_STRIP, vertices=4)
        self.ctx.clear_samplers(0, 1)

    def fill(self, rect: Rect, view: tuple[int, int], color: tuple[float, float, float, float],
             offset_x: int = 0) -> None:
        """A solid rectangle (the split divider)."""
        self.ctx.viewport = (offset_x, 0, view[0], view[1])
        p = self.program
        p["u_rect"].value = rect.to_ndc(view[0], view[1])
        p["u_mode"].value = int(DisplayMode.SOLID)
        p["u_crop"].value = (0.0, 1.0)
        p["u_color"].value = color
        self.vao.render(moderngl.TRIANGLE_STRIP, vertices=4)

    def release(self) -> None:
        """Release the program, vertex array and samplers."""
        for obj in (self.vao, self.program, self._linear, self._nearest):
            obj.release()
