"""The OpenGL viewport: stylizes the newest frame and draws the engine's texture directly.

All GL work happens on the GUI thread, inside paintGL or between makeCurrent/doneCurrent.
Changes only mark the view dirty and call update(); Qt merges a burst of update() calls into
one paint, so a slider drag costs one render per displayed frame.

The widget adapts Qt (events, signals, the GL context) to plain helpers that hold their own
state: FrameQueue (the frames handed in), FramePainter (the pipeline and its painting, big
stills apart by BigStills), SubjectHold (the picture held for a frame's subject) and
ViewZoom (zoom as the window speaks of it).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import moderngl
import numpy as np
from PyQt6.QtCore import Qt, QTimer, pyqtSignal
from PyQt6.QtOpenGLWidgets import QOpenGLWidget
from PyQt6.QtWidgets import QWidget

from ..engine.chain_spec import AnyStyle
from ..engine.context import collect_garbage, cpu_renderer, renderer_string, wrap_current_context
from ..engine.errors import AquarelleError
from ..engine.fit import FrameFitter
from ..engine.frame_timer import FrameTimer
from ..engine.renderer import Renderer
from ..engine.thumbnails import ThumbnailPainter
from ..engine.yuv_pack import YuvFormat
from ..media.adaptive import AdaptiveScale
from ..media.source import Frame
from .big_stills import APART_MIN_PX, APART_PX, APART_S
from .display import DisplayRenderer
from .frame_painter import FramePainter, LiveOutput
from .frame_queue import FrameQueue
from .paint_cost import PaintCost
from .painting_record import PaintingRecord
from .render_state import RenderState
from .stats import FrameStats
from .still_painter import StillPainter
from .subject_feed import SubjectFeed
from .subject_hold import SubjectHold
from .view_draw import draw_pictures
from .view_navigation import ViewNavigation
from .view_transform import CompareMode, ViewTransform, device_size, pane_of
from .view_zoom import KeptView, Picture, ViewZoom, picture_drawn


class Viewport(QOpenGLWidget):
    """Shows the stylized frame (or a debug view) with zoom, pan and compare modes."""

    rendered = pyqtSignal()  # the pipeline rendered a frame (new frame or changed settings)
    pipelineFailed = pyqtSignal(object)  # an AquarelleError (e.g. ShaderCompileError)
    viewChanged = pyqtSignal()  # zoom, pan, compare or split changed
    newPictureShown = pyqtSignal()  # a new source's first frame drawn (see holding_previous)

    def __init__(self, state: RenderState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.transform = ViewTransform()
        self.compare = CompareMode.OFF
        self.split = state.split  # divider position as a fraction of the widget width
        self.show_original = False
        self.pixel_aspect = 1.0  # the source's pixels' width / height as shown (DV: 12/11)
        self.stats = FrameStats()
        self.profile = False
        self.sync_timing = False  # glFinish before timing a paint (benchmarks only)
        # Gets every rendered frame and its media time (None for live sources): RGB, or on
        # a GPU packed there in `frame_sink_packed` (the recording's yuv420p) when it says one.
        self.frame_sink: Callable[[np.ndarray, float | None], None] | None = None
        self.frame_sink_packed: YuvFormat | None = None
        # Live sources: the processing scale chosen to hold the frame rate (None: the
        # state's), and an output that gets every result texture while the context is
        # current, with the frame's capture time (None for a re-render of the same frame).
        self.adaptive: AdaptiveScale | None = None
        self.live_output: LiveOutput | None = None
        self.shader_root: Path | None = None
        self.gl_info = ""
        self.gl_error: str | None = None
        self._display: DisplayRenderer | None = None
        self.cpu_renderer = True  # the context renders on the CPU (llvmpipe): set with it
        self.queued_readback = False
        self._fitter: FrameFitter | None = None
        self._thumbs: ThumbnailPainter | None = None  # the preset menu's pictures
        # values come fast (set_adjusting): painted as drafts meanwhile
        self.adjusting = False
        self.cost = PaintCost()  # what paints cost here: drafts' and first scales
        # the frames painted since the last cut, as an export paints them or not
        self.record = PaintingRecord()
        self.paused = False  # a file is paused (its frames are painted with their own subject)
        self._screen: tuple[tuple[Any, ...], moderngl.Framebuffer] | None = None
        self.subjects = SubjectFeed(self)  # faces and the person, found off this thread
        self.subjects.stillReady.connect(self._subject_arrived)
        # big stills painted apart (see APART_PX; None: never); `painter.painting` says what
        # is being painted, for the window's indicator
        self.apart_px: int | None = APART_PX
        self.apart_min_px, self.apart_s = APART_MIN_PX, APART_S  # (and slow: see APART_S)
        self.painter = StillPainter(self)
        self.painter.ready.connect(self.update)
        self.painter.failed.connect(lambda text: self.report(AquarelleError(text)))
        self.frames = FrameQueue()  # the frame queued, the one on screen, how it follows
        self.hold = SubjectHold(self.subjects, self.update)  # ... held for its subject
        self.paint = FramePainter(self, self.frames, self.hold, self.painter)  # its painting
        self.zoom = ViewZoom(self.transform, self.pane_size, self._picture)
        self.setMinimumSize(160, 90)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # (Tab reaches the picture too)
        self.navigation = ViewNavigation(self)  # zoom, pan and the split divider by mouse
        state.subscribe(self._state_changed)

    def _state_changed(self, change: str) -> None:
        p = self.paint.pipeline
        if change == "style" and (p is None or p.style.name != self.state.style.name):
            self.paint.want_style = self.state.style  # built at the next paint (GL is current)
        if change == "view":
            self.compare = CompareMode(self.state.compare)
            self.split = self.state.split
            self.zoom.hold_scale()
            self.viewChanged.emit()
        self.update()  # paintGL renders again only when the state's revision moved

    # -- public API ------------------------------------------------------------------------
    @property
    def pipeline(self) -> Renderer | None:
        """The working pipeline, if any."""
        return self.paint.pipeline

    @property
    def frame_size(self) -> tuple[int, int] | None:
        """(width, height) of the frame on screen (a picture held across a cut keeps its
        own: the last file's was drawn squeezed into the next one's shape)."""
        return self.frames.frame_size

    @property
    def current_image(self) -> np.ndarray | None:
        """The source frame on screen (uint8 RGB), if any."""
        return self.frames.current_image

    @property
    def has_frame(self) -> bool:
        return self.frames.image is not None or self.frames.pending is not None

    @property
    def gl_ready(self) -> bool:
        """The GL context is made (what renders, `cpu_renderer`, is known)."""
        return self.paint.ctx is not None

    @property
    def wants_frame(self) -> bool:
        """No frame waits to be painted: a new one would not replace one never shown."""
        return self.frames.pending is None

    def show_frame(self, frame: Frame) -> None:
        """Queue a frame; only the newest queued frame is ever rendered."""
        self.frames.pending = frame
        self.update()

    @property
    def shown_index(self) -> int | None:
        """The source's index of the frame on screen."""
        return self.frames.shown_index

    @property
    def painted_pts(self) -> float | None:
        """The time of the frame painted last (None: a still's, a camera's)."""
        return self.frames.painted_pts

    @property
    def on_screen_pts(self) -> float | None:
        """The time of the file's frame on screen, where it was painted since the last cut
        (not a picture held across a seek or from the source before)."""
        frames = self.frames
        return frames.painted_pts if frames.painted_index is not None else None

    @property
    def holding_previous(self) -> bool:
        """The picture drawn is the source before's (or from before a seek), held until a
        frame of the new one is shown; `newPictureShown` says when that ends."""
        return self.frames.holding_previous

    @property
    def motion_widths(self) -> frozenset[int]:
        """The flow widths the pipeline asks motion at: what a MotionFeed estimates."""
        return self.paint.motion_widths

    @property
    def last_pass_times(self) -> dict[str, float]:
        """Each pass's time (ms) in the last painting, while `profile` is on."""
        return self.paint.last_pass_times

    def drop_pending(self) -> None:
        """Never paint the frame queued and not painted yet (the file jumped past it)."""
        self.frames.pending = None

    def clear_frame(self) -> None:
        """Forget the frame on screen (source closed)."""
        self.painter.cancel()
        self.frames.clear()
        self.paint.orig = self.paint.result = None
        self.record.cut()
        self.update()

    def request_render(self) -> None:
        """Re-render with the current settings at the next paint (coalesced)."""
        self.update()

    def rerender(self) -> None:
        """Render the frame on screen again at the next paint, even with unchanged settings
        (a new output wants it)."""
        self.paint.applied = None
        self.update()

    def new_source(self) -> None:
        """Forget temporal history and statistics (a new source or a seek). A frame taken
        before it and not painted yet is never painted: the picture on screen stays until the
        new source's (or the seek's) first frame comes."""
        if self.paint.pipeline is not None:
            self.paint.pipeline.reset_history()
        # Pausing seeks back to the frame on screen; a later frame the decoder had delivered
        # and painted after it flashed forward, then the seek's frame went back (4 in 47).
        self.frames.new_source()
        self.record.cut()
        self.stats.reset()
        self.zoom.due = None

    def set_compare(self, mode: CompareMode) -> None:
        """How the original is shown next to the result (the state's compare mode)."""
        self.state.set_compare(mode.value)

    def set_adjusting(self, on: bool) -> None:
        """Values come fast (a slider dragged): paint a still or a paused frame as a draft
        at a scale that keeps up (DRAFT_BUDGET_S) until they stop, then whole once."""
        if on == self.adjusting:
            return
        self.adjusting = on
        self.cost.new_drafts()
        self.update()

    def set_split(self, fraction: float) -> None:
        """Move the split compare's divider (the state's: it is kept for the next start)."""
        self.state.set_split(fraction)  # the viewport follows (_state_changed)

    def set_show_original(self, on: bool) -> None:
        if on != self.show_original:
            self.show_original = on
            self.update()

    # -- zoom ------------------------------------------------------------------------------
    def _picture(self) -> Picture | None:
        """The picture drawn, as zoom measures it (the painting's shape, or the frame's)."""
        result = None if self.show_original else self.paint.result
        return picture_drawn(self.frame_size, None if result is None else result.size,
                             self.pixel_aspect)

    def zoom_percent(self) -> float | None:
        """Shown size relative to the picture drawn (100: one of its pixels per screen
        pixel; see ViewZoom.percent)."""
        return self.zoom.percent()

    def resizeGL(self, w: int, h: int) -> None:
        self.zoom.hold_scale()
        self.viewChanged.emit()  # a fitted picture's zoom changed

    def fit(self) -> None:
        """Fit the image to the window."""
        self.transform.fit()
        self.viewChanged.emit()
        self.update()

    def actual_pixels(self) -> None:
        """One pixel of the picture shown per screen pixel (of the result, where a style
        enlarges it; one line per screen line for non-square pixels)."""
        if self.zoom.actual_pixels():
            self.viewChanged.emit()
            self.update()

    def kept_view(self) -> KeptView | None:
        """What restore_view takes back: a zoomed picture's zoom and its point at the pane's
        centre (ViewZoom.kept); None when the picture fits or none is shown."""
        return self.zoom.kept()

    def restore_view(self, percent: float, centre: tuple[float, float]) -> None:
        """Zoom to `percent` with the picture's point `centre` at the pane's centre (from
        kept_view) from the source's first picture on (never drawn fitted first); another
        source opened before it comes forgets it."""
        self.zoom.restore(percent, centre)

    def zoom_by(self, factor: float) -> None:
        """Zoom around the centre of the view (of each picture side by side)."""
        self.zoom.zoom_by(factor)
        self.viewChanged.emit()
        self.update()

    # -- the pipeline and what it painted --------------------------------------------------
    @contextmanager
    def _current(self) -> Iterator[None]:
        """The GL context made current meanwhile."""
        self.makeCurrent()
        try:
            yield
        finally:
            self.doneCurrent()

    def build_pipeline(self, style: AnyStyle) -> None:
        """Compile `style` and make it the working pipeline.

        Raises AquarelleError (e.g. ShaderCompileError) and keeps the old pipeline when it
        fails. Before the GL context exists the build is deferred to initializeGL.
        """
        if self.paint.ctx is None:
            self.paint.want_style = style
            return
        with self._current():
            self.paint.build(style)
        self.update()

    def set_profile(self, on: bool) -> None:
        """Time every pass with GL timer queries (the pass-times dock)."""
        self.profile = on
        if self.paint.pipeline is not None:
            self.paint.pipeline.profile = on
        self.paint.applied = None
        self.update()

    def snapshot(self, *, full_depth: bool = False) -> np.ndarray:
        """The stylized frame at source resolution as uint8 RGB (renders first if needed; a
        big still painted apart: its painting, once it came back); `full_depth`: as painted
        (uint16 for a 16-bit still)."""
        if self.paint.ctx is None:
            raise AquarelleError(self.gl_error or "the OpenGL view is not ready yet")
        with self._current():
            self.paint.take_pending()
            return self.paint.snapshot(full_depth)

    @property
    def draft_scale(self) -> float | None:
        """The processing scale of the picture on screen where adaptive quality painted it
        as a draft (a playing video on a slow machine); else None."""
        painted = self.paint.painted_as
        return painted[0] if painted is not None and painted[1] else None

    def snapshot_alpha(self) -> np.ndarray | None:
        """The transparency of the still `snapshot` painted laid out as it lays out its
        picture (enlarged with an upscaler, once per view of a stereo pair), as `aquarelle
        render` writes it; None for an opaque picture."""
        alpha, p = self.frames.alpha, self.paint.pipeline
        if alpha is None or p is None:
            return None
        p.params.update(self.state.params.values())  # (a big still's are set apart)
        return p.output_alpha(alpha)

    def thumbnails(self, looks: list[dict[str, Any]]) -> list[np.ndarray] | None:
        """The frame on screen painted small in each look (full parameter values of the
        current style), for the preset menu; None while there is no frame or no GL."""
        ctx = self.paint.ctx
        if ctx is None or not self.has_frame:
            return None
        with self._current():
            try:
                self.paint.take_pending()
                self.paint.render_if_needed()
                if self.paint.orig is None:
                    return None
                if self._thumbs is None:
                    self._thumbs = ThumbnailPainter(ctx, self.shader_root)
                return self._thumbs.paint(self.state.style, self.state.seed, self.paint.orig,
                                          looks)
            except AquarelleError as e:
                self.report(e)
                return None

    def fitter(self) -> FrameFitter:
        """A frame fitter on this view's context (for `live_output`, which runs while the
        context is current); released with the context."""
        assert self.paint.ctx is not None
        if self._fitter is None:
            self._fitter = FrameFitter(self.paint.ctx, self.shader_root)
        return self._fitter

    def set_paused(self, paused: bool) -> None:
        """A file paused (or playing again, or at its end): a paused frame is painted as an
        export paints it. One whose painting deviated from the export's (a lower scale while
        it played, frames skipped since the last cut, a face found late) is painted again as
        a seek to it paints it, the picture held meanwhile as a seek holds it; one that
        deviated only in its subject is painted again once its own is found."""
        if paused == self.paused:
            return
        self.paused = paused
        if paused:
            self.paint.paused()

    def _subject_arrived(self) -> None:
        self.paint.applied = None  # the same still again, with its subject
        self.update()

    def release_gl(self) -> None:
        """Release every GL object (closing, or the context is about to go away)."""
        self.subjects.stop()
        self.painter.cancel()
        self._screen = None  # (Qt's framebuffer: not ours to release)
        ctx = self.paint.ctx
        if ctx is None:
            return
        with self._current():
            try:
                self.paint.release()
                for made in (self._display, self._fitter, self._thumbs):
                    if made is not None:
                        made.release()
                collect_garbage(ctx)
            finally:
                self._display = self._fitter = self._thumbs = None
                self.paint.detach()

    def drain_frame_sink(self) -> None:
        """Hand the recording the frames its readback ring still holds (before it stops)."""
        if self.frame_sink is None or self.paint.ctx is None:
            return
        with self._current():
            self.paint.drain(self.frame_sink)

    def report(self, error: AquarelleError) -> None:
        """Emit pipelineFailed after paintGL returns (a dialog must not open inside it)."""
        QTimer.singleShot(0, lambda: self.pipelineFailed.emit(error))

    # -- GL --------------------------------------------------------------------------------
    def initializeGL(self) -> None:
        try:
            ctx = wrap_current_context()
            ctx.gc_mode = "context_gc"
            self._screen = None
            self.gl_info = renderer_string(ctx)
            self._display = DisplayRenderer(ctx)
            self.paint.attach(ctx, FrameTimer(ctx))
            # on a GPU the recording's frames come through a readback ring
            self.cpu_renderer = cpu_renderer(ctx)
            self.queued_readback = not self.cpu_renderer
        except AquarelleError as e:
            self.paint.ctx = None
            self.gl_error = str(e)
            self.report(e)
            return
        context = self.context()
        if context is not None:
            context.aboutToBeDestroyed.connect(self.release_gl)
        self.paint.build_wanted()

    def _screen_framebuffer(self, ctx: moderngl.Context) -> moderngl.Framebuffer:
        """Qt's framebuffer for this widget, wrapped once for each framebuffer and size (a
        wrapper made every paint stayed allocated: 400 bytes a frame)."""
        key = (self.defaultFramebufferObject(), self.width(), self.height(),
               self.devicePixelRatio())
        if self._screen is None or self._screen[0] != key:
            self._screen = (key, ctx.detect_framebuffer(key[0]))
        return self._screen[1]

    def paintGL(self) -> None:
        paint, ctx = self.paint, self.paint.ctx
        if ctx is None or self._display is None:
            return
        t0 = time.perf_counter()
        try:
            paint.new_painted = False
            if not self.hold.keeps(self.frames, self.paused):
                paint.take_pending()
            rendered = paint.render_if_needed()
            if self.zoom.apply_due():
                self.viewChanged.emit()
            fbo = self._screen_framebuffer(ctx)
            size = fbo.size if fbo.size[0] > 0 else self.view_size()
            self._display.begin(fbo, size)
            self._draw(size)
            if rendered and self.sync_timing:
                ctx.finish()
            collect_garbage(ctx)
        except (AquarelleError, moderngl.Error) as e:  # never let paintGL raise into Qt
            paint.applied = paint.revision()  # do not retry the same failure every paint
            self.report(AquarelleError(str(e)))
            return
        if rendered:
            self.cost.painted(time.perf_counter() - t0, self.frame_size, self.adaptive,
                              self.adjusting)
            captured = self.frames.captured
            if paint.new_painted:  # (a frame held for its subject: once painted)
                self.stats.frame_shown()
                if captured is not None:
                    self.stats.latency.add(time.monotonic() - captured)
            self.rendered.emit()
        if self.frames.new_shown:
            self.frames.new_shown = False
            self.newPictureShown.emit()

    def painted_scale(self) -> float | None:
        """The processing scale the frame shown is painted at (the one set, adaptive
        quality's, a video's limit); None with nothing shown."""
        p, size = self.paint.pipeline, self.frame_size
        return None if p is None or size is None else p.work_scale(size)

    def painted_lines(self) -> int | None:
        """The lines the frame shown is painted at, where fewer than its own; else None."""
        p, size = self.paint.pipeline, self.frame_size
        if p is None or size is None or p.work_scale(size) >= 1.0:
            return None
        return p.work_lines(size)

    @property
    def moving_source(self) -> bool:
        """Whether the frame shown is a video's or a camera's (not a still image)."""
        return self.frames.moving

    @property
    def debug_empty(self) -> bool:
        """The debug view shown is empty: the last frame cleared its target, its passes not
        run for this picture and these values (a stereo pair's matching, given one view)."""
        return self.paint.debug_empty()

    @property
    def comparing(self) -> bool:
        """Whether the original is on screen next to the result: a compare mode is on."""
        return self.compare is not CompareMode.OFF

    def _draw(self, size: tuple[int, int]) -> None:
        src, image = self.paint.orig, self.frame_size
        if self._display is None or src is None or image is None:
            return
        main, mode = self.paint.shown_texture(self.show_original)
        if main is None:
            return
        self.zoom.hold_scale()
        # (the views of a stereo pair in the painting: the original is split into each)
        views = self.paint.painted_views() \
            if main is self.paint.result and self.compare is CompareMode.SPLIT else None
        draw_pictures(self._display, src, main, mode, image, size, self.transform, self.compare,
                      self.split, self.devicePixelRatioF(), self.pixel_aspect, views)

    def view_size(self) -> tuple[int, int]:
        """The view's size in device pixels: its framebuffer's."""
        return device_size(self.width(), self.height(), self.devicePixelRatioF())

    def pane_size(self) -> tuple[int, int]:
        """The size one picture is drawn in (device pixels): the view, or half of it side by
        side; zoom and pan are the same in both halves."""
        return pane_of(self.view_size(), self.compare)
