"""`aquarelle render`'s command line parsed once into one typed job: what every render module
(image, video, frames, batch, cluster) takes instead of the argparse namespace."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from ..engine.errors import AquarelleError
from ..media.atomic import probe_writable, real_target
from ..media.export_options import ExportOptions, resolve_size
from ..media.image_formats import is_image_path
from ..media.image_read import image_size, os_reason
from ..media.paths import is_sequence, is_video_path
from .common import Look, resolve_look
from .render_options import (
    CHUNK_SECONDS,
    VIDEO_ONLY,
    check_name_template,
    check_pixels,
    check_video_size,
    parse_codec,
    parse_size,
    parse_time,
    parse_video_lines,
    split_formats,
)

RENDER = "aquarelle render"  # the command as its errors name it (argparse's prog)


@dataclass(frozen=True)
class ClusterChoice:
    """--cluster and its options: where, chunk length, resume, work folder."""

    address: str | None  # None: a local cluster started for the render
    chunk: float
    resume: bool
    work_dir: Path | None


@dataclass(frozen=True)
class RenderJob:
    """One `aquarelle render` command: inputs, output, look, export options, output rules."""

    inputs: tuple[Path, ...]
    output: Path
    wants_folder: bool  # -o ends with a slash or names a folder
    look: Look
    export: ExportOptions  # videos (size, seed and scale apply to images too)
    quality: int | None  # JPEG/WebP quality of images written
    quiet: bool
    overwrite: bool  # -y: a batch replaces existing outputs
    pair: bool  # the two inputs are a stereo pair
    recursive: bool
    container: str | None  # --format of a batch's videos (mp4...)
    name_template: str
    cluster: ClusterChoice | None
    video_only: tuple[str, ...] = ()  # video-only options given (warned about for images)
    still_format: str | None = None  # --format of a batch's stills (png...)

    @property
    def replace(self) -> bool:
        """Whether an existing output may be replaced (not with -n)."""
        return self.export.replace

    @property
    def size(self) -> tuple[int, int] | None:
        """--size (W, H); -1 keeps the aspect."""
        return self.export.size


def parse_render(args: argparse.Namespace, local: str) -> RenderJob:
    """The job the options ask for, validated (style, values, times, size) before any file
    is touched. `local` is the --cluster value that means a local cluster."""
    if "-" in args.inputs:
        raise AquarelleError("reading from standard input is not supported; give the input's "
                             "file name (a file called '-': ./-)")
    if "" in args.inputs:  # Path("") is the current folder: a whole folder rendered
        raise AquarelleError("an empty input name: give the input's file or folder name (the "
                             "current folder: .)")
    if args.output == "":
        raise AquarelleError("-o: an empty output name: give a file name (e.g. -o out.png) or "
                             "a folder (-o out/; the current folder: -o ./)")
    if args.output == "-":
        raise AquarelleError("-o -: writing to standard output is not supported; give a file "
                             "name (e.g. -o out.png, -o out.mp4) or a folder (-o out/)")
    output = Path(args.output)
    sets = list(args.sets)
    if args.pair and not any(s.split("=", 1)[0].strip().endswith("input") for s in sets):
        names = (args.style or "").split("+")
        if "stereo" in names:  # a pair is side by side
            sets.append("stereo.input=sbs" if len(names) > 1 else "input=sbs")
    look = resolve_look(args, sets)
    if args.quality is not None and not 1 <= args.quality <= 100:
        raise AquarelleError(f"--quality must be 1 to 100, got {args.quality}")
    start = parse_time(args.start, "--start") or 0.0
    size = parse_size(args.size)
    check_name_template(args.name)
    container, still_format = split_formats(args.format)
    if size is not None and len(args.inputs) == 1:
        _check_size_for(Path(args.inputs[0]), size)
    export = ExportOptions(
        codec=parse_codec(args.codec), crf=args.crf, size=size, start=start,
        end=parse_time(args.end, "--end"), audio=not args.no_audio,
        subtitles=not args.no_subtitles, metadata=not args.no_metadata, speed=args.speed,
        fps=args.fps, seed=look.seed, scale=look.scale, replace=not args.no_overwrite,
        encoder=args.encoder or "auto", decoder=args.decoder or "auto",
        video_lines=parse_video_lines(args.video_lines))
    cluster = None
    if args.cluster is not None:
        for option, done in (("encoder", "encoded"), ("decoder", "decoded")):
            if getattr(args, option) == "hardware":
                raise AquarelleError(f"--{option} hardware does not work with --cluster: its "
                                     f"chunks are {done} in software on every node (so "
                                     f"their joins match); drop --{option} or --cluster")
        work = Path(args.work_dir) if args.work_dir else None
        if work is not None and (work.exists() and not work.is_dir()
                                 or not work.exists() and not work.parent.is_dir()):
            raise AquarelleError(f"--work-dir {work}: not a folder (nor one that can be made "
                                 "in an existing folder)")
        cluster = ClusterChoice(None if args.cluster == local else args.cluster, args.chunk,
                                args.resume, work)
    else:
        given = [o for o, on in (("--chunk", args.chunk != CHUNK_SECONDS),
                                 ("--resume", args.resume), ("--work-dir", args.work_dir)) if on]
        if given:
            print(f"aquarelle: warning: {' and '.join(given)} "
                  f"{'applies' if len(given) == 1 else 'apply'} with --cluster; ignored",
                  file=sys.stderr)
    return RenderJob(
        inputs=tuple(Path(p) for p in args.inputs), output=output,
        wants_folder=args.output.endswith(("/", "\\")) or output.is_dir(), look=look,
        export=export, quality=args.quality, quiet=args.quiet, overwrite=args.overwrite,
        pair=args.pair, recursive=args.recursive, container=container,
        name_template=args.name, cluster=cluster,
        video_only=tuple(option for attr, option in VIDEO_ONLY if getattr(args, attr))
        # one image is painted here, not on the cluster (render_image says so)
        + (("--cluster",) if cluster is not None and len(args.inputs) == 1 else ()),
        still_format=still_format)


def _check_size_for(src: Path, size: tuple[int, int]) -> None:
    """--size against the one input, before any work: a video's (by its name) frames have
    a side of at most MAX_VIDEO_SIDE; a still's picture, its -1 side resolved against the
    file's header as the render resolves it, at most MAX_PIXELS."""
    if is_sequence(src) or is_video_path(src) and not is_image_path(src):
        check_video_size(size, src.name)
    elif is_image_path(src) and min(size) < 0 and src.is_file() \
            and (header := image_size(src)) is not None:
        check_pixels(resolve_size(size, header, even=False), src.name, size)


def refuse_existing(job: RenderJob, output: Path) -> None:
    """-n: an existing output is never replaced. This is the early check, before any work;
    the guarantee is the atomic publish (atomic_output(replace=False)) when writing: an
    output that appears meanwhile is not replaced either. A symlink counts as existing when
    its target does (the write would go through it)."""
    if not job.replace and output.exists():
        raise AquarelleError(f"{output} exists and -n says not to replace it")


def check_writable(output: Path) -> None:
    """The output's folder takes files, and an existing output (a symlink's target) is a
    file this user may write: checked before any painting, not found out once the render is
    done (a GIF and a still are written at the end). Nothing is left behind."""
    try:
        probe_writable(output)
        target = real_target(output)
    except OSError as e:
        raise AquarelleError(f"cannot write {output}: {os_reason(e)}") from None
    if target.is_dir():
        raise AquarelleError(f"cannot write {output}: it is a folder")
    # os.access, not the mode bits: root may replace a read-only file, and does
    if target.exists() and not os.access(target, os.W_OK):
        raise AquarelleError(f"cannot write {output}: it exists and is read-only (make it "
                             "writable, or choose another name)")
