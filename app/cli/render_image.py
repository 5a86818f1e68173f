"""`aquarelle render` for one image file."""

from __future__ import annotations

import argparse
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
from .common import resolve_style
from .render_options import VIDEO_ONLY, may_replace, parse_size, refuse_existing, resize


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


def render_image(args: argparse.Namespace, src: Path, output: Path,
                 image: Image | None = None) -> int:
    """Stylize one image file (or a given picture read from `src`) into `output`
    (atomically)."""
    style, values = resolve_style(args)
    if same_path(src, output):
        raise AquarelleError(f"output {output} is the input; choose another name")
    refuse_existing(args, output)
    if not is_image_path(output):
        raise ImageError(f"unsupported output format {output.suffix or '(none)'} for an image; "
                         f"use one of {' '.join(sorted(IMAGE_EXTENSIONS))}")
    if str(output.parent) and not output.parent.is_dir():
        raise ImageError(f"output folder does not exist: {output.parent}")
    for attr, option in VIDEO_ONLY:
        if getattr(args, attr, None):
            print(f"aquarelle: warning: {option} applies to videos; ignored for {src.name}",
                  file=sys.stderr)
    size = parse_size(getattr(args, "size", None))
    image = image if image is not None else read_image(src)
    rgb_in, alpha = image.rgb, image.alpha
    if size is not None:
        w, h = resolve_size(size, image.size)
        rgb_in = resize(rgb_in, (w, h))
        alpha = resize(alpha, (w, h)) if alpha is not None else None
    ctx = create_headless_context()
    try:
        with build_pipeline(ctx, style, seed=args.seed, scale=args.scale) as pipeline:
            pipeline.set_params(values)
            rgb = pipeline.render_array(rgb_in)
    finally:
        ctx.release()
    if alpha is not None and alpha.shape[:2] != rgb.shape[:2]:  # an enlarging style
        alpha = resize(alpha, (rgb.shape[1], rgb.shape[0]))
    if image.rgb.dtype == np.uint16:
        # 16-bit in, 16-bit out (the style renders at 8 bits; widen without banding steps).
        rgb = rgb.astype(np.uint16) * 257
    quality = getattr(args, "quality", None)
    if quality is not None:
        if not 1 <= quality <= 100:
            raise ImageError(f"--quality must be 1 to 100, got {quality}")
        if output.suffix.lower() not in (".jpg", ".jpeg", ".webp"):
            print(f"aquarelle: warning: --quality applies to JPEG and WebP; ignored for "
                  f"{output.name}", file=sys.stderr)
    write_image(output, rgb, alpha, quality=quality, icc=image.icc, exif=image.exif,
                replace=may_replace(args))
    if not args.quiet:
        print(f"{src} -> {output} ({rgb.shape[1]}x{rgb.shape[0]})", file=sys.stderr)
    return 0
