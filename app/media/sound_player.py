"""Keeps an audio output playing a file's sound at the time its pictures are played.

The video is paced on the wall clock (VideoFileSource); the sound follows that clock, not
the other way round. Where the pictures' clock jumps (a seek, a step, a loop's start, play
after a pause) the output is cleared and the sound started again there. Otherwise, each
tick the time being heard is compared with the pictures' and, more than TOLERANCE apart (an
output slow to start, drift), the sound written next is taken from where the pictures will
be when it is heard: no restart, whose start-up would put it behind again. No Qt here: the
output is any `Sink` (the window's is a QAudioSink on a thread of its own).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol

from .pcm_format import BYTES_PER_SECOND, FRAME_BYTES
from .sound_reader import SoundReader

TOLERANCE = 0.045  # seconds the sound may be off the pictures before it is moved
JUMP = 0.03  # seconds the pictures' clock may move off the wall clock: more is a jump
MIN_WRITE = 1024  # bytes: fewer free in the output waits for the next tick


class Sink(Protocol):
    """An audio output taking 16-bit stereo 48 kHz bytes."""

    def free(self) -> int:
        """Bytes that can be written now."""
        ...

    def played(self) -> int:
        """Bytes heard since the last `clear` (or the first write)."""
        ...

    def write(self, data: bytes) -> int:
        """Queue `data`; the bytes taken."""
        ...

    def clear(self) -> None:
        """Forget what is queued: silence from now."""
        ...


class SoundPlayer:
    """Feeds `sink` the sound of `reader` at the times `tick` is given."""

    def __init__(self, reader: SoundReader, sink: Sink) -> None:
        self.reader, self.sink = reader, sink
        self._pcm: Iterator[bytes] | None = None
        # the bytes written since the output was cleared, as runs of the sound: (the byte
        # a run starts at, its time, the seconds of sound a second of it plays); newest last
        self._runs: list[tuple[int, float, float]] = []
        self._written = 0
        self._pending = b""  # decoded, not yet taken by the sink
        self._end: float | None = None  # the sound's end, once the reader gave its last byte
        self._last: tuple[float, float] | None = None  # the last tick's (wall, time)
        self.rate = 1.0  # the speed the sound is played at (the pictures')
        self.restarts = 0  # (how often the output was cleared and started again)
        self.moves = 0  # (how often the sound written next was moved to the pictures)

    def _time_of(self, byte: int) -> float:
        at, t, rate = next((r for r in reversed(self._runs) if r[0] <= byte), self._runs[0])
        return t + (byte - at) / BYTES_PER_SECOND * rate

    def tick(self, now: float | None, wall: float, rate: float = 1.0) -> None:
        """Play the sound of `now` (seconds after the video's first frame; None: silence),
        the pictures' time at `wall` on the wall clock (seconds, time.monotonic's), as they
        play `rate` times their pace (the sound too, at its pitch)."""
        last = self._last
        self._last = None if now is None else (wall, now)
        if now is None:
            if self._pcm is not None:
                self.stop()
            return
        if self._pcm is None or last is None or rate != self.rate \
                or abs(now - last[1] - (wall - last[0]) * rate) > JUMP:
            self.rate = rate
            self._start(now)
        elif self.sink.played() > 0:  # (before the output starts, nothing is heard late)
            # the time the next byte written will be heard at, against the time it holds
            due = now + (self._written - self.sink.played()) / BYTES_PER_SECOND * rate
            if abs(self._time_of(self._written) - due) > TOLERANCE \
                    and (self._end is None or due < self._end):
                self._move(due)
        self._fill()

    def stop(self) -> None:
        """Silence now; the next `tick` with a time starts the sound there."""
        self.sink.clear()
        self._close_pcm()
        self._last = None

    def close(self) -> None:
        self.stop()
        self.reader.close()

    def _start(self, now: float) -> None:
        self.sink.clear()
        self.restarts += 1
        self._written, self._runs = 0, []
        self._open(now)

    def _move(self, at: float) -> None:
        """Write the sound from `at` next (what is queued plays first)."""
        self.moves += 1
        self._open(at)

    def _open(self, at: float) -> None:
        self._close_pcm()
        self._pcm = self.reader.pcm(at, self.rate)
        self._runs.append((self._written, at, self.rate))
        self._pending, self._end = b"", None

    def _close_pcm(self) -> None:
        if self._pcm is not None:
            close: Callable[[], None] | None = getattr(self._pcm, "close", None)
            if close is not None:
                close()
        self._pcm = None
        self._pending = b""

    def _more(self) -> bool:
        """Whether bytes are pending, decoding more where none are."""
        while not self._pending and self._pcm is not None and self._end is None:
            chunk = next(self._pcm, None)
            if chunk is None:
                self._end = self._time_of(self._written)
            else:
                self._pending = chunk
        return bool(self._pending)

    def _fill(self) -> None:
        """Write what the sink has room for."""
        while True:
            room = self.sink.free() // FRAME_BYTES * FRAME_BYTES
            if room < MIN_WRITE or not self._more():
                return
            taken = self.sink.write(self._pending[:room])
            if taken <= 0:
                return
            self._pending = self._pending[taken:]
            self._written += taken
