"""The frame on screen painted by the working pipeline: the pipeline (built when the style
changes), the textures drawn (the frame, its painting) and what they were painted for, so a
paint renders again only when the frame or the settings changed. Runs on the GL thread, with
the context current (no Qt)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

import moderngl
import numpy as np

from ..engine.chain_spec import AnyStyle, painted_views
from ..engine.context import released
from ..engine.errors import AquarelleError
from ..engine.frame_timer import FrameTimer, frame_cost, timed_render
from ..engine.motion import FrameMotion
from ..engine.renderer import Renderer, use_draft
from ..engine.yuv_pack import YuvFormat
from ..media.adaptive import AdaptiveScale
from ..media.image_pixels import to_8bit
from .big_stills import ApartView, BigStills, Revision
from .display import DisplayMode, display_mode_for, rgb_texture
from .frame_queue import FrameQueue
from .frame_sink import FrameSinkReader, Sink
from .painting_record import FramePainting, Look, PaintingRecord
from .still_painter import StillPainter
from .subject_hold import SubjectHold

# gets every result texture while the context is current, with the frame's capture time
LiveOutput = Callable[[Renderer, moderngl.Texture, "float | None"], None]


class PaintHost(ApartView, Protocol):
    """What the painter reads of the view it paints for (the Viewport is one): its
    settings and outputs (see the Viewport's own), and its repaint and error report."""

    record: PaintingRecord
    adaptive: AdaptiveScale | None
    adjusting: bool
    paused: bool
    queued_readback: bool
    frame_sink: Sink | None
    frame_sink_packed: YuvFormat | None
    live_output: LiveOutput | None

    def update(self) -> None: ...
    def report(self, error: AquarelleError) -> None: ...


class FramePainter:
    """Paints `frames`' frame on screen for `view` (see the module docstring); big stills
    apart by `still_painter` (BigStills), a frame held for its subject as `hold` says."""

    def __init__(self, view: PaintHost, frames: FrameQueue, hold: SubjectHold,
                 still_painter: StillPainter) -> None:
        self.view = view
        self.frames = frames
        self.hold = hold
        self.apart = BigStills(view, self, still_painter)
        self.ctx: moderngl.Context | None = None
        self.timer: FrameTimer | None = None  # the rendered frames' GPU time (a query ring)
        self.pipeline: Renderer | None = None
        self.want_style: AnyStyle | None = view.state.style  # built at the next paint
        self._own_tex: moderngl.Texture | None = None  # the frame, when no pipeline works
        self.orig: moderngl.Texture | None = None  # the frame on the GPU (original view)
        self.result: moderngl.Texture | None = None
        self.applied: object = None  # the revision `result` was painted for
        # What the picture on screen was painted at: its work scale and whether as adaptive
        # quality's cheapest draft. A picture painted otherwise than now wanted is painted
        # again (a paused file's frame after playback lowered its scale).
        self.painted_as: tuple[float, bool] | None = None
        self.painted_scale = 1.0  # ... and the processing scale it was painted at
        self.new_painted = False  # the last render painted a new frame (not one again)
        # the flow widths the pipeline asks motion at: what a MotionFeed estimates
        self.motion_widths: frozenset[int] = frozenset()
        self.last_pass_times: dict[str, float] = {}
        self._sink_reader = FrameSinkReader()  # the recording's frames, read back
        # the views the look paints and the settings' revision they were found for
        self._views: tuple[object, tuple[int, int]] = (None, (1, 1))

    # -- the context and the pipeline ------------------------------------------------------
    def attach(self, ctx: moderngl.Context, timer: FrameTimer) -> None:
        """Paint on `ctx` (made current), timing the frames by `timer`."""
        self.ctx, self.timer = ctx, timer

    def release(self) -> None:
        """Release its GL objects (the context is current, and about to go; `detach`
        follows)."""
        if self.pipeline is not None:
            self.pipeline.release()
        if self._own_tex is not None:
            self._own_tex.release()
        self.apart.release()

    def detach(self) -> None:
        """Forget the context and all made on it: the next one builds the pipeline again
        and paints the frame anew."""
        self.pipeline = self._own_tex = None
        self.apart.forget()
        self.timer = None
        self._sink_reader.release()
        self.orig = self.result = None
        self.frames.fresh = self.frames.image is not None
        self.want_style = self.view.state.style
        self.ctx = None
        self.applied = None

    def build(self, style: AnyStyle) -> None:
        """Compile `style` and make it the working pipeline (the context current); raises
        AquarelleError and keeps the old pipeline when it fails."""
        self._replace(self._new_pipeline(style))

    def _new_pipeline(self, style: AnyStyle) -> Renderer:
        """Compile a pipeline; every failure becomes an AquarelleError."""
        assert self.ctx is not None
        state, image = self.view.state, self.frames.image
        try:
            deep = image is not None and image.dtype == np.uint16
            return Renderer(self.ctx, style, seed=state.seed, scale=state.scale,
                            shader_root=self.view.shader_root, deep=deep)
        except AquarelleError:
            raise  # shader errors name their file and line
        except Exception as e:
            raise AquarelleError(f"cannot build the {style.name} pipeline: "
                                 f"{type(e).__name__}: {e}") from None

    def build_wanted(self) -> None:
        """Build the style asked for before (none: nothing); a failure is reported."""
        style, self.want_style = self.want_style, None
        if style is None or self.ctx is None:
            return
        try:
            new = self._new_pipeline(style)
        except AquarelleError as e:
            self.view.report(e)
            return
        self._replace(new)

    def _replace(self, new: Renderer) -> None:
        if self.pipeline is not None:
            self.pipeline.release()
        self.pipeline = new
        new.profile = self.view.profile
        self.orig = self.result = None
        self.frames.fresh = self.frames.image is not None  # (it gets the frame as an array)
        self.applied = None
        self.view.cost.new_pipeline()
        self.view.record.cut()  # (no history: its first frame)
        self.motion_widths = new.motion_widths()

    # -- painting --------------------------------------------------------------------------
    def take_pending(self) -> None:
        """Take the frame queued to paint, if any."""
        if self.frames.take(self.view.paused, self.view.record):
            self.hold.after_skip = False

    def revision(self) -> Revision:
        """What the picture on screen was made for: the settings' revision and the debug
        view (a target the engine keeps only while it is shown)."""
        state = self.view.state
        return state.revision, state.debug_target

    def upload_own(self, img: np.ndarray) -> moderngl.Texture:
        """`img` in the texture of the frame shown without a pipeline (`orig`)."""
        assert self.ctx is not None
        self._own_tex = rgb_texture(self.ctx, self._own_tex, img)
        return self._own_tex

    def render_if_needed(self, *, hold: bool = True) -> bool:
        """Paint the frame taken where it or the settings changed since it was painted
        (`hold`: a frame waits for its subject as SubjectHold says); returns whether a
        painting was made."""
        view, frames, state = self.view, self.frames, self.view.state
        if self.want_style is not None:
            self.build_wanted()
        p = self.pipeline
        img = frames.image
        if img is None or self.ctx is None or frames.superseded:
            return False
        if p is not None and p.deep != (img.dtype == np.uint16):
            self.want_style = p.style  # 16-bit targets for a 16-bit still, or back again
            self.build_wanted()
            p = self.pipeline
        if p is None or p.style.name != state.style.name:
            # No working pipeline for the chosen style: show the original.
            if frames.fresh or self.orig is None:
                self.orig = self.upload_own(img)
                frames.fresh = False
                frames.shown_new()
            self.result = None
            return False
        revision = self.revision()
        apart = self.apart.order(p)
        if apart is not None:
            if view.adjusting:
                return self.apart.draft(p, img, revision)
            return self.apart.render(p, img, apart, revision)
        if self.apart.painter.painting is not None:
            self.apart.painter.cancel()  # (a debug view asked for on a big still: painted here)
        adaptive = view.adaptive
        if adaptive is not None:
            adaptive.ceiling = state.scale
        p.scale = adaptive.scale if adaptive is not None else state.scale
        # a video's or camera's frames are painted at most so many lines, as exported
        p.max_lines = state.video_lines if frames.moving else 0
        draft = None
        if view.adjusting and adaptive is None:
            size = (img.shape[1], img.shape[0])
            draft = view.cost.draft_scale(size, p.work_scale(size))
        if draft is not None:
            p.scale = draft
        work = p.work_scale((img.shape[1], img.shape[0]))
        painting = (work, (adaptive is not None or draft is not None) and work < 1.0)
        # painted at another scale or draft: repainted where that is no longer wanted (while
        # adapting, the next frame takes the new scale; while adjusting, the next values)
        stale = self.painted_as is not None and self.painted_as != painting \
            and self.orig is not None
        if self.result is not None and released(self.result):
            # (the pipeline's targets were made anew since the frame was painted into them:
            # drawn, the old one failed in paintGL, the suite once; painted again)
            self.result = None
        if not frames.fresh and self.result is not None and self.applied == revision \
                and (not stale or adaptive is not None or draft is not None):
            return False
        if stale and not frames.fresh and adaptive is not None:
            # new values while adapting: the frame at the scale it was painted at (on the
            # history it read then); the next frame takes the new one
            p.scale = self.painted_scale
            work = p.work_scale((img.shape[1], img.shape[0]))
            painting = (work, work < 1.0)
        elif stale and not frames.fresh:
            # anew from the frame, not on the history it read then (made at another size:
            # textures of that size are gone); its subject as found
            frames.fresh = frames.jumped = frames.repaint = True
        target = state.debug_target  # kept after the frame (other targets share memory)
        p.keep_targets(() if target is None else (target,))
        p.params.update(state.params.values())
        p.seed = state.seed
        use_draft(p, adapting=adaptive is not None or draft is not None)
        captured = None
        own = bare = True  # the subject painted by: the frame's own, or none to paint by
        if frames.fresh or self.orig is None:
            # A new frame goes in as an array, so the engine can track motion between frames.
            if p.has_subject_style:
                still = not frames.moving
                view.subjects.frame(img, still=still, cut=frames.cut, wait=view.paused,
                                    index=frames.shown_index if frames.pts is not None
                                    else None, t=time.monotonic())
                if hold and self.hold.holds():
                    return False
                own, bare = self.give_subject(p)
            motion = frames.motion  # from the frame painted last, unless it jumped
            if frames.jumped:
                p.reset_history()
                view.record.cut()
                frames.jumped = False
                motion = None
            self.result, cost = self.timed(p, img, motion)
            self.motion_widths = p.motion_widths()
            if adaptive is not None:
                adaptive.update(cost)  # (the status bar's frame time is this measure)
            self.orig = p.input_texture
            frames.fresh = False
            frames.painted()
            # (a frame painted again as a seek to it: not a new one, sent at once)
            captured = None if frames.repaint else frames.captured
            self.new_painted = not frames.repaint
            view.record.painted(FramePainting(self._look(), not painting[1],
                                              not frames.skipped, own, bare))
            frames.skipped = frames.repaint = False
        else:
            if p.has_subject_style:
                own, bare = self.give_subject(p)
            self.result = self.timed(p, self.orig)[0]  # same frame, new settings
            view.record.painted_again(FramePainting(self._look(), not painting[1], True,
                                                    own, bare))
        self.painted_as, self.painted_scale = painting, p.scale
        view.cost.painting(*painting)
        self.applied = revision
        view.stats.renders += 1
        if view.profile:
            self.last_pass_times = p.pass_times_ms()
        self.send(p, captured)
        self.repaint_if_deviated()  # (its own subject showed a face the frames before lacked)
        return True

    def timed(self, p: Renderer, frame: np.ndarray | moderngl.Texture,
              motion: FrameMotion | None = None) -> tuple[moderngl.Texture, float]:
        """`p.render(frame)` and what it cost (seconds), as adaptive quality measures a
        frame: the host's time and the GPU's from a query ring, two paintings late (no wait
        for the GPU), added on a CPU renderer (frame_cost). The status bar's frame time is
        the median of these, so it says what the controller steers by (it said the paint's
        CPU side alone: 32 ms on llvmpipe where frames cost 54-121 ms)."""
        assert self.timer is not None
        t0 = time.perf_counter()
        result = timed_render(self.timer, p, frame, motion)
        cost = frame_cost(time.perf_counter() - t0, self.timer.seconds, self.view.cpu_renderer)
        self.view.stats.frame_cost(cost)
        return result, cost

    def give_subject(self, p: Renderer) -> tuple[bool, bool]:
        """The newest subject to the pipeline; returns whether it is the frame's own (or
        none is painted by) and whether it paints by nothing (no face, no person)."""
        subjects = self.view.subjects
        subjects.give(p)
        if not p.wants_subject:
            return True, True
        return subjects.given_own, subjects.given_bare

    def _look(self) -> Look:
        """What an export of the file is asked for: style, values, seed, scale, lines."""
        state = self.view.state
        return (state.style.name, state.params.values(), state.seed, state.scale,
                state.video_lines)

    def send(self, p: Renderer, captured: float | None) -> None:
        """The painting on screen to the view's outputs: the recording (see
        FrameSinkReader) and the live output, with the frame's capture time (None: a
        painting of a frame sent before)."""
        view = self.view
        if view.frame_sink is not None:
            assert self.result is not None
            self._sink_reader.send(p, self.result, self.frames.pts, view.frame_sink,
                                   view.frame_sink_packed, view.queued_readback)
        if view.live_output is not None:
            view.live_output(p, self.result, captured)

    def drain(self, sink: Sink) -> None:
        """Hand `sink` the frames the readback ring still holds (the context current)."""
        self._sink_reader.drain(sink)

    # -- a paused frame painted as an export paints it -------------------------------------
    def paused(self) -> None:
        """A file was paused: a frame whose painting deviated from the export's (a lower
        scale while it played, frames skipped since the last cut, a face found late) is
        painted again as a seek to it paints it; one that deviated only in its subject is
        painted again once its own is found."""
        frames, p = self.frames, self.pipeline
        if frames.image is None or p is None:
            return
        if self.hold.after_skip and frames.fresh and not frames.superseded:
            # a frame after a skip, held for its subject while it played, is never painted
            # as it played: as a seek to it paints it (as it would be painted again paused)
            self.repaint_as_seek()
            return
        if not self.repaint_if_deviated() and p.has_subject_style:
            self.view.subjects.settle()

    def repaint_as_seek(self) -> None:
        """Paint the file's frame on screen again as a seek to it paints it (its history
        and subject afresh), holding the picture until its subject is found."""
        if not self.frames.as_seek():
            return
        self.view.subjects.forget()  # found afresh, as after a seek
        self.view.update()

    def repaint_if_deviated(self) -> bool:
        """A paused file's frame on screen whose painting is not the export's is painted
        again as a seek to it (see PaintingRecord.painted_as_export); returns whether."""
        view, frames = self.view, self.frames
        if not view.paused or view.adaptive is not None or frames.pts is None \
                or frames.pending is not None or frames.painted_index != frames.shown_index \
                or frames.fresh or view.record.painted_as_export():
            return False
        self.repaint_as_seek()
        return True

    # -- what is drawn and saved -----------------------------------------------------------
    def shown_texture(self, original: bool) -> tuple[moderngl.Texture | None, DisplayMode]:
        """The texture drawn as the painting (`original`: the frame is shown instead), and
        how: the result, or the debug view asked for."""
        if self.result is not None and released(self.result):
            self.result = None  # (see render_if_needed)
        if original or self.result is None or self.pipeline is None:
            return self.orig, DisplayMode.COLOR
        target = self.view.state.debug_target
        if target is not None:
            try:
                tex = self.pipeline.target(target)
            except AquarelleError:
                return self.result, DisplayMode.COLOR
            return tex, display_mode_for(target, tex)
        return self.result, DisplayMode.COLOR

    def debug_empty(self) -> bool:
        """The debug view shown is empty (see Viewport.debug_empty)."""
        target, p = self.view.state.debug_target, self.pipeline
        if target is None or p is None or self.result is None:
            return False
        try:
            return not p.target_drawn(target)
        except AquarelleError:  # (shown as the result: shown_texture)
            return False

    def painted_views(self) -> tuple[int, int]:
        """The views the look paints (chain_spec.painted_views: a stereo pair's), found
        again only when the style or its values changed, not on every draw."""
        state = self.view.state
        if self._views[0] != state.revision:
            self._views = (state.revision, painted_views(state.style, state.params.values()))
        return self._views[1]

    def snapshot(self, full_depth: bool) -> np.ndarray:
        """The painting of the frame on screen at source resolution (see Viewport.snapshot),
        painted first if needed."""
        self.render_if_needed(hold=False)  # the frame asked for, not the one held
        apart = self.apart.order(self.pipeline)
        if apart is not None:  # a big still: its painting as it came back
            painted = self.apart.painter.painted(apart)
            if painted is None:
                raise AquarelleError("the picture is still being painted: save it once "
                                     "it is shown")
            return painted if full_depth else to_8bit(painted)
        if self.result is None or self.pipeline is None:
            raise AquarelleError("there is no stylized frame to save yet")
        painted = self.pipeline.read(self.result)
        return painted if full_depth else to_8bit(painted)  # as `aquarelle render` writes
