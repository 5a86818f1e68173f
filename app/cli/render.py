"""`aquarelle render`: stylize image files (videos: see render_video)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from ..engine.context import create_headless_context
from ..engine.errors import AquarelleError
from ..engine.pipeline import Pipeline
from ..media.export import resolve_size, same_path
from ..media.image_io import (
    IMAGE_EXTENSIONS,
    ImageError,
    is_image_path,
    read_image,
    write_image,
)
from ..media.video_reader import is_sequence, is_video_path
from . import render_video
from .common import add_style_options, resolve_style


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="stylize images (and videos) to files")
    p.add_argument("inputs", nargs="+", metavar="IN", help="input image or video")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="output file")
    add_style_options(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    p.add_argument("--quality", type=int, metavar="1-100",
                   help="JPEG and WebP quality of images written (default 95)")
    over = p.add_mutually_exclusive_group()
    over.add_argument("-y", "--overwrite", action="store_true",
                      help="replace existing outputs (a single output is replaced anyway; in "
                           "a batch existing ones are skipped unless -y)")
    over.add_argument("-n", "--no-overwrite", action="store_true",
                      help="never replace an existing output: fail for one file, skip it in "
                           "a batch")
    render_video.add_arguments(p)
    p.set_defaults(func=run)


VIDEO_ONLY = (("codec", "--codec"), ("crf", "--crf"), ("start", "--start"), ("end", "--end"),
              ("no_audio", "--no-audio"), ("speed", "--speed"), ("fps", "--fps"))


def run(args: argparse.Namespace) -> int:
    inputs = [Path(p) for p in args.inputs]
    output = Path(args.output)
    wants_folder = args.output.endswith(("/", "\\")) or output.is_dir()
    if len(inputs) > 1 or inputs[0].is_dir():
        if not wants_folder and (is_image_path(output) or is_video_path(output)):
            why = f"{inputs[0]} is a folder" if len(inputs) == 1 else "there are several inputs"
            raise AquarelleError(f"-o {args.output} names a file, but {why}: give a folder "
                                 "to render into")
        return render_video.run_batch(args, inputs, output)
    src = inputs[0]
    if is_sequence(src):  # frames/%04d.png: an image sequence is a video
        return render_video.run(args, src, output)
    if wants_folder and not output.exists():
        try:
            output.mkdir(parents=True)
        except OSError as e:
            raise AquarelleError(f"cannot create output folder {output}: {e}") from None
    if is_image_path(src):
        if output.is_dir():
            output = output / src.name
        return render_image(args, src, output)
    if not is_video_path(src) and not render_video.looks_like_video(src):
        kinds = " ".join(sorted(IMAGE_EXTENSIONS))
        raise AquarelleError(f"{src} is not an image or a video (images: {kinds}; videos: "
                             "anything FFmpeg reads)")
    return render_video.run(args, src, output)


def render_image(args: argparse.Namespace, src: Path, output: Path) -> int:
    """Stylize one image file into `output` (atomically)."""
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
    size = render_video.parse_size(getattr(args, "size", None))
    image = read_image(src)
    rgb_in, alpha = image.rgb, image.alpha
    if size is not None:
        w, h = resolve_size(size, image.size)
        rgb_in = resize(rgb_in, (w, h))
        alpha = resize(alpha, (w, h)) if alpha is not None else None
    ctx = create_headless_context()
    try:
        with Pipeline(ctx, style, seed=args.seed, scale=args.scale) as pipeline:
            pipeline.set_params(values)
            rgb = pipeline.render_array(rgb_in)
    finally:
        ctx.release()
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
    write_image(output, rgb, alpha, quality=quality, icc=image.icc, exif=image.exif)
    if not args.quiet:
        print(f"{src} -> {output} ({rgb.shape[1]}x{rgb.shape[0]})", file=sys.stderr)
    return 0


def refuse_existing(args: argparse.Namespace, output: Path) -> None:
    """-n: an existing output is never replaced."""
    if getattr(args, "no_overwrite", False) and output.exists():
        raise AquarelleError(f"{output} exists and -n says not to replace it")


def resize(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Area averaging down, cubic up (16-bit and alpha kept as they are)."""
    import cv2

    h, w = image.shape[:2]
    interp = cv2.INTER_AREA if size[0] * size[1] < w * h else cv2.INTER_CUBIC
    return cv2.resize(image, size, interpolation=interp)
