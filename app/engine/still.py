"""Painting a still: whole, or a big one (over 16 MP, or wider than the GPU's texture limit)
in tiles, painted over the picture to keep memory bounded (engine/tiles.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .chain_spec import AnyStyle, ChainSpec
from .renderer import Renderer
from .tile_analysis import tiling_problem
from .tile_plan import TILE_ABOVE_PX, TileError, needs_tiles
from .tiles import TiledStill, analyse

TileProgress = Callable[[int, int], None]  # (tiles painted, tiles)


def tiled(renderer: Renderer, size: tuple[int, int], *, above_px: int = TILE_ABOVE_PX) -> bool:
    """Whether a still of `size` is painted in tiles by this renderer: over 16 MP
    (`above_px`), or beyond the texture limit, through a single style at scale 1. Over
    16 MP alone (for memory), a style that cannot be tiled (one that changes the picture's
    size, an upscale or a stereo pair side by side; one that reads fixed-size or unbounded
    neighbourhoods) paints it whole; beyond the texture limit it must be tiled (the command
    line refuses such a picture before decoding it)."""
    limit = int(renderer.ctx.info["GL_MAX_TEXTURE_SIZE"])
    stage = renderer.sole_stage
    if not needs_tiles(size, limit, above_px=above_px) or stage is None \
            or renderer.scale != 1.0:
        return False
    if max(size) > limit:
        return True
    try:
        analyse(stage.style, stage.params.values(), size, stage.graph.shader_root)
    except TileError:
        return False
    return True


def whole_reason(style: AnyStyle, values: Mapping[str, Any], size: tuple[int, int],
                 scale: float = 1.0, *, above_px: int = TILE_ABOVE_PX) -> str | None:
    """Why a still over `above_px` pixels is painted whole, not in tiles ("stereo cannot be
    painted in tiles"), for the progress shown instead of a tile count; None for a smaller
    one or one painted in tiles. Known before anything is decoded or compiled."""
    if not needs_tiles(size, 1 << 30, above_px=above_px) or tiling_problem(style, values, size,
                                                       scale=scale) is None:
        return None
    if isinstance(style, ChainSpec):
        return "a chain of styles cannot be painted in tiles"
    if scale != 1.0:
        return f"at scale {scale:g}: tiles are painted at scale 1 only"
    return f"{style.name} cannot be painted in tiles"


def paint_still(renderer: Renderer, rgb: np.ndarray, progress: TileProgress | None = None, *,
                tile_above_px: int = TILE_ABOVE_PX) -> np.ndarray:
    """The painting of an (H, W, 3) RGB still, painted over `rgb` itself where it can (which
    is then no longer the picture: a big still's memory holds one picture, not two);
    `progress` hears of each tile; a still over `tile_above_px` pixels is painted in tiles
    where its style allows."""
    size = (rgb.shape[1], rgb.shape[0])
    if not tiled(renderer, size, above_px=tile_above_px):
        kept, renderer.keep_history = renderer.keep_history, False  # no frame follows
        try:
            out = renderer.render(rgb)
        finally:
            renderer.keep_history = kept
        renderer.trim()  # the painting's working textures, before its readback needs memory
        # read in BGR, handed on as an RGB view: the encoder needs no copy (as for tiles)
        return renderer.read(out, "bgr", low_memory=True, into=rgb)[:, :, ::-1]
    tiles = TiledStill(renderer, size, channel_bytes=rgb.itemsize)
    # painted over the picture in BGR, handed on as an RGB view: the encoder needs no copy
    bgr = tiles.render(rgb, progress=progress, in_place=True, out_order="bgr")
    return bgr[:, :, ::-1]
