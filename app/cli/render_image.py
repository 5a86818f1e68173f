"""`aquarelle render` for one image file."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np

from ..engine.chain import build_pipeline
from ..engine.context import create_headless_context
from ..engine.errors import AquarelleError
from ..media.export import resolve_size, same_path
from ..media.image_io import (
    IMAGE_EXTENSIONS,
    Image,
    ImageError,
    is_image_path,
    read_image,
    write_image,
)
from .render_job import RenderJob, refuse_existing
from .render_options import resize


def read_pair(left: Path, right: Path) -> Image:
    """Two photos of a stereo pair as one side-by-side picture (left view on the left)."""
    a, b = read_image(left), read_image(right)
    if a.size != b.size:
        raise ImageError(f"a stereo pair's views must be the same size: {left.name} is "
                         f"{a.size[0]}x{a.size[1]}, {right.name} {b.size[0]}x{b.size[1]}")
    rgb_b = b.rgb.astype(a.rgb.dtype) if b.rgb.dtype == a.rgb.dtype else \
        (b.rgb.astype(np.float32) * (257 if a.rgb.dtype == np.uint16 else 1 / 257)
         ).astype(a.rgb.dtype)
    return dataclasses.replace(a, rgb=np.ascontiguousarray(np.hstack([a.rgb, rgb_b])),
                               alpha=None)


def render_image(job: RenderJob, src: Path, output: Path, image: Image | None = None) -> int:
    """Stylize one image file (or a given picture read from `src`) into `output`
    (atomically)."""
    style, values = job.look.style, job.look.values
    if same_path(src, output):
        raise AquarelleError(f"output {output} is the input; choose another name")
    refuse_existing(job, output)
    if not is_image_path(output):
        raise ImageError(f"unsupported output format {output.suffix or '(none)'} for an image; "
                         f"use one of {' '.join(sorted(IMAGE_EXTENSIONS))}")
    if str(output.parent) and not output.parent.is_dir():
        raise ImageError(f"output folder does not exist: {output.parent}")
    for option in job.video_only:
        print(f"aquarelle: warning: {option} applies to videos; ignored for {src.name}",
              file=sys.stderr)
    size = job.size
    image = image if image is not None else read_image(src)
    rgb_in, alpha = image.rgb, image.alpha
    if size is not None:
        w, h = resolve_size(size, image.size)
        rgb_in = resize(rgb_in, (w, h))
        alpha = resize(alpha, (w, h)) if alpha is not None else None
    ctx = create_headless_context()
    try:
        # 16-bit in: painted and written at 16 bits (a deep pipeline)
        deep = rgb_in.dtype == np.uint16
        with build_pipeline(ctx, style, seed=job.look.seed, scale=job.look.scale,
                            deep=deep) as pipeline:
            pipeline.set_params(values)
            rgb = pipeline.render_array(rgb_in)
    finally:
        ctx.release()
    if alpha is not None and alpha.shape[:2] != rgb.shape[:2]:  # an enlarging style
        alpha = resize(alpha, (rgb.shape[1], rgb.shape[0]))
    quality = job.quality
    if quality is not None:
        if not 1 <= quality <= 100:
            raise ImageError(f"--quality must be 1 to 100, got {quality}")
        if output.suffix.lower() not in (".jpg", ".jpeg", ".webp"):
            print(f"aquarelle: warning: --quality applies to JPEG and WebP; ignored for "
                  f"{output.name}", file=sys.stderr)
    write_image(output, rgb, alpha, quality=quality, icc=image.icc, exif=image.exif,
                replace=job.replace)
    if not job.quiet:
        print(f"{src} -> {output} ({rgb.shape[1]}x{rgb.shape[0]})", file=sys.stderr)
    return 0
