"""`aquarelle render`: stylize image files (videos: see render_video)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from ..engine.context import create_headless_context
from ..engine.errors import AquarelleError
from ..engine.pipeline import Pipeline
from ..media.export import same_path
from ..media.image_io import ImageError, is_image_path, read_image, write_image
from . import render_video
from .common import add_style_options, resolve_style


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="stylize images (and videos) to files")
    p.add_argument("inputs", nargs="+", metavar="IN", help="input image or video")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="output file")
    add_style_options(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    render_video.add_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    inputs = [Path(p) for p in args.inputs]
    output = Path(args.output)
    if len(inputs) > 1 or inputs[0].is_dir():
        return render_video.run_batch(args, inputs, output)
    src = inputs[0]
    if is_image_path(src):
        return render_image(args, src, output)
    return render_video.run(args, src, output)


def render_image(args: argparse.Namespace, src: Path, output: Path) -> int:
    """Stylize one image file into `output` (atomically)."""
    style, values = resolve_style(args)
    if same_path(src, output):
        raise AquarelleError(f"output {output} is the input; choose another name")
    if not is_image_path(output):
        raise ImageError(f"unsupported output format {output.suffix or '(none)'} for an image")
    if str(output.parent) and not output.parent.is_dir():
        raise ImageError(f"output folder does not exist: {output.parent}")
    image = read_image(src)
    ctx = create_headless_context()
    try:
        with Pipeline(ctx, style, seed=args.seed, scale=args.scale) as pipeline:
            pipeline.set_params(values)
            rgb = pipeline.render_array(image.rgb)
    finally:
        ctx.release()
    alpha = image.alpha
    if image.rgb.dtype == np.uint16:
        # 16-bit in, 16-bit out (the style renders at 8 bits; widen without banding steps).
        rgb = rgb.astype(np.uint16) * 257
    write_image(output, rgb, alpha)
    if not args.quiet:
        print(f"{src} -> {output} ({image.size[0]}x{image.size[1]})", file=sys.stderr)
    return 0
