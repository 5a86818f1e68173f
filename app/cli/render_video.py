"""`aquarelle render` for videos and batches: one export, a folder of files."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ..engine.errors import AquarelleError
from ..engine.interrupts import checkpoint
from ..media.animation import is_still_gif
from ..media.codecs import output_format
from ..media.errors import MediaError
from ..media.export import ExportResult, export_video
from ..media.image_formats import LOSSY_SAID, is_image_path
from ..media.paths import is_sequence, wants_frames
from ..media.progress import ProgressPrinter
from . import render_cluster
from .batch_plan import batch_summary, default_name, first_ten, prepare_batch
from .common import counted
from .main import print_error
from .render_frames import frame_path, run_frames
from .render_image import render_image, render_still_gif
from .render_job import RENDER, RenderJob, check_writable, refuse_existing
from .render_options import MAX_VIDEO_SIDE


def refuse_no_video(path: Path) -> None:
    """Media FFmpeg reads without a video stream (sound only, or sound with a cover
    picture) is refused before the output's name is judged: its own problem is the one to
    fix. Anything else is the reader's."""
    if not path.is_file():
        return
    import av

    from ..media.video_reader import no_video, open_input

    try:
        with av.open(str(path)) as c:
            why = no_video(path, c)
    except (av.FFmpegError, OSError, UnicodeDecodeError, ValueError):
        # the reader's reason ("truncated", "damaged"), before the output's name is judged
        # (a cut MP4 to .png was "a video, which cannot be written as .png")
        open_input(path).close()
        return
    if why is not None:
        raise MediaError(why)


def refuse_too_big(path: Path, size: tuple[int, int] | None) -> None:
    """A video whose frames have a side over MAX_VIDEO_SIDE, without a --size, is refused
    before any work, saying what does it (it failed at its first frame: "frame 16385x64
    exceeds the GPU's texture limit 16384", trial V4)."""
    if size is not None or not path.is_file():
        return
    import av

    try:
        with av.open(str(path)) as c:
            if not c.streams.video:
                return
            w, h = c.streams.video[0].width, c.streams.video[0].height
    except (av.FFmpegError, OSError, UnicodeDecodeError, ValueError, AttributeError):
        return  # (the reader says what is wrong with it)
    if max(w, h) > MAX_VIDEO_SIDE:
        smaller = f"{MAX_VIDEO_SIDE // 2}x-1" if w >= h else f"-1x{MAX_VIDEO_SIDE // 2}"
        raise AquarelleError(f"{path.name} is {w}x{h}: a video's frames are painted at most "
                             f"{MAX_VIDEO_SIDE} px a side; render it smaller, e.g. --size "
                             f"{smaller}")


def run(job: RenderJob, src: Path, output: Path) -> int:
    """Render one video file to `output` (a file, or a folder to put it in)."""
    if job.cluster is not None:
        return render_cluster.run(job, src, output)
    if wants_frames(output):  # an image sequence or an animated GIF
        return run_frames(job, src, output)
    opts = job.export
    if job.quality is not None:
        print(f"aquarelle: warning: --quality applies to {LOSSY_SAID} images; a video's "
              "quality is --crf: ignored", file=sys.stderr)
    if output.is_dir():
        output = output / default_name(src, opts.codec, job.container, job.name_template)
    refuse_existing(job, output)
    output_format(output, opts.codec)  # bad extension or codec: fail before decoding
    if output.parent.is_dir():  # (a missing one: the export says so)
        check_writable(output)
    refuse_too_big(src, opts.size)
    printer = ProgressPrinter(src.name, quiet=job.quiet)
    try:
        result = export_video(src, output, job.look.style, job.look.values, opts,
                              progress=printer)
    finally:
        printer.finish()
    for warning in result.warnings:
        print(f"aquarelle: warning: {warning}", file=sys.stderr)
    if not job.quiet:
        print(summary(src, result), file=sys.stderr)
    return 0


def summary(src: Path, r: ExportResult) -> str:
    """One line saying what an export wrote."""
    audio = "".join(f", {a}" for a in r.audio) if r.audio else ", no audio"  # "audio 1 ..."
    others = "".join(f", {s}" for s in r.streams)
    encoder = f" by {r.encoder}" if r.encoder else ""
    encoder += f", decoded by {r.decoder}" if r.decoder else ""
    encoder += f", painted at {r.painted} lines" if r.painted else ""
    sar = f" SAR {r.sar.numerator}:{r.sar.denominator}" if r.sar != 1 else ""
    chosen = f" ({r.chosen})" if r.chosen else ""  # a deep source's codec, and why
    return (f"{src} -> {r.output} ({counted(r.frames, 'frame')}, {r.size[0]}x{r.size[1]}{sar} "
            f"{r.codec} {r.bits}-bit{chosen}{encoder}{audio}{others}; {r.elapsed:.1f} s, "
            f"{r.fps:.1f} fps)")


def run_batch(job: RenderJob) -> int:
    """Render several files into the folder -o; continue past failures (each said in one
    line); Ctrl+C or a termination signal ends the batch, saying what was written."""
    if job.cluster is not None:
        return render_cluster.run_batch(job)
    output = job.output
    files, names, decodes = prepare_batch(job)
    failed: list[tuple[Path, str]] = []
    skipped: list[str] = []
    written: list[str] = []
    n = 0
    busy: Path | None = None  # the file being rendered, if any (for a cancel's line)
    try:
        for n, ((src, _), name) in enumerate(zip(files, names, strict=True), 1):
            dst = output / name
            # a batch never silently replaces work (a sequence's: its first frame)
            there = frame_path(dst, 1) if is_sequence(dst) else dst
            if there.exists() and not job.overwrite:
                skipped.append(str(name))
                continue
            if not job.quiet:
                print(f"[{n}/{len(files)}] {src}", file=sys.stderr)
            busy = src
            try:
                dst.parent.mkdir(parents=True, exist_ok=True)
                render_one(job, src, dst, decodes)
            except AquarelleError as e:
                print_error(RENDER, e)
                failed.append((src, str(e)))
            except Exception as e:  # an OSError, OpenCV's cv2.error...: this file's failure
                _reraise_interrupt(e)
                message = failure_line(src, e)
                print_error(RENDER, message)
                failed.append((src, message))
            else:
                written.append(str(name))
            busy = None
    except KeyboardInterrupt:  # (Terminated too): said, then ended as any command is
        print(cancelled_line(n, len(files), busy, output, written), file=sys.stderr)
        raise
    return batch_summary(job.quiet, len(files), output, skipped, failed)


def render_one(job: RenderJob, src: Path, dst: Path, decodes: dict[Path, bool]) -> int:
    """One file of a batch: a still (also a one-frame GIF: its picture, as `render
    still.gif -o x.png` paints it), else a video (or an animated picture FFmpeg decodes,
    or an image sequence: frames/%04d.png, to frames named as `dst`)."""
    if is_sequence(src):
        return run(job, src, dst)
    if is_image_path(src) and not decodes.get(src):
        return render_image(job, src, dst, decodes=decodes.get(src))
    if is_still_gif(src):
        return render_still_gif(job, src, dst)
    return run(job, src, dst)


def _reraise_interrupt(e: BaseException) -> None:
    """Raise the interrupt behind `e`, if any: one a library swallowed (and then failed
    otherwise), or one `e` was raised while handling. A cancelled batch ends."""
    checkpoint()
    seen = e.__cause__ or e.__context__
    for _ in range(100):  # (a chain ends; this is only a guard)
        if seen is None:
            return
        if isinstance(seen, KeyboardInterrupt):
            raise seen
        seen = seen.__cause__ or seen.__context__


def failure_line(src: Path, e: Exception) -> str:
    """One line for an error that is not aquarelle's own (an OSError, OpenCV's cv2.error),
    naming the file: no traceback, no library path."""
    if isinstance(e, OSError):
        reason = e.strerror or str(e) or type(e).__name__
        reason = reason[:1].lower() + reason[1:]
        other = f"{e.filename}: " if e.filename and str(e.filename) != str(src) else ""
        return f"{src}: {other}{reason}"
    lines = [line.strip() for line in str(e).splitlines() if line.strip()]
    text = re.sub(r"^OpenCV\([^)]*\)\s+\S+:\d+:\s*error:\s*", "", lines[-1]) if lines else ""
    kind, where = type(e).__qualname__, type(e).__module__.split(".")[0]
    return f"{src}: {text or 'failed'} ({kind if where == 'builtins' else f'{where}.{kind}'})"


def cancelled_line(n: int, total: int, busy: Path | None, output: Path,
                   written: list[str]) -> str:
    """What a cancelled batch finished: the file it was at (`busy`, the `n`th: not written,
    as nothing is left half-written), or the files it had gone through, and the outputs
    written."""
    if busy is not None:
        at = f"at file {n} of {total} ({busy}, not written)"
    else:
        at = f"after file {n} of {total}" if n else "before its first file"
    done = (f"{counted(len(written), 'file')} written into {output}: {first_ten(written)}"
            if written else "nothing written")
    return f"batch: cancelled {at}; {done}"
