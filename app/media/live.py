"""A live session without a window: a live source painted frame by frame, the processing
scale adapted to hold the frame rate, the result fitted to a fixed size and sent to a
virtual camera (or only measured). `aquarelle live` and `aquarelle bench-live` run it;
the app does the same steps on its own timer.

Call from the thread that owns the pipeline's GL context.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..engine.context import cpu_renderer
from ..engine.fit import FrameFitter
from ..engine.frame_timer import FrameTimer, frame_cost, timed_render
from ..engine.renderer import VIDEO_LINES, Renderer, use_draft
from .adaptive import AdaptiveScale, floor_for
from .errors import MediaError
from .latency import LatencyMeter
from .motion_feed import MotionFeed
from .source import Frame, FrameSource
from .subject_worker import SubjectWorker
from .virtual_camera import VirtualCameraSink

SinkFactory = Callable[[tuple[int, int], float], VirtualCameraSink]
MAX_LIVE_FPS = 30.0  # the default target: the camera's rate, at most this
# --fps of a live picture: below 1 a second it is no live picture; above 240 no camera or
# screen shows it, and a file or test picture played faster only drops frames and drives
# adaptive quality to its floor (1000 painted 2 frames a second at scale 0.3, 256 dropped)
LIVE_FPS_RANGE = (1.0, 240.0)
FIRST_FRAME_SECONDS = 10.0  # a camera may take this long to deliver its first frame


@dataclass
class LiveOptions:
    """What a live session renders and sends (see `aquarelle live --help`)."""

    size: tuple[int, int] | None = None  # output size; None: the source's
    # output rate and the most a file or synthetic source delivers; None: the source's, at
    # most 30. Adaptive quality holds the lesser of it and the source's own rate.
    fps: float | None = None
    fit: str = "pad"  # "pad" (letterbox) or "crop" when the output's aspect differs
    mirror: bool = False
    adaptive: bool = True
    min_scale: float = 0.3  # adaptation never goes below this processing scale
    scale: float = 1.0  # the processing scale to start from (and, adapting, the most)


@dataclass
class LiveStats:
    """Where a live session stands (a snapshot)."""

    seconds: float = 0.0
    rendered: int = 0  # frames painted
    source_dropped: int = 0  # camera frames replaced before they were painted (stale)
    scale: float = 1.0
    scales: list[float] = field(default_factory=list)  # the scale of every frame
    painted: tuple[int, int] | None = None  # the last frame's size (w, h), as it came
    out: tuple[int, int] | None = None  # the size it is fitted to (--size, or the frame's)
    # a camera's capture (a file's frame coming due) -> sent (or painted, without a sink)
    latency_median: float | None = None
    latency_p95: float | None = None
    still: bool = False  # the source is a still, painted once: no latency to measure
    live: bool = True  # a camera (its stale frames are dropped), not a file (skipped)
    sent: int = 0  # virtual camera: frames sent, of them repeated for a stalled source
    repeated: int = 0
    sink_replaced: int = 0  # painted frames replaced before the sink could send them

    @property
    def fps(self) -> float:
        """Painted (new) frames per second delivered."""
        return self.rendered / self.seconds if self.seconds > 0 else 0.0

    def line(self) -> str:
        """One status line."""
        parts = [f"{self.fps:.1f} fps", f"scale {self.scale:.2f}"]
        if self.painted is not None:  # the size painted (the scale is of it), and shown
            w, h = self.painted
            parts[1] = f"{w}x{h} painted at scale {self.scale:.2f}"
            if self.out is not None and self.out != self.painted:
                parts[1] += f", fitted to {self.out[0]}x{self.out[1]}"
        if self.latency_median is not None and self.latency_p95 is not None:
            parts.append(f"latency {self.latency_median * 1000:.0f} ms "
                         f"(p95 {self.latency_p95 * 1000:.0f})")
        elif self.still:
            parts.append("no latency (a still)")
        # (the window's words: a camera's frames replaced are dropped, a file's are skipped)
        parts.append(f"{'dropped' if self.live else 'skipped'} {self.source_dropped}")
        if self.sent:
            parts.append(f"sent {self.sent} (repeated {self.repeated})")
        return ", ".join(parts)


class LiveSession:
    """Runs a live source through a pipeline into an optional virtual camera sink."""

    def __init__(self, source: FrameSource, pipeline: Renderer, options: LiveOptions, *,
                 sink_factory: SinkFactory | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.source = source
        self.pipeline = pipeline
        self.options = options
        self._sink_factory = sink_factory
        self.sink: VirtualCameraSink | None = None  # made once the output size is known
        self._clock = clock
        self.latency = LatencyMeter()
        self.adaptive: AdaptiveScale | None = None
        self.stats = LiveStats(scale=options.scale)
        self.out_size: tuple[int, int] | None = None
        self.fps: float | None = None
        self.target_fps: float | None = None  # what adaptive quality holds
        self._subjects: SubjectWorker | None = None
        # On a GPU: frames read back through a ring (a frame late, never a wait) and timed
        # from a ring of queries; a CPU renderer reads each frame at once (that is its time).
        self.queued: bool | None = None  # decided when it runs (None: by the renderer)
        # Motion estimated a frame ahead on a feed's thread: on a GPU, whose render leaves the
        # cores free (a CPU renderer paints with them all). None: by the renderer.
        self.motion_ahead: bool | None = None
        self._timer: FrameTimer | None = None

    @staticmethod
    def output_rate(options: LiveOptions, source: FrameSource) -> float:
        """The output (virtual camera) frame rate, and the most the source is asked for."""
        return float(options.fps or min(MAX_LIVE_FPS, source.fps or MAX_LIVE_FPS))

    @staticmethod
    def target_rate(options: LiveOptions, source: FrameSource) -> float:
        """The rate adaptive quality holds: the output's, or the source's where it delivers
        fewer (a faster target only lowers the quality for frames that never come)."""
        out = LiveSession.output_rate(options, source)
        return min(out, source.fps) if source.fps else out

    def run(self, stop: threading.Event | None = None, seconds: float | None = None,
            on_status: Callable[[LiveStats], None] | None = None,
            status_every: float = 1.0, max_frames: int | None = None) -> LiveStats:
        """Paint frames until `stop` is set, `seconds` pass, `max_frames` were painted or
        the source ends; raises
        MediaError if the source fails (VirtualCameraError if the sink cannot open)."""
        stop = stop or threading.Event()
        fitter: FrameFitter | None = None
        subjects = None
        # a file or a synthetic source delivers no more frames than the output takes (a
        # camera is asked for --fps when it opens)
        self.source.max_fps = self.output_rate(self.options, self.source)
        self.source.start()
        widths: frozenset[int] = frozenset()  # read by the feed's thread, set on this one
        feed: MotionFeed | None = None
        try:
            if not self.source.wait_frame(FIRST_FRAME_SECONDS):
                raise MediaError(self.source.error or "the source delivered no frame")
            self.pipeline.max_lines = VIDEO_LINES  # a camera's frames are a video's
            widths = self.pipeline.motion_widths()
            ahead = self.motion_ahead
            if ahead is None:
                ahead = not cpu_renderer(self.pipeline.ctx)
            if ahead and self.source.waitable:  # from now on the feed takes the frames
                feed = MotionFeed(self.source, lambda: widths)
                feed.start()
            wait = feed.wait if feed is not None else self.source.wait_frame
            take = feed.take if feed is not None else self.source.latest
            if self.pipeline.has_subject_style:  # faces found off this thread, a frame behind
                subjects = SubjectWorker()
                subjects.start()
                self.pipeline.subject_feed = "given"
            self._subjects = subjects
            fitter = FrameFitter(self.pipeline.ctx)
            if self.queued is None:
                self.queued = not cpu_renderer(self.pipeline.ctx)
            self.out_size = self.options.size or self.source.size
            self.fps = self.output_rate(self.options, self.source)
            self.target_fps = self.target_rate(self.options, self.source)
            self.adaptive = AdaptiveScale(self.target_fps,
                                          floor_for(self.options.min_scale,
                                                    self.source.size[1]),
                                          self.options.scale, enabled=self.options.adaptive,
                                          ceiling=self.options.scale)
            if self._sink_factory is not None:
                self.sink = self._sink_factory(self.out_size, self.fps)
                self.latency = self.sink.latency
                self.sink.start()
            start = last_status = self._clock()
            while not stop.is_set():
                now = self._clock()
                if seconds is not None and now - start >= seconds:
                    break
                if max_frames is not None and self.stats.rendered >= max_frames:
                    break
                if not wait(0.25):
                    if self.source.ended.is_set():
                        if not self.source.still:
                            break
                        # a still is held, as a camera would show it, until --seconds or
                        # stop: waited out here (its source, ended, returns at once: the
                        # loop spun a core for as long as the still was held)
                        left = 0.25 if seconds is None else seconds - (self._clock() - start)
                        stop.wait(min(0.25, max(0.0, left)))
                    continue
                if self.sink is not None and self.sink.error:
                    raise MediaError(self.sink.error)  # the device went away
                frame = take()
                if frame is None:
                    continue
                self._paint(frame, fitter)
                widths = self.pipeline.motion_widths()
                self.stats.seconds = self._clock() - start
                if on_status is not None and now - last_status >= status_every:
                    last_status = now
                    on_status(self.snapshot())
            for out, captured in fitter.drain_queued():  # the last frame, still in the ring
                self._deliver(out, captured, self._clock())
            if self.source.error:
                raise MediaError(self.source.error)
            self.stats.seconds = self._clock() - start
            return self.snapshot()
        finally:
            if feed is not None:
                feed.stop()
            if subjects is not None:
                subjects.stop()
            if self.sink is not None:
                self.sink.stop()
            self.source.stop()
            if fitter is not None:
                fitter.release()

    def _paint(self, frame: Frame, fitter: FrameFitter) -> None:
        assert self.adaptive is not None and self.out_size is not None
        t0 = self._clock()
        self.pipeline.scale = self.adaptive.scale
        use_draft(self.pipeline, adapting=self.options.adaptive)
        h, w = frame.image.shape[:2]  # painted at: a video's limit applied too
        self.stats.scales.append(self.pipeline.work_scale((w, h)))
        self.stats.painted, self.stats.out = (w, h), self.out_size
        if self._subjects is not None:
            self._subjects.submit(frame.image, frame.captured or t0)
            self.pipeline.set_subject(self._subjects.latest())
        if not self.queued:
            tex = self.pipeline.render(frame.image, motion=frame.motion)
            out = fitter.fit(tex, self.out_size, self.options.fit, self.options.mirror)
            t1 = self._clock()
            self.adaptive.update(t1 - t0)
            self.stats.rendered += 1
            self._deliver(out, frame.captured, t1)
            return
        if self._timer is None:
            self._timer = FrameTimer(self.pipeline.ctx)
        tex = timed_render(self._timer, self.pipeline, frame.image, frame.motion)
        packed = self.sink.packed_format if self.sink is not None else None
        ready = fitter.fit_queued(tex, self.out_size, self.options.fit, self.options.mirror,
                                  meta=frame.captured, packed=packed)
        t1 = self._clock()
        self.adaptive.update(frame_cost(t1 - t0, self._timer.seconds, cpu_renderer=False))
        self.stats.rendered += 1
        if ready is not None:
            self._deliver(ready[0], ready[1], t1)

    def _deliver(self, out: np.ndarray, captured: float | None, now: float) -> None:
        if self.sink is not None:
            self.sink.submit(out, captured)
        elif captured is not None:
            self.latency.add(now - captured)

    def snapshot(self) -> LiveStats:
        """The figures so far."""
        s = self.stats
        s.source_dropped = self.source.dropped
        s.still, s.live = self.source.still, self.source.live
        s.scale = s.scales[-1] if s.scales else s.scale
        s.latency_median, s.latency_p95 = self.latency.median(), self.latency.p95()
        if self.sink is not None:
            s.sent, s.repeated, s.sink_replaced = (self.sink.sent, self.sink.repeated,
                                                   self.sink.replaced)
        return s
