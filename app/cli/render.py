"""`aquarelle render`: the options, and which job each input gets (an image, a video, frames
or a batch: render_image, render_video, render_frames)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..engine.errors import AquarelleError
from ..media.image_io import IMAGE_EXTENSIONS, is_image_path
from ..media.video_reader import is_sequence, is_video_path
from . import render_cluster, render_video
from .common import add_style_options
from .render_image import read_pair, render_image
from .render_options import add_arguments


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
    p.add_argument("--pair", action="store_true",
                   help="the two inputs are the left and right photos of a stereo pair: "
                        "rendered as one side-by-side picture (with --style stereo, "
                        "--set input=sbs is implied)")
    add_arguments(p)
    render_cluster.add_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    inputs = [Path(p) for p in args.inputs]
    output = Path(args.output)
    if getattr(args, "pair", False):
        return _render_pair(args, inputs, output)
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


def _render_pair(args: argparse.Namespace, inputs: list[Path], output: Path) -> int:
    """`--pair LEFT RIGHT`: two photos of a stereo pair as one side-by-side picture."""
    if len(inputs) != 2 or not all(is_image_path(p) for p in inputs):
        raise AquarelleError("--pair takes two images, the left view then the right")
    for p in inputs:
        if not p.is_file():
            raise AquarelleError(f"no such file: {p}")
    if not any(s.split("=", 1)[0].strip().endswith("input") for s in args.sets):
        names = (args.style or "").split("+")
        if "stereo" in names:
            args.sets = [*args.sets, ("stereo.input=sbs" if len(names) > 1 else "input=sbs")]
    return render_image(args, inputs[0], output, read_pair(inputs[0], inputs[1]))
