"""A video file's sound for the speakers: 16-bit stereo at 48 kHz from any time, sample-exact.

Times count from the video's first frame, as the frames' do (`VideoFileSource`): where the
sound starts after that time the gap is silence, so the bytes always begin at the time asked.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np

from .pcm_format import CHANNELS, RATE, silence
from .sound_tempo import at_rate


def played_track(streams: list[av.audio.AudioStream]) -> av.audio.AudioStream | None:
    """The track a player plays: the one marked default, else the first."""
    default = av.stream.Disposition.default
    return next((s for s in streams if s.disposition & default), streams[0] if streams else None)


@dataclass(frozen=True)
class SoundTrack:
    """One of a file's sound tracks, as a menu names it."""

    index: int  # the stream's index in the file
    label: str  # "Track 2: Commentary (fra)", "Track 1 (eng)"
    played: bool  # the one played unless another is chosen (played_track)


def sound_tracks(path: str | Path) -> list[SoundTrack]:
    """A file's sound tracks (none for anything unreadable)."""
    try:
        with av.open(str(path)) as c:
            streams = list(c.streams.audio)
            played = played_track(streams)
            return [SoundTrack(s.index, describe(s), s is played) for s in streams]
    except (av.error.FFmpegError, OSError, ValueError):
        return []


class SoundReader:
    """The sound of `path` as PCM bytes, from any time (seconds after `origin`, the source
    time of the video's first frame). Not thread-safe: one reader a thread."""

    def __init__(self, path: str | Path, origin: float, track: int | None = None) -> None:
        """`track`: the stream index of the sound track to read (None: played_track's)."""
        self.path = Path(path)
        self._origin = origin
        self._container = av.open(str(self.path))
        streams = list(self._container.streams.audio)
        self._stream = played_track(streams) if track is None else \
            next((s for s in streams if s.index == track), None)
        if self._stream is None:
            self._container.close()
            raise ValueError(f"{self.path.name} has no sound"
                             + (f" track {track}" if track is not None else ""))
        self._stream.thread_type = "AUTO"

    def close(self) -> None:
        self._container.close()

    def pcm(self, start: float, rate: float = 1.0) -> Iterator[bytes]:
        """Interleaved 16-bit stereo PCM at 48 kHz from `start` seconds (after the video's
        first frame) to the sound's end; silence where the sound has not begun yet.
        `rate`: played that many times as fast, at its own pitch."""
        return at_rate(self._pcm(start), rate)

    def _pcm(self, start: float) -> Iterator[bytes]:
        stream = self._stream
        assert stream is not None
        at = round(start * RATE)  # the sample frame the next byte is, counted from 0 s
        source_start = self._origin + start
        tb = stream.time_base
        if tb:
            # a second early: a packet's samples may start before its keyframe's time
            target = max(stream.start_time or 0, int((source_start - 1.0) / tb))
            self._container.seek(target, stream=stream, backward=True)
        resampler = av.AudioResampler(format="s16", layout="stereo", rate=RATE)
        here: int | None = None  # the sample frame of the next resampled sample
        try:
            for packet in self._container.demux(stream):
                for frame in packet.decode():
                    if here is None:
                        first = frame.pts * frame.time_base if frame.pts is not None \
                            and frame.time_base else self._origin
                        here = round((float(first) - self._origin) * RATE)
                    for out in resampler.resample(frame):
                        chunk, here, at = _from(out, here, at)
                        if chunk:
                            yield chunk
            for out in resampler.resample(None):
                if here is not None:
                    chunk, here, at = _from(out, here, at)
                    if chunk:
                        yield chunk
        except av.error.FFmpegError:  # a damaged file's sound ends where it breaks
            return


def _from(frame: av.AudioFrame, here: int, at: int) -> tuple[bytes, int, int]:
    """The part of a resampled `frame` (its first sample at `here`) from sample `at` on,
    with silence before it where the frame begins after `at`; the next `here` and `at`."""
    data = np.ascontiguousarray(frame.to_ndarray()).reshape(-1)[:frame.samples * CHANNELS]
    end = here + frame.samples
    if end <= at:
        return b"", end, at
    gap = silence(here - at)
    skip = max(0, at - here)
    return gap + data[skip * CHANNELS:].tobytes(), end, end


def describe(stream: av.audio.AudioStream) -> str:
    """A track's name for a menu: its number among the file's sound tracks, its title and
    language where it has them ("Track 2: Commentary (fra)", "Track 1 (eng)", "Track 3")."""
    lang = stream.metadata.get("language")
    lang = f" ({lang})" if lang and lang != "und" else ""
    title = stream.metadata.get("title")
    number = list(stream.container.streams.audio).index(stream) + 1
    return f"Track {number}: {title}{lang}" if title else f"Track {number}{lang}"
