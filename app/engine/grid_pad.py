"""A picture whose sides are not multiples of the style's coarsest grid (its half- and
quarter-size targets) is painted padded to it, then cropped back: the reduced targets are then
exact sub-grids of the picture's, as in a tiled render (engine/tiles.py), so a photo of
5999 x 3999 px paints the same whole as in tiles. Without this, a quarter-size target of 1500
texels would span 5999 px at a ratio a little off 4, and the picture would drift by up to a
pixel against its tiles."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import moderngl

from .context import release_framebuffer, reset_draw_state
from .glsl import fullscreen_pass
from .style import StyleSpec

MAX_ALIGN = 8  # coarser targets (pyramids) are made `whole` in tiles: no grid to follow


def grid_align(style: StyleSpec, params: Mapping[str, Any]) -> int:
    """The coarsest reduced target's texel in work px (a power of two up to MAX_ALIGN) for a
    style whose picture is its input's size; 1 where nothing needs padding."""
    out = style.targets[style.output]
    if out.whole or out.size is not None or out.factors(params) != (1.0, 1.0):
        return 1
    align = 1
    for t in style.targets.values():
        if t.whole or t.size is not None:
            continue
        for f in t.factors(params):
            k = round(1.0 / f) if 0.0 < f < 1.0 else 1
            if abs(f * k - 1.0) < 1e-9 and k & (k - 1) == 0:
                align = max(align, min(k, MAX_ALIGN))
    return align


def padded_size(size: tuple[int, int], align: int) -> tuple[int, int]:
    """`size` rounded up to multiples of `align`."""
    return -(-size[0] // align) * align, -(-size[1] // align) * align


class GridPad:
    """Copies textures texel for texel to other sizes (shaders/common/grid_pad.frag): edges
    repeated where larger, cut where smaller. Owns one target per size and type, overwritten
    by the next copy to it. Call only from the context's thread."""

    def __init__(self, ctx: moderngl.Context, shader_root: Path | None = None) -> None:
        self.ctx = ctx
        self.program, self.vao = fullscreen_pass(ctx, "common/grid_pad.frag", shader_root)
        self._targets: dict[tuple[int, int, str],
                            tuple[moderngl.Texture, moderngl.Framebuffer]] = {}

    def copy(self, tex: moderngl.Texture, size: tuple[int, int]) -> moderngl.Texture:
        """`tex` on an RGBA target of `size` and of its texel type."""
        key = (size[0], size[1], tex.dtype)
        made = self._targets.get(key)
        if made is None:
            out = self.ctx.texture(size, 4, dtype=tex.dtype)
            out.repeat_x = out.repeat_y = False
            made = self._targets[key] = out, self.ctx.framebuffer(color_attachments=[out])
        out, fbo = made
        reset_draw_state(self.ctx)
        fbo.use()
        self.ctx.clear_samplers(0, 1)  # the texture's own filter: a complete texture
        tex.use(0)
        self.program["src"].value = 0
        self.vao.render(moderngl.TRIANGLES, vertices=3)
        return out

    def release(self) -> None:
        """Release the GL objects."""
        for tex, fbo in self._targets.values():
            release_framebuffer(fbo)
            tex.release()
        self._targets.clear()
        self.vao.release()
        self.program.release()
