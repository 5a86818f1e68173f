"""Decoding a video file with PyAV: clean open errors, upright RGB frames, kept timestamps.

`VideoReader.items()` walks the file in demux order and yields `DecodedFrame`s (video) and
`AudioItem`s (audio packets to copy, or decoded audio frames to transcode), trimmed to a time
range. Decoding problems never raise from `items()`: a packet that fails to decode is counted
in `decode_errors`, and a file that becomes unreadable midway ends the walk with `failure` set,
so a video with a corrupt tail yields every frame that can be decoded.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import av.error
import cv2
import numpy as np
from av.codec.hwaccel import HWAccel
from av.video.reformatter import ColorRange, Colorspace

from .damaged_audio import DamagedAudio
from .deinterlace import Deinterlacer
from .errors import MediaError, ffmpeg_reason
from .frame_alpha import AlphaTrack, laid_on_plane, laid_on_white, side_alpha, translucent
from .frame_range import DecodedFrame, FrameRange, gap_frames, snapped_start
from .hdr import HDR10, read_hdr10
from .hw_decoders import DecoderChoice, as_software_layout, choose
from .orientation import UPRIGHT, orientation_of
from .paths import is_sequence, is_video_path, sequence_files
from .programs import other_programs, ts_programs
from .sequence_gap import sequence_gap
from .sequence_photos import SequencePhotos
from .short_file import TRUNCATED_FRAMES, file_ends_early
from .subtitle_cues import CuesOnScreen, SubtitleItem, cue_begins_in

RGBA_WIDTH_STEP = 16  # widths FFmpeg converts to 8-bit RGBA whole (see _convert)


@dataclass
class AudioItem:
    """An audio packet (to copy) or a decoded audio frame (to transcode) of one stream."""

    stream: int  # position of the audio stream among the file's audio streams
    data: av.Packet | av.AudioFrame


# Transfer characteristics of HDR video (FFmpeg's AVColorTransferCharacteristic): PQ, HLG
HDR_TRANSFERS = {16: "PQ", 18: "HLG"}


@dataclass(frozen=True)
class Colour:
    """A video's colour tags (FFmpeg's numbers): primaries, transfer, matrix, range."""

    primaries: int = 1  # BT.709
    transfer: int = 1
    matrix: int = 1
    hdr10: HDR10 | None = None  # an HDR video's mastering display and light levels
    # YUV samples over 0-255 (JPEG or "pc" range: phone and screen recordings, MJPEG),
    # not the limited 16-235 of most video
    full_range: bool = False

    @property
    def hdr(self) -> str | None:
        """"PQ" or "HLG" for HDR video, else None."""
        return HDR_TRANSFERS.get(self.transfer)


SDR = Colour()


# Packets decoded after a seek to find where it landed (a keyframe within them, or the seek
# is taken as lost and the walk starts from the top)
SEEK_PROBE_PACKETS = 300
# Sample aspect ratios (pixel width / height) taken as the pixels' shape: a tag outside them
# is taken as damaged (its frames would be stretched to a sliver), and read as square
SAR_RANGE = (Fraction(1, 4), Fraction(4))

SEQUENCE_RATE = 25  # frames per second of an image sequence (FFmpeg's default)
DAMAGED = "damaged, or not the format its name says"  # a file FFmpeg finds no format in
# FFmpeg reads any text file of some size as a "video" of its characters drawn as ANSI art
# (the tty demuxer): notes.txt was painted, or "a video, which cannot be written as .png"
TEXT_FORMATS = frozenset({"tty"})
NOT_MEDIA_TEXT = "not a picture or a video (a text file)"


def open_input(path: str | Path, hwaccel: HWAccel | None = None,
               rate: Fraction | int = SEQUENCE_RATE) -> av.container.InputContainer:
    """Open a media file (or an image-sequence pattern, read at `rate` frames a second) for
    reading, decoding video on a device if `hwaccel` says so; missing, empty or unreadable
    inputs raise MediaError."""
    p = Path(path)
    if is_sequence(p):
        files = sequence_files(p)
        if not files:
            raise MediaError(f"no files match the image sequence {p}")
        first = files[0][0]
        try:
            return av.open(str(p), mode="r", format="image2",
                           options={"framerate": str(rate),
                                    "start_number": str(first)})
        except (av.error.FFmpegError, OSError, ValueError) as e:
            raise MediaError(f"{p}: not a readable image sequence ({ffmpeg_reason(e)})") \
                from None
    if not p.exists():
        raise MediaError(f"no such file: {p}")
    if p.is_dir():
        raise MediaError(f"{p} is a folder, not a video file")
    try:
        if p.stat().st_size == 0:
            raise MediaError(f"{p} is empty")
        container = av.open(str(p), mode="r", metadata_errors="ignore", hwaccel=hwaccel)
        if container.format.name in TEXT_FORMATS:
            container.close()
            raise MediaError(f"{p}: {NOT_MEDIA_TEXT}")
        return container
    except MediaError:
        raise
    except (av.error.FFmpegError, OSError, UnicodeDecodeError, ValueError) as e:
        if is_video_path(p):
            # (an MP4 whose index comes last, cut short: its index is gone with its end; a
            # notes.txt named .mp4: FFmpeg's "Invalid data found when processing input" said
            # as a picture's refusal says it)
            why = "truncated: the file ends before its boxes do" if file_ends_early(p) \
                else DAMAGED if isinstance(e, av.error.InvalidDataError) else ffmpeg_reason(e)
            raise MediaError(f"{p}: not a readable video ({why})") from None
        # a file named as no video (notes.txt given to the window) is no video to repair; it
        # is said in the words a drop of it says (ui.drops.why_not), FFmpeg's "Invalid data
        # found when processing input" adding nothing to them
        reason = ("FFmpeg decodes no picture in it" if isinstance(e, av.error.InvalidDataError)
                  else ffmpeg_reason(e))
        raise MediaError(f"{p}: not a picture or a video ({reason})") from None


def only_picture(path: str | Path) -> np.ndarray | None:
    """The one picture of a file FFmpeg reads as a single frame (an AVIF or HEIF photo),
    upright RGB (16-bit where it has more than 8 bits); None where it holds more than one
    (a video) or none."""
    try:
        with VideoReader(path, deep=None) as reader:
            if (reader.video.frames or 0) > 1:  # the container counts them: a video
                return None  # (not decoded: the window asks this of every file it opens)
            frames = list(itertools.islice(reader.frames(), 2))
    except MediaError:
        return None
    return frames[0].image if len(frames) == 1 else None


def output_origin(video_start: float, first_time: float, start: float) -> float:
    """The source time (seconds) an output's clock starts from: `start` seconds after the
    video's first frame (`video_start`) for a --start cut, else the first stream's time."""
    return video_start + start if start > 0 else first_time


def cover_pictures(container: av.container.InputContainer
                   ) -> list[av.video.stream.VideoStream]:
    """The video streams that are cover pictures (FFmpeg's attached pictures: album art, a
    video's poster), not video."""
    cover = av.stream.Disposition.attached_pic
    return [s for s in container.streams.video if s.disposition & cover]


def is_avif_sequence(container: av.container.InputContainer) -> bool:
    """Whether the file is an animated AVIF (an image sequence: brand 'avis'), whose first
    streams FFmpeg gives are its still picture's items, colour and alpha, one frame each."""
    tags = container.metadata
    return tags.get("major_brand", "").strip() == "avis" or \
        "avis" in tags.get("compatible_brands", "")


def avif_parts(container: av.container.InputContainer,
               main: av.video.stream.VideoStream) -> list[av.video.stream.VideoStream]:
    """An animated AVIF's other video streams: its still items and its alpha track, parts
    of the one animation `main` is (none for another file)."""
    if not is_avif_sequence(container):
        return []
    return [s for s in container.streams.video if s.index != main.index]


def main_video_stream(container: av.container.InputContainer
                       ) -> av.video.stream.VideoStream | None:
    """The first video stream that is a real video, not a cover picture (else a still
    picture's, an AVIF photo's say); None where every one is a cover (a music file's). An
    animated AVIF's is its sequence's colour track, not the still picture before it."""
    if container.format.name in TEXT_FORMATS:
        return None
    covers = {s.index for s in cover_pictures(container)}
    streams = [s for s in container.streams.video if s.index not in covers]
    if is_avif_sequence(container):
        streams.sort(key=lambda s: s.frames <= 1)  # (stable: the colour before the alpha)
    for stream in streams:
        if not stream.disposition & av.stream.Disposition.still_image:
            return stream
    return streams[0] if streams else None


def no_video(path: str | Path, container: av.container.InputContainer) -> str | None:
    """Why `container` holds no video to paint, in one line naming `path`: no video stream
    (sound only), or only cover pictures (an MP3's or M4A's album art is a video stream
    FFmpeg marks as an attached picture, not a video); None where it holds one."""
    if container.format.name in TEXT_FORMATS:
        return f"{path}: {NOT_MEDIA_TEXT}"
    if main_video_stream(container) is not None:
        return None
    if container.streams.video:
        return f"{path} has no video stream, only a cover picture"
    return f"{path} has no video stream"


def bits_of(pix_fmt: str) -> int:
    """Bits per sample of a pixel format."""
    return max(c.bits for c in av.VideoFormat(pix_fmt).components)


def _bit_depth(stream: av.video.stream.VideoStream) -> int:
    """Bits per sample of a video stream's pixel format (8 when unknown)."""
    try:
        return bits_of(stream.codec_context.pix_fmt or "yuv420p")
    except (ValueError, TypeError, AttributeError):
        return 8


def _codec_name(stream: av.video.stream.VideoStream) -> str:
    """FFmpeg's name of a stream's codec ("" where it has no decoder parameters)."""
    return stream.codec_context.name if stream.codec_context is not None else ""


def video_depth(path: str | Path) -> tuple[int, str] | None:
    """The bits a sample and the codec (FFmpeg's name: hevc, prores...) of a file's video,
    from its header (nothing decoded); None where it has none or cannot be read."""
    try:
        with open_input(path) as c:
            stream = main_video_stream(c)
            return None if stream is None else (_bit_depth(stream), _codec_name(stream))
    except (MediaError, av.error.FFmpegError, OSError):
        return None


def _specified(value: int | None) -> bool:
    """Whether a colour tag says something (0 and 2 are FFmpeg's unspecified)."""
    return value is not None and int(value) not in (0, 2)


def _tag(value: int | None) -> int:
    """A colour tag, unspecified (0, 2) or missing read as BT.709 (1)."""
    return int(value) if value is not None and _specified(value) else 1


def guessed_matrix(width: int, height: int) -> int:
    """The YUV matrix players (mpv, browsers) read an untagged video with: BT.709 (1) for
    HD (height >= 720 or width >= 1280, coded size), BT.601 (6, SMPTE 170M) for SD."""
    return 1 if height >= 720 or width >= 1280 else 6


# FFmpeg's matrix tags (AVColorSpace) as swscale's names for them (SWS_CS_*)
SWS_MATRIX = {1: Colorspace.ITU709, 4: Colorspace.FCC, 5: Colorspace.ITU601,
              6: Colorspace.ITU601, 7: Colorspace.SMPTE240M, 9: Colorspace.BT2020,
              10: Colorspace.BT2020}


def _hidden_head(path: Path, stream: int, packets: int = SEEK_PROBE_PACKETS) -> int:
    """The packets of video stream `stream` of an MP4/MOV file that its edit list hides
    (marked discarded) in its first group of pictures: those before the edit's start,
    decoded only as the frames after it refer to them. (A file of its own: the caller's is
    not moved.)"""
    hidden = 0
    try:
        with av.open(str(path)) as container:
            video = container.streams[stream]
            for n, packet in enumerate(container.demux(video)):
                if n >= packets or (n and packet.is_keyframe) or not packet.size:
                    break  # (the edit begins within the first group)
                hidden += packet.is_discard
    except (av.error.FFmpegError, OSError):
        return 0
    return hidden


def _parse_clock(text: str | None) -> float | None:
    """Seconds from `HH:MM:SS.fraction` (Matroska DURATION tags)."""
    if not text:
        return None
    try:
        h, m, sec = text.split(":")
        return int(h) * 3600 + int(m) * 60 + float(sec)
    except ValueError:
        return None


class VideoReader:
    """The first video stream of a file (and optionally its audio streams), decoded in order.

    Not thread-safe; it may be handed from one thread to another between calls.
    """

    def __init__(self, path: str | Path, *, size: tuple[int, int] | None = None,
                 audio: bool = False, transcode_audio: frozenset[int] = frozenset(),
                 subtitles: bool = False, deep: bool | None = False,
                 decoder: str = "software", rgba: bool = False, alpha: bool = False,
                 sequence_rate: Fraction | int | None = None) -> None:
        self.path = Path(path)
        # a transparent frame's alpha given with it (DecodedFrame.alpha), for outputs that
        # hold it (GIF, PNG...): an animation's frames only, not an image sequence's
        self.keep_alpha = alpha
        # an image sequence's frames a second (it has none of its own: --fps gives one)
        self.sequence_rate = Fraction(sequence_rate or SEQUENCE_RATE).limit_denominator(10**6)
        # frames with a fourth, opaque channel (what an export renders: a texture uploads
        # 4 bytes a pixel as they come, 3 are repacked; the conversion costs the same)
        self.rgba = rgba
        self.container = open_input(self.path, rate=self.sequence_rate)
        if (why := no_video(self.path, self.container)) is not None:
            self.container.close()
            raise MediaError(why)
        self.video = self._video()
        # an animated AVIF's alpha, a track of its own (FFmpeg gives the colour track alone)
        self._alpha_track = next(
            (AlphaTrack(self.path, s.index) for s in avif_parts(self.container, self.video)
             if s.frames == self.video.frames and s.codec_context is not None
             and str(s.codec_context.pix_fmt).startswith("gray")), None)
        # hw_decoders.CHOICES: "auto" the GPU's decoder where it decodes this file
        self.decoder = self._decoder(decoder)
        if self.decoder.hardware:
            self.container.close()
            self.container = open_input(self.path, self.decoder.hwaccel(), self.sequence_rate)
            self.video = self._video()
        self.video.thread_type = "AUTO"
        # The container's colour tags, read before any decoding: a decoder overwrites them
        # with its pictures' own (ProRes' "unspecified" over a .mov's BT.2020/HLG).
        cc = self.video.codec_context
        self._stream_colour = (cc.color_primaries, cc.color_trc, cc.colorspace) if cc \
            else (None, None, None)
        self._stream_range = cc.color_range if cc else None
        self._read_range: int | None = None  # the range the last picture was read with
        # a transport stream's other programs (channels): their streams are not this video's
        self.other_program = self._other_program()
        streams = list(self.container.streams.audio) if audio else []
        subs = list(self.container.streams.subtitles) if subtitles else []
        # (their sound and subtitles left out, named by media/carry.py)
        self.left_out_program = [s for s in [*streams, *subs] if s.index in self.other_program]
        streams = [s for s in streams if s.index not in self.other_program]
        # A stream FFmpeg has no decoder parameters for cannot be copied or transcoded.
        self.audio_streams = [s for s in streams if s.codec_context is not None]
        self.unusable_audio = len(streams) - len(self.audio_streams)
        self.damaged_audio = DamagedAudio()  # the packets of each the decoder rejects
        self.transcode_audio = transcode_audio
        self.subtitle_streams = [s for s in subs if s.index not in self.other_program]
        # More than 8 bits a sample: frames come as 16-bit RGB (deep None: by the source)
        self.bit_depth = _bit_depth(self.video)
        self.codec_name = _codec_name(self.video)  # hevc, prores...
        self.deep = self.bit_depth > 8 if deep is None else deep
        self.size = size  # upright output size (W, H), or None for the source size
        self.decoded = 0  # frames yielded in the asked range
        self.decode_errors = 0  # packets the decoder rejected
        # an image sequence's files by time: those demuxed, and those decoded (a decoder's
        # error comes a few packets late on its threads: the files never decoded are named)
        self._sequence = is_sequence(self.path)
        # its frames read as its photos are: the first file's EXIF orientation and colour
        # profile, and the first frame's size (FFmpeg's decoder knows none of them)
        self.photos = SequencePhotos(self.path, (cc.width, cc.height), self.sequence_rate) \
            if self._sequence and cc else None
        self._packet_pts: set[int] = set()
        self._frame_pts: set[int] = set()
        # frames decoded with a time at or before the last one's (a damaged stretch's),
        # left out: each is one of the file's frames missing from its place
        self.backwards = 0
        self.failure: str | None = None  # why the walk ended early, if it did
        # an image sequence's first gap in its numbers, where FFmpeg stops reading it, and
        # whether the walk's range goes past it (the frames after it are left out: say so)
        self.gap = sequence_gap(self.path) if is_sequence(self.path) else None
        self.gap_reached = False
        self._trimmed = False
        self._expected: int | None = None
        self._range_start = 0.0
        self._range_end: float | None = None
        self._last_end: float | None = None  # end time (s) of the last frame yielded
        # pts steps between the walk's yielded frames -> how often (gaps: corrupt packets)
        self._steps: Counter[int] = Counter()
        self._prev_pts: int | None = None  # pts of the walk's last yielded frame
        self._last_pts: int | None = None
        self._orientation = UPRIGHT  # of the last frame decoded
        self._deinterlacer = Deinterlacer()
        self.transparent = False  # a frame yielded had a pixel less than opaque
        self.on_white = False  # ... and was laid on white (an RGB-family one's, an AVIF's)
        self._translucent = False  # the last frame converted had one (see items)

    def _video(self) -> av.video.stream.VideoStream:
        stream = main_video_stream(self.container)
        assert stream is not None  # (no_video said so at the open)
        return stream

    def _other_program(self) -> set[int]:
        """The indexes of the streams of a transport stream's programs other than the main
        video's (empty for a single program, or another container)."""
        if "mpegts" not in self.container.format.name.split(","):
            return set()
        streams = list(self.container.streams)
        pids = other_programs(ts_programs(self.path), self.video.id, [s.id for s in streams])
        return {s.index for s in streams if s.id in pids and s.index != self.video.index}

    def _decoder(self, want: str) -> DecoderChoice:
        codec = self.video.codec_context.name if self.video.codec_context else "video"
        if is_sequence(self.path):  # pictures: no GPU decoder
            if want == "hardware":
                self.container.close()
                raise MediaError("--decoder hardware: an image sequence has no hardware "
                                 "decoder (use --decoder auto or software)")
            return DecoderChoice(codec, None, "pictures" if want == "auto" else "")
        index = list(self.container.streams.video).index(self.video)
        try:
            return choose(self.path, codec, want, stream=index)
        except ValueError as e:
            self.container.close()
            raise MediaError(f"--decoder hardware: {e}") from None

    # -- stream facts ---------------------------------------------------------------------
    @property
    def time_base(self) -> Fraction:
        """Time base of the video stream's timestamps."""
        return self.video.time_base or Fraction(1, 90000)

    @property
    def fps(self) -> float | None:
        """Average (or guessed) frame rate."""
        rate = self.video.average_rate or self.video.guessed_rate or self.video.base_rate
        return float(rate) if rate else None

    @property
    def colour(self) -> Colour:
        """The video's colour tags: the container's, else the decoded pictures' (primaries
        and transfer unspecified in both read as BT.709, the matrix as players guess it:
        `guessed_matrix`)."""
        cc = self.video.codec_context
        decoded = (cc.color_primaries, cc.color_trc)
        p, t = (_tag(s if _specified(s) else d)
                for s, d in zip(self._stream_colour[:2], decoded, strict=True))
        return Colour(p, t, self.matrix, self.hdr10 if t in HDR_TRANSFERS else None,
                      self.full_range)

    @property
    def full_range(self) -> bool:
        """Whether the video's YUV samples span 0-255 (JPEG range): as its pictures were
        read (`_convert` honours each one's range; a decoder may overrule the container's
        tag: ProRes is limited whatever a .mkv says), else a yuvj format or the container's
        tag. RGB, palette and grey pictures (PNG, GIF: FFmpeg tags them full range too)
        have no YUV range to keep."""
        cc = self.video.codec_context
        name = str(cc.pix_fmt or "")
        if name.startswith(("gray", "ya", "pal8")) or (cc.format is not None
                                                       and cc.format.is_rgb):
            return False
        if self._read_range is not None:
            return self._read_range == ColorRange.JPEG
        stream = self._stream_range
        return name.startswith("yuvj") or stream == ColorRange.JPEG

    @property
    def matrix(self) -> int:
        """The video's YUV matrix (FFmpeg's AVColorSpace): the container's tag, else the
        decoded pictures', else the one players guess from its size (`guessed_matrix`)."""
        cc = self.video.codec_context
        for tag in (self._stream_colour[2], cc.colorspace):
            if _specified(tag):
                return int(tag)
        return guessed_matrix(cc.width, cc.height)

    @functools.cached_property
    def hdr10(self) -> HDR10 | None:
        """The HDR10 metadata of the video's first frame (read apart from the walk)."""
        return read_hdr10(self.path, self.video.index)

    @property
    def sample_aspect(self) -> Fraction:
        """The shape of the upright frames' pixels: width / height as displayed (1 square,
        12/11 a PAL DV one); known for rotated video once a frame is decoded."""
        sar = self.video.sample_aspect_ratio
        if not sar or not SAR_RANGE[0] <= sar <= SAR_RANGE[1]:
            return Fraction(1)
        return 1 / sar if self._orientation.turns % 2 else Fraction(sar)

    @property
    def start_time(self) -> float:
        """Start of the video stream in seconds (usually 0)."""
        st = self.video.start_time
        return float(st * self.time_base) if st is not None else 0.0

    @property
    def first_time(self) -> float:
        """The first of the video's and audio's timestamps in seconds, never below 0: where
        an output's clock starts without a --start cut (a broadcast recording's clock may
        start at any time, its output at 0)."""
        times = [float(s.start_time * s.time_base) for s in (self.video, *self.audio_streams)
                 if s.start_time is not None and s.time_base]
        return max(0.0, min(times, default=0.0))

    def origin(self, start: float = 0.0) -> float:
        """The source time (seconds) an output's clock starts from: a --start cut `start`
        seconds after the video's first frame, else `first_time`."""
        return output_origin(self.start_time, self.first_time, start)

    @property
    def duration(self) -> float | None:
        """Duration of the video stream in seconds, if the container says (an image
        sequence's: up to its first gap, where FFmpeg stops reading it)."""
        if self.gap is not None:
            return self.gap.read / (self.fps or self.sequence_rate)
        if self.video.duration:
            return float(self.video.duration * self.time_base)
        # Matroska's per-track tag, else the container's: both count from the segment's
        # zero, so a stream starting later (timestamps from 10 s) ends, not lasts, there
        end = _parse_clock(self.video.metadata.get("DURATION")) or (
            self.container.duration / av.time_base if self.container.duration else None)
        if end is None:
            return None
        if "matroska" in self.container.format.name and 0 < self.start_time < end:
            return end - self.start_time
        return end

    @functools.cached_property
    def indexed_frames(self) -> int:
        """The frames the container's index counts (0: none), less those an MP4/MOV edit
        list hides: a stream-copy cut's pre-roll from the keyframe before its start, which
        the demuxer marks as discarded and the decoder gives no picture for."""
        counted = int(self.video.frames or 0)
        if counted and "mov" in self.container.format.name.split(","):
            counted -= _hidden_head(self.path, list(self.container.streams).index(self.video))
        return max(0, counted)

    @property
    def frame_count(self) -> int | None:
        """Number of frames from the container's index, or estimated from duration and fps."""
        if self.indexed_frames:
            return self.indexed_frames
        if self.duration and self.fps:
            return max(1, round(self.duration * self.fps))
        return None

    def expected_frames(self, start: float = 0.0, end: float | None = None,
                        shown: bool = False) -> int | None:
        """How many frames the range [start, end) should hold: exact if the index says, else
        a steady rate's whose times fall in it (frame k at k / fps: 16 before 0.505 s at 30),
        with `shown` from the one on screen at `start` (as `items` walks it)."""
        if start <= 0 and end is None and self.indexed_frames:
            return self.indexed_frames
        fps, whole, duration = self.fps, self.frame_count, self.duration
        if not fps:
            return None

        def before(t: float) -> int:  # the frames that start before t
            return math.ceil(round(t * fps, 6))

        if end is not None and (duration is None or end < duration):
            stop = before(end) if whole is None else min(whole, before(end))
        elif whole is None:
            return None
        else:
            stop = whole
        first = 0 if start <= 0 else \
            math.floor(round(start * fps, 6)) if shown else before(start)
        return max(0, stop - first)

    @property
    def trimmed(self) -> bool:
        """Whether the current walk covers only part of the file (--start/--end)."""
        return self._trimmed

    @property
    def expected(self) -> int | None:
        """Frames expected in the range of the current walk (see `expected_frames`)."""
        return self._expected

    @property
    def lost(self) -> int:
        """Frames of the walked range that could not be decoded (an estimate unless the
        container indexes every frame)."""
        return self._lost()[0]

    def _lost(self) -> tuple[int, bool]:
        """`lost`, and whether it is a count: by the container's index, by the steps of a
        steady rate, or of frames whose times went back; not where the rate varies (the
        frames are guessed from the time left uncovered at the decoded ones' mean rate)."""
        if not self._trimmed and self.indexed_frames:
            missing, counted = max(0, self.indexed_frames - self.decoded), True
        else:
            gaps = gap_frames(self._steps)
            missing = (gaps or 0) + self._missing_at_end(steady=gaps is not None)
            counted = gaps is not None or missing <= self.backwards
        missing = max(missing, self.backwards)
        if self.failure or self.decode_errors:
            return max(self.decode_errors, missing, 1 if self.failure else 0), counted
        return missing, counted

    def lost_said(self) -> str:
        """The lost frames in words: "3 frame(s)", or "about 3 frame(s)" where they are
        guessed (see _lost)."""
        lost, counted = self._lost()
        return f"{'' if counted else 'about '}{lost} frame(s)"

    @property
    def variable_rate(self) -> bool:
        """Whether the frames walked so far were not evenly spaced (steps more than a tick
        of rounding apart): their timing is more than a rate says."""
        steps = [d for d in self._steps if d > 0]
        return bool(steps) and max(steps) - min(steps) > 1

    def none_why(self) -> str:
        """Why no frame decoded, in brackets ("" where nothing tells): the decoder's failure,
        a gap in the file's times reached, or the file cut short."""
        return f" ({self.failure})" if self.failure else \
            f" ({self.gap.describe()})" if self.gap is not None and self.gap_reached else \
            f" ({TRUNCATED_FRAMES})" if self.cut_short else ""

    def lost_why(self) -> str:
        """What the lost frames' warning adds: why the walk ended early (": unreadable
        after ..."), that the file is cut short, and the frames left out because their
        times went back ("" for none)."""
        why = f": {self.failure}" if self.failure else ""
        if self.cut_short:
            why += f" ({TRUNCATED_FRAMES})"
        if (bad := self.bad_files()):
            more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
            why += f" ({', '.join(bad[:5])}{more} could not be read)"
        if self.backwards:
            why += (f" ({self.backwards} of them came late from the decoder, with times "
                    "before frames already shown, and were left out rather than shown out of "
                    "order)")
        return why

    @functools.cached_property
    def cut_short(self) -> bool:
        """Whether the file stops before its own boxes say it ends (an MP4's, a MOV's, an
        animated AVIF's: a download or copy cut short), which is why frames are missing."""
        return file_ends_early(self.path)

    def bad_files(self) -> list[str]:
        """The names of an image sequence's files the decoder rejected (none for a video)."""
        end = math.inf if self._range_end is None else self._range_end
        bad = {p for p in self._packet_pts - self._frame_pts  # (read ahead past the range: no)
               if self._range_start <= p * self.time_base < end}
        if not bad:
            return []
        files = sequence_files(self.path)
        if not files:
            return []
        by_number = dict(files)
        first = files[0][0]
        rate = self.sequence_rate * self.time_base  # frames a tick (image2 counts frames)
        numbers = sorted({first + round(pts * rate) for pts in bad})
        return [by_number[n].name for n in numbers if n in by_number]

    def _missing_at_end(self, steady: bool = True) -> int:
        """Frames missing between the last decoded frame and the end of the range, estimated
        from the time gap (a file cut short ends early without any error): at the stream's
        rate, or for a variable rate the rate its decoded frames kept."""
        fps = self.fps or 30.0
        if not steady and self._steps:
            mean = sum(d * n for d, n in self._steps.items()) / self._steps.total()
            fps = 1 / float(mean * self.time_base)
        duration = self.duration
        if duration is None:
            return 0
        end = self.start_time + duration
        if self._range_end is not None:
            end = min(end, self._range_end)
        covered = self._last_end if self._last_end is not None else self._range_start
        gap = end - covered
        return round(gap * fps) if gap > 1.5 / fps else 0

    # -- walking --------------------------------------------------------------------------
    def frames(self, start: float = 0.0, end: float | None = None, *, shown: bool = False
               ) -> Iterator[DecodedFrame]:
        """Only the video frames of `items()`."""
        for item in self.items(start, end, shown=shown):
            if isinstance(item, DecodedFrame):
                yield item

    def items(self, start: float = 0.0, end: float | None = None, *, shown: bool = False
              ) -> Iterator[DecodedFrame | AudioItem]:
        """Frames with start <= time < end (seconds from the video's start), audio alongside;
        with `shown` also the frame on screen at `start` where none starts there (a new
        rate's first frame shows it). The last lasts until `end` where the source goes on
        past it, and never past it (`FrameRange`)."""
        self._trimmed = start > 0 or end is not None
        self._expected = self.expected_frames(start, end, shown)
        self._steps.clear()
        self._prev_pts = None
        self._last_end = None
        tb = self.time_base
        t0 = self.start_time
        start_abs = t0 + max(0.0, start)
        end_abs = None if end is None else t0 + end
        past_gap = False  # the range goes past an image sequence's gap: it ends there
        if self.gap is not None:  # (a seek past it would read on: the walk never does)
            gap_time = t0 + self.gap.read / (self.fps or self.sequence_rate)
            past_gap = end_abs is None or end_abs > gap_time + 1e-9
            end_abs = gap_time if past_gap else end_abs
        self.gap_reached = past_gap
        self._range_start, self._range_end = start_abs, end_abs
        walk = FrameRange(tb, start_abs if start > 0 else None, end_abs, shown,
                          self._default_step())
        if start > 0:
            # the cues on screen at the start, begun before it: a seek lands at the keyframe
            # before `start` and may land after them
            yield from self.cues_before(start_abs, end_abs)
            self._seek(start_abs)
        audio_index = {s.index: i for i, s in enumerate(self.audio_streams)}
        subtitle_index = {s.index: i for i, s in enumerate(self.subtitle_streams)}
        audio_done = dict.fromkeys(audio_index, False)
        video_done = False
        at_gap = False  # the walk ended where an image sequence's numbers skip
        last_video: int | None = None  # pts of the last video packet demuxed
        streams = [self.video, *self.audio_streams, *self.subtitle_streams]
        try:
            for packet in self.container.demux(streams):
                if packet.stream.index == self.video.index and packet.pts is not None:
                    last_video = packet.pts
                if packet.stream.index in subtitle_index:
                    if cue_begins_in(packet, start_abs if start > 0 else None, end_abs):
                        yield SubtitleItem(subtitle_index[packet.stream.index], packet)
                elif packet.stream.index in audio_index:
                    i = audio_index[packet.stream.index]
                    for item in self.audio_items(i, packet, start_abs if start > 0 else None,
                                            end_abs):
                        if item is None:
                            audio_done[packet.stream.index] = True
                        else:
                            yield item
                elif not video_done:
                    for frame in self._decode(packet):
                        for kept in walk.take(frame, self._translucent):
                            self._count(*kept)
                            yield kept[0]
                        if walk.done:
                            video_done = True
                            break
                if video_done and all(audio_done.values()):
                    return
        except av.error.FFmpegError as e:
            # the file after the last one before a gap is missing: the sequence's end
            at_gap = self.gap is not None and last_video == self.gap.read - 1
            if not at_gap:
                self.failure = f"unreadable after {self.decoded} frames ({ffmpeg_reason(e)})"
        except (OSError, MemoryError) as e:
            self.failure = f"read error after {self.decoded} frames ({ffmpeg_reason(e)})"
        if (self.failure or at_gap) and not video_done:
            # Demuxing stopped early: drain the frames the decoder still holds.
            for frame in self._decode(None):
                for kept in walk.take(frame, self._translucent):
                    self._count(*kept)
                    yield kept[0]
        for kept in walk.finish():
            self._count(*kept)
            yield kept[0]

    @property
    def has_alpha(self) -> bool:
        """Whether the source's pictures carry transparency, which the opaque painting leaves
        out: a pixel less than opaque among the frames yielded so far (ask after the walk),
        or VP8/VP9 alpha, which the decoder does not give (`side_alpha`)."""
        return self.transparent or side_alpha(self.video)

    @property
    def alpha_fate(self) -> str:
        """What became of a transparent source's transparency in the opaque picture: laid
        on white (RGB-family and palette frames, an AVIF's alpha track), or left out with
        the colours under it (a YUVA video's, VP8/VP9 alpha: they mean something there)."""
        if self.on_white:
            return "its transparent parts are laid on white paper"
        return "which is not read (a YUV video's or VP8/VP9's alpha: no output keeps it), its " \
            "colours under the transparency painted as they are"

    def _count(self, frame: DecodedFrame, translucent: bool) -> None:
        self.transparent = self.transparent or translucent
        frame.index = self.decoded
        self.decoded += 1
        if self._prev_pts is not None:
            self._steps[frame.pts - self._prev_pts] += 1
        self._prev_pts = frame.pts
        step = frame.duration or self._default_step()
        self._last_end = float((frame.pts + step) * self.time_base)

    def cues_before(self, start: float, end: float | None) -> list[SubtitleItem]:
        """The subtitle cues on screen at `start` seconds (of the file) begun before it, in
        time order (`CuesOnScreen.before`); the file is left anywhere (seek next)."""
        return CuesOnScreen(self.container, self.video, self.subtitle_streams,
                            self.start_time).before(start, end)

    def rewind(self) -> None:
        """Go back to the first frame (the next `items()` starts there)."""
        self._seek(self.start_time)

    def snapped_start(self, start: float) -> float:
        """A --start (seconds from the video's start) as the frame it names: where a frame
        starts less than START_SLACK before it, that frame's time (frame_range.snapped_start);
        else `start`. Packets are demuxed round it, nothing decoded; call it before a walk."""
        if start <= 0:
            return start
        t0, tb = self.start_time, self.time_base
        target = t0 + start
        times: list[float] = []
        try:
            self.container.seek(max(0, int((target - 1.0) / tb)), stream=self.video,
                                backward=True, any_frame=False)
            for n, packet in enumerate(self.container.demux(self.video)):
                if packet.pts is not None:
                    times.append(float(packet.pts * tb))
                if n > SEEK_PROBE_PACKETS or (packet.dts is not None
                                              and float(packet.dts * tb) > target + 1.0):
                    break
        except (av.error.FFmpegError, ValueError):
            return start
        finally:
            self._last_pts = None
        snapped = snapped_start(target, times)
        return start if snapped == target else snapped - t0

    def _seek(self, seconds: float) -> None:
        """Go to the keyframe at or before `seconds`, or to the top where the container
        cannot: MPEG-TS seeks can land past a clip's only keyframe, and nothing after them
        would decode (the first frame decoded from there is checked)."""
        target = int(seconds / self.time_base)
        try:
            self.container.seek(target, stream=self.video, backward=True, any_frame=False)
            first = self._first_frame_time()
            if first is not None and first <= seconds + 1e-6:
                self.container.seek(target, stream=self.video, backward=True, any_frame=False)
            else:
                self.container.seek(0, stream=self.video)
        except av.error.FFmpegError:
            self.container.seek(0, stream=self.video)  # decode from the top and skip
        self._last_pts = None
        self._deinterlacer.reset()

    def _first_frame_time(self, packets: int = SEEK_PROBE_PACKETS) -> float | None:
        """The time of the first frame decoded from here (None: none within `packets`)."""
        for n, packet in enumerate(self.container.demux(self.video)):
            if n >= packets:
                break
            try:
                for frame in self.video.decode(packet):
                    if frame.pts is not None:
                        return float(frame.pts * self.time_base)
            except (av.error.FFmpegError, ValueError):
                continue
        return None

    def _decode(self, packet: av.Packet | None) -> Iterator[DecodedFrame]:
        # the end of the stream (None, or demux's empty packet) drains the deinterlacer too
        flush = packet is None or (packet.size == 0 and packet.dts is None)
        frames: list[av.VideoFrame] = []
        if self._sequence and packet is not None and packet.pts is not None:
            self._packet_pts.add(packet.pts)
        try:
            frames = self.video.decode(packet)
        except av.error.EOFError:
            pass
        except (av.error.FFmpegError, ValueError):
            self.decode_errors += 1
            if not flush:
                return
        for f in self._deinterlacer.frames(frames, flush=flush):
            if f.pts is not None and self._last_pts is not None and f.pts <= self._last_pts:
                # a decoder that lost its references hands frames back late (1.92 s, then
                # 0.92 s): written there they would flash out of order, or share a time
                self.backwards += 1
                continue
            if self._sequence and f.pts is not None:
                self._frame_pts.add(f.pts)
            yield self._convert(f)

    @property
    def deinterlaced(self) -> bool:
        """Whether frames flagged interlaced were made progressive (media/deinterlace.py)."""
        return self._deinterlacer.used

    def _convert(self, f: av.VideoFrame) -> DecodedFrame:
        photos = self.photos
        shown = self._orientation = orientation_of(f, self.video) if photos is None \
            else photos.orientation
        # a frame of another size than an image sequence's first: fitted to it below
        odd = photos is not None and (f.width, f.height) != photos.stored
        color_range = f.color_range
        if not f.format.is_rgb:
            self._read_range = int(ColorRange.JPEG) if f.format.name.startswith("yuvj") \
                else color_range
        # an untagged picture is read with the container's matrix, else the one players
        # guess from its size (swscale's own default, BT.601, would shift HD's colours)
        untagged = not _specified(f.colorspace) and not f.format.is_rgb
        if self.decoder.hardware:
            f = as_software_layout(f)  # the same samples as the software decoder's layout
        # _decode yields each frame as it is converted: the walk takes this with it
        self._translucent = not self.transparent and translucent(f)
        width = f.width
        kwargs: dict[str, object] = {}
        if color_range:
            kwargs["src_color_range"] = color_range
        if untagged:
            kwargs["src_colorspace"] = SWS_MATRIX.get(self.matrix)
        if self.size is not None and not odd:
            w, h = self.size[::-1] if shown.turns % 2 else self.size
            if (w, h) != (f.width, f.height):
                kwargs.update(width=w, height=h, interpolation="AREA")
                width = w
        elif odd:  # converted at its own size, then fitted to the others' (photos.fit)
            assert photos is not None
            target = self.size or photos.upright  # (W, H) as shown
            width = target[1] if shown.turns % 2 else target[0]  # the others' as converted
        # FFmpeg's 8-bit YUV -> RGBA converter leaves a row's last pixels unwritten unless
        # the width is a multiple of 16 (322 px: the last 2 black, alpha 0): RGB there
        rgba = self.rgba and (self.deep or width % RGBA_WIDTH_STEP == 0)
        kwargs["format"] = ("rgba64le" if self.deep else "rgba") if rgba and not odd else \
            ("rgb48le" if self.deep else "rgb24")
        # (an RGB-family or palette frame's alpha is laid on white; a YUVA video's, whose
        # colours under it mean something, is left: no per-frame scan of its plane)
        clear = (f.format.is_rgb or f.format.name == "pal8") \
            and (self._translucent or (self.transparent and translucent(f)))
        alpha = None
        if clear:
            image, alpha = laid_on_white(f, kwargs, rgba)
            self.on_white = True
        else:
            image = f.to_ndarray(**kwargs)
        if self._alpha_track is not None and f.pts is not None \
                and (plane := self._alpha_track.plane(f.pts)) is not None \
                and plane.min() < 255:
            image, alpha = laid_on_plane(image, plane)
            self._translucent = self._translucent or not self.transparent
            self.on_white = True
        image = shown.apply(image) if photos is None else photos.turn(image)
        alpha = shown.apply(alpha) if alpha is not None and self.keep_alpha \
            and photos is None else None
        if photos is not None:
            if odd:
                at = None if f.pts is None else (f.pts - (self.video.start_time or 0)) \
                    * self.time_base
                image = photos.fit(image, target, at)
                if rgba:  # (the others' fourth channel)
                    image = cv2.cvtColor(image, cv2.COLOR_RGB2RGBA)
            image = photos.colour(image)
        pts = f.pts
        step = f.duration or self._default_step()
        if pts is None:
            pts = 0 if self._last_pts is None else self._last_pts + step
        self._last_pts = pts  # (one at or before it was left out: _decode)
        return DecodedFrame(image, int(pts), self.time_base, -1, f.duration or None,
                            alpha=alpha)

    def _default_step(self) -> int:
        fps = self.fps or 30.0
        return max(1, round(1 / (fps * self.time_base)))

    def audio_outside(self, i: int, start: float = 0.0, end: float | None = None, *,
                      copied: bool = True) -> str | None:
        """Why audio stream `i` has nothing in a trimmed walk's range [start, end) (seconds
        from the video's start), in words ("ends at 1.00 s, before --start 1.5 s"); None
        where it has, or cannot be told. Copied audio keeps only the packets that start in
        the range; transcoded, any that reaches into it (`audio_items`). Read apart from the
        walk: from a seek to `start` until a packet is kept or the range is passed."""
        if start <= 0 and end is None:
            return None
        t0 = self.start_time
        lo = t0 + start if start > 0 else None
        hi = None if end is None else t0 + end
        last: float | None = None  # the end of the last packet before the range (s)
        try:
            with av.open(str(self.path), metadata_errors="ignore") as c:
                stream = c.streams[self.audio_streams[i].index]
                if lo is not None:
                    with contextlib.suppress(av.error.FFmpegError):
                        c.seek(int(lo / stream.time_base), stream=stream)
                for packet in c.demux(stream):
                    if packet.pts is None or not packet.size or packet.is_corrupt:
                        continue
                    t = float(packet.pts * packet.time_base)
                    until = t + float((packet.duration or 0) * packet.time_base)
                    if hi is not None and t >= hi - 1e-9:
                        break
                    if lo is None or (t >= lo - 1e-9 if copied else until > lo + 1e-9):
                        return None
                    last = until
        except (av.error.FFmpegError, OSError, ValueError):
            return None  # not known: written as it comes
        if last is None:
            return None if lo is None and hi is None else \
                f"has no sound before --end {end:g} s" if lo is None else \
                f"has no sound between --start {start:g} s and --end {end:g} s"
        if lo is not None and last <= lo + 1e-9:
            return f"ends at {last - t0:.2f} s, before --start {start:g} s"
        return (f"has no packet starting after --start {start:g} s (it ends at "
                f"{last - t0:.2f} s; copied audio keeps whole packets)")

    def audio_items(self, i: int, packet: av.Packet, start: float | None, end: float | None
               ) -> Iterator[AudioItem | None]:
        """Audio of one packet of stream `i` inside [start, end), as an export writes it
        (copied, or decoded and trimmed for transcoding); yields None once the stream passed
        end."""
        if packet.is_corrupt:
            return  # e.g. cut short by a truncated file: copying it would corrupt the output
        if packet.dts is None and packet.size == 0:
            if i in self.transcode_audio:  # flush the audio decoder
                yield from self._audio_frames(i, None, start, end)
            return
        tb = packet.time_base
        t = float(packet.pts * tb) if packet.pts is not None else None
        if end is not None and t is not None and t >= end:
            yield None
            return
        if i in self.transcode_audio:
            yield from self._audio_frames(i, packet, start, end)
            return
        if start is not None and t is not None and t < start - 1e-9:
            return
        if packet.dts is None:
            return
        self.damaged_audio.check(self.audio_streams[i], packet)
        yield AudioItem(i, packet)

    def _audio_frames(self, i: int, packet: av.Packet | None, start: float | None,
                      end: float | None) -> Iterator[AudioItem]:
        from .audio import trim_audio_frame

        try:
            frames = self.audio_streams[i].decode(packet)
        except (av.error.FFmpegError, ValueError):
            if packet is not None:
                self.damaged_audio.rejected(self.audio_streams[i])
            return
        for frame in frames:
            trimmed = trim_audio_frame(frame, start, end)
            if trimmed is not None:
                yield AudioItem(i, trimmed)

    def close(self) -> None:
        """Close the file; idempotent."""
        if self._alpha_track is not None:
            self._alpha_track.close()
        with contextlib.suppress(Exception):  # a broken container must not mask the error
            self.container.close()

    def __enter__(self) -> VideoReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
