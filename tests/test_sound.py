"""The window's sound: read from any time sample-exact, kept on the pictures' clock.

The reader is checked on a ramp (each sample's value is its index), so the first sample
read says the time it was read from; the player is checked against a simulated output
that starts late, drifts and records which sample it played when.
"""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from aquarelle.media.file_source import VideoFileSource
from aquarelle.media.pcm_format import BYTES_PER_SECOND, FRAME_BYTES, RATE
from aquarelle.media.sound_player import TOLERANCE, SoundPlayer
from aquarelle.media.sound_reader import SoundReader, sound_tracks

RAMP = 30000  # the ramp's left channel counts samples modulo this, the right the wraps


def ramp_clip(path: Path, seconds: float, *, fps: int = 24, sound_from: float = 0.0,
              tracks: int = 1, default: int = 0, per: int = 1) -> Path:
    """A clip whose sound is a ramp: sample n (from the video's first frame) holds
    (m % RAMP, m // RAMP), m = n // `per`, in track `default`, constants in the others
    (which are marked not default where `tracks` > 1)."""
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=fps)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        streams = [out.add_stream("pcm_s16le", rate=RATE, layout="stereo")
                   for _ in range(tracks)]
        for k, s in enumerate(streams):
            s.disposition = av.stream.Disposition.default if k == default else \
                av.stream.Disposition(0)
        for k in range(round(seconds * fps)):
            frame = av.VideoFrame.from_ndarray(np.full((48, 64, 3), k % 250, np.uint8),
                                               format="rgb24")
            frame.pts, frame.time_base = k, Fraction(1, fps)
            for packet in vs.encode(frame):
                out.mux(packet)
        for packet in vs.encode(None):
            out.mux(packet)
        first = round(sound_from * RATE)
        n = np.arange(first, round(seconds * RATE))
        for k, s in enumerate(streams):
            if k == default:
                data = np.stack([n // per % RAMP, n // per // RAMP], 1).astype(np.int16)
            else:
                data = np.full((len(n), 2), 7 + k, np.int16)
            for i in range(0, len(n), 4800):
                part = np.ascontiguousarray(data[i:i + 4800].reshape(1, -1))
                af = av.AudioFrame.from_ndarray(part, format="s16", layout="stereo")
                af.sample_rate, af.pts, af.time_base = RATE, first + i, Fraction(1, RATE)
                for packet in s.encode(af):
                    out.mux(packet)
            for packet in s.encode(None):
                out.mux(packet)
    return path


def samples(data: bytes) -> np.ndarray:
    """Ramp values (sample numbers) of PCM bytes."""
    x = np.frombuffer(data, np.int16).reshape(-1, 2).astype(np.int64)
    return x[:, 0] + RAMP * x[:, 1]


@pytest.fixture(scope="module")
def ramp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ramp_clip(tmp_path_factory.mktemp("sound") / "ramp.mkv", 3.0)


@pytest.mark.parametrize("start", [0.0, 0.5, 1.2345, 2.99])
def test_the_sound_read_from_a_time_begins_with_that_times_sample(ramp: Path,
                                                                  start: float) -> None:
    reader = SoundReader(ramp, 0.0)
    got = samples(b"".join(reader.pcm(start)))
    first = round(start * RATE)
    assert got[0] == first
    assert np.array_equal(got, np.arange(first, 3 * RATE))  # every sample, once, in order
    reader.close()


def test_before_the_sound_begins_it_is_silence(tmp_path: Path) -> None:
    """A time before the sound's first sample (its track starts 0.25 s after the video, or
    a loop's lead-in before 0) is silence as long as the gap, then the sound."""
    clip = ramp_clip(tmp_path / "late.mkv", 1.0, sound_from=0.25)
    reader = SoundReader(clip, 0.0)
    for start in (0.0, -0.1):
        x = np.frombuffer(b"".join(reader.pcm(start)), np.int16).reshape(-1, 2)
        gap = round((0.25 - start) * RATE)
        assert not x[:gap].any()
        assert samples(x[gap:].tobytes())[0] == round(0.25 * RATE)
    reader.close()


def test_the_track_marked_default_is_the_one_played_unless_another_is_chosen(
        tmp_path: Path) -> None:
    clip = ramp_clip(tmp_path / "two.mkv", 0.5, tracks=2, default=1)
    reader = SoundReader(clip, 0.0)
    assert samples(b"".join(reader.pcm(0.1)))[0] == round(0.1 * RATE)
    reader.close()
    assert [(t.index, t.label, t.played) for t in sound_tracks(clip)] == [
        (1, "Track 1", False), (2, "Track 2", True)]
    other = SoundReader(clip, 0.0, track=1)  # the first sound track: constants (7)
    assert set(np.frombuffer(b"".join(other.pcm(0.1)), np.int16)) == {7}
    other.close()
    with pytest.raises(ValueError, match="no sound track 5"):
        SoundReader(clip, 0.0, track=5)


class SimulatedOutput:
    """A sound card: takes up to `size` bytes; starts playing `delay` s after the first
    write since it was cleared, then plays `speed` x 48 kHz; says which sample it played
    at each step of the simulated wall clock."""

    def __init__(self, size: int, delay: float = 0.0, speed: float = 1.0) -> None:
        self.size, self.delay, self.speed = size, delay, speed
        self.queue = bytearray()
        self.heard_bytes = 0.0
        self.started: float | None = None
        self.now = 0.0
        self.log: list[tuple[float, int | None]] = []  # (wall, sample heard or None)

    def free(self) -> int:
        return self.size - len(self.queue)

    def played(self) -> int:
        return int(self.heard_bytes) // FRAME_BYTES * FRAME_BYTES

    def write(self, data: bytes) -> int:
        taken = data[:self.free()]
        if taken and self.started is None:
            self.started = self.now + self.delay
        self.queue += taken
        return len(taken)

    def clear(self) -> None:
        self.queue.clear()
        self.heard_bytes, self.started = 0.0, None

    def advance(self, dt: float) -> None:
        self.now += dt
        playing = self.started is not None and self.now >= self.started and self.queue
        if not playing:
            self.log.append((self.now, None))
            return
        n = min(len(self.queue), round(dt * BYTES_PER_SECOND * self.speed / 4) * 4)
        self.log.append((self.now, int(samples(bytes(self.queue[:4]))[0])))
        del self.queue[:n]
        self.heard_bytes += n


def play(player: SoundPlayer, out: SimulatedOutput, clock, seconds: float,
         dt: float = 0.01) -> None:
    """Tick the player every `dt` for `seconds` of simulated wall time."""
    for _ in range(round(seconds / dt)):
        player.tick(clock(out.now), out.now)
        out.advance(dt)


def off_by(out: SimulatedOutput, clock, since: float, until: float = 1e9) -> float:
    """The most the sample heard was off the pictures' time (s) between two wall times."""
    errors = [abs(s / RATE - clock(w)) for w, s in out.log
              if since <= w <= until and s is not None and clock(w) is not None]
    assert errors, "nothing was heard"
    return max(errors)


def test_the_sound_follows_the_pictures_clock_through_seeks_pauses_and_a_slow_output(
        ramp: Path) -> None:
    """An output that starts 0.2 s late and plays 0.5% fast: once it plays, the sound is
    moved to the pictures (not started again: its start-up would put it behind again) and
    is within the tolerance once what was queued before has played; so after a seek (the
    output is cleared: a card that starts at once is heard there at once). A pause is
    silence at once; play again resumes where the pictures are."""
    out = SimulatedOutput(size=BYTES_PER_SECOND // 2, delay=0.2, speed=1.005)
    player = SoundPlayer(SoundReader(ramp, 0.0), out)

    def clock(w: float) -> float | None:
        if w < 1.5:
            return 0.1 + w  # playing from 0.1 s
        if w < 2.6:
            return 0.5 + (w - 1.5)  # a seek back to 0.5 s
        if w < 2.9:
            return None  # paused at 1.6 s
        return 1.6 + (w - 2.9)  # playing on

    play(player, out, clock, 4.0)
    assert player.restarts == 3  # the first play, the seek, play after the pause
    assert player.moves >= 3  # each late start (and the drift) moved, not restarted
    settled = 0.2 + 0.5 + 0.02  # the start-up, what was queued meanwhile, a tick
    assert off_by(out, clock, settled, 1.5) <= TOLERANCE + 0.011
    assert off_by(out, clock, 1.5 + settled, 2.6) <= TOLERANCE + 0.011
    assert all(s is None for w, s in out.log if 2.6 + 0.011 < w < 2.9)  # paused: silence
    assert off_by(out, clock, 2.9 + settled) <= TOLERANCE + 0.011
    heard = [s for w, s in out.log if s is not None]
    assert heard[0] == round(0.1 * RATE)  # the first sample heard is the first play's
    # a card that starts at once: the seek is heard at once, the pause is silence at once
    out = SimulatedOutput(size=BYTES_PER_SECOND // 2)
    player = SoundPlayer(SoundReader(ramp, 0.0), out)
    play(player, out, clock, 4.0)
    assert off_by(out, clock, 0.0, 1.5) <= 0.011
    assert off_by(out, clock, 1.5 + 0.011, 2.6) <= 0.011
    assert off_by(out, clock, 2.9 + 0.011) <= 0.011
    assert player.moves == 0


def test_a_loops_start_starts_the_sound_again_and_its_end_is_not_restarted(
        ramp: Path) -> None:
    """The pictures loop at 3.0 s (the clock goes back to 0): the sound starts again
    from 0; past the sound's end (the pictures' last frame held) no restarts come."""
    out = SimulatedOutput(size=BYTES_PER_SECOND // 4)
    player = SoundPlayer(SoundReader(ramp, 0.0), out)

    def clock(w: float) -> float:
        return 2.5 + w if w < 0.5 else w - 0.5  # the loop's start at 0.5 s of wall

    play(player, out, clock, 1.0)
    assert player.restarts == 2
    assert off_by(out, clock, 0.52, 1.0) <= 0.011
    out2 = SimulatedOutput(size=BYTES_PER_SECOND // 4)
    player2 = SoundPlayer(SoundReader(ramp, 0.0), out2)
    play(player2, out2, lambda w: 2.8 + w, 1.0)  # heard to 3.0 s, then the sound is over
    assert player2.restarts == 1 and player2.moves == 0


def until(condition, timeout: float = 20.0) -> None:
    """Wait for `condition` (polled: the source's thread changes it)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_played_faster_or_slower_the_sound_is_too(tmp_path: Path) -> None:
    """At 2x (0.5x, 0.25x: two atempo steps) a second of sound out holds two (a half, a
    quarter) of the file's, each sample near the time the pictures have then; the
    player heard at twice the pace follows the pictures at twice the pace. (The ramp
    counts eighths of samples here: atempo blends its windows, and the ramp must not
    wrap within the clip.)"""
    slow = ramp_clip(tmp_path / "slow.mkv", 3.0, per=8)
    reader = SoundReader(slow, 0.0)
    for rate in (2.0, 0.5, 0.25):
        got = samples(b"".join(reader.pcm(0.1, rate))) * 8
        assert len(got) / RATE == pytest.approx(2.9 / rate, rel=0.01)  # (its tail: atempo)
        expected = round(0.1 * RATE) + np.arange(len(got)) * rate
        assert np.abs(got - expected)[:-RATE // 10].max() / RATE < 0.05  # atempo's windows
    out = SimulatedOutput(size=BYTES_PER_SECOND // 4)
    player = SoundPlayer(SoundReader(slow, 0.0), out)
    for _ in range(100):  # a second of wall clock at 2x from 0.2 s
        player.tick(0.2 + 2 * out.now, out.now, 2.0)
        out.advance(0.01)
    assert player.restarts == 1 and player.moves == 0
    heard = [(w, s * 8) for w, s in out.log if s is not None and w > 0.1]
    assert max(abs(s / RATE - (0.2 + 2 * w)) for w, s in heard) < 0.06
    reader.close()


def test_a_playing_files_clock_gives_the_pictures_time_and_none_while_they_stand(
        ramp: Path) -> None:
    """VideoFileSource.clock: the time paced playback is at (it runs with the wall clock,
    and at twice the pace twice as fast); None once paused, and after a seek until its
    frame comes."""
    src = VideoFileSource(ramp, paced=True)
    src.start()
    try:
        until(lambda: src.clock() is not None)
        wall = time.monotonic()
        at = src.clock(wall)
        assert at is not None and 0.0 <= at < 3.0
        assert src.clock(wall + 0.5) == pytest.approx(at + 0.5)
        src.pause()
        assert src.clock() is None
        src.seek(1.5)
        assert src.clock() is None
        src.resume()
        until(lambda: src.clock() is not None)
        assert src.clock() == pytest.approx(1.5, abs=0.3)
        src.set_rate(2.0)
        until(lambda: (src.clock(1.0) or 0.0) - (src.clock(0.0) or 0.0) > 1.5)
        assert src.clock(1.0) - src.clock(0.0) == pytest.approx(2.0)
    finally:
        src.stop()
