"""Encoding stylized frames with PyAV: codec/container choice (codecs.py names them), even
sizes, kept timestamps.

Every output is tagged BT.709 (matrix, primaries, transfer) with limited range, and the RGB to
YUV conversion uses that matrix, so players show the colours the GL pipeline produced; an HDR
source's tags (BT.2020, PQ or HLG) are carried instead, its coded values painted as they are,
and its mastering display and light levels where x265 or x264 writes them (media/hdr.py).
A full-range source (0-255: phone and screen recordings, MJPEG) is written full range where
the encoder keeps it (codecs.FULL_RANGE_ENCODERS), else limited (`range_warning` says so).
A deep (16-bit) picture is written at 10 bits where the codec can hold them.
Odd sizes: 4:2:0 (and ProRes' 4:2:2) need even dimensions, so the frame is padded by
repeating its last column and/or row; no pixel of the picture is lost.
Non-square pixels (DV, DVD, HDV) keep their sample aspect ratio where the file can hold it
(`keeps_pixel_aspect`).
Timing: each frame lasts until the next frame's timestamp (the last its own duration), so
variable frame rates keep every frame's length, not the container's nominal one. MP4 and MOV
store a sample's duration only as the step to the next sample's decode time, so there the
decode times are laid out by those durations (`VideoWriter._decode_time`).
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from av.video.reformatter import ColorRange, Colorspace

from ..engine.yuv_pack import LAYOUTS, YuvFormat
from .audio import AudioTrack
from .codecs import (  # noqa: F401 (the tables and output_format: others read them here)
    CODECS,
    CONTAINERS,
    EXTENSION_FOR_CODEC,
    FULL_RANGE_ENCODERS,
    ISO_FORMATS,
    SPEEDS,
    CodecSpec,
    output_format,
)
from .errors import MediaError, ffmpeg_reason
from .hdr import hdr10_params
from .hw_encoders import EncoderChoice, pixel_format, quality_options
from .video_reader import SDR, Colour

# A ProRes source's profile (as FFmpeg's decoder names it) and prores_ks' name for it
PRORES_PROFILES = {"Proxy": "proxy", "LT": "lt", "Standard": "standard", "HQ": "hq",
                   "4444": "4444", "XQ": "4444xq"}
# H.264 stays 8-bit even for deep pictures: High 10 plays on few devices.
# PyAV opens codecs with slice threads, which make x264 cut each frame into one slice per
# core and wait for the slowest: a 1080p frame took 30 ms of an export on 16 cores (H100),
# 14.5 with frame threads (x264's own default), which encode several frames at once; the
# file is the same from run to run on one machine. Each frame thread holds frames (1080p,
# preset medium: 464 MB peak with slices, 622 with 8 frame threads, 916 with 24), so they
# are capped: x264's automatic count, 1.5 a core, is 24 on 16 cores.
FRAME_THREADS = "FRAME"
MAX_FRAME_THREADS = 8


def frame_threads() -> int:
    """How many frames x264 encodes at once here: 1.5 a core, at most MAX_FRAME_THREADS."""
    return max(1, min(MAX_FRAME_THREADS, round(1.5 * (os.cpu_count() or 1))))

DEFAULT_SPEED = "medium"
VP9_CPU_USED = dict(zip(SPEEDS, (8, 7, 6, 5, 4, 4, 2, 1, 0), strict=True))
# MP4/MOV: encoded packets held before the first is written, to find where the decode
# timeline starts (see VideoWriter._decode_time); compressed, a few MB at 1080p
TIMELINE_WINDOW = 120


def _edit_starts_at_first(origin: int, held: list[tuple[int, int, int]]) -> bool:
    """Whether FFmpeg's MP4/MOV muxer starts the edit list at the first packet's frame when
    decode times are laid out from `origin` (`_decode_time`) over `held`: (pts, encoder's
    decode time, duration decoded before) of each packet in decode order. The muxer delays
    the track by the first decode time plus the smallest pts - dts of the packets decoded at
    or before 0: where one of them (a B-frame, where frames differ in length) has a smaller
    one than the first packet, the delay falls short of the first frame's pts, and FFmpeg's
    readers play that frame at 0 (they drop the gap the edit list leaves before it)."""
    pts0 = held[0][0]
    if pts0 <= 0:  # no delay to keep
        return True
    times = [(pts, min(origin + before, dts)) for pts, dts, before in held]
    offset = pts0 - times[0][1]
    return all(pts - dts >= offset for pts, dts in times if dts <= 0)


def source_profile(spec: CodecSpec, source: av.video.stream.VideoStream) -> CodecSpec:
    """`spec` in a ProRes source's profile when it writes ProRes (4444 and 4444 XQ at 4:4:4);
    else `spec` as it is."""
    profile = PRORES_PROFILES.get(source.codec_context.profile or "") \
        if spec.encoder == "prores_ks" and source.codec_context.name == "prores" else None
    if profile is None:
        return spec
    if profile.startswith("4444"):
        return replace(spec, pix_fmt="yuv444p10le", deep_pix_fmt="yuv444p10le",
                       subsampling=(1, 1), profile=profile)
    return replace(spec, profile=profile)


def deep_format(spec: CodecSpec) -> str | None:
    """The 10-bit pixel format this codec's encoder takes here, if any (libvpx is often
    built 8-bit only)."""
    if spec.deep_pix_fmt is None:
        return None
    try:
        formats = av.codec.Codec(spec.encoder, "w").video_formats or ()
    except (av.error.FFmpegError, ValueError):  # an encoder this FFmpeg lacks
        return None
    return spec.deep_pix_fmt if spec.deep_pix_fmt in {f.name for f in formats} else None


# A deep source's codec family (FFmpeg's decoder name) and the --codec that writes it
FAMILIES = {"hevc": "h265", "prores": "prores", "vp9": "vp9"}


def deep_default(fmt: str, source: str) -> CodecSpec | None:
    """The codec an output in container `fmt` gets without --codec from a source of more
    than 8 bits coded in `source` (FFmpeg's name: hevc, prores, vp9...): the source's own
    family where `fmt` takes it and its encoder writes 10 bits here, else H.265 Main 10;
    None where neither does (.webm: the default VP9 is all there is)."""
    family = FAMILIES.get(source)
    for name in (*((family,) if family else ()), "h265"):
        spec = CODECS[name]
        if fmt in spec.containers and deep_format(spec) is not None:
            return spec
    return None


def encoded_size(width: int, height: int, spec: CodecSpec) -> tuple[int, int]:
    """The size actually encoded: rounded up to the codec's chroma subsampling."""
    sx, sy = spec.subsampling
    return width + (-width) % sx, height + (-height) % sy


def keeps_pixel_aspect(fmt: str, codec: CodecSpec) -> bool:
    """Whether a sample aspect ratio set on the encoder reaches the file: MP4 and MOV store
    the codec's; Matroska and WebM only the stream's, which PyAV cannot set, so there it
    lasts only in a bitstream that holds it (H.264's and H.265's VUI; not VP9 or ProRes)."""
    return fmt in ISO_FORMATS or codec.name in ("h264", "h265")


def pad_to(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """Pad an (H, W, C) image to (height, width) by repeating its last row and column."""
    h, w = image.shape[:2]
    if (w, h) == (width, height):
        return image
    return np.pad(image, ((0, height - h), (0, width - w), (0, 0)), mode="edge")


class VideoWriter:
    """One output file: a video stream (stylized frames) and copied/transcoded audio tracks.

    Use from one thread at a time; `close()` flushes and finalizes, `abort()` just closes.
    """

    def __init__(self, path: str | Path, *, fmt: str, codec: CodecSpec, size: tuple[int, int],
                 time_base: Fraction, fps: float | None, crf: int | None = None,
                 speed: str | None = None, deep: bool = False, colour: Colour = SDR,
                 encoder: EncoderChoice | None = None, sar: Fraction = Fraction(1)) -> None:
        self.path = Path(path)
        self.codec = codec
        # a hardware encoder takes the 8-bit frames only (see media/hw_encoders.py)
        self.encoder = encoder if encoder is not None and not deep \
            else EncoderChoice(codec.encoder, False)
        self.fmt = fmt
        self.pix_fmt = (deep_format(codec) if deep else None) or codec.pix_fmt
        if self.encoder.hardware:
            self.pix_fmt = pixel_format(self.encoder.name)
        self.colour = colour
        # The RGB -> YUV matrix, and the tag that says it (FFmpeg's AVColorSpace: 1 BT.709,
        # 9 BT.2020): BT.2020 for an HDR source, else BT.709 (an SD source's BT.601 too)
        bt2020 = colour.matrix in (9, 10)
        self._matrix = Colorspace.BT2020 if bt2020 else Colorspace.ITU709
        self._matrix_tag = 9 if bt2020 else 1
        # a full-range source stays full range where the encoder keeps it
        self.full_range = colour.full_range and self.encoder.name in FULL_RANGE_ENCODERS
        self._range = ColorRange.JPEG if self.full_range else ColorRange.MPEG
        self.content_size = size
        self.size = encoded_size(*size, codec)  # padding keeps the pixels' shape
        self.sar = sar  # width / height of a pixel; 1 (square) is left untagged
        self.time_base = time_base
        self.frames = 0
        self.audio: list[AudioTrack] = []
        # Each frame's own duration (time_base units): the step to the next frame's pts,
        # known once that frame comes (the last one's at close). Packets wait in `_queue`,
        # in the encoder's (decode) order, until their frame's duration is known.
        self._durations: dict[int, int] = {}
        self._last: tuple[int, int | None] | None = None  # the latest frame: pts, duration given
        self._step: int | None = None  # the step before the latest frame
        self._queue: deque[av.Packet] = deque()
        # MP4/MOV keep a sample's duration as the step to the next decode time: those are
        # laid out from `_dts_origin` by the durations of the packets before (`_decoded`)
        # (not for ProRes: its frames are never reordered, so its decode times are its
        # timestamps already, and holding a window of its big frames would cost memory)
        self._timeline = fmt in ISO_FORMATS and codec.name != "prores"
        self._dts_origin: int | None = None
        self._decoded = 0
        self._end = 0  # the last frame's end (pts + duration), known at close
        # MP4/MOV keep exact timestamps with edit lists; Matroska would shift every stream
        # to make an AAC priming packet's negative timestamp zero, so keep them as they are.
        options = ({"movflags": "+faststart"} if fmt in ISO_FORMATS
                   else {"avoid_negative_ts": "disabled"})
        try:
            self.output = av.open(str(self.path), mode="w", format=fmt,
                                  container_options=options)
        except (av.error.FFmpegError, OSError) as e:
            raise MediaError(f"cannot write {self.path}: {ffmpeg_reason(e)}") from None
        try:
            self.stream = self._add_video_stream(fmt, fps, crf, speed or DEFAULT_SPEED)
        except BaseException:
            self.abort()
            raise

    def _add_video_stream(self, fmt: str, fps: float | None, crf: int | None, speed: str
                          ) -> av.video.stream.VideoStream:
        spec = self.codec
        rate = Fraction(fps).limit_denominator(1001) if fps and 0.5 <= fps <= 1000 else 30
        # a lone frame without a duration lasts a frame at the rate
        self._frame_step = max(1, round(1 / (rate * self.time_base)))
        stream = self.output.add_stream(self.encoder.name, rate=rate)
        stream.width, stream.height = self.size
        stream.pix_fmt = self.pix_fmt
        stream.time_base = self.time_base
        cc = stream.codec_context
        cc.time_base = self.time_base
        cc.colorspace = self._matrix_tag
        cc.color_primaries = self.colour.primaries
        cc.color_trc = self.colour.transfer
        cc.color_range = int(self._range)
        if self.sar != 1:
            cc.sample_aspect_ratio = self.sar
        crf = spec.default_crf if crf is None else crf
        opts: dict[str, str] = {}
        if self.encoder.hardware:
            cc.bit_rate = 0
            opts = quality_options(self.encoder.name, crf or 0, SPEEDS.index(speed))
            if self.encoder.name.startswith("hevc") and fmt in ISO_FORMATS:
                cc.codec_tag = "hvc1"
        elif spec.encoder == "libx264":
            cc.bit_rate = 0
            cc.thread_type = FRAME_THREADS
            cc.thread_count = frame_threads()
            opts = {"crf": str(crf), "preset": speed}
            hdr10 = hdr10_params(spec.encoder, self.colour.hdr10)
            if hdr10:
                opts["x264-params"] = ":".join(hdr10)
        elif spec.encoder == "libx265":
            cc.bit_rate = 0
            opts = {"crf": str(crf), "preset": speed, "x265-params": ":".join(
                ["log-level=error", *hdr10_params(spec.encoder, self.colour.hdr10)])}
            if fmt in ISO_FORMATS:
                cc.codec_tag = "hvc1"  # what Apple players expect
        elif spec.encoder == "libvpx-vp9":
            cc.bit_rate = 0
            opts = {"crf": str(crf), "b": "0", "row-mt": "1", "deadline": "good",
                    "cpu-used": str(VP9_CPU_USED[speed])}
        elif spec.encoder == "prores_ks":
            opts = {"profile": spec.profile or "standard"}
        cc.options = opts
        return stream

    @property
    def packed_format(self) -> YuvFormat | None:
        """The 4:2:0 layout, matrix and range this stream's frames may come packed in (8-bit
        yuv420p or nv12: `write_frame` then only wraps them), None where it takes RGB."""
        if self.pix_fmt not in LAYOUTS:
            return None
        return YuvFormat(self.pix_fmt, "bt2020" if self._matrix_tag == 9 else "bt709",
                         self.full_range)

    def add_audio(self, source: av.audio.AudioStream, offset: float = 0.0,
                  transcode: bool | None = None) -> AudioTrack:
        """Add an output audio track for a source audio stream (copy if the format allows)."""
        track = AudioTrack(self.output, source, offset, transcode=transcode)
        self.audio.append(track)
        return track

    def write_frame(self, image: np.ndarray, pts: int, duration: int | None = None,
                    packed: str | None = None) -> None:
        """Encode one RGB or RGBA frame (uint8, or uint16 for a deep picture) at `pts` (in
        `time_base` units); or one already packed on the GPU (`packed` names the layout:
        `packed_format`'s, an (H * 3 / 2, W) array at the encoded size)."""
        w, h = self.size
        c = self.colour
        if packed is not None:
            if packed != self.pix_fmt or image.shape != (h * 3 // 2, w):
                raise ValueError(f"a packed {packed} frame of {image.shape[::-1]} for a "
                                 f"{self.pix_fmt} stream of {w}x{h}")
            frame = av.VideoFrame.from_ndarray(image, format=packed)
            frame.colorspace, frame.color_range = self._matrix_tag, int(self._range)
        else:
            image = pad_to(image, w, h)
            four = image.shape[2] == 4
            if image.dtype == np.uint16:
                fmt = "rgba64le" if four else "rgb48le"
            else:
                fmt = "rgba" if four else "rgb24"
            frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(image), format=fmt)
            # The pixels already are in the output's primaries and transfer: say so, else
            # FFmpeg's colour-managed scaler would convert them (BT.709 to PQ, say).
            frame.color_primaries, frame.color_trc = c.primaries, c.transfer
            frame = frame.reformat(format=self.pix_fmt, dst_colorspace=self._matrix,
                                   dst_color_range=self._range, dst_color_trc=c.transfer,
                                   dst_color_primaries=c.primaries)
        frame.color_primaries, frame.color_trc = c.primaries, c.transfer
        frame.pts = pts
        frame.time_base = self.time_base
        if duration:
            frame.duration = duration
        if self._last is not None:  # the previous frame lasts until this one
            self._step = max(1, pts - self._last[0])
            self._durations[self._last[0]] = self._step
        self._last = (pts, duration)
        self._queue.extend(self.stream.encode(frame))
        self._mux_video()
        self.frames += 1

    def _duration_of(self, packet: av.Packet, final: bool) -> int | None:
        """The duration of a packet's frame: 0 where it is not ours to set, None where it is
        not known yet (its frame's next frame has not come)."""
        if packet.pts is None or packet.time_base != self.time_base:
            return 0
        duration = self._durations.get(packet.pts)
        if duration is None and (final or (self._last is not None
                                           and packet.pts < self._last[0])):
            duration = self._step or self._frame_step  # a pts no frame had: a frame's step
        return duration

    def _mux_video(self, final: bool = False) -> None:
        """Write the queued packets whose frames' durations are known (all, `final`)."""
        if self._timeline and self._dts_origin is None:
            if not final and len(self._queue) < TIMELINE_WINDOW:
                return
            self._dts_origin = self._timeline_origin(final)
        while self._queue:
            packet = self._queue[0]
            duration = self._duration_of(packet, final)
            if duration is None:
                return
            self._queue.popleft()
            if duration:
                # Encoders reorder frames and do not carry durations through: each packet
                # gets its own frame's, so the last frame keeps its length too.
                self._durations.pop(packet.pts, None)
                packet.dts = self._decode_time(packet, duration)
                if final and not self._queue:
                    duration = self._last_sample(packet, duration)
                packet.duration = duration
            else:  # a packet without a time of ours: the encoder's decode times from here on
                self._timeline = False
            self.output.mux(packet)

    def _timeline_origin(self, final: bool) -> int | None:
        """Where MP4/MOV decode times start: early enough that each queued packet's, laid
        out by the durations of the packets before it, is at or before the encoder's own
        (so at or before the frame's pts, and increasing); later where FFmpeg's muxer would
        otherwise play the first frame at 0, not at its pts (`_edit_starts_at_first`): the
        packets whose decode times that holds back get a neighbour's duration, as in
        `_decode_time`. None: not MP4/MOV, or no decode times to go by."""
        origin, decoded = None, 0
        held: list[tuple[int, int, int]] = []  # pts, the encoder's decode time, decoded before
        for packet in self._queue:
            duration = self._duration_of(packet, final)
            if packet.dts is not None and duration != 0:
                origin = packet.dts - decoded if origin is None else \
                    min(origin, packet.dts - decoded)
                held.append((packet.pts, packet.dts, decoded))
            if duration is None:
                break
            decoded += duration
        if origin is None:
            self._timeline = False
            return None
        # the earliest origin, from this one on, whose edit list starts at the first frame
        later = sorted({o for _, dts, before in held for o in (1 - before, dts - before)
                        if o > origin})
        return next((o for o in (origin, *later) if _edit_starts_at_first(o, held)), origin)

    def _decode_time(self, packet: av.Packet, duration: int) -> int | None:
        """A packet's decode time in MP4/MOV, which keep a sample's duration only as the step
        to the next sample's decode time: the encoder's decode times (x264's are the pts of
        frames `bframes` back) would give each sample another frame's duration, and the
        track the wrong length where frames differ in length. Laid out from the origin by
        each packet's own duration instead, never after the encoder's own decode time.
        Exact where the held packets (TIMELINE_WINDOW) show how far frames get reordered:
        where later frames grow longer than any there, a decode time is held back and the
        packets around it get a neighbour's duration (the track's length stays right:
        `_last_sample`). Elsewhere the encoder's."""
        if not self._timeline or packet.dts is None or self._dts_origin is None:
            return packet.dts
        dts = min(self._dts_origin + self._decoded, packet.dts)
        self._decoded += duration
        return dts

    def _last_sample(self, packet: av.Packet, duration: int) -> int:
        """The last packet's duration in MP4/MOV, where the track lasts until the last decode
        time plus it: its frame's own, or more where its decode time was held back
        (`_decode_time`), never past the last frame's end (the edit list's)."""
        if not self._timeline or packet.dts is None or self._dts_origin is None:
            return duration
        track_end = self._dts_origin + self._decoded
        return max(duration, min(track_end - packet.dts, self._end - packet.pts))

    def write_audio(self, stream: int, data: av.Packet | av.AudioFrame) -> None:
        """Pass an audio packet/frame of source audio stream number `stream` on."""
        if 0 <= stream < len(self.audio):
            self.audio[stream].write(data)

    def end_time(self) -> Fraction | None:
        """Where the video written so far ends, in seconds of the output: the last frame's
        end (its own duration, else the step before); None before any frame."""
        if self._last is None:
            return None
        pts, duration = self._last
        return (pts + (duration or self._step or self._frame_step)) * self.time_base

    def close(self, next_pts: int | None = None) -> None:
        """Flush the encoders and finalize the file. `next_pts`: where the frame after the
        last would start (a chunk's, in another file), which the last frame lasts until."""
        self._queue.extend(self.stream.encode(None))
        if self._last is not None:  # the last frame: its own duration, else the step before
            pts, duration = self._last
            if next_pts is not None and next_pts > pts:
                duration = next_pts - pts
            self._durations[pts] = duration or self._step or self._frame_step
            self._end = pts + self._durations[pts]
        self._mux_video(final=True)
        for track in self.audio:
            track.flush()
        self.output.close()

    def abort(self) -> None:
        """Close without flushing (the file is about to be discarded)."""
        with contextlib.suppress(Exception):  # the file is discarded anyway
            self.output.close()


def padding_warning(content: tuple[int, int], size: tuple[int, int]) -> str | None:
    """The line that says an odd-sized picture (`content`) was written padded to `size`."""
    if content == size:
        return None
    return (f"odd size {content[0]}x{content[1]} padded to {size[0]}x{size[1]} "
            "(last column/row repeated)")


def range_warning(name: str, colour: Colour, codec: CodecSpec, encoder: str) -> str | None:
    """The line that says a full-range source (`name`) was written limited range: its codec
    (ProRes) or `encoder` (a GPU's) cannot keep full range."""
    if not colour.full_range or encoder in FULL_RANGE_ENCODERS:
        return None
    if codec.encoder in FULL_RANGE_ENCODERS:  # a GPU's encoder, asked for
        how = f"{encoder} writes limited range: use --encoder software to keep it"
    else:
        keep = sorted({c.name for c in CODECS.values() if c.encoder in FULL_RANGE_ENCODERS})
        how = f"{codec.name} holds limited range only: use --codec {' or '.join(keep)} " \
            "to keep it"
    return f"{name} is full range (0-255); written limited range (16-235), levels " \
        f"squeezed into fewer steps ({how})"
