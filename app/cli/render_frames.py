"""`aquarelle render` to frames: an image sequence (`out/%04d.png`) or an animated GIF.

Frames are read (a video or an image sequence), stylized in order with the temporal
features on, and written one image per frame, or collected into a GIF for short clips.
Nothing half-written is left: a failure or Ctrl+C removes the frames written so far.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import numpy as np

from ..engine.context import create_headless_context
from ..engine.errors import AquarelleError
from ..engine.renderer import Renderer
from ..media.atomic import OutputExists, atomic_output
from ..media.decoder_messages import quiet_pillow
from ..media.export import (
    ExportProgress,
    alpha_left_out,
    asked,
    check_options,
    exact,
    no_frames_in,
    output_frames,
    resolve_size,
    retime,
    started_at_frame,
)
from ..media.frame_range import DecodedFrame
from ..media.image_formats import LOSSY, LOSSY_SAID, NO_ALPHA
from ..media.image_read import os_reason
from ..media.image_write import painting_to_write, write_image
from ..media.metadata import container_tags
from ..media.paths import SEQUENCE_FIELD, is_sequence, written_over
from ..media.progress import ProgressPrinter
from ..media.video_reader import VideoReader, cover_pictures
from .common import counted
from .render_job import RenderJob, check_writable, refuse_existing
from .render_options import NOT_FOR_FRAMES, check_pixels, check_video_size, resize

GIF_MAX_FRAMES = 1500  # a GIF is for short clips: every frame is held in memory
GIF_ADVICE = f"a GIF holds at most {GIF_MAX_FRAMES} frames; use --end, --fps or a video format"
DEEP_IMAGES = (".png", ".tif", ".tiff")  # a sequence of these keeps a deep video's 16 bits


def run_frames(job: RenderJob, src: Path, output: Path) -> int:
    """Render the frames of `src` to an image sequence or an animated GIF."""
    style, values = job.look.style, job.look.values
    opts = job.export
    check_options(opts)
    gif = output.suffix.lower() == ".gif"
    if not output.parent.is_dir() and str(output.parent):
        raise AquarelleError(f"output folder does not exist: {output.parent}")
    if (hit := written_over(output, src)) is not None:
        own = "" if hit == output else f": it would write over {hit}, a frame of {src}"
        raise AquarelleError(f"output {output} is the input{own}; choose another name or "
                             "folder")
    first = output if gif else frame_path(output, 1)
    refuse_existing(job, first)  # each write checks too
    check_writable(first)
    for option in job.video_only:  # (--start, --end, --fps... apply to frames too)
        if option in NOT_FOR_FRAMES:
            how = " (frames and GIFs are decoded in software)" if option == "--decoder" else ""
            print(f"aquarelle: warning: {option} applies to video files written{how}; "
                  f"ignored for {output.name}", file=sys.stderr)
    if job.quality is not None and output.suffix.lower() not in LOSSY:
        print(f"aquarelle: warning: --quality applies to {LOSSY_SAID}; ignored for "
              f"{output.name}", file=sys.stderr)
    printer = ProgressPrinter(src.name, quiet=job.quiet)
    t0 = time.perf_counter()
    written: list[Path] = []
    frames: list[np.ndarray] = []
    alphas: list[np.ndarray | None] = []  # a GIF frame's alpha, where it has transparency
    kept_alpha = False  # a frame's transparency was written
    # each GIF frame's time (the first's: --start's, where that falls between two frames:
    # the frame on screen there shows from it, as long as the range asked), and the last
    # one's end
    starts: list[Fraction] = []
    last_end: Fraction | None = None
    held = 0  # the frames the GIF holds
    try:
        deep = None if not gif and output.suffix.lower() in DEEP_IMAGES else False
        # a transparent animation's alpha is kept where the output holds it (GIF's one bit,
        # PNG, WebP, TIFF, AVIF): a sticker stayed a sticker
        holds_alpha = gif or output.suffix.lower() not in NO_ALPHA
        with VideoReader(src, deep=deep, alpha=holds_alpha,
                         sequence_rate=opts.fps if is_sequence(src) else None) as reader:
            opts = started_at_frame(reader, opts)
            what = "a GIF" if gif else "an image sequence"
            warnings = left_out(reader, job, what)
            total = output_frames(reader, opts.start, opts.end, opts.fps)
            if gif:
                refuse_long_gif(reader, total, opts.start, opts.end, opts.fps)
            items = reader.frames(opts.start, opts.end, shown=True)
            origin = reader.start_time + opts.start if opts.start > 0 else None
            until = None if opts.end is None else reader.start_time + opts.end
            stream: Iterator[DecodedFrame] = (
                (f for f in retime(items, opts.fps, reader.time_base, origin, until,
                                   whole=False)
                 if isinstance(f, DecodedFrame)) if opts.fps else items)
            step = 1.0 / (opts.fps or reader.fps or 25.0)
            ctx = create_headless_context()
            try:
                with Renderer(ctx, style, seed=opts.seed, scale=opts.scale,
                              deep=reader.deep) as pipeline:
                    pipeline.set_params(values)
                    pipeline.max_lines = opts.video_lines
                    for k, frame in enumerate(stream):
                        if k == 0:
                            check_frame_size(opts.size, frame, reader)
                            warnings += pixel_warnings(reader, opts.size, frame, what)
                        image = _fit(frame.image, opts.size, reader.sample_aspect)
                        rgb = pipeline.render_array(image)
                        alpha = None if frame.alpha is None else pipeline.output_alpha(
                            _fit(frame.alpha, opts.size, reader.sample_aspect))
                        kept_alpha = kept_alpha or alpha is not None
                        if gif:
                            if k >= GIF_MAX_FRAMES:  # a file whose count was unknown
                                raise AquarelleError(GIF_ADVICE)
                            frames.append(rgb)
                            alphas.append(alpha)
                            starts.append(frame.pts * frame.time_base)
                            last_end = (frame.pts + frame.duration) * frame.time_base \
                                if frame.duration else None
                        else:
                            path = frame_path(output, k + 1)
                            exif, dpi = photo_metadata(reader, frame, opts.metadata)
                            write_image(path, painting_to_write(path, rgb, alpha), alpha,
                                        quality=job.quality, replace=opts.replace, exif=exif,
                                        dpi=dpi)
                            written.append(path)
                        printer(ExportProgress(k + 1, total, time.perf_counter() - t0))
            finally:
                ctx.release()
            if not (frames if gif else written):  # (none painted: nothing to write)
                raise AquarelleError(f"{src}: " + (
                    no_frames_in(opts.start, opts.end, reader.duration) if reader.trimmed
                    else "no decodable video frames") + reader.lost_why())
            lost, deinterlaced, lost_why = reader.lost, reader.deinterlaced, reader.lost_why()
            lost_said = reader.lost_said()
            if reader.gap is not None and reader.gap_reached:
                warnings.append(reader.gap.describe())
            if reader.photos is not None and (fitted := reader.photos.resized()) is not None:
                warnings.append(fitted)
            if not gif and opts.fps is None and reader.variable_rate:
                warnings.append(f"{reader.path.name} has a variable frame rate, whose timing "
                                "an image sequence cannot hold (it reads back at one rate, "
                                "25 fps by default); --fps writes frames at a constant one")
            if not kept_alpha and (why := alpha_left_out(reader, output)) is not None:
                warnings.append(why)  # (the frames decoded decide)
        if gif:
            if origin is not None and starts:  # (a --start between two frames)
                starts[0] = exact(origin)
            last = None if last_end is None else max(last_end - starts[-1], Fraction(0))
            held = _write_gif(output, frames, frame_lengths(starts, last, step),
                              replace=opts.replace, repeats=source_repeats(src),
                              alphas=alphas)
    except BaseException:
        for path in written:  # nothing half-written: the frames so far go too
            path.unlink(missing_ok=True)
        raise
    finally:
        printer.finish()
    count = len(frames) if gif else len(written)
    merged = count - held if gif else 0
    if not gif and frame_path(output, count + 1).exists():  # an earlier, longer render's
        warnings.append(f"{frame_path(output, count + 1).name} and on are from before: this "
                        f"render wrote {counted(count, 'frame')} and left them as they were")
    for warning in warnings:
        print(f"aquarelle: warning: {warning}", file=sys.stderr)
    if lost:
        print(f"aquarelle: warning: {src}: {lost_said} could not be decoded{lost_why}",
              file=sys.stderr)
    if not job.quiet:
        what = str(output) if gif else f"{counted(count, 'image')} {output}"
        made = ", deinterlaced (bwdif)" if deinterlaced else ""
        if merged:  # (the file holds fewer: each repeat is its frame shown longer)
            made = f"; {counted(merged, 'identical frame')} merged into the one before" + made
        print(f"{src} -> {what} ({counted(count - merged, 'frame')}{made})", file=sys.stderr)
    return 0


def refuse_long_gif(reader: VideoReader, total: int | None, start: float,
                    end: float | None, fps: object) -> None:
    """A GIF of more frames than it holds is refused before any is painted, where the
    reader knows how many the range gives: exactly (the file's index, all of it at its own
    rate), else estimated from its length and rate (a little over the limit is let through:
    the count while painting decides)."""
    if total is None:
        return
    exact = start <= 0 and end is None and fps is None and bool(reader.video.frames)
    if total > (GIF_MAX_FRAMES if exact else GIF_MAX_FRAMES * 1.02 + 1):
        raise AquarelleError(f"{reader.path.name} gives {'' if exact else 'about '}{total} "
                             f"frames; {GIF_ADVICE}")


def check_frame_size(size: tuple[int, int] | None, first: DecodedFrame,
                     reader: VideoReader) -> None:
    """--size resolved against the first frame (a -1 side), before it is painted: a frame
    of more than MAX_PIXELS, or a side over a video frame's limit, is refused in one line."""
    if size is None:
        return
    image = first.image
    resolved = resolve_size(size, (image.shape[1], image.shape[0]), reader.sample_aspect)
    check_pixels(resolved, reader.path.name, size)
    check_video_size(resolved, reader.path.name, size)


def left_out(reader: VideoReader, job: RenderJob, what: str) -> list[str]:
    """Warnings for what pictures cannot hold of the video `reader` reads: its sound,
    subtitles, attachments, cover picture, chapters and tags (those the options keep), bits,
    HDR tags."""
    c = reader.container
    parts = []
    if job.export.audio and c.streams.audio:
        parts.append(counted(len(c.streams.audio), "audio track"))
    if job.export.subtitles and c.streams.subtitles:
        parts.append(counted(len(c.streams.subtitles), "subtitle track"))
    if c.streams.attachments:
        parts.append(counted(len(c.streams.attachments), "attachment"))
    if job.export.metadata and cover_pictures(c):  # (kept with the tags in a video file)
        parts.append("its cover picture")
    if job.export.metadata:
        if c.chapters():
            parts.append(counted(len(c.chapters()), "chapter"))
        tags = sorted(k.lower() for k in container_tags(c.metadata))
        if tags:
            parts.append(f"the tags ({', '.join(tags)})")
    name = reader.path.name
    warnings = [f"{name}: {', '.join(parts)} left out: {what} holds pictures only; write "
                ".mkv to keep them"] if parts else []
    if reader.bit_depth > 8 and not reader.deep:
        warnings.append(f"{name} is {reader.bit_depth}-bit; {what} of it is written 8-bit "
                        "(frames/%04d.png keeps 16 bits)")
    if reader.colour.hdr:
        warnings.append(f"{name} is HDR ({reader.colour.hdr}, BT.2020): {what} carries no "
                        "colour tags; its pictures show the coded values (no tone mapping)")
    return warnings


def pixel_warnings(reader: VideoReader, size: tuple[int, int] | None, first: DecodedFrame,
                   what: str) -> list[str]:
    """Pictures hold no pixel shape: a warning that non-square pixels stay as stored (no
    --size, which resizes to square ones)."""
    sar = reader.sample_aspect
    if sar == 1 or asked(size):
        return []
    w, h = first.image.shape[1], first.image.shape[0]
    dw, dh = resolve_size((-1, h), (w, h), sar)
    return [f"{reader.path.name} has non-square pixels (SAR {sar.numerator}:{sar.denominator}):"
            f" {what} holds them as square ones, {w}x{h} (the video shows {dw}x{dh}); --size "
            f"{dw}x{dh} keeps the shape"]


def photo_metadata(reader: VideoReader, frame: DecodedFrame, exif: bool = True
                   ) -> tuple[bytes | None, tuple[float, float] | None]:
    """What a frame painted from an image sequence's photo keeps of it, as a still does: its
    EXIF (not with --no-metadata: `exif` False) and its resolution; nothing for a video's."""
    if reader.photos is None:
        return None, None
    kept, dpi = reader.photos.metadata(frame.pts * frame.time_base - reader.start_time)
    return (kept if exif else None), dpi


def frame_path(pattern: Path, number: int) -> Path:
    """frames/%04d.png, 7 -> frames/0007.png."""
    def field(m: re.Match[str]) -> str:
        return f"{number:0{int(m.group(1) or 0)}d}"

    return pattern.with_name(SEQUENCE_FIELD.sub(field, pattern.name, count=1))


def _fit(image: np.ndarray, size: tuple[int, int] | None, sar: Fraction = Fraction(1)
         ) -> np.ndarray:
    if size is None:
        return image
    w, h = resolve_size(size, (image.shape[1], image.shape[0]), sar)
    return resize(image, (w, h))


def _write_gif(output: Path, frames: list[np.ndarray], durations: list[float], *,
               replace: bool = True, repeats: int | None = 0,
               alphas: list[np.ndarray | None] | None = None) -> int:
    """An animated GIF: one adaptive palette per frame, each frame's duration kept, shown
    `repeats` times more after the first (0: forever; None: once); a frame with an alpha
    (`alphas`) transparent where it is less than half opaque (GIF's one bit), each frame
    then replacing the last rather than laid over it. Returns how many frames the file
    holds: a frame that looks as the one before it is merged into it (shown longer), as
    Pillow would merge it unsaid."""
    from PIL import Image

    images: list[Image.Image] = []
    ms: list[int] = []
    before = b""
    clear = alphas is not None and any(a is not None for a in alphas)
    for k, (frame, delay) in enumerate(zip(frames, gif_delays_ms(durations), strict=True)):
        alpha = alphas[k] if alphas is not None else None
        image = _gif_frame(frame, alpha) if clear else \
            Image.fromarray(frame).quantize(colors=256, method=Image.Quantize.MEDIANCUT)
        # (the colours shown, as Pillow compares them: looser than its palette indices)
        shown = image.convert("RGBA" if clear else "RGB").tobytes()
        if images and shown == before:
            ms[-1] += delay
            continue
        images.append(image)
        ms.append(delay)
        before = shown
    loop = {} if repeats is None else {"loop": repeats}
    try:
        with atomic_output(output, replace=replace) as tmp:
            images[0].save(tmp, format="GIF", save_all=True, append_images=images[1:],
                           duration=ms, optimize=False, disposal=2 if clear else 1, **loop)
    except OutputExists as e:
        raise AquarelleError(str(e)) from None
    except OSError as e:
        raise AquarelleError(f"cannot write {output}: {os_reason(e)}") from None
    return len(images)


def _gif_frame(frame: np.ndarray, alpha: np.ndarray | None):
    """One frame of a transparent GIF: RGBA, clear where `alpha` (8-bit or 16-bit) is less
    than half opaque (GIF's one bit; none where it is None), which Pillow writes as a
    palette of 255 colours and a transparent entry."""
    from PIL import Image

    clear = np.full(frame.shape[:2], 255, np.uint8)
    if alpha is not None:
        clear[alpha < (32768 if alpha.dtype == np.uint16 else 128)] = 0
    return Image.fromarray(np.dstack([frame, clear]), "RGBA")


def source_repeats(src: Path) -> int | None:
    """How many times an animated picture (GIF, APNG, WebP) repeats after it is first
    shown, as a GIF says it: 0 forever, None never (a GIF without a NETSCAPE loop); 0 for
    anything else (a video). A GIF's loop count is its repeats; APNG's num_plays and WebP's
    loop count are the times shown in all (as browsers play them)."""
    try:
        with quiet_pillow(header_only=True) as pil, pil.open(src) as im:
            if im.format not in ("GIF", "PNG", "WEBP"):
                return 0
            loop = im.info.get("loop")
            if im.format == "GIF":
                return None if loop is None else int(loop)
    except Exception:  # (not a picture Pillow reads: a video, an image sequence)
        return 0
    plays = int(loop or 0)
    return 0 if plays == 0 else None if plays == 1 else plays - 1


def frame_lengths(starts: list[Fraction], last: Fraction | None, step: float) -> list[float]:
    """How long each frame shows, in seconds: until the next one starts (a container's
    frame durations are nominal: Matroska's are one default for a variable frame rate,
    MP4's belong to other frames where they are reordered); the last its own duration,
    else the step before it, else `step`."""
    gaps = [float(b - a) for a, b in pairwise(starts)]
    return [*gaps, float(last) if last else gaps[-1] if gaps else step]


def gif_delays_ms(durations: list[float]) -> list[int]:
    """GIF frame delays (whole centiseconds, in ms) whose running sum follows the frames'
    times: 24 fps gets 40 and 50 ms mixed, not 40 ms throughout (4% fast); at least 20 ms
    each (browsers play less as 100 ms)."""
    out, shown, clock = [], 0, 0.0
    for d in durations:
        clock += d
        cs = max(2, round(clock * 100) - shown)
        shown += cs
        out.append(10 * cs)
    return out
