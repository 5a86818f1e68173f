"""Exporting a stylized video: decode -> analyse -> render -> readback -> encode, pipelined.

Four stages overlap: a decoder thread (PyAV demux/decode, RGB conversion, resize), an
analysis thread (each frame's optical flow, and its faces and person mask beside it:
media/frame_analysis.py), the calling thread (the only one that touches GL: upload,
render, and an asynchronous readback into one of two pixel-pack buffers, so frame k renders
while frame k-1's pixels are mapped), and an encoder thread (YUV conversion, encode, mux,
audio copy/transcode). Bounded queues between them keep memory flat. The output is written
atomically: on any error or cancel nothing is left at the destination.
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import chain
from pathlib import Path
from typing import Any

import av
import cv2
import moderngl
import numpy as np

from ..engine.chain_spec import AnyStyle
from ..engine.context import create_headless_context, make_current
from ..engine.interrupts import checkpoint
from ..engine.renderer import Renderer
from .atomic import atomic_output
from .audio import audio_copies, output_end
from .carry import carry_streams, depth_warnings
from .codecs import DEFAULT_CODEC
from .errors import ExportCancelled, MediaError, ffmpeg_reason
from .export_options import ExportOptions, resolve_size
from .frame_analysis import FrameAnalysis
from .frame_range import DecodedFrame
from .hw_encoders import HARDWARE, EncoderChoice, choose
from .image_formats import JPEG_EXTENSIONS, NO_ALPHA
from .image_read import os_reason
from .metadata import stream_label
from .paths import is_sequence, same_path
from .render_stage import Rendered, RenderStage
from .runner import run_pipelined, run_sequential
from .subtitle_cues import SubtitleItem
from .video_reader import AudioItem, VideoReader, bits_of, video_depth
from .video_writer import (
    CODECS,
    FULL_RANGE_ENCODERS,
    SPEEDS,
    CodecSpec,
    VideoWriter,
    deep_default,
    deep_format,
    encoded_size,
    keeps_pixel_aspect,
    output_format,
    padding_warning,
    source_profile,
)

# the finest time base a new rate's timestamps get (FFmpeg's MOV muxer warns above it)
MAX_TIME_BASE = 100_000


@dataclass
class ExportProgress:
    """Where an export stands; passed to the progress callback on the calling thread."""

    done: int  # frames encoded
    total: int | None  # frames expected, if known
    elapsed: float  # seconds since the first frame was decoded
    encoder: str = ""  # the decoder and encoder at work, e.g. "h264 on cuda -> h264_nvenc"
    estimated: bool = False  # total is a guess from the duration and rate (no frame count)

    @property
    def fps(self) -> float:
        """Average frames per second so far."""
        return self.done / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        """Seconds left at the average rate, if the total is known."""
        if not self.total or not self.done:
            return None
        return max(0.0, (self.total - self.done) / self.fps)


@dataclass
class ExportResult:
    """What an export wrote."""

    output: Path
    frames: int
    lost: int  # frames of the range that could not be decoded (corrupt or truncated input)
    size: tuple[int, int]  # encoded (W, H)
    codec: str
    encoder: str = ""  # hw_encoders.EncoderChoice.describe(): which encoder, and why
    decoder: str = ""  # hw_decoders.DecoderChoice.describe(): which decoder, and why
    audio: list[str] = field(default_factory=list)  # e.g. "aac copied"
    streams: list[str] = field(default_factory=list)  # the others, e.g. "subtitle 2 copied"
    bits: int = 8  # bits per sample of the video written
    chosen: str = ""  # why the codec was chosen where none was asked for (a deep source's)
    sar: Fraction = Fraction(1)  # the shape of its pixels (width / height; 1 square)
    painted: int = 0  # lines the frames were painted at, below their own (the video limit)
    elapsed: float = 0.0
    warnings: list[str] = field(default_factory=list)
    # Seconds each stage was busy: decode (demux, decode, RGB, resize), motion and subject
    # (the analysis: the flow, the faces beside it), render (upload, passes, readback),
    # encode (YUV, encode, mux, audio). Pipelined, they overlap.
    stage_seconds: dict[str, float] = field(default_factory=dict)

    @property
    def fps(self) -> float:
        """Export throughput in frames per second."""
        return self.frames / self.elapsed if self.elapsed > 0 else 0.0


ProgressCallback = Callable[[ExportProgress], None]


def asked(size: tuple[int, int] | None) -> bool:
    """Whether a --size names a size (-1x-1 keeps the source's)."""
    return size is not None and max(size) > 0


def pixel_shape(size: tuple[int, int] | None, source: tuple[int, int], sar: Fraction,
                keeps: bool = True) -> tuple[tuple[int, int], Fraction]:
    """The upright size frames of `source` pixels shaped `sar` are painted at, and the shape
    of its pixels. A size asked for (--size) is the displayed one, in square pixels. Without
    one the source's pixels stay, or where the output cannot say their shape (`keeps` False)
    are made square at the source's height. What follows keeps the shape: an upscaler
    enlarges both sides alike, a stereo pair's views each have the frame's, padding to even
    sizes adds a pixel."""
    if sar == 1:
        return resolve_size(size, source), sar
    if asked(size):
        return resolve_size(size, source, sar), Fraction(1)
    if not keeps:
        return resolve_size((-1, source[1]), source, sar), Fraction(1)
    return source, sar


def square_warning(name: str, source: tuple[int, int], sar: Fraction, size: tuple[int, int],
                   output: str) -> str:
    """What pixel_shape did where `output` cannot hold the pixels' shape (`keeps` False)."""
    return (f"{name} has non-square pixels (SAR {sar.numerator}:{sar.denominator}), which "
            f"{output} cannot hold: painted at {size[0]}x{size[1]} in square pixels instead "
            f"of {source[0]}x{source[1]} (.mp4, .mov or .mkv with h264/h265 keep them)")


class _Counters:
    def __init__(self) -> None:
        self.encoded = 0
        self.started = time.perf_counter()
        self.busy = {"decode": 0.0, "encode": 0.0}


def export_video(src: str | Path, dst: str | Path, style: str | AnyStyle = "watercolor",
                 values: Mapping[str, Any] | None = None, options: ExportOptions | None = None,
                 *, progress: ProgressCallback | None = None,
                 cancel: threading.Event | None = None,
                 ctx: moderngl.Context | None = None) -> ExportResult:
    """Stylize every frame of `src` into the video file `dst`.

    Frame-exact: the output holds the decodable frames of the range with their source
    timestamps (variable frame rates kept), upright, and the audio streams (copied, or
    transcoded when the container does not take their codec). `progress` is called on this
    thread after each frame; raising from it (e.g. KeyboardInterrupt) or setting `cancel`
    stops the export, and nothing is written. Errors are MediaError with a one-line message.
    """
    opts = options or ExportOptions()
    src, dst = Path(src), Path(dst)
    fmt, spec = output_format(dst, opts.codec)
    check_options(opts)  # (--crf's range once the codec is known: a deep source's may differ)
    if same_path(src, dst):
        raise MediaError(f"output {dst} is the input; choose another name")
    if not src.exists() and not is_sequence(src):  # the input's own problem first
        raise MediaError(f"no such file: {src}")
    if str(dst.parent) and not dst.parent.is_dir():
        raise MediaError(f"output folder does not exist: {dst.parent}")

    reader = VideoReader(src, audio=opts.audio, subtitles=opts.subtitles, deep=None,
                         decoder=opts.decoder, rgba=True,
                         sequence_rate=opts.fps if is_sequence(src) else None)
    try:
        opts = started_at_frame(reader, opts)
        transcode, layout_notes = audio_copies(fmt, src, reader.audio_streams)
        transcode, unwritten = _audio_outside(reader, transcode, opts.start, opts.end)
        reader.transcode_audio = transcode
        spec, chosen = keep_depth(fmt, spec, opts.codec, reader.bit_depth, reader.codec_name,
                                  opts.encoder == "hardware")
        _check_crf(opts, spec.name)
        spec = source_profile(spec, reader.video)  # a ProRes source's 4444, HQ... kept
        # from the frame on screen at --start, as an editor's cut starts (`from_start`)
        items = reader.items(opts.start, opts.end, shown=True)
        head, first = _prime(items, reader, src, opts.start, opts.end)
        source = (first.image.shape[1], first.image.shape[0])
        keeps = keeps_pixel_aspect(fmt, spec)
        source_sar = reader.sample_aspect
        size, sar = pixel_shape(opts.size, source, source_sar, keeps)
        total = output_frames(reader, opts.start, opts.end, opts.fps)
        # only a container's frame count is sure (Matroska keeps none; a variable rate's
        # frames are not its duration times its rate): else the total is said as a guess
        guess = not (opts.start <= 0 and opts.end is None and reader.video.frames)
        gl = ctx or create_headless_context()
        try:
            # current (a caller's: other contexts may have been made since it was), and left
            # current for the caller's next call
            make_current(gl)
            result = _export(reader, chain(head, items), size, dst, fmt, spec, transcode,
                             gl, style, values, opts, total, progress, cancel, sar, guess)
        finally:
            if ctx is None:
                gl.release()
        if reader.photos is not None and (fitted := reader.photos.resized()) is not None:
            result.warnings.append(fitted)
    finally:
        reader.close()
    result.sar = sar
    result.chosen = chosen
    result.warnings.extend(layout_notes)
    for what, why in unwritten:
        result.audio.append(f"{what} not written")
        result.warnings.append(f"{what} {why}: no track is written for it")
    if source_sar != 1 and not keeps and not asked(opts.size):
        result.warnings.append(square_warning(src.name, source, source_sar, size,
                                              f"{dst.suffix} with {spec.name}"))
    return result


# The codecs' names in words, for a chosen codec's note
SPOKEN = {"h264": "H.264", "h265": "H.265", "vp9": "VP9", "prores": "ProRes"}


def keep_depth(fmt: str, spec: CodecSpec, asked: str | None, bits: int, source: str,
               hardware: bool = False) -> tuple[CodecSpec, str]:
    """The codec an export writes, and why where it was chosen for the source: without
    --codec (`asked` None), a source of more than 8 bits (`bits`, coded in `source`) whose
    container's usual codec writes 8 gets one that keeps 10 (deep_default: its own family,
    else H.265 Main 10), with a note naming the --codec that gives the usual one; else
    `spec`, and no note (also with --encoder hardware, `hardware`: a GPU's encoder is 8-bit,
    and the export says so)."""
    if asked is not None or hardware or bits <= 8 or deep_format(spec) is not None:
        return spec, ""
    chosen = deep_default(fmt, source)
    if chosen is None:
        return spec, ""
    kept = "the source's 10 bits" if bits == 10 else f"10 of the source's {bits} bits"
    return chosen, (f"chosen to keep {kept}; --codec {spec.name} for 8-bit "
                    f"{SPOKEN.get(spec.name, spec.name)}")


def default_codec(src: str | Path, fmt: str) -> CodecSpec:
    """The codec an export of `src` into container `fmt` writes without --codec, which the
    window's export dialog offers: the container's usual one, or for a source of more than
    8 bits one that keeps them (keep_depth)."""
    spec = CODECS[DEFAULT_CODEC.get(fmt, "h264")]
    depth = video_depth(src)
    return spec if depth is None else keep_depth(fmt, spec, None, *depth)[0]


def retime(items: Iterable[DecodedFrame | AudioItem], fps: float, time_base: Fraction,
           start: float | None = None, end: float | None = None, whole: bool = True
           ) -> Iterator[DecodedFrame | AudioItem]:
    """Frames at a constant `fps`, timed in `time_base`: slot k, k / fps after `start` (source
    seconds: a --start cut's time; None: the first frame's), shows the last frame that
    started at or before it, so frames are repeated (faster rate) or left out (slower). A
    slot lasts until the next one.

    The last: where the frames are cut at `end` (source seconds: --end's, which a walk cuts
    the last frame at: `FrameRange`), every slot before it, the last until it, as asked.
    Where they end at the source's own end, a last slot that would show for less than half
    a step is not written (unless it is the only one), and the last one written lasts a
    whole step (`whole`: a constant rate throughout, which editors read as one; the video
    ends within half a step of the source's, before or after it), or until the source's
    end (`whole` False: a GIF's delays keep its length). A last frame without a duration
    gets one slot, a step. Audio passes through unchanged."""
    step = Fraction(1) / Fraction(fps).limit_denominator(1001)
    pending: DecodedFrame | None = None
    made: list[DecodedFrame] = []  # the latest two slots: the end may change them
    t0: Fraction | None = None
    k = 0

    def slots(until: Fraction | None) -> Iterator[DecodedFrame]:
        nonlocal k
        assert pending is not None and t0 is not None
        while until is None or t0 + k * step < until:
            t = t0 + k * step
            pts = round(t / time_base)
            made.append(DecodedFrame(pending.image, pts, time_base, k,
                                     max(1, round((t + step) / time_base) - pts),
                                     alpha=pending.alpha))
            k += 1
            if len(made) > 2:
                yield made.pop(0)
            if until is None:
                return

    for item in items:
        if not isinstance(item, DecodedFrame):
            yield item
            continue
        t = Fraction(item.pts) * item.time_base
        if pending is None:
            t0 = t if start is None else exact(start)
        else:
            yield from slots(t)
        pending = item
    if pending is None:
        return
    if not pending.duration:
        yield from slots(None)
        yield from made
        return
    stop = Fraction(pending.pts + pending.duration) * pending.time_base
    yield from slots(stop)
    last_tick = round(stop / time_base)
    ticks = step / time_base  # a step, in ticks (not always a whole number of them)
    cut = end is not None and stop >= exact(end) - pending.time_base  # (within its tick)
    if not cut and len(made) > 1 and 2 * (last_tick - made[-1].pts) < ticks:
        made.pop()  # less than half a step: the slot before ends the video
    last = made[-1]
    left = last_tick - last.pts
    if cut or not whole or 2 * left < ticks:
        last.duration = max(1, min(last.duration or 1, left) if cut else left)
    yield from made


def from_start(frame: DecodedFrame | Rendered, start: int) -> None:
    """The frame on screen at a --start cut (`start`, in its time base), begun before it,
    held from there: its time moved to `start`, its duration shortened as much. Without it
    the output began with the next frame, at its own time: an MP4 then opened on an empty
    edit (no picture) as long as the gap, and a GIF stretched the next frame back over it."""
    if frame.pts >= start:
        return
    if frame.duration:
        frame.duration = max(1, frame.duration - (start - frame.pts))
    frame.pts = start


def exact(seconds: float) -> Fraction:
    """A time in seconds as the fraction it was written as (0.4 is 2/5), for timestamps."""
    return Fraction(seconds).limit_denominator(10**9)


def rate_time_base(source: Fraction, fps: float | Fraction) -> Fraction:
    """A time base that holds both the source's timestamps and steps of a new rate exactly
    (1/3000 for milliseconds at 24 fps); where that is too fine for a container, the rate's
    own (1/30000 for 30000/1001 fps from FFmpeg's usual 1/12800: the source's would step
    427 and 428 ticks by turns, a variable rate to editors, 2.000 s for 60 frames instead
    of 2.002), whose steps are all alike; the source's only where that is too fine too."""
    step = Fraction(1) / Fraction(fps).limit_denominator(1001)
    tb = Fraction(math.gcd(source.numerator, step.numerator),
                  math.lcm(source.denominator, step.denominator))
    if tb.denominator <= MAX_TIME_BASE:
        return tb
    own = Fraction(1, step.denominator)
    return own if own.denominator <= MAX_TIME_BASE else source


def output_frames(reader: VideoReader, start: float, end: float | None, fps: float | None
                  ) -> int | None:
    """Frames an export of [start, end) writes: the source's, or at a new rate `fps` the
    slots from `start` (or the first frame) that fall before `end`, or before the video's
    end, a last one of less than half a step there left out (`retime`)."""
    expected = reader.expected_frames(start, end, shown=True)
    if fps is None or expected is None or not reader.fps:
        return expected
    duration = reader.duration
    stop = duration if end is None else min(end, duration or end)
    if stop is None:
        return round(expected * fps / reader.fps)
    slots = round((stop - max(0.0, start)) * fps, 6)
    if end is not None and (duration is None or end < duration):
        return max(1, math.ceil(slots))
    return max(1, math.floor(slots + 0.5))


def encoder_for(spec: CodecSpec, want: str, deep: bool,
                size: tuple[int, int] = (256, 144), full_range: bool = False
                ) -> EncoderChoice:
    """The encoder of an export: a hardware one for 8-bit H.264/H.265 where one works here
    (`want` "auto"), else the codec's software encoder (media/hw_encoders.py); the software
    one for a `full_range` source too, under "auto" (it keeps its range: no GPU's is known
    to, FULL_RANGE_ENCODERS)."""
    if deep and want != "hardware":
        return EncoderChoice(spec.encoder, False, "10-bit" if want == "auto" and
                             spec.name in HARDWARE else "")
    if full_range and want == "auto" and spec.name in HARDWARE \
            and spec.encoder in FULL_RANGE_ENCODERS:
        return EncoderChoice(spec.encoder, False, "full range")
    if spec.name not in HARDWARE:
        if want == "hardware":
            raise MediaError(f"--encoder hardware: no hardware encoder for {spec.name}; use "
                             f"{' or '.join(HARDWARE)}")
        return EncoderChoice(spec.encoder, False)
    if deep:
        raise MediaError("--encoder hardware writes 8-bit video only; this source is deep "
                         "(use --encoder auto or software)")
    try:
        return choose(spec.name, spec.encoder, want, size=size)
    except ValueError as e:
        raise MediaError(f"--encoder hardware: {e}") from None


def _check_crf(opts: ExportOptions, codec: str) -> None:
    """--crf within the range of the codec written (check_options has the others)."""
    spec = CODECS[codec]
    if opts.crf is not None and spec.default_crf is not None \
            and not 0 <= opts.crf <= spec.max_crf:
        raise MediaError(f"--crf for {codec} must be between 0 and {spec.max_crf}, "
                         f"got {opts.crf}")


def check_options(opts: ExportOptions) -> None:
    """The options that do not depend on the codec: rate, speed, range, size."""
    if opts.fps is not None and not 0.5 <= opts.fps <= 1000:
        raise MediaError(f"--fps must be between 0.5 and 1000, got {float(opts.fps):g}")
    if opts.speed is not None and opts.speed not in SPEEDS:
        raise MediaError(f"--speed {opts.speed!r}: use one of {', '.join(SPEEDS)}")
    if opts.start < 0:
        raise MediaError(f"--start must not be negative, got {opts.start:g}")
    if opts.end is not None and opts.end <= opts.start:
        raise MediaError(f"--end ({opts.end:g}) must be after --start ({opts.start:g})")
    if opts.size is not None and any(v == 0 or v < -1 or v > 16384 for v in opts.size):
        raise MediaError(f"--size must be WIDTHxHEIGHT in pixels (-1 keeps the aspect), "
                         f"got {opts.size[0]}x{opts.size[1]}")


def _audio_outside(reader: VideoReader, transcode: frozenset[int], start: float,
                   end: float | None) -> tuple[frozenset[int], list[tuple[str, str]]]:
    """Leave out the audio streams with no sound in the --start/--end range (Matroska would
    get an empty track, MP4 none): the positions to transcode among those kept, and each
    one left out, named ("audio 1 aac") with why ("ends at 1.00 s, before --start 1.5 s")."""
    kept, positions, left = [], [], []
    for i, s in enumerate(reader.audio_streams):
        why = reader.audio_outside(i, start, end, copied=i not in transcode)
        if why is None:
            kept.append(s)
            positions.append(i)
        else:
            left.append((f"audio {stream_label(s)} {s.codec_context.name}", why))
    reader.audio_streams = kept
    return frozenset(n for n, i in enumerate(positions) if i in transcode), left


def _prime(items: Iterator[DecodedFrame | AudioItem], reader: VideoReader, src: Path,
           start: float = 0.0, end: float | None = None
           ) -> tuple[list[DecodedFrame | AudioItem], DecodedFrame]:
    """Walk up to the first video frame (proves the file decodes before anything is written;
    a range of none, [start, end), is said in the options given)."""
    head: list[DecodedFrame | AudioItem] = []
    for item in items:
        head.append(item)
        if isinstance(item, DecodedFrame):
            return head, item
    why = reader.none_why()
    if reader.trimmed:
        raise MediaError(f"{src}: {no_frames_in(start, end, reader.duration)}{why}")
    raise MediaError(f"{src}: no decodable video frames{why}")


def started_at_frame(reader: VideoReader, opts: ExportOptions) -> ExportOptions:
    """`opts` with its --start the time of the frame it names (VideoReader.snapped_start:
    a time typed rounded, less than a millisecond after a frame's start)."""
    start = reader.snapped_start(opts.start)
    return opts if start == opts.start else dataclasses.replace(opts, start=start)


def no_frames_in(start: float, end: float | None, duration: float | None) -> str:
    """"no video frames between the --start and --end times", in the options given: a
    --start alone is said with the video's length where it is known."""
    if end is None:
        lasts = f" (the video lasts {duration:.2f} s)" if duration else ""
        return f"no video frame starts at or after --start {start:g} s{lasts}"
    if start <= 0:
        return f"no video frames before --end {end:g} s"
    return "no video frames between the --start and --end times"


def _fit(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    if (image.shape[1], image.shape[0]) == size:
        return image
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def _export(reader: VideoReader, items: Iterator[DecodedFrame | AudioItem],
            size: tuple[int, int], dst: Path, fmt: str, spec: Any, transcode: frozenset[int],
            ctx: moderngl.Context, style: str | AnyStyle, values: Mapping[str, Any] | None,
            opts: ExportOptions, total: int | None, progress: ProgressCallback | None,
            cancel: threading.Event | None, sar: Fraction = Fraction(1),
            guess: bool = False) -> ExportResult:
    offset = reader.origin(opts.start)
    tb = reader.time_base if opts.fps is None else rate_time_base(reader.time_base, opts.fps)
    shift = round(exact(offset) / tb)

    counters = _Counters()

    def decoded() -> Iterator[DecodedFrame | AudioItem]:
        it = iter(items) if opts.fps is None else retime(
            items, opts.fps, tb, reader.start_time + opts.start if opts.start > 0 else None,
            None if opts.end is None else reader.start_time + opts.end)
        while True:
            t = time.perf_counter()
            item = next(it, None)
            if item is None:
                return
            if isinstance(item, DecodedFrame):
                item.image = _fit(item.image, size)
                if opts.start > 0:
                    from_start(item, shift)
            counters.busy["decode"] += time.perf_counter() - t
            yield item

    with Renderer(ctx, style, seed=opts.seed, scale=opts.scale,
                        deep=reader.deep) as pipeline:
        if values:
            pipeline.set_params(values)
        pipeline.max_lines = opts.video_lines
        out_size = pipeline.output_size(size)  # larger than the frames for an upscaler
        analysis = FrameAnalysis(pipeline)  # the flow and faces, not on the GL thread
        stage = RenderStage(pipeline, out_size, pingpong=opts.pipelined)
        try:
            # chosen before any output exists: a GPU encoder's probe takes a moment
            encoder = encoder_for(spec, opts.encoder, reader.deep,
                                  encoded_size(*out_size, spec), reader.colour.full_range)
            with _atomic(dst, replace=opts.replace) as tmp:
                writer = VideoWriter(tmp, fmt=fmt, codec=spec, size=out_size,
                                     time_base=tb, fps=opts.fps or reader.fps,
                                     crf=opts.crf, speed=opts.speed, deep=reader.deep,
                                     colour=reader.colour, encoder=encoder, sar=sar)
                stage.pack_yuv(writer.packed_format, writer.size)
                dec = reader.decoder
                painted = _painted_lines(pipeline, size)
                # the encoder and, for the software one, why (as the closing line says it)
                label = (f"{dec.codec}{' on ' + dec.device if dec.device else ''} -> "
                         f"{writer.encoder.describe()}"
                         f"{', ' + stage.yuv.layout + ' made on the GPU' if stage.yuv else ''}"
                         f"{f', painted at {painted} lines' if painted else ''}")
                try:
                    audio = [writer.add_audio(s, offset, transcode=i in transcode)
                             for i, s in enumerate(reader.audio_streams)]
                    carried = carry_streams(
                        reader, writer.output, writer.stream,
                        [(s, t.stream) for s, t in zip(reader.audio_streams, audio, strict=True)],
                        dst.suffix.lower() or fmt, offset=offset, metadata=opts.metadata,
                        end=None if opts.end is None else reader.start_time + opts.end,
                        fps=opts.fps)

                    def encode(item: Rendered | AudioItem | SubtitleItem) -> None:
                        t = time.perf_counter()
                        if isinstance(item, SubtitleItem):
                            carried.write_subtitle(item.stream, item.packet)
                        elif isinstance(item, AudioItem):
                            writer.write_audio(item.stream, item.data)
                        else:
                            writer.write_frame(item.image, item.pts - shift, item.duration,
                                               item.yuv)
                            # the cues this frame's start reaches past (the rest wait: a
                            # source cut short ends its picture before its cues)
                            carried.advance((item.pts - shift) * tb)
                            counters.encoded += 1
                        counters.busy["encode"] += time.perf_counter() - t

                    def finish() -> None:
                        t = time.perf_counter()
                        # cues and chapters end with the video, or the sound that outlasts it
                        carried.flush(output_end(writer.end_time(), audio))
                        writer.close()
                        counters.busy["encode"] += time.perf_counter() - t

                    def report() -> None:
                        checkpoint()  # a Ctrl+C that PyAV swallowed while setting up
                        if cancel is not None and cancel.is_set():
                            raise ExportCancelled()
                        if progress is not None:
                            progress(ExportProgress(counters.encoded, total,
                                                    time.perf_counter() - counters.started,
                                                    label, guess))

                    run = run_pipelined if opts.pipelined else run_sequential
                    try:
                        run(decoded(), stage, encode, finish, report, opts.queue_size,
                            analysis if analysis.needed else None)
                    except av.error.FFmpegError as e:
                        raise MediaError(f"cannot encode {dst}: {ffmpeg_reason(e)}") from None
                except BaseException:
                    writer.abort()
                    raise
                if writer.frames == 0:
                    raise MediaError(f"{reader.path}: no decodable video frames"
                                     f"{reader.none_why()}")
                elapsed = time.perf_counter() - counters.started
                if progress is not None:  # the last word; raising here still discards
                    progress(ExportProgress(counters.encoded, counters.encoded, elapsed,
                                            label))
        finally:
            analysis.close()
            stage.release()
    result = ExportResult(dst, writer.frames, reader.lost, writer.size, spec.name,
                          writer.encoder.describe(), decoded_as(reader),
                          [t.describe() for t in audio], carried.streams(dst),
                          elapsed=elapsed,
                          stage_seconds={**counters.busy, **analysis.busy,
                                         "render": stage.busy},
                          bits=bits_of(writer.pix_fmt), painted=painted)
    result.warnings.extend(t.warning for t in audio if t.warning)
    result.warnings.extend(carried.warnings)
    result.warnings.extend(depth_warnings(reader, writer.pix_fmt, spec, writer.encoder.name,
                                          fmt))
    if reader.gap is not None and reader.gap_reached:
        result.warnings.append(reader.gap.describe())
    if result.lost:
        result.warnings.append(f"{reader.path}: {reader.lost_said()} could not be decoded "
                               f"and are missing from the output{reader.lost_why()}")
    result.warnings.extend(reader.damaged_audio.said(
        reader.path, [(s, i in transcode) for i, s in enumerate(reader.audio_streams)]))
    if (why := alpha_left_out(reader, dst)) is not None:
        result.warnings.append(why)
    if reader.unusable_audio:
        result.warnings.append(f"{reader.path}: {reader.unusable_audio} audio stream(s) "
                               "could not be read and were left out")
    if opts.crf is not None and spec.default_crf is None:
        result.warnings.append(f"--crf does not apply to {spec.name} and was ignored")
    if opts.speed is not None and spec.encoder == "prores_ks":
        result.warnings.append(f"--speed does not apply to {spec.name} and was ignored")
    if (padded := padding_warning(writer.content_size, writer.size)) is not None:
        result.warnings.append(padded)
    if opts.end is not None and reader.duration and opts.end > reader.duration + 1e-3:
        # (a --start past the end is an error; an --end past it was taken without a word)
        result.warnings.append(f"--end {opts.end:g} s is past the end of the video "
                               f"({reader.duration:.2f} s): exported to its end")
    return result


def decoded_as(reader: VideoReader) -> str:
    """How the frames were decoded, for the summary: "h264 (software: ...), deinterlaced"."""
    return reader.decoder.describe() + (", deinterlaced (bwdif)" if reader.deinterlaced else "")


def alpha_left_out(reader: VideoReader, output: Path) -> str | None:
    """The warning for a source whose pictures carry transparency written to an `output`
    that cannot keep it (a video, JPEG or BMP frames), or whose alpha is never read (a YUV
    video's: ProRes 4444, VP8/VP9), asked after the walk: a pixel less than opaque among the
    frames decoded (a GIF decodes to bgra, mostly opaque), or a VP8/VP9 stream's alpha
    (VideoReader.has_alpha). None for an opaque source."""
    if not reader.has_alpha:
        return None
    if not reader.on_white:  # (its alpha never read: no output keeps it)
        return f"{reader.path.name} has an alpha channel {reader.alpha_fate}"
    ext = output.suffix.lower()
    if ext in JPEG_EXTENSIONS:
        why, keep = "JPEG holds no transparency", ".png, .webp and .tif frames"
    elif ext in NO_ALPHA:
        why, keep = "BMP frames are written opaque", ".png, .webp and .tif frames"
    else:
        why, keep = "videos are written opaque", ".gif and .png frames"
    return (f"{reader.path.name} has an alpha channel, which {output.name} cannot keep "
            f"({why}): {reader.alpha_fate} ({keep} keep it)")


class _atomic:
    """atomic_output with OS errors turned into one-line MediaErrors."""

    def __init__(self, dst: Path, *, replace: bool = True) -> None:
        self.dst = dst
        self._cm = atomic_output(dst, replace=replace)

    def __enter__(self) -> Path:
        try:
            return self._cm.__enter__()
        except FileExistsError as e:  # atomic.OutputExists, -n: its message says it all
            raise MediaError(str(e)) from None
        except OSError as e:
            raise MediaError(f"cannot write {self.dst}: {os_reason(e)}") from None

    def __exit__(self, *exc: Any) -> bool:
        try:
            return bool(self._cm.__exit__(*exc))
        except FileExistsError as e:  # -n, and the output appeared while rendering
            raise MediaError(str(e)) from None
        except OSError as e:
            raise MediaError(f"cannot write {self.dst}: {os_reason(e)}") from None


def _painted_lines(renderer: Renderer, size: tuple[int, int]) -> int:
    """The lines a frame of `size` is painted at where the video limit paints it below its
    own (and below the scale asked for); 0 otherwise."""
    return renderer.work_lines(size) if renderer.work_scale(size) < renderer.scale else 0
