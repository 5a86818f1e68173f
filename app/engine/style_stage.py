"""One style's passes on one GL context: a stage of a `Renderer` (engine/renderer.py), which
is the engine's public face."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import cv2
import moderngl
import numpy as np

from .blocks import NO_GRID, grid_uniforms
from .context import cpu_renderer, release_framebuffer, return_freed_memory
from .errors import AquarelleError, FrameError
from .fit import FrameFitter
from .frame_arrays import as_pixels
from .frame_info import FrameInfo, TileView
from .frame_timer import StepTimes
from .graph import PassGraph
from .grid_pad import GridPad, grid_align, padded_size
from .letterbox import Content
from .motion import STILL_PX, MotionTracker, corner_shift
from .params import ParamSet
from .style import ORIGINAL, StyleSpec, installed_params, load_style, styles_dir
from .subject import Subject, SubjectSearch
from .subject_map import (
    map_grid,
    map_region,
    map_step,
    subject_map,
    subject_portrait_share,
)
from .targets import TargetPool
from .upload_ring import UploadRing
from .upscaler import Upscaler

MIN_SCALE, MAX_SCALE = 0.1, 1.0
SUBJECT_FADE_FRAMES = 8  # a face found or lost in a video fades in or out over these
PAPER_FADE_MARGIN = 0.02  # paper.frag's FADE_MARGIN
PORTRAIT_EASE = 0.2  # of the way a video's portrait share moves to a frame's (mask jitter)
HEADS = 8  # the faces whose heads the shaders know (watercolor/figure_rest.glsl's HEADS)
# What painting a video's frame moves on (each is replaced, never changed in place): put back
# when the same frame is painted anew (its subject found after it was painted), so that it is
# painted as the first time, as an export paints it, not as the frame after itself.
_FRAME_STATE = ("_canvas", "_canvas_shown", "_canvas_set", "_subject_weight", "_subject_fresh",
                "_held_map", "_portrait")


def checked_scale(value: float) -> float:
    """A processing scale, refused outside [MIN_SCALE, MAX_SCALE]."""
    value = float(value)
    if not MIN_SCALE <= value <= MAX_SCALE:
        raise AquarelleError(f"scale must be between {MIN_SCALE} and {MAX_SCALE}, got {value}")
    return value


class StyleStage:
    """Stylizes frames with one style on one GL context: its graph, draft, enlargement and
    finish, its temporal state and the subject map it paints with (the subject itself is
    found by the renderer and handed over: `set_subject`).

    Call only from the thread that owns the context. Frames are uint8 (or uint16, float32 in
    [0,1]) numpy arrays of shape (H, W), (H, W, 3) or (H, W, 4) in RGB or BGR order, or an
    RGB(A) texture already on the GPU. Same input, parameters and seed give the same output.
    """

    def __init__(self, ctx: moderngl.Context, style: str | StyleSpec, *, tracker: MotionTracker,
                 seed: int = 0, scale: float = 1.0, shader_root: Path | None = None,
                 deep: bool = False) -> None:
        self.ctx = ctx
        self.style = style if isinstance(style, StyleSpec) else load_style(style)
        self.params = ParamSet(self.style.params, scope=self.style.name,
                               installed=installed_params)
        # deep: 16-bit targets where the style says 8-bit, and `read` gives uint16
        self.deep = deep
        self.graph = PassGraph(ctx, self.style, shader_root, deep=deep)
        self.seed = seed
        self._scale = 1.0
        self.scale = scale
        self.frame_index = 0
        self._source: moderngl.Texture | None = None
        self._steps = StepTimes(ctx)  # the upload, resize and enlargement, while profiled
        self._finished = False  # this frame ran the draft finish (its passes' times)
        # Uploads through a ring of pixel buffers on a GPU; a CPU renderer would only copy
        # twice (its "GPU" memory is this process's).
        self.upload_ring = not cpu_renderer(ctx)
        self._ring: UploadRing | None = None
        self._source_key: tuple[int, int, int, str] | None = None
        self._max_size = int(ctx.info["GL_MAX_TEXTURE_SIZE"])
        self.tracker = tracker  # the renderer's, shared by its styles (it feeds the frames)
        self._flow: moderngl.Texture | None = None
        self._canvas = np.eye(3)  # current frame's pixels -> paper (canvas) coordinates
        self._canvas_shown = np.eye(3)  # the sheet as painted: moves in steps of STILL_PX
        self._canvas_set = False  # set by hand: the next frame without motion keeps it
        self._revision = self.params.revision
        # Draft: below scale 1 the whole graph, finish included, runs on the frame
        # downscaled to the work size, and the result is enlarged to the source size (the
        # style's draft method, issue 12): the passes at the source's size cost no more than
        # the others. Off: only the washes are at the work size (paper grain at full size).
        self.draft = True
        # With the style's draft finish (the paper at full size after enlarging); live
        # adaptive quality turns it off and enlarges the whole picture (cheapest).
        self.draft_finish = True
        # In a draft, the targets a style declares relative to "full" keep their size at
        # full quality (the watercolor's subject map) and passes `when: "drafting"` run (its
        # tones laid from learned x2 sub-pixels, where a full render puts the washes'
        # borders); live adaptive quality turns it off (cheapest: all at the work size).
        self.draft_borders = True
        self._fitter: FrameFitter | None = None
        self._padder: GridPad | None = None
        self._align: tuple[int, int] = (-1, 1)  # (params revision, grid_align)
        self._upscaler: Upscaler | None = None
        self._upscale_method = self.style.draft_upscale
        self._draft_off = ParamSet(self.style.params).coerce_values(self.style.draft_off)
        self._finish: PassGraph | None = None
        self._finish_params = ParamSet(())
        if self.style.draft_finish is not None:
            finish = load_style(styles_dir() / self.style.draft_finish)
            self._finish = PassGraph(ctx, finish, shader_root, deep=deep)
            self._finish_params = ParamSet(finish.params)
        # False: no frame follows (a still): the history is not kept, and its targets share
        # textures like any other
        self.keep_history = True
        self._search = SubjectSearch()
        self._given: Subject | None = None
        self._still: np.ndarray | None = None  # a tiled still's whole subject map
        self._subject_tex: moderngl.Texture | None = None
        self._subject_weight = 0.0  # 0..1: how much the subject shapes the painting
        self._subject_fresh = True  # no frame since a reset: the next one sets the weight
        self._held_map: np.ndarray | None = None  # the last map found (fading out)
        self._face_px = 0.0  # the map's faces' median size, picture px (u_face_size)
        self._heads = _heads(None)  # the largest faces' boxes, picture px (u_heads)
        self._lifts = _lifts(None)  # their shadow keys (u_head_lift)
        self._light = (0.0, 0.0)  # the main face's light and its centre's x (u_light)
        self._skin: tuple[float, float, float] | None = None  # its own skin (u_face_skin)
        # the picture between a film's letterbox bars, picture px (u_content; None: no bars)
        self._content: Content | None = None
        self._sharp = 0.0  # how sharp the main face is drawn (u_face_sharp)
        self._exposure = 1.0  # the gain that keys an underexposed frame up (u_key_gain)
        self._blocks = NO_GRID  # the frame's compression's block grid (engine/blocks.py)
        self._portrait = 0.0  # how much the picture is a portrait (u_portrait)
        self.last_subject: Subject | None = None  # the last frame's, where a face was found
        self._before: dict[str, Any] = {}  # _FRAME_STATE before the last frame (none yet)

    # -- settings -------------------------------------------------------------------------
    @property
    def scale(self) -> float:
        """Processing scale: the style renders at this fraction of the source size."""
        return self._scale

    @scale.setter
    def scale(self, value: float) -> None:
        self._scale = checked_scale(value)

    def set_params(self, values: Mapping[str, Any]) -> list[str]:
        """Validate and set parameters; returns warnings for clamped values."""
        return self.params.update(values)

    @property
    def profile(self) -> bool:
        """When true, every pass is timed with GL timer queries (see `pass_times_ms`)."""
        return self.graph.profile

    @profile.setter
    def profile(self, on: bool) -> None:
        self.graph.profile = on
        if self._finish is not None:
            self._finish.profile = on
        self._steps.on = on

    def pass_times_ms(self) -> dict[str, float]:
        """GPU milliseconds per pass of the last frame (needs `profile = True`): the graph's
        passes, the steps around them (`upload`, `resize`, `enlarge` ...) and the draft
        finish's passes (`finish.NAME`), so that they sum to the frame (whose start the
        renderer marks: `begin_frame`)."""
        times = self._steps.ms()
        times.update((k, v / 1e6) for k, v in self.graph.pass_ns.items())
        if self._finish is not None and self._finished:
            times.update((f"finish.{k}", v / 1e6) for k, v in self._finish.pass_ns.items())
        return times

    @property
    def canvas(self) -> np.ndarray:
        """Where the paper sheet is: the 3x3 similarity from the last frame's pixels (as
        tracked) to paper coordinates; the identity after a cut. It follows the camera from
        frame to frame (`c = c @ motion.to_previous`, `MotionEstimator` at the style's
        motion width), so a render that starts mid-shot (a chunk of a long video) sets it to
        what a render from the shot's start would have reached. Set before the render's
        first frame (after `reset_history`): that frame, which has no motion to follow,
        keeps it instead of starting the sheet afresh."""
        return self._canvas.copy()

    @canvas.setter
    def canvas(self, value: np.ndarray) -> None:
        value = np.asarray(value, np.float64)
        if value.shape != (3, 3) or not np.all(np.isfinite(value)):
            raise AquarelleError("a canvas is a finite 3x3 matrix")
        self._canvas = value.copy()
        self._canvas_shown = value.copy()
        self._canvas_set = True

    def place_canvas(self, by_width: Mapping[int, np.ndarray]) -> None:
        """Set the paper's position from the one tracked at this style's flow width, if
        given (a chunk of a long video: see `canvas`)."""
        motion = self.style.motion
        if motion is not None and motion.max_width in by_width:
            self.canvas = np.asarray(by_width[motion.max_width], np.float64)

    def reset_history(self) -> None:
        """Forget temporal state (call on seeks, scene cuts and new sources)."""
        self.graph.reset_history()
        self.frame_index = 0
        self._search.reset()
        self._subject_fresh = True
        self._held_map = None
        self._canvas = np.eye(3)
        self._canvas_shown = np.eye(3)
        self._canvas_set = False

    # -- frames ---------------------------------------------------------------------------
    def begin_frame(self) -> None:
        """A new frame (or tile) begins: the steps timed from here are its own."""
        self._steps.start()
        self._finished = False

    def upload(self, frame: np.ndarray, order: str = "rgb") -> moderngl.Texture:
        """Copy a frame to the (reused) source texture."""
        arr = as_pixels(frame)
        h, w = arr.shape[:2]
        if w > self._max_size or h > self._max_size:
            raise FrameError(f"frame {w}x{h} exceeds the GPU's texture limit {self._max_size}")
        dtype = {np.dtype(np.uint8): "f1", np.dtype(np.uint16): "nu2"}.get(arr.dtype, "f4")
        key = (w, h, arr.shape[2], dtype)
        if self._source is None or self._source_key != key:
            if self._source is not None:
                self._source.release()
            self._source = self.ctx.texture((w, h), arr.shape[2], dtype=dtype, alignment=1)
            self._source_key = key
        # a fourth channel is read as 1 (as a 3-channel texture's alpha): 4 bytes a pixel
        # upload as they come, where 3 are repacked (llvmpipe: 3.3 against 0.9 ms at 1080p)
        swizzle = "BGR" if order == "bgr" else "RGB"
        self._source.swizzle = swizzle + ("1" if arr.shape[2] == 4 else "A")
        if self.upload_ring:
            if self._ring is None:
                self._ring = UploadRing(self.ctx)
            self._ring.write(self._source, arr)
        else:
            self._source.write(np.ascontiguousarray(arr), alignment=1)
        return self._source

    def render(self, frame: np.ndarray | moderngl.Texture, order: str = "rgb", *,
               full_size: tuple[int, int] | None = None,
               original: moderngl.Texture | None = None,
               repeat: bool = True, again: bool = False) -> moderngl.Texture:
        """Stylize a frame; returns the output texture (RGBA8, source size, sRGB values).

        The texture belongs to the pipeline and is overwritten by the next call. A chain
        that already shrank the frame to this style's work size says the size it stands for
        (`full_size`): the painting is enlarged to it as if the frame had come at that size.
        A chain also hands on the frame as it came in (`original`, for stereo depth). The
        frame's motion is the tracker's (the renderer gave it the frame). `repeat`: the
        frame is the last picture again (a still painted anew), not the next of a video (its
        subject then fades in or out). `again`: the very frame last painted, painted anew
        (with its own subject, found since): it reads the history it read then.
        """
        if again and self._before:
            # the same frame: its noise, history, paper sheet and subject fade as then
            self.frame_index -= 1
            for name, value in self._before.items():
                setattr(self, name, value)
        else:
            for name in _FRAME_STATE:  # (in place: no allocation a frame)
                self._before[name] = getattr(self, name)
        src = frame if isinstance(frame, moderngl.Texture) else self.upload(frame, order)
        w, h = full_size or src.size
        work = (max(1, round(w * self._scale)), max(1, round(h * self._scale)))
        draft = self.draft and work != (w, h)
        crop: tuple[int, int] | None = None
        if draft:
            small = src
            if src.size != work:
                with self._steps.step("resize"):  # no 8-bit rounding
                    small = self._resizer().draw(src, work, "stretch", dtype="f2")
            info = FrameInfo(source=small, work_size=work, seed=self.seed,
                             frame=self.frame_index, scale=1.0,
                             drafted_from=(w, h), full_targets=self.draft_borders,
                             learned=self._upscale_method != "bilinear")
        else:
            graph_src = src
            if full_size is None and work == src.size:
                a = self.grid_align()
                if w % a or h % a:  # painted on the style's grid, cropped back (grid_pad.py)
                    work = padded_size((w, h), a)
                    with self._steps.step("grid_pad"):
                        graph_src, crop = self._grid_pad().copy(src, work), (w, h)
            info = FrameInfo(source=graph_src, work_size=work, seed=self.seed,
                             frame=self.frame_index, scale=self._scale)
        if original is not None:
            info.externals[ORIGINAL] = original
        canvas: dict[str, Any] = {}
        if self.style.motion is not None:
            canvas = self._track_motion(info, (w, h), work[0] / w if draft else 1.0)
        if self.style.subject is not None:
            cover = info.work_size if crop is not None else (w, h)  # picture px
            subject = self._frame_subject()
            # with or without a face: a blocky webcam's wall is smoothed as its face is, a
            # film's bars are left bare
            self._blocks = subject.blocks if subject is not None else NO_GRID
            self._content = subject.content if subject is not None else None
            arr = self._subject_map(subject, cover)
            share = None
            if arr is not None and subject is not None:  # (a map fading out keeps these)
                self._face_px, self._light = subject.face_size, _light(subject)
                self._skin = subject.skin
                self._heads, self._lifts = _heads(subject), _lifts(subject)
                self._sharp = subject.sharpness
                self._exposure = subject.exposure
                share = subject_portrait_share(arr, subject, cover)
            # a video's next frame that follows the last (not a cut: motion was found)
            follows = (again or not repeat) and info.history
            # eased while a figure stays in view; one coming into view fades in whole
            shown = follows and not self._subject_fresh and self._subject_weight > 0.0
            arr = self._faded(arr, follows)
            self._follow_portrait(share, shown)
            self._give_subject(info, arr, info.source.size[0] / cover[0], held=shown)
        info.keep_history = info.keep_history and self.keep_history  # a still keeps none
        self.graph.lean = not self.keep_history  # ... and releases what it is done with
        if self.params.revision != self._revision:
            # New parameter values: what the previous frame left behind was made with the old
            # ones; blending it in would make the picture lag behind the sliders.
            info.history = False
            self._revision = self.params.revision
        info.again = again
        values = self.params.values()
        finish = self._finish if self.draft_finish else None
        if draft and finish is not None:
            values = {**values, **self._draft_off}
        self.graph.run(info, values)
        self.frame_index += 1
        out = self.graph.output()
        if not draft:
            if crop is None:
                return out
            with self._steps.step("grid_crop"):
                return self._grid_pad().copy(out, crop)
        size = self.output_size((w, h))
        if finish is None:
            with self._steps.step("enlarge"):
                return self._enlarger().upscale(out, size)
        # The finish may enlarge the small picture itself, in its one full-size pass.
        itself = self.style.draft_finish_enlarges == self._upscale_method
        big = out
        if not itself:
            with self._steps.step("enlarge"):
                big = self._enlarger().upscale(out, size)
        self._finish_params.update({k: v for k, v in self.params.values().items()
                                    if k in self._finish_params})
        finish.run(FrameInfo(source=big, work_size=size, seed=self.seed,
                             frame=self.frame_index, scale=1.0, uniforms=canvas,
                             keep_history=False), self._finish_params.values())
        self._finished = True
        return finish.output()

    def render_tile(self, frame: np.ndarray, tile: TileView,
                    order: str = "rgb") -> moderngl.Texture | None:
        """One run over one tile of a big still (engine/tiles.py: its passes, the regions
        they need, windows onto the whole picture's targets), at scale 1 and without
        history: each tile is a still of its own. The style's output, when this run made it.
        """
        if self._scale != 1.0:
            raise AquarelleError("a still is rendered in tiles at scale 1 only")
        self.reset_history()  # no motion from the last tile, the paper where a still has it
        self.begin_frame()
        with self._steps.step("upload"):
            src = self.upload(frame, order)
        info = FrameInfo(source=src, work_size=src.size, seed=self.seed, frame=0, scale=1.0,
                         tile=tile)
        if self.style.subject is not None:
            whole, part = self._still, None
            if whole is not None:
                (ox, oy), (tw, th) = tile.origin, src.size
                grid = map_grid((tw, th), map_step(tile.whole_size))
                part = map_region(whole, tile.whole_size, (ox, oy, ox + tw, oy + th), grid)
            self._subject_weight = 1.0
            self._give_subject(info, part)
        self.tracker.next_frame(None)
        if self.style.motion is not None:
            self._track_motion(info, src.size)
        info.history = info.keep_history = False
        self.graph.run(info, self.params.values())
        return self.graph.output() if self.graph.has(self.style.output) else None

    # -- the subject ----------------------------------------------------------------------
    @property
    def wants_subject(self) -> bool:
        """Whether this style paints with a subject map now (its switch on)."""
        return self.style.subject is not None and bool(self.params[self.style.subject.enable])

    def set_subject(self, subject: Subject | None) -> None:
        """The subject of the frames rendered from now on."""
        self._given = subject

    def find_subject(self, frame: np.ndarray, order: str, repeat: bool) -> Subject | None:
        """The subject of the next frame in a sequence (faces followed from the last
        frame's); a `repeat` (the same picture again, a still painted with other values)
        keeps the last one found. None for a frame too small to hold a face."""
        return self._search.find(frame, order, self.frame_index, repeat)

    def prepare_still(self, subject: Subject | None, size: tuple[int, int]) -> None:
        """Before a big still's tiles (render_tile): its subject, found on the whole picture,
        mapped over `size` (the picture padded to the style's grid)."""
        self._still = self._subject_map(subject, size) if self.wants_subject else None
        self._portrait = subject_portrait_share(self._still, subject, size) \
            if self._still is not None and subject is not None else 0.0
        self._face_px = subject.face_size if self._still is not None and subject else 0.0
        self._heads = _heads(subject if self._still is not None else None)
        self._lifts = _lifts(subject if self._still is not None else None)
        self._light = _light(subject) if self._still is not None and subject else (0.0, 0.0)
        self._skin = subject.skin if self._still is not None and subject else None
        self._content = subject.content if subject is not None else None
        self._sharp = subject.sharpness if self._still is not None and subject else 0.0
        self._exposure = subject.exposure if self._still is not None and subject else 1.0
        # not deblocked: the tiles' plan leaves the deblock passes out (their reach and
        # memory), and at a size that needs tiles a block is a reference px or less
        self._blocks = NO_GRID

    def _frame_subject(self) -> Subject | None:
        subject = self._given if self.wants_subject else None
        self.last_subject = subject if subject is not None and subject.faces else None
        return subject

    @staticmethod
    def _subject_map(subject: Subject | None, picture: tuple[int, int]) -> np.ndarray | None:
        """The map of a picture of `picture` px where a face was found, else None."""
        return subject_map(subject, picture) if subject is not None and subject.faces else None

    def _faded(self, arr: np.ndarray | None, follows: bool) -> np.ndarray | None:
        """The subject fades in and out over SUBJECT_FADE_FRAMES frames of a video that
        `follows` (a face found or lost must not switch the look in one frame); at once on a
        still, after a cut, or when the same picture is painted again. Fading out paints the
        last map."""
        target = 1.0 if arr is not None else 0.0
        if self._subject_fresh or not follows:
            self._subject_weight = target
        else:
            step = 1.0 / SUBJECT_FADE_FRAMES
            self._subject_weight = min(max(target, self._subject_weight - step),
                                       self._subject_weight + step)
        self._subject_fresh = False
        held = self._held_map if follows else None
        if arr is not None:
            self._held_map = arr
        elif self._subject_weight > 0.0 and held is not None:
            return held
        return arr

    def _follow_portrait(self, share: float | None, eased: bool) -> None:
        """The portrait share (u_portrait) of a frame where a face was found (None: none,
        the last share kept while the map fades out), `eased` while a figure stays in view
        along a video (the person mask's outline jitters from frame to frame)."""
        if share is not None:
            self._portrait = self._portrait + PORTRAIT_EASE * (share - self._portrait) \
                if eased else share

    def _give_subject(self, info: FrameInfo, arr: np.ndarray | None,
                      px: float = 1.0, held: bool = False) -> None:
        """A subject map (None: nothing found) as the style's external input, at the
        subject's weight (`u_subject_weight`); the faces' size and place in the graph's
        source px, `px` of a picture px (a draft paints the picture shrunk). `held`: the
        frame before this one (that it follows) had a subject too (`u_subject_held`, the
        `subject_held` flag: what is carried along a video from frames without one is not
        blended into the figure)."""
        assert self.style.subject is not None
        found = arr is not None and self._subject_weight > 0.0
        if arr is None:
            arr = np.zeros((1, 1, 4), np.float32)
        h, w = arr.shape[:2]
        tex = self._subject_tex
        if tex is None or tex.size != (w, h):
            if tex is not None:
                tex.release()
            tex = self._subject_tex = self.ctx.texture((w, h), 4, dtype="f4")
            tex.repeat_x = tex.repeat_y = False
        tex.write(np.ascontiguousarray(arr))
        info.externals[self.style.subject.input] = tex
        info.uniforms["u_subject"] = int(found)
        info.uniforms["u_subject_held"] = int(found and held)
        info.uniforms["u_subject_weight"] = float(self._subject_weight if found else 0.0)
        info.uniforms["u_face_size"] = float(self._face_px * px if found else 0.0)
        info.uniforms["u_heads"] = [tuple(v * px for v in h) if found else (0.0,) * 4
                                    for h in self._heads]
        info.uniforms["u_portrait"] = float(self._portrait if found else 0.0)
        info.uniforms["u_light"] = (self._light[0], self._light[1] * px) if found \
            else (0.0, 0.0)
        info.uniforms["u_face_sharp"] = float(self._sharp if found else 0.0)
        # the exposure key where a face is found (a night scene without one may be meant
        # dark), fading in and out with the subject (in stops: a face found or lost along a
        # video does not switch the picture's exposure in one frame); and each head's
        # shadow key (engine/face_shade.py), alike
        key = self.style.subject.exposure
        keyed = found and (key is None or bool(self.params[key]))
        gain = self._exposure ** self._subject_weight if keyed else 1.0
        lifts = [v ** self._subject_weight if keyed else 1.0 for v in self._lifts]
        # the main face's own skin (CIELAB; .w 0: not measured), as its shadow key lays it
        info.uniforms["u_face_skin"] = (*_lifted_skin(self._skin, lifts[0]), 1.0) \
            if found and self._skin is not None else (0.0, 0.0, 0.0, 0.0)
        # the picture between a film's bars (x0, y0, x1, y1; all 0: no bars), face or none
        info.uniforms["u_content"] = (0.0,) * 4 if self._content is None \
            else tuple(v * px for v in self._content)
        info.uniforms["u_key_gain"] = float(gain)
        info.uniforms["u_head_lift"] = [float(v) for v in lifts]
        info.uniforms["u_exposed"] = int(max(gain, *lifts) > 1.0)  # the `exposed` flag
        info.uniforms.update(grid_uniforms(self._blocks, px))  # the `blocky` flag

    @property
    def upscale_method(self) -> str:
        """How a picture painted below full size is enlarged: an upscale style method
        ("learned", "easu", "bicubic"; the style's draft says which) or "bilinear" (plain,
        for comparisons; its abstraction's sub-pixels bilinear too)."""
        return self._upscale_method

    @upscale_method.setter
    def upscale_method(self, method: str) -> None:
        if method != self._upscale_method and self._upscaler is not None:
            self._upscaler.release()
            self._upscaler = None
        self._upscale_method = method

    def output_size(self, size: tuple[int, int]) -> tuple[int, int]:
        """The size of the picture `render` returns for a frame of `size` (w, h): the
        frame's own for most styles, larger for an upscaler."""
        t = self.style.targets[self.style.output]
        w, h = size
        work = max(1, round(w * self._scale)), max(1, round(h * self._scale))
        # A draft is enlarged back to the frame's size; without drafting, an output that
        # follows the work size stays at it.
        if t.relative_to == "work" and not (self.draft and work != (w, h)):
            w, h = work
        kx, ky = t.factors(self.params.values())
        return max(1, round(w * kx)), max(1, round(h * ky))

    def output_alpha(self, alpha: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """A still's alpha (its input's size) laid out as this style lays out the picture
        at `size` (`output_size`): resized into each of the output's views (the style's
        `views`: a stereo pair side by side or top-bottom), from the input's first view."""
        values = self.params.values()
        nx, ny = self.style.view_grid("input", values)
        h, w = alpha.shape[:2]
        alpha = alpha[:max(1, h // ny), :max(1, w // nx)]
        nx, ny = self.style.view_grid("output", values)
        w, h = size
        xs, ys = [i * w // nx for i in range(nx + 1)], [j * h // ny for j in range(ny + 1)]
        return np.vstack([np.hstack([_resized(alpha, (xs[i + 1] - xs[i], ys[j + 1] - ys[j]))
                                     for i in range(nx)]) for j in range(ny)])

    def grid_align(self) -> int:
        """The grid a frame's sides are padded to at scale 1 (engine/grid_pad.py), and a big
        still's tiles follow."""
        if self._align[0] != self.params.revision:
            self._align = (self.params.revision, grid_align(self.style, self.params.values()))
        return self._align[1]

    def _grid_pad(self) -> GridPad:
        if self._padder is None:
            self._padder = GridPad(self.ctx, self.graph.shader_root)
        return self._padder

    def _enlarger(self) -> Upscaler:
        if self._upscaler is None:
            self._upscaler = Upscaler(self.ctx, self._upscale_method)
        return self._upscaler

    def _resizer(self) -> FrameFitter:
        if self._fitter is None:
            self._fitter = FrameFitter(self.ctx)
        return self._fitter

    def _track_motion(self, info: FrameInfo, size: tuple[int, int],
                      work_scale: float = 1.0) -> dict[str, Any]:
        """Give the graph the flow and the paper sheet's transform; returns the canvas
        uniforms of the frame at `size` (its input's, for the draft finish).

        Without motion (first frame, a cut, temporal features off, or a texture given
        instead of an array) the graph renders without history, exactly like a still image.
        """
        assert self.style.motion is not None
        enabled = bool(self.params[self.style.motion.enable])
        info.keep_history = enabled
        motion = self.tracker.motion(self.style.motion.max_width) if enabled else None
        frame = self.tracker.frame_size
        k = size[0] / frame[0] if frame is not None else 1.0
        if motion is None:
            if not self._canvas_set:  # a cut, or the start: a fresh sheet
                self._canvas = np.eye(3)
            self._canvas_shown = self._canvas.copy()
            info.history = False
            flow = np.zeros((1, 1, 3), np.float32)
            info.uniforms["u_motion"] = (1.0, 0.0, 0.0, 0.0)
        else:
            self._canvas = self._canvas @ motion.to_previous
            # the flow texture's .z: how far the history it warps can be trusted
            flow = np.dstack([motion.flow_uv, motion.confidence])
            still = STILL_PX * frame[0] / flow.shape[1]  # in this frame's px
            if corner_shift(self._canvas, self._canvas_shown, frame) > still:
                self._canvas_shown = self._canvas.copy()
            # The camera's motion this frame (current pixel -> previous, this frame's px):
            # what the flow would be without parallax (stereo depth from motion).
            m = _rescaled(motion.to_previous, k * work_scale)
            info.uniforms["u_motion"] = (float(m[0, 0]), float(m[1, 0]), float(m[0, 2]),
                                         float(m[1, 2]))
        self._canvas_set = False
        fh, fw = flow.shape[:2]
        if self._flow is None or self._flow.size != (fw, fh):
            if self._flow is not None:
                self._flow.release()
            self._flow = self.ctx.texture((fw, fh), 3, dtype="f4")
            self._flow.repeat_x = self._flow.repeat_y = False
        self._flow.write(np.ascontiguousarray(flow, np.float32))
        info.externals[self.style.motion.input] = self._flow
        if self.graph.uses_uniform("u_flow_range"):
            # how fast things move once the camera's zoom and roll are taken out (a zoomed
            # or rotated flat picture has no depth to show; a sideways move keeps its
            # parallax): 5th and 95th percentile, in the graph's pixels. Depth from motion
            # scales its parallax between them.
            w, h = info.work_size
            a, b, _, _ = info.uniforms["u_motion"]
            fy, fx = np.mgrid[0:fh, 0:fw].astype(np.float32)
            x, y = (fx + 0.5) * (w / fw) - w / 2, (fy + 0.5) * (h / fh) - h / 2
            rx = flow[..., 0] * w - ((a - 1) * x - b * y)
            ry = flow[..., 1] * h - (b * x + (a - 1) * y)
            lo, hi = np.percentile(np.hypot(rx, ry), (5.0, 95.0))
            info.uniforms["u_flow_range"] = (float(lo), float(hi))
        # The canvas is kept in the tracked frame's pixels; this style may see the picture at
        # another size (after an upscaler in a chain, or drafted smaller): same sheet, its px.
        info.uniforms.update(self._canvas_uniforms(_rescaled(self._canvas_shown,
                                                             k * work_scale)))
        return self._canvas_uniforms(_rescaled(self._canvas_shown, k))

    @staticmethod
    def _canvas_uniforms(c: np.ndarray) -> dict[str, Any]:
        # The similarity as (a, b, tx, ty): canvas = (a x - b y + tx, b x + a y + ty).
        return {"u_canvas": (float(c[0, 0]), float(c[1, 0]), float(c[0, 2]), float(c[1, 2])),
                "u_paper_sheets": paper_sheets(math.hypot(c[0, 0], c[1, 0]))}

    def motion_widths(self) -> frozenset[int]:
        """The flow widths this frame's styles ask motion at (none when temporal features
        are off): what a MotionAhead estimates for them."""
        m = self.style.motion
        return frozenset({m.max_width}) if m is not None and self.params[m.enable] \
            else frozenset()

    def read(self, tex: moderngl.Texture, order: str = "rgb", *,
             low_memory: bool = False, into: np.ndarray | None = None) -> np.ndarray:
        """Read an output texture back as an (H, W, 3) array: uint8 from an 8-bit texture,
        uint16 from a 16-bit one (a deep pipeline's). `low_memory`: straight into the array
        (`into`, when it is a contiguous uint8 array of that shape), without a 4-channel copy
        first: a big still's peak, about 2x slower on llvmpipe."""
        if low_memory and tex.components == 4 and tex.dtype == "f1":
            shape = (tex.height, tex.width, 3)
            fits = into is not None and into.shape == shape and into.dtype == np.uint8 \
                and into.flags.c_contiguous and into.flags.writeable
            out = into if fits else np.empty(shape, np.uint8)
            fbo = self.ctx.framebuffer(color_attachments=[tex])
            try:
                fbo.read_into(out, components=3, alignment=1)
            finally:
                release_framebuffer(fbo)
            return cv2.cvtColor(out, cv2.COLOR_RGB2BGR, dst=out) if order == "bgr" else out
        data = tex.read(alignment=1)
        dtype = np.uint16 if tex.dtype == "nu2" else np.uint8
        out = np.frombuffer(data, dtype).reshape(tex.height, tex.width, tex.components)
        if tex.components == 4:
            # OpenCV's SIMD conversion: numpy's strided copy of 3 bytes out of 4 is 20x slower
            # (30 ms for a 4K frame, a quarter of the frame time on a GPU)
            return cv2.cvtColor(out, cv2.COLOR_RGBA2BGR if order == "bgr" else cv2.COLOR_RGBA2RGB)
        out = out[..., :3]
        return np.ascontiguousarray(out[..., ::-1] if order == "bgr" else out)

    def trim(self) -> None:
        """Release the textures only the next frame would reuse (after a still: the
        readback and the encoder then have that memory)."""
        self.graph.trim()
        return_freed_memory(self.ctx)

    @property
    def inspect(self) -> bool:
        """Whether every intermediate target is kept after a frame (tests, debugging)."""
        return self.graph.inspect

    @inspect.setter
    def inspect(self, on: bool) -> None:
        self.graph.inspect = on

    def keep_targets(self, names: Iterable[str]) -> None:
        """Intermediate targets to keep after each frame for `target` (a debug view); the
        others share textures and are gone once the frame is made."""
        self.graph.keep(names)

    def target(self, name: str) -> moderngl.Texture:
        """An intermediate target of the last frame (for debug views and tests): the style's
        output, history, or one kept (`keep_targets`, or every one with `graph.inspect`)."""
        if not self.graph.has(name):
            raise AquarelleError(f"target {name!r} was not kept from the last frame")
        return self.graph.output(name)

    def target_drawn(self, name: str) -> bool:
        """Whether the last frame drew target `name` (its passes ran), not cleared it."""
        return self.graph.drawn(name)

    def read_target(self, name: str) -> np.ndarray:
        """An intermediate target as float32 (H, W, C) (for tests and debugging)."""
        tex = self.target(name)
        dtype = {"f1": np.uint8, "nu2": np.uint16, "f2": np.float16, "f4": np.float32}[tex.dtype]
        data = np.frombuffer(tex.read(alignment=1), dtype)
        arr = data.reshape(tex.height, tex.width, tex.components).astype(np.float32)
        scale = {"f1": 255.0, "nu2": 65535.0}.get(tex.dtype, 1.0)
        return arr / scale if scale != 1.0 else arr

    def texture_pools(self) -> list[TargetPool]:
        """The pools that hold this pipeline's textures: its style's graph, and the draft's
        finish and the learned enlargement where they were made."""
        graphs = [self.graph, self._finish,
                  self._upscaler.graph if self._upscaler is not None else None]
        return [g.pool for g in graphs if g is not None]

    def release(self) -> None:
        """Release every GL object the pipeline owns."""
        self.graph.release()
        self._steps.release()
        if self._fitter is not None:
            self._fitter.release()
            self._fitter = None
        if self._upscaler is not None:
            self._upscaler.release()
            self._upscaler = None
        if self._padder is not None:
            self._padder.release()
            self._padder = None
        if self._finish is not None:
            self._finish.release()
            self._finish = None
        if self._flow is not None:
            self._flow.release()
            self._flow = None
        if self._ring is not None:
            self._ring.release()
            self._ring = None
        if self._source is not None:
            self._source.release()
            self._source = None
        if self._subject_tex is not None:
            self._subject_tex.release()
            self._subject_tex = None
        # the subject models (cv2.dnn nets) go with the pipeline, not at interpreter exit
        self._search.release()
        self._held_map = None

    def __enter__(self) -> StyleStage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _rescaled(c: np.ndarray, k: float) -> np.ndarray:
    """A similarity in pixels of a frame scaled by `k`."""
    if k == 1.0:
        return c
    s = np.diag([k, k, 1.0])
    return s @ c @ np.linalg.inv(s)


def _light(subject: Subject) -> tuple[float, float]:
    """The subject's light (-1 from the left .. 1 from the right) and the x of its main
    face's centre (picture px): where the vignette lays the background (u_light)."""
    if not subject.faces:
        return 0.0, 0.0
    x0, _, x1, _ = max(subject.faces, key=lambda f: f.size).box
    return float(subject.light), float(0.5 * (x0 + x1))


def _heads(subject: Subject | None) -> list[tuple[float, float, float, float]]:
    """The HEADS largest faces' boxes, each its centre and half sides (picture px), zeros
    past the faces found: where the shaders lay the hair round a face (u_heads,
    watercolor/figure_rest.glsl)."""
    faces = [subject.faces[i] for i in _largest(subject)] if subject else []
    boxes = [(0.5 * (x0 + x1), 0.5 * (y0 + y1), 0.5 * (x1 - x0), 0.5 * (y1 - y0))
             for x0, y0, x1, y1 in (f.box for f in faces)]
    return boxes + [(0.0, 0.0, 0.0, 0.0)] * (HEADS - len(boxes))


def _lifts(subject: Subject | None) -> list[float]:
    """The shadow keys (engine/face_shade.py) of the faces _heads gives, in its order; 1
    past the faces found and for a face not measured."""
    if subject is None:
        return [1.0] * HEADS
    shades = subject.shades or (1.0,) * len(subject.faces)
    order = _largest(subject)
    return [float(shades[i]) for i in order] + [1.0] * (HEADS - len(order))


def _largest(subject: Subject) -> list[int]:
    """The HEADS largest of `subject`'s faces, their indices, largest first (u_heads' order,
    which every per-head uniform follows)."""
    return sorted(range(len(subject.faces)), key=lambda i: -subject.faces[i].size)[:HEADS]


def _lifted_skin(skin: tuple[float, float, float], gain: float
                 ) -> tuple[float, float, float]:
    """A skin colour (CIELAB) as a gain in linear light (a shadow key) lays it: its
    lightness raised, its hue kept."""
    if gain <= 1.0:
        return skin
    L, a, b = skin
    # above CIELAB's linear toe, a gain g on X, Y and Z takes each cube root by g^(1/3)
    c = min(gain, ((116.0 / (L + 16.0)) ** 3)) ** (1.0 / 3.0)  # (Y brought to 1 at most)
    return (L + 16.0) * c - 16.0, a * c, b * c


def paper_sheets(zoom: float) -> int:
    """Sheets of paper the zoom `zoom` (the canvas's scale) draws: two where paper.frag
    cross-fades the octaves (FADE_MARGIN there), else one. Two near the fade's ends too:
    the shader's float rounding decides there, and with two it still draws one if so."""
    level = -math.log2(max(zoom, 1e-6))
    f = (level - math.floor(level) - PAPER_FADE_MARGIN) / (1.0 - 2.0 * PAPER_FADE_MARGIN)
    return 2 if -1e-4 < f < 1.0 + 1e-4 else 1


def _resized(plane: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """A plane at `size` (w, h): area averaging down, cubic up; empty sides stay empty."""
    h, w = plane.shape[:2]
    if (w, h) == size or 0 in size:
        return plane[:size[1], :size[0]]
    interp = cv2.INTER_AREA if size[0] * size[1] < w * h else cv2.INTER_CUBIC
    return cv2.resize(plane, size, interpolation=interp)
