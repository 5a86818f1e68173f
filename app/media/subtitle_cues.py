"""The subtitle cues on screen at a cut's start: begun before it and still shown there.

A cut (--start, a cluster chunk) must show the cues already on screen where it begins. Those
begun shortly before are found among all the file's packets read from `CUE_LOOKBACK` seconds
before the start; longer ones (a sign held a minute, a picture cue shown until the next) are
sought through the stream's index of cues where it has one, or read from the file's top.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import av
import av.error

# How far before a cut's start the subtitles on screen there are looked for among all the
# file's packets (a cue that began longer before is looked for apart: `_long_cues`), and how
# far past it the packets of the file are read for a cue begun before it (muxers interleave
# by time: a cue sits near the frames it starts at)
CUE_LOOKBACK = 30.0
CUE_LOOKAHEAD = 10.0
# How far past a cue sought by its time the packets are read for others at that time
CUE_SLACK = 0.5
# The most cues sought one by one (about 0.6 ms each); a stream with more begun before a
# cut is read through instead (a 10 min 720p Matroska file's first 9.5 min: about 0.2 s)
CUE_SEEKS = 400
# What opening a file reads of it (its first cluster), and how far before a time a seek may
# land (a keyframe), in seconds: a cue found in an index apart from them was not put there
# by reading it
CUE_HEAD = 10.0


@dataclass
class SubtitleItem:
    """A subtitle packet of one stream (copied, or converted by the writer)."""

    stream: int  # position of the subtitle stream among the file's subtitle streams
    packet: av.Packet


def cue_in(packet: av.Packet, start: float | None, end: float | None) -> bool:
    """Whether a subtitle packet shows inside [start, end) seconds; one without a duration
    (a PGS picture cue, shown until the next) may, whenever it begins before `end`."""
    if packet.pts is None or packet.dts is None and not packet.size:
        return False
    t = float(packet.pts * packet.time_base)
    until = t + float((packet.duration or 0) * packet.time_base)
    return (end is None or t < end) and (start is None or not packet.duration or until > start)


def cue_begins_in(packet: av.Packet, start: float | None, end: float | None) -> bool:
    """Whether a subtitle packet begins inside [start, end) seconds (one on screen at
    `start` but begun before it is `CuesOnScreen`'s)."""
    return cue_in(packet, start, end) and (start is None or cue_time(packet) >= start)


def cue_time(packet: av.Packet) -> float:
    """A subtitle packet's start in seconds of its stream (its pts; 0 without one)."""
    return float(packet.pts * packet.time_base) if packet.pts is not None else 0.0


class CuesOnScreen:
    """Looks up the cues on screen at a time in an open file (moves its read position)."""

    def __init__(self, container: av.container.InputContainer,
                 video: av.video.stream.VideoStream, subtitle_streams: list[av.stream.Stream],
                 start_time: float) -> None:
        self.container = container
        self.video = video
        self.subtitle_streams = subtitle_streams
        self.start_time = start_time
        self.time_base = video.time_base or Fraction(1, 90000)

    def before(self, start: float, end: float | None) -> list[SubtitleItem]:
        """The subtitle packets that begin before `start` seconds (of the file) and are on
        screen there (or, without a duration, may be: a picture cue shown until the next),
        in time order: read from `CUE_LOOKBACK` seconds before it, and the longer ones
        begun before that apart (`_long_cues`); the file is left anywhere (seek next)."""
        if not self.subtitle_streams:
            return []
        cues = self._recent_cues(start, end)
        if start - CUE_LOOKBACK > self.start_time:
            cues = self._long_cues(start - CUE_LOOKBACK, start, end, cues) + cues
        return cues

    def _recent_cues(self, start: float, end: float | None) -> list[SubtitleItem]:
        """`before`'s cues begun less than `CUE_LOOKBACK` seconds before `start`,
        among every packet of the file from there."""
        index = {s.index: i for i, s in enumerate(self.subtitle_streams)}
        waiting = set(index)  # streams with no packet at or after `start` yet
        cues: list[SubtitleItem] = []
        try:
            if start - CUE_LOOKBACK > self.start_time:
                self.container.seek(int((start - CUE_LOOKBACK) / self.time_base),
                                    stream=self.video, backward=True, any_frame=False)
            else:
                self.container.seek(0, stream=self.video)
            streams = [*self.container.streams.video, *self.container.streams.audio,
                       *self.subtitle_streams]
            for packet in self.container.demux(streams):
                if packet.pts is None:
                    continue
                t = cue_time(packet)
                if packet.stream.index in index:
                    if t >= start:
                        waiting.discard(packet.stream.index)
                    elif cue_in(packet, start, end):
                        cues.append(SubtitleItem(index[packet.stream.index], packet))
                if not waiting or t > start + CUE_LOOKAHEAD:
                    break
        except (av.error.FFmpegError, OSError):
            pass  # the walk's own seek and reading say what is wrong
        return cues

    def _long_cues(self, until: float, start: float, end: float | None,
                   recent: list[SubtitleItem]) -> list[SubtitleItem]:
        """The cues begun before `until` seconds (about where `_recent_cues` reads from: its
        `recent` ones are not taken twice) that are on screen at `start`: a cue with a
        duration that lasts past it (a sign held a minute), and a stream's last picture cue
        without one where `recent` holds none of it. A stream with an index of its cues (an
        MP4's sample table, a Matroska file's cues) is sought cue by cue, reading a few
        packets each; one without (or with more than `CUE_SEEKS` such cues) is read from
        the file's top to `until`, with the video (whose times say where that is)."""
        seen = {(c.packet.stream.index, c.packet.pts) for c in recent}
        shown = {c.packet.stream.index for c in recent if not c.packet.duration}
        found: list[SubtitleItem] = []
        unindexed: list[av.stream.Stream] = []
        for i, s in enumerate(self.subtitle_streams):
            times = self._cue_index(s, start)
            early = sorted({t for t in times or [] if t * s.time_base < until})
            if times is None or len(early) > CUE_SEEKS:
                unindexed.append(s)
                continue
            packets: list[av.Packet] = []
            for tick in early:
                packets += self._packets_at(s, tick)
            found += self._on_screen(i, packets, until, start, end, seen, s.index in shown)
        if unindexed:
            index = {s.index: i for i, s in enumerate(self.subtitle_streams)}
            packets = []
            try:
                self.container.seek(0, stream=self.video)
                for packet in self.container.demux([self.video, *unindexed]):
                    if packet.pts is not None and packet.stream.index == self.video.index:
                        if cue_time(packet) >= until:
                            break
                    elif packet.pts is not None:
                        packets.append(packet)
            except (av.error.FFmpegError, OSError):
                pass  # the walk's own seek and reading say what is wrong
            for s in unindexed:
                found += self._on_screen(index[s.index], [p for p in packets if p.stream is s],
                                         until, start, end, seen, s.index in shown)
        return sorted(found, key=lambda c: cue_time(c.packet))

    def _cue_index(self, stream: av.stream.Stream, start: float) -> list[int] | None:
        """The times (ticks) of the cues of subtitle `stream` its index holds, where it holds
        them all: an MP4's or MOV's (its sample table), or one with cues where nothing was
        read yet (a Matroska file's cues, loaded by the first seek: its demuxer adds the
        cues it reads to an index without them, the file's head's on opening and
        `_recent_cues`' from `CUE_LOOKBACK` seconds before `start` to `CUE_LOOKAHEAD` after
        it); None otherwise."""
        times = [e.timestamp for e in stream.index_entries]
        t0, tb = self.start_time, stream.time_base
        unread = [t for t in times if t0 + CUE_HEAD < t * tb < start - CUE_LOOKBACK - CUE_HEAD
                  or t * tb > start + CUE_LOOKAHEAD]
        return times if unread or "mov" in self.container.format.name.split(",") else None

    def _packets_at(self, stream: av.stream.Stream, tick: int) -> list[av.Packet]:
        """The packets of subtitle `stream` at `tick` (its time base), sought by its index:
        read up to the next one, or a video packet `CUE_SLACK` seconds past it (muxers
        interleave by time; the next cue may be minutes on)."""
        packets = []
        past = (tick * stream.time_base + Fraction(CUE_SLACK)) / self.video.time_base
        try:
            self.container.seek(tick, stream=stream, backward=True, any_frame=True)
            for packet in self.container.demux([self.video, stream]):
                at = packet.dts if packet.dts is not None else packet.pts
                if at is None:
                    continue
                if packet.stream.index != stream.index:  # the video's
                    if at > past:
                        break
                    continue
                if at > tick:
                    break
                if at == tick:
                    packets.append(packet)
        except (av.error.FFmpegError, OSError):
            pass  # the walk's own seek and reading say what is wrong
        return packets

    @staticmethod
    def _on_screen(i: int, packets: list[av.Packet], until: float, start: float,
                   end: float | None, seen: set[tuple[int, int | None]], shown: bool
                   ) -> list[SubtitleItem]:
        """`_long_cues`' cues among `packets` of subtitle stream `i`, in time order: those
        begun before `until` that last past `start` (and not in `seen`), and the last one
        without a duration unless `shown` (one begun later is on screen instead)."""
        packets = [p for p in packets if cue_time(p) < until
                   and (p.stream.index, p.pts) not in seen]
        kept = [SubtitleItem(i, p) for p in packets if p.duration and cue_in(p, start, end)]
        pictures = [p for p in packets if not p.duration and p.size]
        if pictures and not shown:
            kept.append(SubtitleItem(i, max(pictures, key=cue_time)))
        return kept
