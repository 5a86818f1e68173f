"""Joining chunk files into the output without re-encoding: their packets are remuxed in
order (timestamps kept: they are the source's, so variable frame rates stay), with the
source's audio and subtitles taken once and copied, transcoded or converted exactly as a
single-machine export does (media/audio.py, media/carry.py: tags, chapters, attachments
too), into a temporary file renamed at the end (media/atomic.py)."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import av

from ..media.atomic import OutputExists, atomic_output
from ..media.audio import AudioTrack, audio_copies, output_end
from ..media.carry import carry_streams, depth_warnings
from ..media.errors import MediaError, ffmpeg_reason
from ..media.subtitle_cues import SubtitleItem, cue_begins_in
from ..media.video_reader import AudioItem, VideoReader
from ..media.video_writer import CODECS, ISO_FORMATS


@dataclass
class JoinResult:
    """What the joined file holds."""

    output: Path
    frames: int
    size: tuple[int, int]
    codec: str
    audio: list[str] = field(default_factory=list)
    streams: list[str] = field(default_factory=list)  # the others kept, e.g. "subtitle 2 ..."
    warnings: list[str] = field(default_factory=list)  # what could not be kept
    pix_fmt: str = "yuv420p"


def _seconds(ts: int | None, tb: Fraction | None) -> Fraction | None:
    return None if ts is None or tb is None else ts * tb


def chunk_packets(chunks: list[tuple[Path, Fraction]]
                  ) -> Iterator[tuple[Path, av.Packet, Fraction, Fraction]]:
    """The chunk files' video packets in order, each with its file, time base and the
    chunk's rebase (seconds); the demuxer's flush packets left out."""
    for path, rebase in chunks:
        with av.open(str(path)) as c:
            stream = c.streams.video[0]
            for packet in c.demux(stream):
                if packet.size == 0 and packet.dts is None:
                    continue
                yield path, packet, packet.time_base or stream.time_base, rebase


def decode_timeline(chunks: list[tuple[Path, Fraction]]
                    ) -> list[tuple[Fraction, Fraction]] | None:
    """MP4/MOV keep a sample's length only as the step to the next decode time: the chunks'
    packets' decode times (seconds, decode order, after each chunk's rebase) laid out by each
    frame's own length (until the next frame's time, the last its own duration), from the
    latest start that keeps every decode time at or before its frame's; with those lengths.
    Each chunk's encoder delays its decode times by its own reordering (a short last chunk
    none), so where chunks met, samples took a neighbour's length. None without timestamps."""
    times: list[Fraction] = []
    latest: Fraction | None = None
    last: Fraction | None = None  # the latest frame's own length (not the last decoded's)
    for _, packet, tb, rebase in chunk_packets(chunks):
        if packet.pts is None or tb is None:
            return None
        times.append(packet.pts * tb + rebase)
        if latest is None or times[-1] > latest:
            latest = times[-1]
            last = packet.duration * tb if packet.duration else None
    order = sorted(times)
    step = {a: b - a for a, b in itertools.pairwise(order)}
    tail = last or (order[-1] - order[-2] if len(order) > 1 else Fraction(1, 30))
    lengths = [step.get(t, tail) for t in times]
    laid, start = Fraction(0), None
    for t, length in zip(times, lengths, strict=True):
        start = t - laid if start is None else min(start, t - laid)
        laid += length
    start = start or Fraction(0)
    out, laid = [], Fraction(0)
    for length in lengths:
        out.append((start + laid, length))
        laid += length
    return out


def side_items(reader: VideoReader, start: float, end: float | None
                ) -> Iterator[AudioItem | SubtitleItem]:
    """The source's audio and subtitles in [start, end) seconds (from the video's start), as
    the export's walk gives them (packets to copy, or decoded frames to transcode), without
    the video."""
    if not reader.audio_streams and not reader.subtitle_streams:
        return
    t0 = reader.start_time
    start_abs = t0 + start if start > 0 else None
    end_abs = None if end is None else t0 + end
    if start > 0:
        # the cues on screen at the start, begun before the keyframe the seek lands at too
        yield from reader.cues_before(start_abs, end_abs)
        reader.container.seek(int(start_abs / reader.time_base), stream=reader.video,
                              backward=True, any_frame=False)
    index = {s.index: i for i, s in enumerate(reader.audio_streams)}
    cues = {s.index: i for i, s in enumerate(reader.subtitle_streams)}
    done: set[int] = set()
    for packet in reader.container.demux([*reader.audio_streams, *reader.subtitle_streams]):
        if packet.stream.index in cues:
            if cue_begins_in(packet, start_abs, end_abs):
                yield SubtitleItem(cues[packet.stream.index], packet)
            continue
        i = index[packet.stream.index]
        if i in done and packet.size:
            continue
        for item in reader.audio_items(i, packet, start_abs, end_abs):  # the export rules
            if item is None:
                done.add(i)
            else:
                yield item


def _time(item: AudioItem | SubtitleItem) -> Fraction:
    if isinstance(item, SubtitleItem):
        return _seconds(item.packet.pts, item.packet.time_base) or Fraction(0)
    d = item.data
    tb = d.time_base or (Fraction(1, d.sample_rate) if isinstance(d, av.AudioFrame) else None)
    t = _seconds(d.pts if d.pts is not None else getattr(d, "dts", None), tb)
    return t if t is not None else Fraction(0)


def join_chunks(chunks: list[tuple[Path, Fraction]], dst: Path, fmt: str, source: Path, *,
                audio: bool = True, start: float = 0.0, end: float | None = None,
                replace: bool = True, subtitles: bool = True, metadata: bool = True,
                codec: str = "h264") -> JoinResult:
    """Remux `chunks` (in order; each with the seconds to add to its timestamps) and the
    source's audio and subtitles of [start, end) into `dst`, with its tags and chapters
    (`metadata`); replace=False (-n) never replaces a file there, even one that appeared
    while the chunks were rendered. `codec` is the chunks' (for the bit-depth warning)."""
    if not chunks:
        raise MediaError(f"nothing to join into {dst}")
    reader = VideoReader(source, audio=audio, subtitles=subtitles, deep=None)
    try:
        transcode, layout_notes = audio_copies(fmt, source, reader.audio_streams)
        reader.transcode_audio = transcode
        offset = reader.origin(start)
        options = ({"movflags": "+faststart"} if fmt in ISO_FORMATS
                   else {"avoid_negative_ts": "disabled"})
        try:
            with atomic_output(dst, replace=replace) as tmp:
                result = _join(chunks, dst, tmp, fmt, options, reader, transcode, offset,
                               start, end, metadata)
        except av.error.FFmpegError as e:
            raise MediaError(f"cannot join the chunks into {dst}: {ffmpeg_reason(e)}") from None
        except OutputExists as e:
            raise MediaError(str(e)) from None
        except OSError as e:
            raise MediaError(f"cannot write {dst}: {ffmpeg_reason(e)}") from None
        result.warnings.extend(layout_notes)
        result.warnings.extend(reader.damaged_audio.said(
            source, [(s, i in transcode) for i, s in enumerate(reader.audio_streams)]))
        result.warnings.extend(depth_warnings(reader, result.pix_fmt, CODECS[codec],
                                              fmt=fmt))
        result.codec = codec  # (as a local render names it: h265, not FFmpeg's hevc)
        return result
    finally:
        reader.close()


def _join(chunks: list[tuple[Path, Fraction]], dst: Path, tmp: Path, fmt: str,
          options: dict[str, str], reader: VideoReader, transcode: frozenset[int],
          offset: float, start: float, end: float | None, metadata: bool) -> JoinResult:
    out = av.open(str(tmp), mode="w", format=fmt, container_options=options)
    try:
        with av.open(str(chunks[0][0])) as first:
            template = first.streams.video[0]
            video = out.add_stream_from_template(template)
            size = (template.codec_context.width, template.codec_context.height)
            codec = template.codec_context.name
            pix_fmt = template.codec_context.pix_fmt or "yuv420p"
        tracks = [AudioTrack(out, s, offset, transcode=i in transcode)
                  for i, s in enumerate(reader.audio_streams)]
        carried = carry_streams(
            reader, out, video, [(s, t.stream) for s, t in zip(reader.audio_streams, tracks,
                                                                strict=True)],
            dst.suffix.lower() or fmt, offset=offset, metadata=metadata,
            end=None if end is None else reader.start_time + end)

        def write(item: AudioItem | SubtitleItem) -> None:
            if isinstance(item, SubtitleItem):
                carried.write_subtitle(item.stream, item.packet)
            else:
                tracks[item.stream].write(item.data)

        sound = side_items(reader, start, end)
        pending = next(sound, None)
        frames = 0
        last_dts: Fraction | None = None
        video_end: Fraction | None = None  # where the joined video ends (its cues, chapters too)
        timeline = decode_timeline(chunks) if fmt in ISO_FORMATS else None
        for path, packet, tb, rebase in chunk_packets(chunks):
            if rebase:
                ticks = round(rebase / tb)
                if packet.pts is not None:
                    packet.pts += ticks
                if packet.dts is not None:
                    packet.dts += ticks
            if timeline is not None and frames < len(timeline):
                # MP4/MOV: decode times laid out across the chunks by each frame's
                # own length (as VideoWriter lays out one file's)
                laid, length = timeline[frames]
                packet.dts, packet.duration = round(laid / tb), round(length / tb)
            if packet.dts is None and last_dts is not None:
                # Matroska keeps no decode times: a chunk's first frames come without
                # one, and the muxer's guess (their pts) would run past the next
                # frames' ("Invalid argument"): the smallest step after the last
                packet.dts = int(last_dts / tb) + 1
            dts = _seconds(packet.dts, tb)
            if dts is not None and last_dts is not None and dts <= last_dts:
                # two encoders' decode delays meeting (variable frame rates): the
                # smallest step after the last one, never after the frame's pts
                fixed = last_dts + tb
                pts = _seconds(packet.pts, tb)
                if pts is not None and fixed > pts:
                    raise MediaError(f"{path}: its first frames cannot follow the "
                                     "previous chunk's (decode order)")
                packet.dts = int(fixed / tb)
                dts = fixed
            now = dts if dts is not None else _seconds(packet.pts, tb)
            while pending is not None and now is not None and \
                    _time(pending) - Fraction(offset).limit_denominator(10**9) <= now:
                write(pending)
                pending = next(sound, None)
            last_dts = dts if dts is not None else last_dts
            if packet.pts is not None:
                stop = _seconds(packet.pts + (packet.duration or 0), tb)
                video_end = stop if video_end is None or stop > video_end else video_end
            packet.stream = video
            out.mux(packet)
            if video_end is not None:  # the cues it reaches past; the rest wait for flush
                carried.advance(video_end)
            frames += 1
        while pending is not None:
            write(pending)
            pending = next(sound, None)
        for t in tracks:
            t.flush()
        carried.flush(output_end(video_end, tracks))
        out.close()
    except BaseException:
        with contextlib.suppress(Exception):  # the file is discarded anyway
            out.close()
        raise
    return JoinResult(dst, frames, size, codec, [t.describe() for t in tracks],
                      carried.streams(tmp),
                      [t.warning for t in tracks if t.warning] + carried.warnings,
                      pix_fmt=pix_fmt)
