"""Where a video is cut into chunks: at keyframes near multiples of the chunk length.

The source's packets are scanned without decoding (timestamps and keyframe flags); frame k
of the file is the k-th presentation timestamp. A chunk is a range of frames [first, end)
written by one worker, which starts rendering `warmup` frames earlier (the temporal features'
memory) and decodes from the keyframe before that.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..media.errors import MediaError
from ..media.export import no_frames_in
from ..media.frame_range import snapped_start
from ..media.video_reader import VideoReader

# Frames rendered and thrown away before a chunk's first frame. The temporal blends keep
# (0.6)^k of frame -k (the watercolor's temporal_strength: 0.6^16 = 0.03%). Measured on the
# test pattern clip (96x64, 60 frames, chunks of 0.5 s, CRF 1) against one long render: K=0
# leaves a chunk's first frame 23.6 levels off (mean abs), K=8 and K=16 leave every frame
# within the encoder's own noise (median 0.42, worst 0.81). 16 costs 1.8% of a 30 s chunk
# at 30 fps. The paper's position has unbounded memory and is set exactly (canvas.py).
WARMUP_FRAMES = 16


@dataclass(frozen=True)
class VideoIndex:
    """A video's frames in presentation order, from its packets (nothing decoded)."""

    path: str
    time_base: Fraction
    start_time: float  # seconds (the stream's first timestamp)
    pts: tuple[int, ...]  # presentation timestamps, increasing
    keyframes: tuple[int, ...]  # frame numbers that are keyframes
    cuts: tuple[int, ...]  # keyframes off the regular GOP cadence: probably scene cuts
    first_time: float = 0.0  # seconds: the first of the video's and audio's timestamps

    def time(self, k: int) -> float:
        """Seconds of frame k from the stream's start."""
        return float(self.pts[k] * self.time_base) - self.start_time

    def snapped_start(self, start: float) -> float:
        """A --start as the frame it names (frame_range.snapped_start), as VideoReader's."""
        if start <= 0:
            return start
        times = (self.time(k) for k in range(len(self.pts)))
        return snapped_start(start, times)

    def frames_in(self, start: float = 0.0, end: float | None = None) -> tuple[int, int]:
        """The frames [lo, hi) with start <= time < end, and the one on screen at `start`
        where none starts there (as an export's walk picks them: VideoReader.items with
        `shown`; the last frame lasts a step, the one before it)."""
        lo = 0
        if start > 0:
            while lo < len(self.pts) and self.time(lo) < start - 1e-9:
                lo += 1
            n = len(self.pts)
            if lo > 0 and (lo == n or self.time(lo) > start + 1e-9):
                ends = self.time(lo) if lo < n else self.time(n - 1) + (
                    self.time(n - 1) - self.time(n - 2) if n > 1 else 0.0)
                lo -= ends > start + 1e-9  # (on screen there, held from it)
        hi = len(self.pts)
        if end is not None:
            while hi > lo and self.time(hi - 1) >= end - 1e-9:
                hi -= 1
        return lo, hi


@dataclass(frozen=True)
class Chunk:
    """Frames [first, end) of a file, rendered after warm-up frames [warm, first)."""

    index: int
    first: int
    end: int
    warm: int

    @property
    def frames(self) -> int:
        return self.end - self.first


def scan(path: str | Path, audio: bool = False) -> VideoIndex:
    """Timestamps and keyframe flags of the main video stream's packets; `audio`: the
    output carries the sound, whose first timestamp may start its clock (`first_time`)."""
    with VideoReader(path, audio=audio) as reader:
        stream = reader.video
        found: list[tuple[int, bool]] = []
        try:
            for packet in reader.container.demux(stream):
                if packet.size == 0 and packet.dts is None:
                    continue  # the demuxer's flush packet
                if packet.pts is None:
                    raise MediaError(f"{path}: frames without timestamps; render it without "
                                     "--cluster")
                if packet.is_discard:
                    continue  # hidden by an MP4's edit list: decoded, never shown
                if not packet.is_corrupt:
                    found.append((int(packet.pts), bool(packet.is_keyframe)))
        except MediaError:
            raise
        except Exception as e:  # noqa: BLE001 - PyAV/FFmpeg errors of a broken file
            raise MediaError(f"{path}: cannot read its packets ({e}); render it without "
                             "--cluster") from None
        tb = reader.time_base
        start_time, first_time = reader.start_time, reader.first_time
    found.sort()
    pts = tuple(p for p, _ in found)
    if not pts:
        raise MediaError(f"{path}: no video frames")
    if len(set(pts)) != len(pts):
        raise MediaError(f"{path}: repeated frame timestamps; render it without --cluster")
    keys = tuple(k for k, (_, key) in enumerate(found) if key)
    return VideoIndex(str(path), tb, start_time, pts, keys, scene_cuts(keys), first_time)


def scene_cuts(keyframes: tuple[int, ...]) -> tuple[int, ...]:
    """Keyframes off the encoder's regular interval: encoders (x264's scenecut) put an extra
    keyframe where the picture changes completely, so these are likely cuts, where a chunk
    loses nothing of the temporal state."""
    gaps = [b - a for a, b in zip(keyframes, keyframes[1:], strict=False)]
    if len(gaps) < 2:
        return ()
    cadence = Counter(gaps).most_common(1)[0][0]
    return tuple(b for a, b in zip(keyframes, keyframes[1:], strict=False) if b - a != cadence)


def plan_chunks(index: VideoIndex, seconds: float, warmup: int = WARMUP_FRAMES,
                start: float = 0.0, end: float | None = None) -> list[Chunk]:
    """Chunks of about `seconds` each over the frames of [start, end).

    Each split is the keyframe nearest to a multiple of `seconds` (a likely scene cut within a
    quarter of the length wins over a plain keyframe); without a keyframe within half the
    length the nearest frame is taken (the worker then decodes from an earlier keyframe).
    """
    if not seconds > 0:
        raise MediaError(f"--chunk must be positive, got {seconds:g}")
    lo, hi = index.frames_in(start, end)
    if hi <= lo:
        n = len(index.pts)  # its length: the last frame's time and a step
        lasts = index.time(n - 1) + (index.time(n - 1) - index.time(n - 2)) if n > 1 else None
        raise MediaError(f"{index.path}: {no_frames_in(start, end, lasts)}")
    t0 = index.time(lo)
    keys = [k for k in index.keyframes if lo < k < hi]
    cuts = set(index.cuts)
    splits: list[int] = []
    m = 1
    while True:
        target = t0 + m * seconds
        m += 1
        if target >= index.time(hi - 1):
            break
        prev = splits[-1] if splits else lo
        near = [k for k in keys if k > prev and abs(index.time(k) - target) <= seconds / 2]
        cut = [k for k in near if k in cuts and abs(index.time(k) - target) <= seconds / 4]
        pick = cut or near
        if pick:
            k = min(pick, key=lambda k: abs(index.time(k) - target))
        else:
            k = min(range(prev + 1, hi), key=lambda k: abs(index.time(k) - target))
        if k > prev:
            splits.append(k)
    bounds = [lo, *splits, hi]
    return [Chunk(i, a, b, max(lo, a - warmup))
            for i, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False))]


def decode_window(index: VideoIndex, first: int, end: int, until: float | None = None
                  ) -> tuple[float, float | None]:
    """(start, end) seconds for VideoReader.items that give exactly frames [first, end):
    half-way between neighbouring frames, so rounding never picks a neighbour. The range's
    last chunk ends at the range's end `until` (--end), where its last frame is cut, as
    one machine's walk cuts it (`frames_in` picks frames as the walk does)."""
    start = 0.0 if first == 0 else (index.time(first - 1) + index.time(first)) / 2
    stop = None if end >= len(index.pts) else (index.time(end - 1) + index.time(end)) / 2
    return start, stop if until is None else until


def motion_segments(chunks: list[Chunk]) -> list[tuple[int, int]]:
    """The motion-only phase's pieces: (a, b) covers the motion of frames a+1..b (decoding
    a..b), between consecutive warm-up starts, so composing them gives the paper's position
    at every chunk's warm-up start."""
    starts = sorted({c.warm for c in chunks})
    return list(zip(starts, starts[1:], strict=False))
