"""`aquarelle render`: the options, and which job each input gets (an image, a video, frames
or a batch: render_image, render_video, render_frames). The video modules (PyAV) are
imported where a video or a batch is rendered: a still's render does not load them."""

from __future__ import annotations

import argparse
import dataclasses
import glob
import os
import re
import sys
from pathlib import Path

from ..engine.errors import AquarelleError
from ..media.animation import (
    Animation,
    animation_of,
    ffmpeg_decodes,
    is_still_gif,
    refuse_cut_short_avif,
)
from ..media.codecs import CONTAINERS
from ..media.image_formats import IMAGE_EXTENSIONS, WRITE_EXTENSIONS, is_image_path
from ..media.image_types import Image
from ..media.paths import (
    file_in_the_way,
    is_sequence,
    is_video_path,
    same_path,
    sequence_files,
    wants_frames,
)
from ..media.sniff import PICTURE_OR_SEQUENCE, ffmpeg_opens, its_name, misnamed, sniff_image
from .batch_plan import default_name, sequence_name
from .common import add_style_options
from .render_image import read_pair, render_image, render_still_gif
from .render_job import RenderJob, parse_render
from .render_options import LOCAL_CLUSTER, NAME_TEMPLATE, add_arguments, add_cluster_arguments

# The proper names of an animated picture (no warning that it is misnamed).
ANIMATION_NAMES = {"APNG": (".png", ".apng"), "WebP": (".webp",), "AVIF": (".avif",)}


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="stylize images (and videos) to files")
    p.add_argument("inputs", nargs="+", metavar="IN", help="input image or video")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="output file, or folder to render into (OUT/, or an existing folder; "
                        "several inputs or a folder: always a folder)")
    add_style_options(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    p.add_argument("--quality", type=int, metavar="1-100",
                   help="JPEG, WebP and AVIF quality of images written (default 95)")
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
                        "--set input=sbs is implied; --size is each photo's)")
    add_arguments(p)
    add_cluster_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """`aquarelle render`: the command line parsed once, then the job each input gets."""
    job = parse_render(args, LOCAL_CLUSTER)
    inputs, output = job.inputs, job.output
    if job.pair:
        return _render_pair(job)
    src = inputs[0] if len(inputs) == 1 and not is_sequence(inputs[0]) else None
    check_output_place(output, job.wants_folder, src)
    if len(inputs) > 1 or inputs[0].is_dir():
        if not job.wants_folder and (is_image_path(output) or is_video_path(output)):
            why = f"{inputs[0]} is a folder" if len(inputs) == 1 else "there are several inputs"
            raise AquarelleError(f"-o {output} names a file, but {why}: give a folder "
                                 "to render into")
        from . import render_video

        return render_video.run_batch(job)
    src = inputs[0]
    named = job.name_template != NAME_TEMPLATE
    if not job.wants_folder and (job.container or job.still_format or named):
        formats = job.container or job.still_format
        given = [o for o, on in (("--format", formats), ("--name", named)) if on]
        one = len(given) == 1
        print(f"aquarelle: warning: {' and '.join(given)} {'names' if one else 'name'} the "
              f"files written into a folder (-o FOLDER/); -o {output} names this one, so "
              f"{'it is' if one else 'they are'} ignored", file=sys.stderr)
    if is_sequence(src):  # frames/%04d.png: an image sequence is a video
        from . import render_video

        if job.wants_folder or output.is_dir():  # its frames, under its own pattern
            name = sequence_name(src, job.name_template, job.still_format)
            refuse_missing(src)
            if not output.exists():
                make_folder(output)
            output = output / name
        else:
            check_extension(output, "video", src)
        return render_video.run(job, src, output)
    if job.wants_folder and not output.exists():
        default_name(src, None, template=job.name_template)  # a bad --name: no folder made
        refuse_missing(src)  # nor one for an input that is not there
        make_folder(output)
    sniffed = sniff_image(src)
    moving = animation_of(src) if sniffed or src.suffix.lower() in PICTURE_OR_SEQUENCE \
        else None  # (an animated AVIF sniffs as no still: it is played as a video)
    if sniffed and moving:
        return _render_animation(job, src, output, moving, sniffed)
    if not sniffed and not moving:  # (no picture either)
        refuse_cut_short_avif(src)
    if is_image_path(src) and (sniffed or not _video_inside(src)):
        return _render_one_image(job, src, output, default_name(
            src, None, template=job.name_template, still_fmt=job.still_format))
    if is_image_path(src) and src.suffix.lower() not in PICTURE_OR_SEQUENCE:
        print(f"aquarelle: warning: {src} is a video despite its {src.suffix} name; "
              "rendering it as a video", file=sys.stderr)
    if sniffed and not (is_video_path(output) or wants_frames(output)):
        return _render_one_image(job, src, output, src.stem + sniffed[1],
                                 f"{misnamed(src, sniffed[0])}; rendering it as an image")
    if sniffed:  # an image, but the output asks for a video: a one-frame one, as asked
        print(f"aquarelle: warning: {misnamed(src, sniffed[0])}; rendering it as a "
              "one-frame video", file=sys.stderr)
    elif not is_video_path(src) and not ffmpeg_opens(src):
        refuse_missing(src)
        kinds = " ".join(sorted(IMAGE_EXTENSIONS))
        raise AquarelleError(f"{src} is not an image or a video (images: {kinds}; videos: "
                             "anything FFmpeg reads)")
    else:  # the input's own problem first, then the output's
        from . import render_video

        render_video.refuse_no_video(src)
    return _render_video(job, src, output, moving.name if moving else "a video")


def _render_video(job: RenderJob, src: Path, output: Path, what: str = "a video") -> int:
    """A video (or an animation FFmpeg decodes) to `output`, once the output can take one."""
    if output.is_dir() and is_still_gif(src):  # a still, as a batch paints it
        from . import render_video

        return render_video.render_one(job, src, output / default_name(
            src, None, template=job.name_template, still=True, still_fmt=job.still_format),
            {})
    if output.is_dir():  # a video's name, also for one named as a picture
        output = output / default_name(src, job.export.codec, job.container,
                                       job.name_template, video=True)
    else:
        check_extension(output, "video", src)
        if is_image_path(output) and not is_sequence(output):
            from ..media.video_reader import only_picture

            if is_still_gif(src):  # (its transparent colour kept: render_still_gif)
                return render_still_gif(job, src, output)
            picture = only_picture(src)  # a photo only FFmpeg reads, as one frame
            if picture is not None:
                return render_image(job, src, output, Image(picture))
            raise AquarelleError(
                f"{src} is {what}, which cannot be written as {output.suffix}: use -o "
                f"{output.with_suffix('.mp4')} for a video, -o {output.with_suffix('.gif')} "
                f"for an animation, or -o {output.parent / (output.stem + '_%04d.png')} for "
                "one image per frame")
    from . import render_video

    return render_video.run(job, src, output)


def _render_animation(job: RenderJob, src: Path, output: Path, anim: Animation,
                      sniffed: tuple[str, str]) -> int:
    """An animated PNG or WebP (`sniffed`: its format and extension): a video where FFmpeg
    decodes its frames, like a GIF; else its first frame as an image (render_image warns
    what is left out), and a video output is refused."""
    ext = sniffed[1]
    proper = src.suffix.lower() in ANIMATION_NAMES[anim.kind]
    decodes = ffmpeg_decodes(src)  # kept for render_image's warning: decoded once
    if decodes:
        if not proper:
            print(f"aquarelle: warning: {src} is {anim.name} despite {its_name(src)}; "
                  "rendering it as a video", file=sys.stderr)
        return _render_video(job, src, output, anim.name)
    if output.is_dir() or not (is_video_path(output) or wants_frames(output)):
        if is_image_path(src):
            return _render_one_image(job, src, output, default_name(
                src, None, template=job.name_template, still_fmt=job.still_format),
                decodes=decodes)
        return _render_one_image(job, src, output, src.stem + ext,
                                 f"{misnamed(src, sniffed[0])}; rendering it as an image",
                                 decodes=decodes)
    raise AquarelleError(f"{src} is {anim.name}, whose frames FFmpeg here cannot decode, so "
                         f"it cannot be written as {output.suffix}; only its first frame can "
                         f"be painted, as an image (e.g. -o {output.with_suffix(ext)})")


def make_folder(output: Path) -> None:
    """The folder -o names (OUT/), made with its parents."""
    try:
        output.mkdir(parents=True)
    except OSError as e:
        raise AquarelleError(f"cannot create output folder {output}: {e}") from None


def refuse_missing(src: Path | None) -> None:
    """An input that is not there, said as such, before a problem of -o's (`src` None: a
    batch's, each said as it comes); a pattern the shell passed on (quoted, or matching
    nothing) said to be one; an image sequence (frames/%04d.png) none of whose files is
    there."""
    if src is None or os.path.exists(src):
        return
    if is_sequence(src):
        if not sequence_files(src):
            raise AquarelleError(f"no files match the image sequence {src}")
        return
    if not re.search(r"[*?[]", str(src)):
        raise AquarelleError(f"no such file: {src}")
    if glob.glob(str(src)):
        raise AquarelleError(f"no such file: {src} (a pattern, which aquarelle does not "
                             "expand: leave it unquoted for the shell to, or give the folder)")
    raise AquarelleError(f"no such file: {src} (the pattern matches no file)")


def check_output_place(output: Path, wants_folder: bool, src: Path | None) -> None:
    """A file where -o needs a folder (in/one.png/x.png, or in/one.png/), said as such, not
    as a folder that does not exist or cannot be made (after a missing input `src`)."""
    place = file_in_the_way(output if wants_folder else output.parent)
    if place is not None:
        refuse_missing(src)
        slash = "/" if wants_folder and place == output else ""
        raise AquarelleError(f"-o {output}{slash}: {place} is a file, not a folder")


def _video_inside(path: Path) -> bool:
    """Whether a file named as an image, but no image by its first bytes, is a video
    container (FFmpeg would open any such file as an image by its name)."""
    if not path.is_file():
        return False
    import av

    try:
        with av.open(str(path)) as c:
            name = c.format.name
            return bool(c.streams.video) and name != "image2" and not name.endswith("_pipe")
    except (av.FFmpegError, OSError, UnicodeDecodeError, ValueError):
        return False


def _render_one_image(job: RenderJob, src: Path, output: Path, name: str,
                      warning: str = "", *, decodes: bool | None = None) -> int:
    """An image to `output` (a folder: as `name` in it), once the output can take one
    (`decodes`: an animation's probe, for render_image)."""
    if output.is_dir():
        output = output / name
    check_extension(output, "image", src)
    if warning:
        print(f"aquarelle: warning: {warning}", file=sys.stderr)
    return render_image(job, src, output, decodes=decodes)


def check_extension(output: Path, kind: str, src: Path) -> None:
    """An output without an extension: say which ones a `kind` ("image", "video") takes
    (once `src` is known to be there: the input's own problem first)."""
    if output.suffix:
        return  # a wrong one: the writer names the right ones
    refuse_missing(src)
    if kind == "image":
        allowed = ", ".join(sorted(WRITE_EXTENSIONS))
        example = f"{output}.png"
    else:
        allowed = ", ".join(sorted(CONTAINERS)) + ", .gif (animated) or frames/%04d.png"
        example = f"{output}.mp4"
    article = "an" if kind == "image" else "a"
    raise AquarelleError(f"-o {output} has no extension, which says what to write; {article} "
                         f"{kind} can be written as {allowed} (e.g. -o {example}; into a "
                         f"folder: -o {output}/)")


def _render_pair(job: RenderJob) -> int:
    """`--pair LEFT RIGHT`: two photos of a stereo pair as one side-by-side picture (the
    job already says input=sbs to a stereo style)."""
    inputs = job.inputs
    if len(inputs) != 2 or not all(is_image_path(p) for p in inputs):
        raise AquarelleError("--pair takes two images, the left view then the right")
    for p in inputs:
        if not p.is_file():
            raise AquarelleError(f"no such file: {p}")
        if same_path(p, job.output):  # (-y wrote the painting over the right view)
            raise AquarelleError(f"output {job.output} is the input; choose another name")
    if "stereo" not in job.look.style.name.split("+"):
        print(f"aquarelle: warning: --pair paints the two photos side by side as one picture "
              f"with {job.look.style.name}; --style stereo makes them one 3D picture",
              file=sys.stderr)
    # --size is each view's (the pair, side by side, is twice as wide): it squeezed the views
    pair = read_pair(inputs[0], inputs[1], job.size)
    unsized = dataclasses.replace(job, export=dataclasses.replace(job.export, size=None))
    return render_image(unsized, inputs[0], job.output, pair,
                        said_as=f"{inputs[0]} + {inputs[1]}")
