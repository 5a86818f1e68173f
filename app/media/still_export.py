"""Painting a still file at its full size to another file (the app's export of a big still,
shown smaller in the window): in tiles where it is big, written atomically."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.chain_spec import AnyStyle
from ..engine.context import create_headless_context
from ..engine.renderer import Renderer
from ..engine.still import TileProgress, paint_still
from ..engine.tile_plan import TILE_ABOVE_PX
from .image_pixels import on_paper
from .image_read import read_image
from .image_types import Image, ImageError
from .image_write import painting_to_write, write_image
from .image_write_warnings import write_warnings
from .paths import same_path
from .sniff import sniff_image
from .video_reader import only_picture


def export_still(src: Path, dst: Path, style: AnyStyle, values: Mapping[str, Any], *,
                 seed: int = 0, scale: float = 1.0, progress: TileProgress | None = None,
                 notes: list[str] | None = None,
                 tile_above_px: int = TILE_ABOVE_PX) -> tuple[int, int]:
    """Paint the image file `src` at its own size into `dst` (in tiles over `tile_above_px`
    pixels, where the style allows); returns the size written, and adds to `notes` what the
    file could not keep (16 bits in a JPEG, say). Its own GL context: call from any thread
    (the window calls it in a process of its own: still_process.py)."""
    if same_path(src, dst):
        raise ImageError(f"output {dst} is the input; choose another name")
    image = _read_picture(src)
    ctx = create_headless_context()
    try:
        with Renderer(ctx, style, seed=seed, scale=scale,
                            deep=image.rgb.dtype == np.uint16) as pipeline:
            pipeline.set_params(values)
            rgb = paint_still(pipeline, on_paper(image.rgb, image.alpha), progress,
                              tile_above_px=tile_above_px)
            # enlarged, or once per view of a stereo pair
            alpha = None if image.alpha is None else pipeline.output_alpha(image.alpha)
    finally:
        ctx.release()
    if notes is not None:
        notes += write_warnings(dst, rgb, image.icc, image.exif, dpi=image.dpi,
                                unkept=image.unkept)
    write_image(dst, painting_to_write(dst, rgb, alpha), alpha, icc=image.icc, exif=image.exif,
                dpi=image.dpi)
    return rgb.shape[1], rgb.shape[0]


def _read_picture(src: Path) -> Image:
    """The image file `src` (an AVIF or HEIF photo too: read_image reads them), or a
    picture of another format FFmpeg reads as one frame (no profile or EXIF from it); never
    a broken file of a format read_image knows, which FFmpeg would half paint."""
    try:
        return read_image(src)
    except ImageError:
        picture = only_picture(src) if sniff_image(src) is None else None
        if picture is None:
            raise
        return Image(picture)
