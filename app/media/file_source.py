"""A video file as a FrameSource: PyAV decoding in a worker thread, paced or unpaced.

Paced (preview): frames are delivered at their presentation times on the wall clock into a
one-frame slot (`latest()`); frames the consumer did not take, or that decoding delivered
too late, are dropped and counted. Pause, resume, step, seek and loop are supported. With
`max_fps` below the file's rate, frames are skipped (not dropped) to keep to it; with
`stamp_due`, each frame's `captured` is the wall-clock time it came due, so a consumer can
measure latency from there as it does from a camera's capture. A loop keeps the pace: the
next loop's first frame comes one frame period after the last one. `set_rate` plays faster or
slower than the file's own pace; faster, no more frames a second are delivered than at its own
pace (the others skipped, not dropped, as under `max_fps`, which counts on the wall clock).
Unpaced (export, tests): every frame in order through `read()`, from a bounded queue.

Times (frames' `pts`, `position`, `seek`) count from the video's first frame, as an export's
--start does, whatever the file's own clock says (a recording's may start at 1.5 s or 10 h).
A frame's `index` is its place among the video's frames, as an export numbers them: where the
rate varies (or the container does not count its frames), the frames' times are read from the
packets on a thread of their own (`frame_times`), and stepping back goes to the frame before.
"""

from __future__ import annotations

import bisect
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from .errors import MediaError, ffmpeg_reason
from .frame_range import DecodedFrame
from .frame_times import frame_times, needs_times
from .source import Frame, LatestSlot, ThreadedSource
from .video_reader import VideoReader

_END = object()
MAX_LATE_SKIPS = 4  # a paced source never skips more than this many late frames in a row
RATES = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0)  # the playback speeds offered (x the file's)


class VideoFileSource(ThreadedSource):
    """Frames of a video file, upright RGB; see the module docstring for the two modes."""

    name = "video"
    live = False
    seekable = True

    def __init__(self, path: str | Path, *, paced: bool = True, loop: bool = False,
                 size: tuple[int, int] | None = None, queue_size: int = 8,
                 deep: bool | None = False) -> None:
        """`deep`: frames as 16-bit RGB (None: where the video has more than 8 bits a
        sample, as an export reads it)."""
        super().__init__()
        self.path = Path(path)
        self.paced = paced
        self.loop = loop
        # MediaError for a bad file
        self._reader = VideoReader(self.path, size=size, deep=deep)
        self._walk: Iterator[DecodedFrame] = self._reader.frames()
        first = next(self._walk, None)
        if first is None:
            self._reader.close()
            raise MediaError(f"{self.path}: no decodable video frames"
                             f"{self._reader.none_why()}")
        self._first: DecodedFrame | None = first
        self._size = (first.image.shape[1], first.image.shape[0])
        self.pixel_aspect = self._reader.sample_aspect
        self.full_range = self._reader.colour.full_range
        self._fps = self._reader.fps
        self._count = self._reader.frame_count
        # whether `frame_count` is the file's own (else duration x rate, until counted)
        self.frame_count_exact = bool(self._reader.video.frames) or self._reader.gap is not None
        # the times of all the video's frames (s from its first), sorted; None: not known
        self._times: list[float] | None = None
        self._duration = self._reader.duration
        self._t0 = self._reader.start_time
        self._slot = LatestSlot()
        self._queue: queue.Queue[tuple[int, object]] = queue.Queue(maxsize=queue_size)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._seek_to: float | None = None
        self._step_by = 0
        self._generation = 0
        self._rate = 1.0  # media seconds played a wall-clock second (set_rate)
        # paced and playing: (wall clock, media time then (s from the first frame), rate,
        # loop offset); the time the pictures are at, for the sound to follow (`clock`)
        self._clock: tuple[float, float, float, float] | None = None
        self._position: float | None = None
        # the time of the frame a step back is seeking to, until a frame is delivered: a
        # step back pressed meanwhile goes on from there (quick presses add up)
        self._heading: float | None = None
        self._last_good = first.time - self._t0  # the latest frame time decoded (s from start)
        self._said_lost = False
        said = []
        if self._reader.gap is not None:  # said on opening: playback never gets past it
            said.append(self._reader.gap.describe(self.path.name))
        if self._reader.has_alpha:  # (VP9's from the stream, others' from the first frame)
            said.append(f"{self.path.name} has an alpha channel, which the window shows "
                        f"opaque: {self._reader.alpha_fate} (.gif and .png frames exported "
                        "keep it)" if self._reader.on_white else
                        f"{self.path.name} has an alpha channel {self._reader.alpha_fate}")
        if said:
            self.warning = "; ".join(said)
        # Paced: stamp frames with the time they came due (`aquarelle live` measures latency
        # from it). Off in the app, which treats stamped frames as a camera's.
        self.stamp_due = False
        if needs_times(self._reader):
            threading.Thread(target=self._read_times, name="aquarelle-frame-times",
                             daemon=True).start()

    # -- facts ----------------------------------------------------------------------------
    @property
    def duration(self) -> float | None:
        return self._duration

    @property
    def position(self) -> float | None:
        return self._position

    @property
    def origin(self) -> float:
        """The file's own time (s) of the video's first frame: where the times here count
        from (the sound's times are the file's own)."""
        return self._t0

    def _read_times(self) -> None:
        times = frame_times(self.path, self._reader.video.index, self._t0, self._stop)
        if times:
            self._times = times
            if not self.frame_count_exact:
                self._count, self.frame_count_exact = len(times), True

    def _index_at(self, t: float) -> int:
        """The index of the frame at `t` (s from the first frame)."""
        times = self._times
        if times:
            return bisect.bisect_left(times, t - 1e-6)
        return round(t * (self._fps or 30.0))

    @property
    def lost(self) -> int:
        """Frames of the file that could not be decoded so far (corrupt or truncated)."""
        return self._reader.lost

    # -- control --------------------------------------------------------------------------
    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._join()
        if self._thread is None or not self._thread.is_alive():
            self._reader.close()

    def pause(self) -> None:
        with self._lock:  # (see _deliver)
            super().pause()
            self._clock = None
        self._wake.set()

    def clock(self, now: float | None = None) -> float | None:
        """The time (s from the first frame) paced playback is at on the wall clock `now`
        (time.monotonic()), or None where the pictures stand still: paused, before a seek's
        frame, at the end. A loop's next round counts from its start again."""
        with self._lock:
            clock = self._clock
        if clock is None:
            return None
        wall, media, rate, offset = clock
        return media + ((time.monotonic() if now is None else now) - wall) * rate - offset

    def resume(self) -> None:
        super().resume()
        self._wake.set()

    @property
    def rate(self) -> float:
        """The playback speed: media seconds played a wall-clock second."""
        return self._rate

    def set_rate(self, rate: float) -> None:
        """Play at `rate` times the file's pace from the frame on now (paced playback)."""
        if not rate > 0:
            raise ValueError(f"playback speed must be positive, got {rate}")
        with self._lock:
            self._rate = float(rate)
        self._wake.set()  # (a frame waiting for its time is scheduled again)

    @property
    def delivered_fps(self) -> float | None:
        """The frames a wall-clock second paced playback delivers (None: the rate unknown)."""
        if not self._fps:
            return None
        cap = self._wall_cap()
        fps = self._fps * self._rate
        return fps if cap is None else min(fps, cap)

    def seek(self, seconds: float) -> None:
        """Jump to the first frame at or after `seconds` (from the start of the video)."""
        self._seek(seconds, None)

    def _seek(self, seconds: float, heading: float | None) -> None:
        """Seek; `heading`: the time of the frame a step back wants (see step)."""
        with self._lock:
            self._seek_to = max(0.0, float(seconds))
            self._step_by = 0
            self._heading = heading
            self._generation += 1
            self._clock = None
            self._slot.clear()  # (under the lock: the worker puts no frame from before it)
        self._drain()
        self._wake.set()

    def step(self, frames: int, origin: float | None = None) -> None:
        """Pause and move by `frames` (negative: back); the new frame is delivered.
        `origin`: the time of the frame to count from, where it may not be the one delivered
        last (a window's picture a frame or two behind the decoder while the file played)."""
        self.pause()
        with self._lock:
            if origin is not None and (self._position is None
                                       or abs(origin - self._position) > 1e-6):
                here, ahead = origin, 0  # counted from there: a seek to the frame wanted
            elif frames < 0:  # from the frame an earlier step is heading to, if any
                here = self._heading if self._heading is not None else self._position
                ahead = self._step_by  # steps forward asked for, not yet delivered
            else:  # on from the frame delivered last (or the one a seek brings)
                self._step_by += frames
                self._wake.set()
                return
        here = here if here is not None else 0.0
        times = self._times
        if times:  # halfway from the frame before the one wanted: a variable rate's too
            k = max(0, bisect.bisect_left(times, here - 1e-6) + ahead + frames)
            k = min(k, len(times) - 1)
            self._seek(0.0 if k == 0 else (times[k - 1] + times[k]) / 2, times[k])
            return
        # half a frame short of it: the seek takes the first frame at or after its time,
        # and timestamps rounded (a Matroska's milliseconds) put the frame wanted a hair
        # before `frames` whole frame periods back (the step found the same frame again)
        fps = self._fps or 30.0
        self._seek(here + (ahead + frames - 0.5) / fps,
                   max(0.0, here + (ahead + frames) / fps))

    # -- delivery -------------------------------------------------------------------------
    def latest(self) -> Frame | None:
        if not self.paced:
            return self._next(block=False)
        return self._slot.take()

    def read(self, timeout: float | None = None) -> Frame | None:
        if self.paced:
            raise NotImplementedError("a paced VideoFileSource delivers only the latest frame; "
                                      "open it with paced=False to read every frame")
        return self._next(block=True, timeout=timeout)

    def _next(self, block: bool, timeout: float | None = None) -> Frame | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                if block:
                    gen, item = self._queue.get(timeout=remaining)
                else:
                    gen, item = self._queue.get_nowait()
            except queue.Empty:
                return None
            if gen != self._generation:
                continue  # from before a seek
            if item is _END:
                self._queue.put((gen, _END))  # later reads see the end too
                return None
            assert isinstance(item, Frame)
            self._position = item.pts
            return item

    def _drain(self) -> None:
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                return

    # -- worker ---------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self._work()
        except Exception as e:  # never raise in the worker: report through `error`
            self._fail(f"{self.path.name}: {ffmpeg_reason(e)}")
            self._push_end()
        finally:
            if self._stop.is_set():
                self._reader.close()

    def _work(self) -> None:
        pending = self._first
        self._first = None
        walk = self._walk
        index = 0
        # (wall clock, media time, rate) pairing: the schedule, started again at a new rate
        anchor: tuple[float, float, float] | None = None
        next_kept: float | None = None  # under max_fps: the media time of the next frame kept
        # Looping: media time runs on across restarts (a loop's frame times plus `offset`),
        # so a new loop's first frame comes one frame period after the last one's.
        offset = 0.0
        wrap_to: float | None = None  # after a restart: the time the loop's first frame takes
        last = 0.0  # the (looped) media time of the latest frame walked
        skips = 0
        # the last frame skipped under the cap and its index: shown at the end where it was
        # skipped for playing faster than the pace (at 2x a file of an even count of frames
        # stopped a frame short of its end)
        capped: tuple[DecodedFrame, int] | None = None
        # the latest frame skipped for coming late, while none came after it: shown at the
        # end (under load a file's last frames came late, and its end was never shown)
        late: tuple[DecodedFrame, int] | None = None
        final = False  # the frame on is that one
        while not self._stop.is_set():
            with self._lock:
                target, self._seek_to = self._seek_to, None
                gen = self._generation
            if target is not None:
                walk = self._restart(target)
                pending, anchor, next_kept, skips, capped, late = None, None, None, 0, None, None
                offset, wrap_to = 0.0, None
                index = -1
                self.finished = False
                self.ended.clear()
            if pending is None:
                pending = next(walk, None)
                if pending is None and target is not None:
                    # nothing at or after the seek: the frame before it (at the end), or past
                    # what decodes of a damaged file, the last frame that does
                    pending, walk = self._frame_before(target)
                if pending is None and late is not None and not self.loop:
                    (pending, index), late, final = late, None, True
                    self.dropped -= 1  # shown after all
                if pending is None and capped is not None and not self.loop \
                        and self._rate > 1.0:
                    (pending, index), capped, final = capped, None, True
                if pending is None:
                    self._say_lost()
                    if self._reader.failure:
                        self._fail(f"{self.path.name}: {self._reader.failure}")
                        self._push_end()
                        return
                    if self.loop:
                        walk = self._restart(0.0)
                        wrap_to = last + 1.0 / (self._fps or 30.0)
                        index = -1
                        continue
                    self._set_clock(None, 0.0)
                    self._finish()
                    self._push_end()
                    self._idle()
                    continue
                if index < 0:
                    index = self._index_at(pending.time - self._t0)
                self._last_good = max(self._last_good, pending.time - self._t0)
                if wrap_to is not None:
                    offset, wrap_to = wrap_to - pending.time, None
                    self._set_clock(anchor, offset)
            t = last = pending.time + offset  # paced by this; the frame keeps its own time
            frame = Frame(pending.image, index, pending.time - self._t0)
            if not self.paced:
                if not self._put(gen, frame):
                    continue  # a seek or stop happened while waiting for room
            else:
                force = target is not None
                with self._lock:
                    # A seek's own frame is shown first; a step asked for meanwhile moves on
                    # from it (seek then step(1) shows the frame after the seek's target).
                    stepping = self._step_by > 0 and not force
                    if stepping:
                        self._step_by -= 1
                    passing = stepping and self._step_by > 0
                if passing:  # a step of several frames shows only the last one
                    pending = None
                    index += 1
                    continue
                if self.paused and not (force or stepping):
                    self._wake.wait(0.5)
                    self._wake.clear()
                    anchor = None
                    continue
                if not (force or stepping or final) and self._above_cap(t, next_kept):
                    capped, late = (pending, index), None
                    pending = None  # over max_fps: skipped, not dropped
                    index += 1
                    continue
                capped, final = None, False
                rate = self._rate
                if anchor is None or force or stepping or anchor[2] != rate:
                    anchor = (time.monotonic(), t, rate)
                    self._set_clock(anchor, offset)
                due = anchor[0] + (t - anchor[1]) / rate
                wait = due - time.monotonic()
                if wait > 0:
                    self._wake.clear()
                    if self._wake.wait(wait):
                        continue  # paused, seek, step, new rate or stop: re-evaluate
                # a frame delivered's period (faster than the pace, the file's own: capped)
                interval = 1.0 / ((self._fps or 30.0) * min(rate, 1.0))
                if -wait > 2 * interval and skips < MAX_LATE_SKIPS and not self.paused \
                        and not final:
                    skips += 1
                    self.dropped += 1  # decoding fell behind the clock: skip to catch up
                    late = (pending, index)
                    # under a cap the next frame kept is the cap's next one, as if this
                    # one had been: the frames shown stay whole periods apart
                    next_kept = self._next_kept(t, next_kept)
                else:
                    skips, late = 0, None
                    if self.stamp_due:
                        frame = replace(frame, captured=due)
                    if not self._deliver(gen, frame, force or stepping):
                        continue  # kept for later (paused), or from before a seek
                    # a seek's or a step's frame starts the schedule afresh
                    next_kept = self._next_kept(t, None if force or stepping else next_kept)
            pending = None
            index += 1

    def _deliver(self, gen: int, frame: Frame, asked: bool) -> bool:
        """Put a paced frame in the slot unless a seek came since it was decoded (`gen`) or,
        for a frame not `asked` for (a seek's or a step's), the source was paused: under the
        lock that `pause` takes, so no frame comes after `pause()` returns (one that did
        could be shown after the frame the window paused on)."""
        with self._lock:
            if gen != self._generation or (self._paused and not asked):
                return False
            if self._slot.put(frame):
                self.dropped += 1
            self._position = frame.pts
            self._heading = None
        return True

    def _set_clock(self, anchor: tuple[float, float, float] | None, offset: float) -> None:
        """The schedule the sound follows: `anchor` (wall clock, looped media time, rate)."""
        with self._lock:
            self._clock = None if anchor is None or not self.paced or self._paused else \
                (anchor[0], anchor[1] - self._t0, anchor[2], offset)

    def _wall_cap(self) -> float | None:
        """The most frames a wall-clock second: `max_fps`, and played faster than its pace,
        the file's own rate (more would only be dropped by a consumer painting at that)."""
        caps = [c for c in (self.max_fps, self._fps if self._rate > 1.0 else None) if c]
        return min(caps) if caps else None

    def _media_step(self) -> float | None:
        """The media time between two frames kept under the cap (None: every frame)."""
        cap = self._wall_cap()
        return None if cap is None else self._rate / cap

    def _above_cap(self, t: float, next_kept: float | None) -> bool:
        """Whether the frame at media time `t` comes too soon after the last one kept."""
        step = self._media_step()
        if step is None or next_kept is None:
            return False
        # a quarter of the file's frame interval absorbs timestamps' rounding; a frame from
        # before the last one kept (time went back) is kept and starts the schedule afresh
        slack = 0.25 / (self._fps or 30.0)
        return next_kept - step < t < next_kept - slack

    def _next_kept(self, t: float, next_kept: float | None) -> float | None:
        """After keeping the frame at `t`: the media time the next kept one is due."""
        step = self._media_step()
        if step is None:
            return None
        # on an even schedule; a frame far from it starts a new one
        if next_kept is not None and next_kept - step < t < next_kept + step:
            return next_kept + step
        return t + step

    def _frame_before(self, target: float) -> tuple[DecodedFrame | None, Iterator[DecodedFrame]]:
        """The frame a seek to `target` shows where none is at or after it."""
        end = min(target, self._duration) if self._duration else target
        before = max(0.0, end - 1.5 / (self._fps or 30.0))
        walk = self._restart(before)
        pending = next(walk, None)
        if pending is None and self._last_good < before:
            walk = self._restart(self._last_good)  # on to the last frame that decodes
            for pending in walk:  # noqa: B007 - the last one is the one shown
                if self._stop.is_set():
                    break
        return pending, walk

    def _say_lost(self) -> None:
        """At a walk's end: once, how much of a damaged file does not decode."""
        lost = self._reader.lost
        if lost and not self._said_lost:
            self._said_lost = True
            total = f" of {self._count}" if self._count else ""
            why = self._reader.lost_why() or " (the file is damaged)"
            self.warning = (f"{self.path.name}: {lost}{total} frames could not be decoded"
                            f"{why}; the rest plays")

    def _restart(self, seconds: float) -> Iterator[DecodedFrame]:
        if seconds <= 0:
            self._reader.rewind()
            return self._reader.frames()
        return self._reader.frames(start=seconds)

    def _put(self, gen: int, frame: Frame) -> bool:
        while not self._stop.is_set():
            if gen != self._generation:
                return False
            try:
                self._queue.put((gen, frame), timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _push_end(self) -> None:
        if not self.paced:
            self._put(self._generation, _END)  # type: ignore[arg-type]

    def _idle(self) -> None:
        """At the end: wait for a seek (or stop) instead of exiting."""
        while not self._stop.is_set():
            with self._lock:
                if self._seek_to is not None:
                    return
            self._wake.wait(0.5)
            self._wake.clear()
