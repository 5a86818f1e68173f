"""Big stills in tiles: plan tiles with overlap, render each through the style's stage, stitch the
cores (issue 27: memory stays bounded, and a picture wider than the GPU's texture limit
renders).

A tile is a still of its own, painted with the whole picture's feature sizes (`u_px`) and its
noise and paper seeded by the whole picture's pixel (`u_origin`). Its overlap covers what
every pass reads around a pixel: each shader says so in a line `// tiles: reach EXPR`, the
texels of its output an output texel reads around itself, per axis, a Python expression over
the shader's uniforms (parameters, constants, built-ins; `along(u_dir, r)` for a pass along
one axis; None: unbounded). The reaches add up backwards from the output, and each pass draws
only the part of its target that the tile's core needs. A shader without the line cannot be
tiled (a style with one renders whole, within the texture limit).

Targets marked `whole` need all of the picture (the flow's pull-push pyramid, the saliency
map): they are made once, on the whole picture's grid. A pass that makes one from a tile's
picture (a bridge) draws, in each tile's first run, the texels whose centres lie in the
tile's core, reading the tile through `u_window`; the passes between whole targets run once,
after the last tile's bridges. The tiles' passes then read them through windows: the whole
target resampled at the texel centres of the pass that reads it, which is what that pass
reads untiled.

Tile corners lie on multiples of the coarsest tile target's texel, so a tile's targets are
exact sub-grids of the whole picture's. A picture whose sides are not such multiples is
painted padded to them with its edge pixels, as an untiled render pads it (grid_pad.py), and
cropped back: tiled and untiled are the same picture at any size.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import cv2
import moderngl
import numpy as np

from .context import release_framebuffer, reset_draw_state
from .frame_info import TileView
from .glsl import fullscreen_pass
from .grid_pad import grid_align, padded_size
from .renderer import Renderer
from .style import StyleSpec
from .tile_analysis import Phase, TileAnalysis, target_size_in, tile_frame
from .tile_plan import MIN_TILE_PX, Tile, TileError, overlap_floor_px, plan_tiles

# What a tiled render aims to stay under, the process included (the picture painted in
# place, the whole-picture targets such as the flow's pyramid, the tiles), unless the tiles'
# overlap needs larger ones (plan_still), and what the process takes before any picture
# (Python, OpenCV, the GL driver, the style's programs).
PEAK_BYTES = 1800 << 20
BASELINE_BYTES = 260 << 20
# Where the overlap needs larger tiles than PEAK_BYTES allows (tile_plan.MIN_CORE_PER_OVERLAP),
# the process may take up to this share of the machine's memory (by the same estimates, which
# are on the safe side: a 16000 x 10667 photo's 40.6 MP tiles were estimated at 4.5 GiB for
# the process, 3.1 GiB measured).
MEMORY_SHARE = 0.6


# -- planning -------------------------------------------------------------------------------
def analyse(style: StyleSpec, values: Mapping[str, Any], size: tuple[int, int],
            root: Path | None = None) -> tuple[TileAnalysis, int]:
    """A style's tile analysis for a still of `size` (raises TileError where it cannot be
    tiled), made for the picture padded to the tiles' grid, and that grid (px)."""
    probe = TileAnalysis(style, values, size, root)
    align = max(probe.align, grid_align(style, values))
    padded = padded_size(size, align)
    return (probe if padded == size else TileAnalysis(style, values, padded, root)), align


def still_margin(plan: TileAnalysis, align: int) -> tuple[int, int]:
    """The overlap a tile has around its core a side (px; a multiple of `align`): as far as
    either run of a tile reads beyond it."""
    m = [int(-(-math.ceil(max(plan.first.margin[i], plan.second.margin[i])) // align) * align)
         for i in (0, 1)]
    return m[0], m[1]


def plan_still(plan: TileAnalysis, align: int, limit: int, *, peak_bytes: int = PEAK_BYTES,
               channel_bytes: int = 1, max_tile_px: int | None = None,
               memory_bytes: int | None = None) -> list[Tile]:
    """The tiles of a still of `plan.size` (on the grid of `align`), for a GPU whose
    texture limit is `limit`: as large as `peak_bytes` allows the whole process (the picture
    of `channel_bytes` a channel, painted in place, and BASELINE_BYTES), and at least large
    enough that their cores are MIN_CORE_PER_OVERLAP times their overlap (tile_plan.py): a
    big picture's overlap grows with it (its kernels follow a reference frame), and there
    the tiles' memory goes past `peak_bytes` rather than their number exploding (a box
    renders about 4 times its core at most; the process stays a fraction of an untiled
    render's), within MEMORY_SHARE of the machine's memory (`memory_bytes`; by default what
    the system says), where smaller tiles take longer instead. `max_tile_px` forces smaller
    ones."""
    size, margin = plan.size, still_margin(plan, align)
    row = size[0] * 3 * channel_bytes  # bytes of a row of the picture
    base = BASELINE_BYTES + row * size[1]
    memory = physical_memory() if memory_bytes is None else memory_bytes
    floor = overlap_floor_px(size, margin, align, limit - align)
    px = max_tile_px
    band = 0
    tiles: list[Tile] = []

    def fits(budget: float) -> int:  # the largest tile within `budget` bytes for the process
        avail = budget - base
        return int(min((avail - plan.whole_bytes(all_of_them=True)) / plan.first_bpp(),
                       (avail - plan.whole_bytes() - band) / plan.paint_bpp()))

    for _ in range(3):  # the band of rows a row of tiles is painted from depends on them
        if max_tile_px is None:
            px = fits(peak_bytes)
            if px < floor:
                px = max(px, floor if memory is None else min(floor, fits(memory * MEMORY_SHARE)))
            px = max(px, MIN_TILE_PX)
        assert px is not None
        tiles = plan_tiles(size, margin, align, px, limit - align)
        band = max(t.box[3] - t.box[1] for t in tiles) * row
    return tiles


def physical_memory() -> int | None:
    """The machine's memory in bytes (None where the system does not say)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, OSError, ValueError):
        return None


# -- rendering ------------------------------------------------------------------------------
class TiledStill:
    """Renders one big still in tiles through a renderer of a single style at scale 1 (its
    stage), for the renderer's parameter values when it is made.

    The tiles are as large as `peak_bytes` allows the whole process (the picture of
    `channel_bytes` a channel, painted in place, and `BASELINE_BYTES`), or as their overlap
    needs (plan_still); `max_tile_px` forces smaller ones."""

    def __init__(self, renderer: Renderer, size: tuple[int, int], *,
                 peak_bytes: int = PEAK_BYTES, channel_bytes: int = 1,
                 max_tile_px: int | None = None) -> None:
        stage = renderer.sole_stage
        if stage is None:
            raise TileError("a chain of styles is not rendered in tiles")
        if stage.scale != 1.0:
            raise TileError("a still is rendered in tiles at scale 1 only")
        self.renderer, self.stage = renderer, stage
        self.picture = size
        plan, a = analyse(stage.style, stage.params.values(), size, stage.graph.shader_root)
        self.plan = plan
        self.size = plan.size  # painted on the grid (padded with its edges), as untiled
        self.margin = still_margin(plan, a)
        limit = int(stage.ctx.info["GL_MAX_TEXTURE_SIZE"])
        self._check_whole(limit)
        self.tiles = plan_still(plan, a, limit, peak_bytes=peak_bytes,
                                channel_bytes=channel_bytes, max_tile_px=max_tile_px)

    def _check_whole(self, limit: int) -> None:
        graph = self.stage.graph
        for name, t in self.plan.style.targets.items():
            if t.whole and max(graph.target_size(name, self.plan.frame)) > limit:
                raise TileError(f"target {name} of the whole picture exceeds the GPU's texture "
                                f"limit {limit}")

    def render(self, frame: np.ndarray, order: str = "rgb",
               progress: Callable[[int, int], None] | None = None, *,
               in_place: bool = False, out_order: str | None = None) -> np.ndarray:
        """The painting of `frame` (H, W, 3), as Renderer.render_array gives it (in
        `out_order`, by default `order`); `progress` is told (tiles painted, tiles) as it
        goes. `in_place`: painted into `frame` itself (which is returned) where the painting
        has its type, keeping only the band of rows that the next tiles still read."""
        if (frame.shape[1], frame.shape[0]) != self.picture:
            raise TileError(f"the tiles were planned for {self.picture}, "
                            f"not {frame.shape[1::-1]}")
        p, graph, plan = self.stage, self.stage.graph, self.plan
        self.renderer.prepare_still(frame, self.size, order)  # faces found on the whole picture
        windows = _Windows(p.ctx, graph.shader_root)
        try:
            last = len(self.tiles) - 1
            for k, tile in enumerate(self.tiles):
                passes = plan.first.passes | plan.bridges | (plan.whole_passes if k == last
                                                              else set())
                p.render_tile(_crop(frame, tile, 0), self._view(tile, plan.first, passes),
                              order)
            whole = {name: graph.output(name) for name in plan.windows}
            read_whole = {name: graph.output(name) for name in plan.whole_reads}
            graph.release_targets(self._unread({**whole, **read_whole}))
            if progress is not None:
                progress(0, len(self.tiles))
            out: np.ndarray | None = None
            for k, (tile, crop) in enumerate(self._bands(frame, in_place)):
                inputs = {**windows.make(plan, tile, whole), **read_whole}
                view = self._view(tile, plan.second, plan.second.passes, inputs)
                tex = p.render_tile(crop, view, order)
                del crop
                assert tex is not None
                arr = p.read(tex, out_order or order)
                if out is None:
                    same = in_place and arr.dtype == frame.dtype
                    out = frame if same else np.empty((*frame.shape[:2], 3), arr.dtype)
                x0, y0, x1, y1 = tile.core
                x1, y1 = min(x1, self.picture[0]), min(y1, self.picture[1])  # not the padding
                bx, by = tile.origin
                out[y0:y1, x0:x1] = arr[y0 - by:y1 - by, x0 - bx:x1 - bx]
                if progress is not None:
                    progress(k + 1, len(self.tiles))
            assert out is not None
            return out
        finally:
            graph.release_targets(n for n, t in plan.style.targets.items() if t.whole)
            windows.release()

    def _bands(self, frame: np.ndarray, in_place: bool) -> Iterator[tuple[Tile, np.ndarray]]:
        """The tiles with their boxes of the picture. Painting in place, a row of tiles reads
        a copy of its rows made before it is painted over, the rows above its cores (painted
        already) kept from the last row's copy."""
        rows = [[t for t in self.tiles if t.core[1] == y] for y in
                sorted({t.core[1] for t in self.tiles})]
        carry: np.ndarray | None = None
        for i, row in enumerate(rows):
            top, bottom, core = row[0].box[1], row[0].box[3], row[0].core[1]
            if not in_place:
                band = frame[top:bottom]
            elif carry is None:
                band = frame[top:bottom].copy()
            else:
                band = np.concatenate([carry, frame[core:bottom]])
            if in_place and i + 1 < len(rows):
                below = rows[i + 1][0]
                carry = band[below.box[1] - top:below.core[1] - top].copy()
            for tile in row:
                yield tile, _crop(band, tile, top)
            del band  # before the next row's copy is made

    def _unread(self, whole: Mapping[str, moderngl.Texture]) -> list[str]:
        """The whole targets no tile reads (their textures are not among the windowed)."""
        graph, kept = self.stage.graph, {t.glo for t in whole.values()}
        names = []
        for name, t in self.plan.style.targets.items():
            if t.whole and not any(s.glo in kept for s in graph.pool.slots(
                    t, graph.target_size(name, self.plan.frame))):
                names.append(name)
        return names

    def _view(self, tile: Tile, phase: Phase, passes: set[str],
              inputs: Mapping[str, moderngl.Texture] | None = None) -> TileView:
        """A run over a tile: its passes, each drawing what the core needs (a bridge: the
        texels of its whole target whose centres lie in the core)."""
        plan, graph = self.plan, self.stage.graph
        frame = tile_frame(tile.size, TileView(tile.origin, self.size, frozenset(passes)),
                           plan.uniforms)
        regions: dict[str, tuple[int, int, int, int]] = {}
        bx, by = tile.origin
        cx0, cy0, cx1, cy1 = tile.core
        for s in plan.steps:
            name, out = s.spec.name, s.spec.output
            if name not in passes or not s.runs or name in regions:
                continue
            kx, ky = plan.factors(out)
            sw, sh = graph.target_size(out, frame, plan.params)
            if name in plan.bridges:
                x0, x1 = _owned(cx0, cx1, self.size[0], sw)
                y0, y1 = _owned(cy0, cy1, self.size[1], sh)
            elif name in phase.needs:
                nx, ny = phase.needs[name]
                x0 = max(0, math.floor((cx0 - bx - nx) * kx))
                y0 = max(0, math.floor((cy0 - by - ny) * ky))
                x1 = min(sw, math.ceil((cx1 - bx + nx) * kx))
                y1 = min(sh, math.ceil((cy1 - by + ny) * ky))
            else:
                continue  # a pass between whole targets: all of them
            regions[name] = (x0, y0, max(0, x1 - x0), max(0, y1 - y0))
        return TileView(tile.origin, self.size, frozenset(passes), regions, inputs or {})


def _crop(rows: np.ndarray, tile: Tile, top: int) -> np.ndarray:
    """A tile's box out of the picture's rows from `top` on, padded with its edge pixels (its
    own padding, and the picture's to the grid)."""
    x0, y0, x1, y1 = tile.box
    part = rows[y0 - top:y1 - top, x0:x1]
    w, h = tile.size
    if part.shape[:2] == (h, w):
        return part
    return cv2.copyMakeBorder(part, 0, h - part.shape[0], 0, w - part.shape[1],
                              cv2.BORDER_REPLICATE)


def _owned(c0: int, c1: int, length: int, texels: int) -> tuple[int, int]:
    """The texels of a whole target `texels` long (over `length` px) whose centres lie in
    the core [c0, c1): (i + 0.5) * length / texels in it."""
    def first(c: int) -> int:  # the first texel whose centre is at or after c
        return max(0, -(-(2 * c * texels - length) // (2 * length)))
    return first(c0), min(texels, first(c1))


class _Windows:
    """Tiles' windows onto whole targets: each resampled at the texel centres of the pass
    that reads it (shaders/common/window.frag)."""

    def __init__(self, ctx: moderngl.Context, root: Path | None) -> None:
        self.ctx = ctx
        self.program, self.vao = fullscreen_pass(ctx, "common/window.frag", root)
        self._samplers: dict[str, moderngl.Sampler] = {}
        self._made: dict[str, tuple[moderngl.Texture, moderngl.Framebuffer]] = {}

    def make(self, plan: TileAnalysis, tile: Tile,
             whole: Mapping[str, moderngl.Texture]) -> dict[str, moderngl.Texture]:
        out = {}
        reset_draw_state(self.ctx)
        for name, (reader, filt) in plan.windows.items():
            kx, ky = plan.factors(reader)
            size = target_size_in(plan, reader, tile.size)
            grid = target_size_in(plan, reader, plan.size)
            tex, fbo = self._texture(name, size, whole[name].components)
            fbo.use()
            whole[name].use(0)
            self._sampler(filt).use(0)
            self.program["src"].value = 0
            self.program["u_offset"].value = (tile.origin[0] * kx, tile.origin[1] * ky)
            self.program["u_grid"].value = (float(grid[0]), float(grid[1]))
            self.vao.render(moderngl.TRIANGLES, vertices=3)
            self.ctx.clear_samplers(0, 1)
            out[name] = tex
        return out

    def _texture(self, name: str, size: tuple[int, int], components: int
                 ) -> tuple[moderngl.Texture, moderngl.Framebuffer]:
        made = self._made.get(name)
        if made is not None and made[0].size == size and made[0].components == components:
            return made
        if made is not None:
            release_framebuffer(made[1])
            made[0].release()
        tex = self.ctx.texture(size, components, dtype="f4")
        tex.repeat_x = tex.repeat_y = False
        self._made[name] = tex, self.ctx.framebuffer(color_attachments=[tex])
        return self._made[name]

    def _sampler(self, filt: str) -> moderngl.Sampler:
        s = self._samplers.get(filt)
        if s is None:
            f = moderngl.NEAREST if filt == "nearest" else moderngl.LINEAR
            s = self._samplers[filt] = self.ctx.sampler(filter=(f, f), repeat_x=False,
                                                        repeat_y=False)
        return s

    def release(self) -> None:
        for tex, fbo in self._made.values():
            release_framebuffer(fbo)
            tex.release()
        self._made.clear()
        for s in self._samplers.values():
            s.release()
        self._samplers.clear()
        self.vao.release()
        self.program.release()
