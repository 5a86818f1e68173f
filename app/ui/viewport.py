"""The OpenGL viewport: stylizes the newest frame and draws the engine's texture directly.

All GL work happens on the GUI thread, inside paintGL or between makeCurrent/doneCurrent.
Changes only mark the view dirty and call update(); Qt merges a burst of update() calls into
one paint, so a slider drag costs one render per displayed frame.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import moderngl
import numpy as np
from PyQt6.QtCore import Qt, QTimer, pyqtSignal
from PyQt6.QtOpenGLWidgets import QOpenGLWidget
from PyQt6.QtWidgets import QWidget

from ..engine.chain_spec import AnyStyle, painted_views
from ..engine.context import collect_garbage, cpu_renderer, renderer_string, wrap_current_context
from ..engine.errors import AquarelleError
from ..engine.fit import FrameFitter
from ..engine.frame_timer import FrameTimer, frame_cost, timed_render
from ..engine.motion import FrameMotion
from ..engine.renderer import Renderer, use_draft
from ..engine.thumbnails import ThumbnailPainter
from ..engine.yuv_pack import YuvFormat
from ..media.adaptive import AdaptiveScale
from ..media.image_pixels import to_8bit
from ..media.source import Frame
from .display import DisplayMode, DisplayRenderer, display_mode_for
from .frame_sink import FrameSinkReader
from .paint_cost import PaintCost
from .painting_record import FramePainting, Look, PaintingRecord
from .render_state import RenderState
from .stats import FrameStats
from .still_painter import PaintOrder, StillPainter
from .subject_feed import SubjectFeed
from .view_draw import as_shown, draw_pictures
from .view_navigation import ViewNavigation
from .view_transform import CompareMode, ViewTransform, device_size, pane_of, shaped_like

# A file's frame more than this many frames after the last one shown (or before it) is a
# jump: a seek, the loop point, a step back, or playback that fell behind and skipped.
# History is never carried across one; a frame or two dropped is followed by the motion
# estimate. A live source's dropped frames are left to the motion estimate's own gate (the
# warp residual), since a camera's scene moves on continuously.
MAX_FOLLOW = 2
# ... the subject is followed across a longer skip (a face does not leave while playback on
# a slow machine skips frames; found afresh, it is missing from the first frames painted)
SUBJECT_FOLLOW = 30
# After a cut (a seek, the loop point, a new still) the frames wait at most this long for their
# subject, the picture before them held on screen meanwhile (painted without it, a frame would
# be framed as a scene, then again as a portrait: a flash; with the face from before the cut,
# the face would be where it was). A paused file's step is painted with the frame before's
# subject at once, and again with its own. A playing file's frame after frames were skipped
# waits as long for its own (the newest result is the frame's before the skip, the face where
# it was frames back), the frames that come meanwhile behind it (_keep_held).
SUBJECT_HOLD_S = 0.5
# A still of at least this many pixels is painted in a process of its own on a CPU renderer
# (16 MP, the most the window shows: 10 s for the watercolor and 17 s for the stereo on
# llvmpipe's two cores): painted here, or in a thread (moderngl holds the GIL through a
# draw), it would stop the window for as long. The process costs its start and its shaders
# on every painting, about a second here (a change to a 2 MP photo showed after 1.6 s apart
# against 0.5 s painted here), so below about a second of painting it is painted here. On a
# GPU it is always painted here.
APART_PX = 4_000_000
# ... and so is a smaller one of at least APART_MIN_PX whose paint, as paints measured here
# went, would take over APART_S (a 4000x600 panorama stopped the window 2.2 s on two busy
# cores, with the picture before it on screen)
APART_MIN_PX = 1_000_000
APART_S = 1.0
# While values come fast (a slider dragged) such a still is drafted here at the scale that
# paints this many pixels, shown until the painting of the last values comes back (a 12 MP
# photo: 0.4-0.5 s a value on llvmpipe's two busy cores, against 10 s and more apart)
APART_DRAFT_PX = 500_000


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
        self.live_output: Callable[[Renderer, moderngl.Texture, float | None], None] | None \
            = None
        self._image_pts: float | None = None
        self._image_captured: float | None = None
        # the picture drawn is the source before's (or from before a seek), held until a
        # frame of the new one is shown; `newPictureShown` says when that ends
        self.holding_previous = False
        self._held_size: tuple[int, int] | None = None  # ... the size of its frame
        self._new_shown = False
        self._view_due: tuple[float, tuple[float, float]] | None = None  # (restore_view)
        self._image_motion: FrameMotion | None = None  # estimated ahead (MotionFeed)
        # the flow widths the pipeline asks motion at: what a MotionFeed estimates
        self.motion_widths: frozenset[int] = frozenset()
        self.shader_root: Path | None = None
        self.last_pass_times: dict[str, float] = {}
        self.gl_info = ""
        self.gl_error: str | None = None
        self._ctx: moderngl.Context | None = None
        self._display: DisplayRenderer | None = None
        self._timer: FrameTimer | None = None  # the rendered frames' GPU time (a query ring)
        self.cpu_renderer = True  # the context renders on the CPU (llvmpipe): set with it
        self.queued_readback = False
        self._sink_reader = FrameSinkReader()  # the recording's frames, read back
        self._pipeline: Renderer | None = None
        self._want_style: AnyStyle | None = state.style
        self._fitter: FrameFitter | None = None
        self._thumbs: ThumbnailPainter | None = None  # the preset menu's pictures
        self._own_tex: moderngl.Texture | None = None  # the frame, when no pipeline works
        self._orig: moderngl.Texture | None = None  # the frame on the GPU (original view)
        self._result: moderngl.Texture | None = None
        self._pending: Frame | None = None
        self._image: np.ndarray | None = None  # the frame on screen
        self._image_alpha: np.ndarray | None = None  # ... a still's transparency
        self._fresh = False  # _image has not been given to the current pipeline yet
        self._superseded = False  # ... and never is: a seek or a new source came after it
        self._jumped = False  # the frame on screen does not follow the one before it
        self._cut = False  # ... by more than the subject is followed across
        self._skipped = False  # ... follows it across frames never painted (playback behind)
        self._repaint = False  # the frame on screen is painted again as a seek to it paints it
        # What the picture on screen was painted at: its work scale and whether as adaptive
        # quality's cheapest draft. A picture painted otherwise than now wanted is painted
        # again (a paused file's frame after playback lowered its scale).
        self._painted_as: tuple[float, bool] | None = None
        self._painted_scale = 1.0  # ... and the processing scale it was painted at
        # values come fast (set_adjusting): painted as drafts meanwhile
        self.adjusting = False
        self.cost = PaintCost()  # what paints cost here: drafts' and first scales
        # the frames painted since the last cut, as an export paints them or not
        self.record = PaintingRecord()
        self.paused = False  # a file is paused (its frames are painted with their own subject)
        self._hold_since: float | None = None  # holding the picture for a frame's subject
        self._held_after_skip = False  # ... a playing file's frame after a skip (_keep_held)
        self._new_painted = False  # the last render painted a new frame (not one again)
        self._painted_index: int | None = None  # the source's index of the frame painted last
        self.painted_pts: float | None = None  # ... and its time (None: a still's, a camera's)
        self._screen: tuple[tuple[Any, ...], moderngl.Framebuffer] | None = None
        self.shown_index: int | None = None  # the source's index of the frame on screen
        self._applied: object = None
        self.subjects = SubjectFeed(self)  # faces and the person, found off this thread
        self.subjects.stillReady.connect(self._subject_arrived)
        # big stills painted apart (see APART_PX; None: never); `painter.painting` says what
        # is being painted, for the window's indicator
        self.apart_px: int | None = APART_PX
        self.apart_min_px, self.apart_s = APART_MIN_PX, APART_S  # (and slow: see APART_S)
        self.painter = StillPainter(self)
        self.painter.ready.connect(self.update)
        self.painter.failed.connect(lambda text: self._report(AquarelleError(text)))
        self._apart_tex: moderngl.Texture | None = None  # the painting shown, as it came
        self._apart_shown: np.ndarray | None = None  # ... from this array
        self._apart_of: np.ndarray | None = None  # ... of this picture
        self._apart_orig: np.ndarray | None = None  # the picture in `_orig`
        # drafts of a big still while values come fast: the picture in the pipeline, and
        # the draft on screen with the values (revision) it was painted for
        self._drafted: np.ndarray | None = None
        self._apart_draft: tuple[moderngl.Texture, tuple[int, str | None]] | None = None
        # the views the look paints (a stereo pair's) and the settings' revision they were
        # found for (RenderState.revision)
        self._views: tuple[Any, tuple[int, int]] = (None, (1, 1))
        self.setMinimumSize(160, 90)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # (Tab reaches the picture too)
        self.navigation = ViewNavigation(self)  # zoom, pan and the split divider by mouse
        state.subscribe(self._state_changed)

    def _state_changed(self, change: str) -> None:
        p = self._pipeline
        if change == "style" and (p is None or p.style.name != self.state.style.name):
            self._want_style = self.state.style  # built at the next paint (GL is current)
        if change == "view":
            self.compare = CompareMode(self.state.compare)
            self.split = self.state.split
            self._hold_scale()
            self.viewChanged.emit()
        self.update()  # paintGL renders again only when the state's revision moved

    # -- public API ------------------------------------------------------------------------
    @property
    def pipeline(self) -> Renderer | None:
        """The working pipeline, if any."""
        return self._pipeline

    @property
    def frame_size(self) -> tuple[int, int] | None:
        """(width, height) of the frame on screen (a picture held across a cut keeps its
        own: the last file's was drawn squeezed into the next one's shape)."""
        if self.holding_previous and self._held_size is not None:
            return self._held_size
        img = self._pending.image if self._pending is not None else self._image
        return None if img is None else (img.shape[1], img.shape[0])

    @property
    def current_image(self) -> np.ndarray | None:
        """The source frame on screen (uint8 RGB), if any."""
        return self._pending.image if self._pending is not None else self._image

    @property
    def has_frame(self) -> bool:
        return self._image is not None or self._pending is not None

    @property
    def gl_ready(self) -> bool:
        """The GL context is made (what renders, `cpu_renderer`, is known)."""
        return self._ctx is not None

    @property
    def wants_frame(self) -> bool:
        """No frame waits to be painted: a new one would not replace one never shown."""
        return self._pending is None

    def show_frame(self, frame: Frame) -> None:
        """Queue a frame; only the newest queued frame is ever rendered."""
        self._pending = frame
        self.update()

    @property
    def on_screen_pts(self) -> float | None:
        """The time of the file's frame on screen, where it was painted since the last cut
        (not a picture held across a seek or from the source before)."""
        return self.painted_pts if self._painted_index is not None else None

    def drop_pending(self) -> None:
        """Never paint the frame queued and not painted yet (the file jumped past it)."""
        self._pending = None

    def clear_frame(self) -> None:
        """Forget the frame on screen (source closed)."""
        self.painter.cancel()
        self._pending = None
        self._superseded = False
        self._image = self._image_alpha = None
        self.shown_index = self._painted_index = None
        self._orig = self._result = None
        self.holding_previous = False
        self.record.cut()
        self.update()

    def request_render(self) -> None:
        """Re-render with the current settings at the next paint (coalesced)."""
        self.update()

    def rerender(self) -> None:
        """Render the frame on screen again at the next paint, even with unchanged settings
        (a new output wants it)."""
        self._applied = None
        self.update()

    def new_source(self) -> None:
        """Forget temporal history and statistics (a new source or a seek). A frame taken
        before it and not painted yet is never painted: the picture on screen stays until the
        new source's (or the seek's) first frame comes."""
        if self._pipeline is not None:
            self._pipeline.reset_history()
        # Pausing seeks back to the frame on screen; a later frame the decoder had delivered
        # and painted after it flashed forward, then the seek's frame went back (4 in 47).
        self._pending = None
        self._superseded = self._image is not None and self._fresh  # (held for its subject)
        self.shown_index = None  # whatever comes next starts afresh
        self._painted_index = None
        if not self.holding_previous:
            self._held_size = self.frame_size  # (the picture drawn: its size, before it goes)
        self.holding_previous = self._image is not None
        self.record.cut()
        self.stats.reset()
        self._view_due = None

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

    def zoom_percent(self) -> float | None:
        """Shown size relative to the picture drawn (100: one of its pixels per screen
        pixel, as "Actual pixels" shows it: an upscaler's result's, not the frame's, which
        read 200% there; a stereo pair side by side or top-bottom counts as the picture it
        is)."""
        shaped = self._shaped()
        if shaped is None:
            return None
        self._hold_scale()
        return 100.0 * self.transform.image_rect(self.pane_size(),
                                                 self._as_shown(shaped)).h / \
            self._drawn_lines(shaped)

    def _drawn_lines(self, shaped: tuple[int, int]) -> int:
        """The lines of the picture drawn: the result's, where a style enlarges it (an
        upscaler's are twice the frame's), else the frame's as `shaped` (_shaped)."""
        result = self._result
        return result.size[1] if result is not None and not self.show_original else shaped[1]

    def _hold_scale(self) -> None:
        """A zoomed picture keeps its size on screen when its pane or its size changes
        (zoom is kept relative to "fit": 1:1 turned into 1.3:1 as the window grew)."""
        shaped = self._shaped()
        if shaped:
            self.transform.hold_scale(self.pane_size(), self._as_shown(shaped))

    def resizeGL(self, w: int, h: int) -> None:
        self._hold_scale()
        self.viewChanged.emit()  # a fitted picture's zoom changed

    def _shaped(self) -> tuple[int, int] | None:
        """The frame's size in the proportions of the picture drawn (see _shaped_like)."""
        image = self.frame_size
        if not image or self._result is None or self.show_original:
            return image
        return shaped_like(image, self._result.size)

    def fit(self) -> None:
        """Fit the image to the window."""
        self.transform.fit()
        self.viewChanged.emit()
        self.update()

    def actual_pixels(self) -> None:
        """One pixel of the picture shown per screen pixel (of the result, where a style
        enlarges it; one line per screen line for non-square pixels)."""
        shaped = self._shaped()
        if shaped:
            self._hold_scale()
            # a stereo pair side by side is drawn as the wider picture it is
            self.transform.actual_pixels(self.pane_size(), self._as_shown(shaped),
                                         self._drawn_lines(shaped) / shaped[1])
            self.viewChanged.emit()
            self.update()

    def kept_view(self) -> tuple[float, tuple[float, float]] | None:
        """A zoomed picture's zoom (as zoom_percent says it) and the point of it at the
        pane's centre (0..1 across and down): what restore_view takes back; None when the
        picture fits or none is shown."""
        shaped = self._shaped()
        percent = self.zoom_percent()
        if shaped is None or percent is None or self.transform.is_fit:
            return None
        return percent, self.transform.centre_point(self.pane_size(), self._as_shown(shaped))

    def restore_view(self, percent: float, centre: tuple[float, float]) -> None:
        """Zoom to `percent` with the picture's point `centre` at the pane's centre (from
        kept_view) from the source's first picture on (never drawn fitted first); another
        source opened before it comes forgets it."""
        self._view_due = (percent, centre)

    def _apply_view_due(self) -> None:
        shaped = self._shaped()
        if self._view_due is None or shaped is None:
            return
        (percent, centre), self._view_due = self._view_due, None
        self._hold_scale()
        shown = self._as_shown(shaped)
        self.transform.show_at(self.pane_size(), shown,
                               percent / 100.0 * self._drawn_lines(shaped) / shown[1], centre)
        self.viewChanged.emit()

    def zoom_by(self, factor: float) -> None:
        """Zoom around the centre of the view (of each picture side by side)."""
        self._hold_scale()
        w, h = self.pane_size()
        self.transform.zoom_at((w, h), (w / 2, h / 2), factor)
        self.viewChanged.emit()
        self.update()

    def build_pipeline(self, style: AnyStyle) -> None:
        """Compile `style` and make it the working pipeline.

        Raises AquarelleError (e.g. ShaderCompileError) and keeps the old pipeline when it
        fails. Before the GL context exists the build is deferred to initializeGL.
        """
        if self._ctx is None:
            self._want_style = style
            return
        self.makeCurrent()
        try:
            new = self._new_pipeline(style)
            if self._pipeline is not None:
                self._pipeline.release()
            self._adopt(new)
        finally:
            self.doneCurrent()
        self.update()

    def set_profile(self, on: bool) -> None:
        """Time every pass with GL timer queries (the pass-times dock)."""
        self.profile = on
        if self._pipeline is not None:
            self._pipeline.profile = on
        self._applied = None
        self.update()

    def snapshot(self, *, full_depth: bool = False) -> np.ndarray:
        """The stylized frame at source resolution as uint8 RGB (renders first if needed; a
        big still painted apart: its painting, once it came back); `full_depth`: as painted
        (uint16 for a 16-bit still)."""
        if self._ctx is None:
            raise AquarelleError(self.gl_error or "the OpenGL view is not ready yet")
        self.makeCurrent()
        try:
            self._consume_pending()
            self._render_if_needed(hold=False)  # the frame asked for, not the one held
            apart = self._apart_order()
            if apart is not None:  # a big still: its painting as it came back
                painted = self.painter.painted(apart)
                if painted is None:
                    raise AquarelleError("the picture is still being painted: save it once "
                                         "it is shown")
                return painted if full_depth else to_8bit(painted)
            if self._result is None or self._pipeline is None:
                raise AquarelleError("there is no stylized frame to save yet")
            painted = self._pipeline.read(self._result)
            return painted if full_depth else to_8bit(painted)  # as `aquarelle render` writes
        finally:
            self.doneCurrent()

    @property
    def draft_scale(self) -> float | None:
        """The processing scale of the picture on screen where adaptive quality painted it
        as a draft (a playing video on a slow machine); else None."""
        painted = self._painted_as
        return painted[0] if painted is not None and painted[1] else None

    def snapshot_alpha(self) -> np.ndarray | None:
        """The transparency of the still `snapshot` painted laid out as it lays out its
        picture (enlarged with an upscaler, once per view of a stereo pair), as `aquarelle
        render` writes it; None for an opaque picture."""
        alpha, p = self._image_alpha, self._pipeline
        if alpha is None or p is None:
            return None
        p.params.update(self.state.params.values())  # (a big still's are set apart)
        return p.output_alpha(alpha)

    def thumbnails(self, looks: list[dict[str, Any]]) -> list[np.ndarray] | None:
        """The frame on screen painted small in each look (full parameter values of the
        current style), for the preset menu; None while there is no frame or no GL."""
        if self._ctx is None or not self.has_frame:
            return None
        self.makeCurrent()
        try:
            self._consume_pending()
            self._render_if_needed()
            if self._orig is None:
                return None
            if self._thumbs is None:
                self._thumbs = ThumbnailPainter(self._ctx, self.shader_root)
            return self._thumbs.paint(self.state.style, self.state.seed, self._orig, looks)
        except AquarelleError as e:
            self._report(e)
            return None
        finally:
            self.doneCurrent()

    def fitter(self) -> FrameFitter:
        """A frame fitter on this view's context (for `live_output`, which runs while the
        context is current); released with the context."""
        assert self._ctx is not None
        if self._fitter is None:
            self._fitter = FrameFitter(self._ctx, self.shader_root)
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
        if not paused or self._image is None or self._pipeline is None:
            return
        if self._held_after_skip and self._fresh and not self._superseded:
            # a frame after a skip, held for its subject while it played, is never painted
            # as it played: as a seek to it paints it (as it would be painted again paused)
            self._repaint_as_seek()
            return
        if not self._repaint_if_deviated() and self._pipeline.has_subject_style:
            self.subjects.settle()

    def _repaint_as_seek(self) -> None:
        """Paint the file's frame on screen again as a seek to it paints it (its history
        and subject afresh), holding the picture until its subject is found."""
        if self._image is None or self._image_pts is None:
            return
        self._fresh = self._jumped = self._cut = self._repaint = True
        self._skipped = False
        self.subjects.forget()  # found afresh, as after a seek
        self.update()

    def _repaint_if_deviated(self) -> bool:
        """A paused file's frame on screen whose painting is not the export's is painted
        again as a seek to it (see PaintingRecord.painted_as_export); returns whether."""
        if not self.paused or self.adaptive is not None or self._image_pts is None \
                or self._pending is not None or self._painted_index != self.shown_index \
                or self._fresh or self.record.painted_as_export():
            return False
        self._repaint_as_seek()
        return True

    def _hold_for_subject(self) -> bool:
        """Whether to keep the picture on screen a moment longer, while the new frame's own
        subject is found (see SUBJECT_HOLD_S); then it is painted with it, or without once
        the wait is over. With nothing painted yet (a file or camera just opened) the view
        stays empty meanwhile: its first frame is not shown framed without its face."""
        self._held_after_skip = False
        if not self.subjects.waiting_fresh:
            self._hold_since = None
            self.subjects.holding = False
            return False
        now = time.monotonic()
        if self._hold_since is None:
            self._hold_since = now
            QTimer.singleShot(int(SUBJECT_HOLD_S * 1000) + 10, self.update)
        if now - self._hold_since < SUBJECT_HOLD_S:
            self.subjects.holding = True
            self._held_after_skip = self.subjects.waiting_after_skip  # (see _keep_held)
            return True
        self._hold_since = None
        self.subjects.holding = False
        return False

    def _keep_held(self) -> bool:
        """Whether the frame queued waits behind the one held for its subject: a playing
        file's frame after a skip, held until its own is found, is painted before the frames
        that follow it (replaced by each newer one, it would wait for a subject the worker
        is always a frame behind on, then be painted with a stale one); a seek, the loop
        point or a pause takes the queued frame at once."""
        frame = self._pending
        return frame is not None and self._held_after_skip and self._fresh \
            and not self._superseded and not self.paused and frame.pts is not None \
            and self._image_pts is not None and self.shown_index is not None \
            and 0 < frame.index - self.shown_index <= SUBJECT_FOLLOW

    def _subject_arrived(self) -> None:
        self._applied = None  # the same still again, with its subject
        self.update()

    def release_gl(self) -> None:
        """Release every GL object (closing, or the context is about to go away)."""
        self.subjects.stop()
        self.painter.cancel()
        self._screen = None  # (Qt's framebuffer: not ours to release)
        if self._ctx is None:
            return
        self.makeCurrent()
        try:
            if self._pipeline is not None:
                self._pipeline.release()
            if self._display is not None:
                self._display.release()
            if self._own_tex is not None:
                self._own_tex.release()
            if self._apart_tex is not None:
                self._apart_tex.release()
            if self._fitter is not None:
                self._fitter.release()
            if self._thumbs is not None:
                self._thumbs.release()
            collect_garbage(self._ctx)
        finally:
            self._pipeline = self._display = self._own_tex = self._fitter = None
            self._apart_tex = self._apart_shown = self._apart_of = self._apart_orig = None
            self._drafted = self._apart_draft = None
            self._timer = None
            self._sink_reader.release()
            self._thumbs = None
            self._orig = self._result = None
            self._fresh = self._image is not None
            self._want_style = self.state.style
            self._ctx = None
            self._applied = None
            self.doneCurrent()

    def _to_sink(self, p: Renderer) -> None:
        """The painted frame to the recording (see FrameSinkReader)."""
        assert self._result is not None and self.frame_sink is not None
        self._sink_reader.send(p, self._result, self._image_pts, self.frame_sink,
                               self.frame_sink_packed, self.queued_readback)

    def drain_frame_sink(self) -> None:
        """Hand the recording the frames its readback ring still holds (before it stops)."""
        if self.frame_sink is None or self._ctx is None:
            return
        self.makeCurrent()
        try:
            self._sink_reader.drain(self.frame_sink)
        finally:
            self.doneCurrent()

    # -- GL --------------------------------------------------------------------------------
    def initializeGL(self) -> None:
        try:
            ctx = wrap_current_context()
            ctx.gc_mode = "context_gc"
            self._ctx = ctx
            self._screen = None
            self.gl_info = renderer_string(ctx)
            self._display = DisplayRenderer(ctx)
            self._timer = FrameTimer(ctx)
            # on a GPU the recording's frames come through a readback ring
            self.cpu_renderer = cpu_renderer(ctx)
            self.queued_readback = not self.cpu_renderer
        except AquarelleError as e:
            self._ctx = None
            self.gl_error = str(e)
            self._report(e)
            return
        context = self.context()
        if context is not None:
            context.aboutToBeDestroyed.connect(self.release_gl)
        self._build_wanted()

    def _new_pipeline(self, style: AnyStyle) -> Renderer:
        """Compile a pipeline; every failure becomes an AquarelleError."""
        assert self._ctx is not None
        try:
            deep = self._image is not None and self._image.dtype == np.uint16
            return Renderer(self._ctx, style, seed=self.state.seed, scale=self.state.scale,
                            shader_root=self.shader_root, deep=deep)
        except AquarelleError:
            raise  # shader errors name their file and line
        except Exception as e:
            raise AquarelleError(f"cannot build the {style.name} pipeline: "
                                 f"{type(e).__name__}: {e}") from None

    def _report(self, error: AquarelleError) -> None:
        """Emit pipelineFailed after paintGL returns (a dialog must not open inside it)."""
        QTimer.singleShot(0, lambda: self.pipelineFailed.emit(error))

    def _build_wanted(self) -> None:
        style, self._want_style = self._want_style, None
        if style is None or self._ctx is None:
            return
        try:
            new = self._new_pipeline(style)
        except AquarelleError as e:
            self._report(e)
            return
        if self._pipeline is not None:
            self._pipeline.release()
        self._adopt(new)

    def _adopt(self, new: Renderer) -> None:
        self._pipeline = new
        new.profile = self.profile
        self._orig = self._result = None
        self._fresh = self._image is not None  # the new pipeline gets the frame as an array
        self._applied = None
        self.cost.new_pipeline()
        self.record.cut()  # (no history: its first frame)
        self.motion_widths = new.motion_widths()

    def _screen_framebuffer(self, ctx: moderngl.Context) -> moderngl.Framebuffer:
        """Qt's framebuffer for this widget, wrapped once for each framebuffer and size (a
        wrapper made every paint stayed allocated: 400 bytes a frame)."""
        key = (self.defaultFramebufferObject(), self.width(), self.height(),
               self.devicePixelRatio())
        if self._screen is None or self._screen[0] != key:
            self._screen = (key, ctx.detect_framebuffer(key[0]))
        return self._screen[1]

    def paintGL(self) -> None:
        ctx = self._ctx
        if ctx is None or self._display is None:
            return
        t0 = time.perf_counter()
        try:
            self._new_painted = False
            if not self._keep_held():
                self._consume_pending()
            rendered = self._render_if_needed()
            self._apply_view_due()
            fbo = self._screen_framebuffer(ctx)
            size = fbo.size if fbo.size[0] > 0 else self.view_size()
            self._display.begin(fbo, size)
            self._draw(size)
            if rendered and self.sync_timing:
                ctx.finish()
            collect_garbage(ctx)
        except (AquarelleError, moderngl.Error) as e:  # never let paintGL raise into Qt
            self._applied = self._revision()  # do not retry the same failure every paint
            self._report(AquarelleError(str(e)))
            return
        if rendered:
            self.cost.painted(time.perf_counter() - t0, self.frame_size, self.adaptive,
                              self.adjusting)
            if self._new_painted:  # (a frame held for its subject: once painted)
                self.stats.frame_shown()
                if self._image_captured is not None:
                    self.stats.latency.add(time.monotonic() - self._image_captured)
            self.rendered.emit()
        if self._new_shown:
            self._new_shown = False
            self.newPictureShown.emit()

    def _revision(self) -> tuple[int, str | None]:
        """What the picture on screen was made for: the settings' revision and the debug
        view (a target the engine keeps only while it is shown)."""
        return self.state.revision, self.state.debug_target

    def painted_scale(self) -> float | None:
        """The processing scale the frame shown is painted at (the one set, adaptive
        quality's, a video's limit); None with nothing shown."""
        p, size = self._pipeline, self.frame_size
        return None if p is None or size is None else p.work_scale(size)

    def painted_lines(self) -> int | None:
        """The lines the frame shown is painted at, where fewer than its own; else None."""
        p, size = self._pipeline, self.frame_size
        if p is None or size is None or p.work_scale(size) >= 1.0:
            return None
        return p.work_lines(size)

    @property
    def moving_source(self) -> bool:
        """Whether the frame shown is a video's or a camera's (not a still image)."""
        return self._moving_source()

    def _moving_source(self) -> bool:
        """Whether the frame shown is a video's or a camera's (not a still image)."""
        return self._image_pts is not None or self._image_captured is not None

    def _consume_pending(self) -> bool:
        frame, self._pending = self._pending, None
        if frame is None:
            return False
        self._superseded = self._held_after_skip = False
        img = frame.image[:, :, :3]  # a 16-bit still stays 16-bit (a deep pipeline paints it)
        self._image = np.ascontiguousarray(img if img.dtype == np.uint16 else
                                           img.astype(np.uint8, copy=False))
        self._image_alpha = frame.alpha
        # history follows the frame painted last (a frame held for its subject and replaced
        # before it was painted is not it); the subject, every frame handed over
        seen, self.shown_index = self.shown_index, frame.index
        last = self._painted_index
        step = frame.index - last if last is not None else 0
        self._jumped = step <= 0 or (frame.pts is not None and step > MAX_FOLLOW)
        self._skipped = not self._jumped and step > 1
        step = frame.index - seen if seen is not None else 0
        self._cut = step <= 0 or (frame.pts is not None and step > SUBJECT_FOLLOW)
        if self.paused and frame.pts is not None and (
                self._jumped or self._skipped or not self.record.follows_export()):
            # a paused file's frame that does not follow the one painted (steps pressed
            # faster than painted, the file hands over only the last) or a step from a frame
            # painted otherwise than an export paints it (while it played): painted as a
            # seek to it paints it, with its own subject (not the frame before's, on a
            # history started afresh: a ghost no export paints)
            self._jumped = self._cut = True
            self._skipped = False
        self._repaint = False
        self._image_pts = frame.pts
        self._image_captured = frame.captured
        self._image_motion = frame.motion
        self._fresh = True
        return True

    def _upload_own(self, img: np.ndarray) -> moderngl.Texture:
        assert self._ctx is not None
        h, w = img.shape[:2]
        if self._own_tex is None or self._own_tex.size != (w, h) \
                or (self._own_tex.dtype == "nu2") != (img.dtype == np.uint16):
            if self._own_tex is not None:
                self._own_tex.release()
            self._own_tex = self._ctx.texture((w, h), 3, alignment=1,
                                              dtype="nu2" if img.dtype == np.uint16 else "f1")
        self._own_tex.write(img, alignment=1)
        return self._own_tex

    def _render_if_needed(self, *, hold: bool = True) -> bool:
        if self._want_style is not None:
            self._build_wanted()
        p = self._pipeline
        img = self._image
        if img is None or self._ctx is None or self._superseded:
            return False
        if p is not None and p.deep != (img.dtype == np.uint16):
            self._want_style = p.style  # 16-bit targets for a 16-bit still, or back again
            self._build_wanted()
            p = self._pipeline
        if p is None or p.style.name != self.state.style.name:
            # No working pipeline for the chosen style: show the original.
            if self._fresh or self._orig is None:
                self._orig = self._upload_own(img)
                self._fresh = False
                self._shown_new()
            self._result = None
            return False
        revision = self._revision()
        apart = self._apart_order()
        if apart is not None:
            if self.adjusting:
                return self._draft_apart(p, img, revision)
            return self._render_apart(p, img, apart, revision)
        if self.painter.painting is not None:
            self.painter.cancel()  # (a debug view asked for on a big still: painted here)
        adaptive = self.adaptive
        if adaptive is not None:
            adaptive.ceiling = self.state.scale
        p.scale = adaptive.scale if adaptive is not None else self.state.scale
        # a video's or camera's frames are painted at most so many lines, as exported
        p.max_lines = self.state.video_lines if self._moving_source() else 0
        draft = None
        if self.adjusting and adaptive is None:
            size = (img.shape[1], img.shape[0])
            draft = self.cost.draft_scale(size, p.work_scale(size))
        if draft is not None:
            p.scale = draft
        work = p.work_scale((img.shape[1], img.shape[0]))
        painting = (work, (adaptive is not None or draft is not None) and work < 1.0)
        # painted at another scale or draft: repainted where that is no longer wanted (while
        # adapting, the next frame takes the new scale; while adjusting, the next values)
        stale = self._painted_as is not None and self._painted_as != painting \
            and self._orig is not None
        if not self._fresh and self._result is not None and self._applied == revision \
                and (not stale or adaptive is not None or draft is not None):
            return False
        if stale and not self._fresh and adaptive is not None:
            # new values while adapting: the frame at the scale it was painted at (on the
            # history it read then); the next frame takes the new one
            p.scale = self._painted_scale
            work = p.work_scale((img.shape[1], img.shape[0]))
            painting = (work, work < 1.0)
        elif stale and not self._fresh:
            # anew from the frame, not on the history it read then (made at another size:
            # textures of that size are gone); its subject as found
            self._fresh = self._jumped = self._repaint = True
        view = self.state.debug_target  # kept after the frame (other targets share memory)
        p.keep_targets(() if view is None else (view,))
        p.params.update(self.state.params.values())
        p.seed = self.state.seed
        use_draft(p, adapting=adaptive is not None or draft is not None)
        captured = None
        own = bare = True  # the subject painted by: the frame's own, or none to paint by
        if self._fresh or self._orig is None:
            # A new frame goes in as an array, so the engine can track motion between frames.
            if p.has_subject_style:
                still = not self._moving_source()
                self.subjects.frame(img, still=still, cut=self._cut, wait=self.paused,
                                    index=self.shown_index if self._image_pts is not None
                                    else None, t=time.monotonic())
                if hold and self._hold_for_subject():
                    return False
                own, bare = self._give_subject(p)
            motion = self._image_motion  # from the frame painted last, unless it jumped
            if self._jumped:
                p.reset_history()
                self.record.cut()
                self._jumped = False
                motion = None
            self._result, cost = self._timed(p, img, motion)
            self.motion_widths = p.motion_widths()
            if adaptive is not None:
                adaptive.update(cost)  # (the status bar's frame time is this measure)
            self._orig = p.input_texture
            self._fresh = False
            self._painted_index, self.painted_pts = self.shown_index, self._image_pts
            self._shown_new()
            # (a frame painted again as a seek to it: not a new one, sent at once)
            captured = None if self._repaint else self._image_captured
            self._new_painted = not self._repaint
            self.record.painted(FramePainting(self._look(), not painting[1],
                                              not self._skipped, own, bare))
            self._skipped = self._repaint = False
        else:
            if p.has_subject_style:
                own, bare = self._give_subject(p)
            self._result = self._timed(p, self._orig)[0]  # same frame, new settings
            self.record.painted_again(FramePainting(self._look(), not painting[1], True,
                                                    own, bare))
        self._painted_as, self._painted_scale = painting, p.scale
        self.cost.painting(*painting)
        self._applied = revision
        self.stats.renders += 1
        if self.profile:
            self.last_pass_times = p.pass_times_ms()
        if self.frame_sink is not None:
            self._to_sink(p)
        if self.live_output is not None:
            self.live_output(p, self._result, captured)
        self._repaint_if_deviated()  # (its own subject showed a face the frames before lacked)
        return True

    def _timed(self, p: Renderer, frame: np.ndarray | moderngl.Texture,
               motion: FrameMotion | None = None) -> tuple[moderngl.Texture, float]:
        """`p.render(frame)` and what it cost (seconds), as adaptive quality measures a
        frame: the host's time and the GPU's from a query ring, two paintings late (no wait
        for the GPU), added on a CPU renderer (frame_cost). The status bar's frame time is
        the median of these, so it says what the controller steers by (it said the paint's
        CPU side alone: 32 ms on llvmpipe where frames cost 54-121 ms)."""
        assert self._timer is not None
        t0 = time.perf_counter()
        result = timed_render(self._timer, p, frame, motion)
        cost = frame_cost(time.perf_counter() - t0, self._timer.seconds, self.cpu_renderer)
        self.stats.frame_cost(cost)
        return result, cost

    def _give_subject(self, p: Renderer) -> tuple[bool, bool]:
        """The newest subject to the pipeline; returns whether it is the frame's own (or
        none is painted by) and whether it paints by nothing (no face, no person)."""
        self.subjects.give(p)
        if not p.wants_subject:
            return True, True
        return self.subjects.given_own, self.subjects.given_bare

    def _look(self) -> Look:
        """What an export of the file is asked for: style, values, seed, scale, lines."""
        state = self.state
        return (state.style.name, state.params.values(), state.seed, state.scale,
                state.video_lines)

    def _apart_order(self) -> PaintOrder | None:
        """What to paint apart (APART_PX): a still, big, on a CPU renderer, shown as painted
        (a debug view and the pass times need this context's own painting); else None."""
        img, p = self._image, self._pipeline
        if img is None or p is None or self.apart_px is None or not self.cpu_renderer \
                or self._moving_source() or not self._paints_long(p, img) \
                or self.state.debug_target is not None or self.profile \
                or p.style.name != self.state.style.name:
            return None
        return PaintOrder(img, p, self.state.style, self.state.params.values(),
                          self.state.seed, self.state.scale, self.shader_root)

    def _paints_long(self, p: Renderer, img: np.ndarray) -> bool:
        """Whether a still is big enough to be painted apart (APART_PX, APART_S)."""
        h, w = img.shape[:2]
        if self.apart_px is not None and w * h >= self.apart_px:
            return True
        seconds = self.cost.seconds((w, h), p.work_scale((w, h)))
        return w * h >= self.apart_min_px and seconds is not None and seconds > self.apart_s

    def _render_apart(self, p: Renderer, img: np.ndarray, order: PaintOrder,
                      revision: tuple[int, str | None]) -> bool:
        """A big still: its painting shown once it comes back from the painter; meanwhile
        the last painting of the picture (other values, another style) or, for a new
        picture, the picture itself."""
        self._show_apart_original(img)
        self._fresh = True  # (painted here instead, later, it goes in as an array)
        self.painter.order(order)  # (painted already: any other painting is stopped)
        painted = self.painter.painted(order)
        if painted is None:
            draft = self._apart_draft
            if draft is not None and draft[1] == revision and self._apart_orig is img:
                self._result = draft[0]  # the values' draft until their painting comes
            else:
                self._result = self._apart_tex if self._apart_of is img else None
            return False
        self._apart_draft = None
        if self._apart_shown is not painted or self._apart_tex is None:
            self._apart_tex = self._upload_painting(painted)
            if self._apart_shown is not painted and self.painter.took is not None:
                self.stats.frame_cost(self.painter.took)  # (its painting, in its process)
            self._apart_shown, self._apart_of = painted, img
        elif self._applied == revision and self._result is self._apart_tex:
            return False
        self._result = self._apart_tex
        self._applied = revision
        self.stats.renders += 1
        if self.frame_sink is not None:
            self._to_sink(p)
        if self.live_output is not None:
            self.live_output(p, self._result, None)
        return True

    def _show_apart_original(self, img: np.ndarray) -> None:
        """A big still's picture in `_orig` (shown until a painting or a draft of it is)."""
        if self._orig is None or self._apart_orig is not img:
            self._orig = self._upload_own(img)
            self._apart_orig = img
            self._painted_index = self.shown_index
            self._shown_new()

    def _draft_apart(self, p: Renderer, img: np.ndarray,
                     revision: tuple[int, str | None]) -> bool:
        """A big still while values come fast: a draft of the values painted here at the
        scale that paints APART_DRAFT_PX, the painting apart stopped until they settle."""
        if self._apart_draft is not None and self._apart_draft[1] == revision \
                and self._apart_orig is img and self._result is self._apart_draft[0] \
                and (not p.has_subject_style or self.subjects.given_own):
            return False  # (drafted without its subject: again, with it, once found)
        self.painter.halt()
        self._show_apart_original(img)
        fresh = self._drafted is not img or p.input_texture is None
        h, w = img.shape[:2]
        p.scale, p.max_lines = min(1.0, math.sqrt(APART_DRAFT_PX / (w * h))), 0
        use_draft(p, adapting=True)
        p.keep_targets(())
        p.params.update(self.state.params.values())
        p.seed = self.state.seed
        if p.has_subject_style:
            if fresh:  # its faces found off this thread; drafted again with them
                self.subjects.frame(img, still=True, cut=True, wait=True, index=None,
                                    t=time.monotonic())
            self._give_subject(p)
        if fresh:
            p.reset_history()  # (a still: no history from another picture)
            result = self._timed(p, img)[0]
            self._drafted = img
        else:
            assert p.input_texture is not None
            result = self._timed(p, p.input_texture)[0]  # the same picture, new values
        self._apart_draft = (result, revision)
        self._result = result
        self._applied = revision
        self._painted_as = None  # (painted otherwise than either: a full paint follows)
        self.stats.renders += 1
        return True

    def _shown_new(self) -> None:
        """The frame consumed last (not a picture held from before a cut) is drawn."""
        if self.holding_previous and self.shown_index is not None:
            self.holding_previous = False
            self._new_shown = True

    def _upload_painting(self, rgb: np.ndarray) -> moderngl.Texture:
        assert self._ctx is not None
        h, w = rgb.shape[:2]
        dtype = "nu2" if rgb.dtype == np.uint16 else "f1"
        tex = self._apart_tex
        if tex is None or tex.size != (w, h) or tex.dtype != dtype:
            if tex is not None:
                tex.release()
            tex = self._ctx.texture((w, h), 3, alignment=1, dtype=dtype)
        tex.write(np.ascontiguousarray(rgb), alignment=1)
        return tex

    @property
    def debug_empty(self) -> bool:
        """The debug view shown is empty: the last frame cleared its target, its passes not
        run for this picture and these values (a stereo pair's matching, given one view)."""
        target, p = self.state.debug_target, self._pipeline
        if target is None or p is None or self._result is None:
            return False
        try:
            return not p.target_drawn(target)
        except AquarelleError:  # (shown as the result: _shown_texture)
            return False

    @property
    def comparing(self) -> bool:
        """Whether the original is on screen next to the result: a compare mode is on."""
        return self.compare is not CompareMode.OFF

    def _shown_texture(self) -> tuple[moderngl.Texture | None, DisplayMode]:
        if self.show_original or self._result is None or self._pipeline is None:
            return self._orig, DisplayMode.COLOR
        target = self.state.debug_target
        if target is not None:
            try:
                tex = self._pipeline.target(target)
            except AquarelleError:
                return self._result, DisplayMode.COLOR
            return tex, display_mode_for(target, tex)
        return self._result, DisplayMode.COLOR

    def _draw(self, size: tuple[int, int]) -> None:
        src, image = self._orig, self.frame_size
        if self._display is None or src is None or image is None:
            return
        main, mode = self._shown_texture()
        if main is None:
            return
        self._hold_scale()
        # (the views of a stereo pair in the painting: the original is split into each)
        views = self._painted_views() \
            if main is self._result and self.compare is CompareMode.SPLIT else None
        draw_pictures(self._display, src, main, mode, image, size, self.transform, self.compare,
                      self.split, self.devicePixelRatioF(), self.pixel_aspect, views)

    def _painted_views(self) -> tuple[int, int]:
        """The views the look paints (chain_spec.painted_views), found again only when the
        style or its values changed, not on every draw."""
        key = self.state.revision
        if self._views[0] != key:
            self._views = (key, painted_views(self.state.style, self.state.params.values()))
        return self._views[1]

    def _as_shown(self, size: tuple[int, int]) -> tuple[int, int]:
        return as_shown(size, self.pixel_aspect)

    def view_size(self) -> tuple[int, int]:
        """The view's size in device pixels: its framebuffer's."""
        return device_size(self.width(), self.height(), self.devicePixelRatioF())

    def pane_size(self) -> tuple[int, int]:
        """The size one picture is drawn in (device pixels): the view, or half of it side by
        side; zoom and pan are the same in both halves."""
        return pane_of(self.view_size(), self.compare)

