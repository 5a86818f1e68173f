"""The public face of the engine: frames in, stylized textures or arrays out, for one style
or a chain of them (`denoise+enhance+watercolor+upscale`).

Each style is a stage (engine/style_stage.py) with its own targets, history and temporal
state; the stages hand textures on. The renderer feeds the frames: it estimates the motion
between them once (shared by every stage), finds the subject once for the styles that paint
with one, and shrinks the frame once for a chain that paints below full size. Sizes may change
along the chain (an upscaler).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import moderngl
import numpy as np

from .chain_spec import BYPASS, AnyStyle, ChainSpec, load_chain, param_set, specs_of
from .errors import AquarelleError
from .fit import FrameFitter
from .frame_arrays import SamePicture
from .frame_timer import StepTimes
from .motion import FrameMotion, MotionTracker
from .style import StyleSpec
from .style_stage import MIN_SCALE, StyleStage, checked_scale
from .subject import Subject
from .subject_ahead import FrameSubject
from .targets import TargetPool
from .upscaler import FAST_METHOD

# A video's frames are painted at most this many lines (their short side) by a style with a
# draft finish, which lays the paper, its grain and dither at the frame's full size: the look
# follows a 720-line reference frame, so a 4K frame painted at 1080 lines keeps its washes,
# edges and accents (blind 100% crops: BENCHMARKS, "Video painted at 1080 lines") at a third
# of the cost. Stills are painted at their own size.
VIDEO_LINES = 1080
MIN_VIDEO_LINES, MAX_VIDEO_LINES = 120, 4320  # a limit's range (0: none)
# The noise seed's range: the shaders take 31 bits of it (a larger seed would repeat one)
MAX_SEED = 2**31 - 1


class _StagesSwitch:
    """A renderer setting: set on every stage, read from the last."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, renderer: Renderer | None, owner: type | None = None) -> Any:
        if renderer is None:
            return self
        return getattr(renderer.stages[-1], self.name)

    def __set__(self, renderer: Renderer, value: Any) -> None:
        for stage in renderer.stages:
            setattr(stage, self.name, value)


class Renderer:
    """Stylizes frames with a style or a chain of styles on one GL context.

    Call only from the thread that owns the context. Frames are uint8 (or uint16, float32 in
    [0,1]) numpy arrays of shape (H, W), (H, W, 3) or (H, W, 4) in RGB or BGR order, or an
    RGB(A) texture already on the GPU. Same input, parameters and seed give the same output.

    A style's parameters keep their names (`dilution`); a chain's are qualified
    (`watercolor.dilution`; unambiguous bare names work) and `STYLE.bypass` leaves a style
    out. The processing scale applies to the styles that paint below full size (a `draft`
    section) and the filters before them (see `render`); filters after the painting run at
    its output's size. In a chain without a painting style it applies to each style on its
    own, but a super-resolution (`scaled_styles`). `deep`: 16-bit targets and readback (for
    10-bit and 16-bit sources).
    """

    def __init__(self, ctx: moderngl.Context, style: AnyStyle | str = "watercolor", *,
                 seed: int = 0, scale: float = 1.0, shader_root: Path | None = None,
                 deep: bool = False) -> None:
        self.ctx = ctx
        self.style: AnyStyle = load_chain(style) if isinstance(style, str) else style
        self.deep = deep
        self._chain = isinstance(self.style, ChainSpec)
        specs = specs_of(self.style)
        self.tracker = MotionTracker()
        self._fitter: FrameFitter | None = None
        self._steps = StepTimes(ctx)  # the upload and a chain's shrink, while profiled
        self._ran: list[tuple[str, StyleStage]] = []  # the styles the last frame ran
        self._same = SamePicture()  # whether an array frame repeats the last
        self.stages: list[StyleStage] = []
        try:
            for s in specs:
                self.stages.append(StyleStage(ctx, s, tracker=self.tracker, seed=seed,
                                              shader_root=shader_root, deep=deep))
        except Exception:
            self.release()
            raise
        # a style's own values; a chain's qualified, set on its stages before each frame
        self.params = param_set(self.style) if self._chain else self.stages[0].params
        self.names = [s.name for s in specs]
        self._paints = any(s.has_draft for s in specs)
        self._scaled = scaled_styles(specs)
        self._seed = seed
        self._scale = 1.0
        self._max_lines = 0
        self._work_scale = -1.0  # the stages' scale now (see `work_scale`)
        self.scale = scale
        self._applied = -1
        self._bypassed = {n: False for n in self.names}
        self._input: moderngl.Texture | None = None
        # The subject (faces, the person), found once for the styles that paint with it:
        # "detect": in each array frame `render` gets (exports, the command line: every
        # frame, in order); "given": what `set_subject` last handed over (the app's worker,
        # off this thread).
        self.subject_feed = "detect"
        self._given: Subject | None = None
        self._subject_stage = next((s for s in self.stages if s.style.subject is not None),
                                   None)
        self.frame_index = 0

    # -- settings -------------------------------------------------------------------------
    @property
    def seed(self) -> int:
        return self._seed

    @seed.setter
    def seed(self, value: int) -> None:
        self._seed = value
        for stage in self.stages:
            stage.seed = value

    @property
    def scale(self) -> float:
        """Processing scale of the styles that paint (see the class)."""
        return self._scale

    @scale.setter
    def scale(self, value: float) -> None:
        self._scale = checked_scale(value)
        self._set_work_scale(self._scale)  # each frame then limits it (work_scale)

    @property
    def max_lines(self) -> int:
        """At most how many lines (a frame's short side) a painting style paints, its draft
        finish enlarging it (a video's: VIDEO_LINES); 0: the frame's own (stills)."""
        return self._max_lines

    @max_lines.setter
    def max_lines(self, lines: int) -> None:
        if lines < 0:
            raise AquarelleError(f"max_lines must be 0 (no limit) or more, got {lines}")
        self._max_lines = int(lines)

    def work_scale(self, size: tuple[int, int]) -> float:
        """The processing scale a frame of `size` (w, h) is painted at: `scale`, and where a
        style paints with a draft finish at most what brings its short side to `max_lines`."""
        if not any(self._scaled):  # (a lone upscale: at full scale whatever is asked)
            return 1.0
        lines = min(size)
        if self._max_lines and self._paints and lines > self._max_lines:
            return max(MIN_SCALE, min(self._scale, self._max_lines / lines))
        return self._scale

    def work_lines(self, size: tuple[int, int]) -> int:
        """The lines (short side) a frame of `size` is painted at (see `work_scale`)."""
        return round(min(size) * self.work_scale(size))

    def _set_work_scale(self, value: float) -> None:
        if value != self._work_scale:
            self._work_scale = value
            for stage, scaled in zip(self.stages, self._scaled, strict=True):
                stage.scale = value if scaled else 1.0

    def set_params(self, values: Mapping[str, Any]) -> list[str]:
        """Validate and set parameters; returns warnings for clamped values."""
        return self.params.update(values)

    def _apply_params(self) -> None:
        if not self._chain or self._applied == self.params.revision:
            return
        values = self.params.values()
        for name, stage in zip(self.names, self.stages, strict=True):
            prefix = name + "."
            bypass = bool(values[prefix + BYPASS])
            if self._bypassed[name] and not bypass:
                stage.reset_history()  # it missed frames: its past is not the last frame's
            self._bypassed[name] = bypass
            stage.params.update({k[len(prefix):]: v for k, v in values.items()
                                 if k.startswith(prefix) and k != prefix + BYPASS})
        self._applied = self.params.revision

    def _active(self) -> list[tuple[str, StyleStage]]:
        self._apply_params()
        return [(n, s) for n, s in zip(self.names, self.stages, strict=True)
                if not self._bypassed[n]]

    # The draft switches (see StyleStage): every stage gets the renderer's.
    draft = _StagesSwitch()
    draft_finish = _StagesSwitch()
    draft_borders = _StagesSwitch()
    upscale_method = _StagesSwitch()
    upload_ring = _StagesSwitch()

    @property
    def profile(self) -> bool:
        """When true, every pass is timed with GL timer queries (see `pass_times_ms`)."""
        return self.stages[0].profile

    @profile.setter
    def profile(self, on: bool) -> None:
        for stage in self.stages:
            stage.profile = on
        self._steps.on = on

    def pass_times_ms(self) -> dict[str, float]:
        """GPU milliseconds per pass of the last frame (needs `profile = True`); a chain's
        as `style.pass`; with the steps around the passes (see `StyleStage.pass_times_ms`)."""
        times = self._steps.ms()
        if not self._chain:
            times.update(self.stages[0].pass_times_ms())
            return times
        times.update((f"{n}.{k}", v) for n, s in self._ran  # (not a bypassed style's)
                     for k, v in s.pass_times_ms().items())
        return times

    @property
    def canvas(self) -> np.ndarray:
        """Where the paper sheet is (see `StyleStage.canvas`): every style follows the same
        camera from the same frames, so one matrix stands for all."""
        return self.stages[0].canvas

    @canvas.setter
    def canvas(self, value: np.ndarray) -> None:
        for stage in self.stages:
            stage.canvas = value

    def place_canvas(self, by_width: Mapping[int, np.ndarray]) -> None:
        """Each style's paper position from the one tracked at its flow width."""
        for stage in self.stages:
            stage.place_canvas(by_width)

    @property
    def frame_index(self) -> int:
        """The frame number the next render paints (noise is seeded with it); set, it sets
        every style's (a chunk of a long video starting mid-way)."""
        return self._frame_index

    @frame_index.setter
    def frame_index(self, index: int) -> None:
        self._frame_index = index
        for stage in self.stages:
            stage.frame_index = index

    def reset_history(self) -> None:
        """Forget temporal state (call on seeks, scene cuts and new sources)."""
        self.tracker.reset()
        for stage in self.stages:
            stage.reset_history()
        self._same.reset()
        self.frame_index = 0

    # -- frames ---------------------------------------------------------------------------
    def upload(self, frame: np.ndarray, order: str = "rgb") -> moderngl.Texture:
        """Copy a frame to the (reused) source texture."""
        with self._steps.step("upload"):
            return self.stages[0].upload(frame, order)

    def render(self, frame: np.ndarray | moderngl.Texture, order: str = "rgb", *,
               motion: FrameMotion | None = None,
               subject: FrameSubject | None = None) -> moderngl.Texture:
        """Stylize a frame; returns the output texture (RGBA8, or 16-bit when deep; sRGB
        values), which belongs to the renderer and is overwritten by the next call.

        `motion`: the frame's motion, estimated ahead on another thread (MotionAhead or
        MotionFeed, at `motion_widths()`); else found here from the frame. `subject`: its
        subject, found ahead the same way (SubjectAhead); else as `subject_feed` says.
        Below scale 1 the filters before the (last) painting style run on the frame shrunk
        once to the painting's work size, which then enlarges its result to the frame's
        size: a live camera's clean-up costs as little as the painting.
        """
        again = frame is self._input  # the last frame, painted anew
        self._steps.start()
        for stage in self.stages:
            stage.begin_frame()
        tex = frame if isinstance(frame, moderngl.Texture) else self.upload(frame, order)
        self._input = tex
        scale = self.work_scale(tex.size)
        self._set_work_scale(scale)
        if again:
            self.tracker.same_frame()
        else:
            self.tracker.next_frame(_motion_frame(frame, order), motion)
        active = self._active()
        self._ran = active
        repeat = self._subject(frame, order, active, subject)
        painting = max((i for i, (n, _) in enumerate(active) if self._scaled[self.names.index(n)]
                        and self._paints), default=-1)
        full = None
        if painting > 0 and scale < 1.0 and active[painting][1].draft:
            full = tex.size
            work = (max(1, round(full[0] * scale)), max(1, round(full[1] * scale)))
            with self._steps.step("shrink"):
                tex = self._shrinker().draw(tex, work, "stretch", dtype="f2")
        original = self._input if self._chain else None
        for i, (_, stage) in enumerate(active):
            tex = stage.render(tex, full_size=full if i == painting else None,
                               original=original, repeat=repeat, again=again)
        self._frame_index += 1
        return tex

    def _subject(self, frame: np.ndarray | moderngl.Texture, order: str,
                 active: list[tuple[str, StyleStage]], ahead: FrameSubject | None) -> bool:
        """Hand the frame's subject to the styles that paint with one; returns whether the
        frame is the last picture again (a still painted anew, or a texture) rather than
        the next one of a video."""
        stage = self._subject_stage
        if stage is None:
            return True
        repeat = self._repeats(frame)
        subject = self._given
        if ahead is not None:
            subject = ahead.subject
        elif self.subject_feed == "detect":
            subject = stage.find_subject(frame, order, repeat) \
                if self._wants_subject(active) and isinstance(frame, np.ndarray) else None
        for s in self.stages:
            s.set_subject(subject)
        return repeat

    def _repeats(self, frame: np.ndarray | moderngl.Texture) -> bool:
        return self._same(frame) if isinstance(frame, np.ndarray) else True

    def set_subject(self, subject: Subject | None) -> None:
        """The subject of the frames rendered from now on (`subject_feed = "given"`)."""
        self._given = subject

    @property
    def has_subject_style(self) -> bool:
        """Whether a style of this renderer paints with a subject map (whether its switch
        is on now is the stage's `wants_subject`)."""
        return self._subject_stage is not None

    @property
    def wants_subject(self) -> bool:
        """Whether an active style paints with a subject now (its switch on): what a
        SubjectAhead finds for."""
        return self._wants_subject(self._active())

    def _wants_subject(self, active: list[tuple[str, StyleStage]]) -> bool:
        stage = self._subject_stage
        return stage is not None and stage.wants_subject and any(s is stage for _, s in active)

    @property
    def last_subject(self) -> Subject | None:
        """The last frame's subject, where a face was found."""
        return self._subject_stage.last_subject if self._subject_stage is not None else None

    def _shrinker(self) -> FrameFitter:
        if self._fitter is None:
            self._fitter = FrameFitter(self.ctx)
        return self._fitter

    def motion_widths(self) -> frozenset[int]:
        """The flow widths the active styles ask motion at (none when their temporal
        features are off): what a MotionAhead estimates for them."""
        return frozenset().union(*(stage.motion_widths() for _, stage in self._active()))

    def render_array(self, frame: np.ndarray, order: str = "rgb") -> np.ndarray:
        """Stylize a frame and read it back as an (H, W, 3) array in the same order (uint8;
        uint16 from a deep renderer)."""
        return self.read(self.render(frame, order), order)

    def read(self, tex: moderngl.Texture, order: str = "rgb", *,
             low_memory: bool = False, into: np.ndarray | None = None) -> np.ndarray:
        """Read an output texture back as an (H, W, 3) array (StyleStage.read)."""
        return self.stages[0].read(tex, order, low_memory=low_memory, into=into)

    def output_size(self, size: tuple[int, int]) -> tuple[int, int]:
        """The size of the picture `render` returns for a frame of `size` (w, h): the
        frame's own for most styles, larger after an upscaler."""
        for _, stage in self._active():
            size = stage.output_size(size)
        return size

    def output_alpha(self, alpha: np.ndarray) -> np.ndarray:
        """A still's alpha laid out as `render` lays out its picture: enlarged with an
        upscaler, once per view of a stereo pair (StyleStage.output_alpha)."""
        size = (alpha.shape[1], alpha.shape[0])
        for _, stage in self._active():
            out = stage.output_size(size)
            alpha = stage.output_alpha(alpha, out)
            size = out
        return alpha

    @property
    def input_texture(self) -> moderngl.Texture | None:
        """The frame the last render got, at its own size (the original, for display)."""
        return self._input

    # -- a big still in tiles (engine/tiles.py) -------------------------------------------
    @property
    def sole_stage(self) -> StyleStage | None:
        """The stage of a single style (what a big still is painted in tiles through);
        None for a chain."""
        return None if self._chain else self.stages[0]

    def prepare_still(self, frame: np.ndarray, size: tuple[int, int],
                      order: str = "rgb") -> StyleStage:
        """Before a big still's tiles: its subject, found on the whole picture (or the one
        given), mapped over `size` (the picture padded to the style's grid); returns the
        stage the tiles are painted through."""
        stage = self.sole_stage
        if stage is None:
            raise AquarelleError("a chain of styles is not rendered in tiles")
        subject = self._given
        if self.subject_feed == "detect" and stage.wants_subject:
            stage.reset_history()  # a fresh search, not faces followed from another picture
            self._same.reset()
            subject = stage.find_subject(frame, order, repeat=False)
        stage.prepare_still(subject, size)
        return stage

    # -- intermediate targets (debug views, tests) ----------------------------------------
    def _stage(self, name: str) -> tuple[StyleStage, str]:
        if not self._chain:
            return self.stages[0], name
        style, _, target = name.partition(".")
        if style not in self.names or not target:
            raise AquarelleError(f"no target {name!r} in the chain {self.style.name}")
        if self._bypassed[style]:
            raise AquarelleError(f"{name!r}: that style is bypassed")
        return self.stages[self.names.index(style)], target

    def target(self, name: str) -> moderngl.Texture:
        """An intermediate target of the last frame (a chain's named `style.target`): the
        output, history, or one kept (`keep_targets`, or every one with `inspect`)."""
        stage, target = self._stage(name)
        return stage.target(target)

    def target_drawn(self, name: str) -> bool:
        """Whether the last frame drew target `name` (a chain's `style.target`), rather than
        clearing it: its passes did not run (see StyleStage.target_drawn)."""
        stage, target = self._stage(name)
        return stage.target_drawn(target)

    def read_target(self, name: str) -> np.ndarray:
        """An intermediate target as float32 (H, W, C)."""
        stage, target = self._stage(name)
        return stage.read_target(target)

    def keep_targets(self, names: Iterable[str]) -> None:
        """Intermediate targets to keep after each frame for `target` (a debug view); the
        others share textures and are gone once the frame is made."""
        if not self._chain:
            self.stages[0].keep_targets(names)
            return
        wanted: dict[str, list[str]] = {}
        for name in names:
            style, _, target = name.partition(".")
            wanted.setdefault(style, []).append(target)
        for style, stage in zip(self.names, self.stages, strict=True):
            stage.keep_targets(wanted.get(style, ()))

    @property
    def inspect(self) -> bool:
        """Whether every style keeps all its intermediate targets after a frame."""
        return all(stage.inspect for stage in self.stages)

    @inspect.setter
    def inspect(self, on: bool) -> None:
        for stage in self.stages:
            stage.inspect = on

    # -- memory ---------------------------------------------------------------------------
    @property
    def keep_history(self) -> bool:
        """False: no frame follows (a still): no style keeps its history."""
        return self.stages[0].keep_history

    @keep_history.setter
    def keep_history(self, on: bool) -> None:
        for stage in self.stages:
            stage.keep_history = on

    def trim(self) -> None:
        """Release the textures only the next frame would reuse, in every style (after a
        still: the readback and the encoder then have that memory)."""
        for stage in self.stages:
            stage.trim()

    def texture_pools(self) -> list[TargetPool]:
        """The pools of every style's textures (see StyleStage.texture_pools)."""
        return [pool for stage in self.stages for pool in stage.texture_pools()]

    def release(self) -> None:
        """Release every GL object the renderer owns."""
        for stage in self.stages:
            stage.release()
        self._steps.release()
        if self._fitter is not None:
            self._fitter.release()
            self._fitter = None
        self.stages.clear()
        self._input = None
        self._same.reset()

    def __enter__(self) -> Renderer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def super_resolves(spec: StyleSpec) -> bool:
    """Whether a style enlarges the picture it is given by a factor (upscale's)."""
    t = spec.targets[spec.output]
    return t.scale_param is not None or t.scale > 1.0


def scaled_styles(specs: Sequence[StyleSpec]) -> list[bool]:
    """Which styles of a chain a processing scale below 1 paints smaller: those that paint
    (a `draft` section; the renderer shrinks the filters before them once), else each filter
    on its own, never a super-resolution: run on a picture shrunk by the scale, then
    enlarged back, the learned upscaler was blurrier than a bicubic resize of the same
    photo (--scale 0.5: 25.4 dB against the bicubic's 29.2 and its own 30.3 at full scale,
    trial X), so it runs at full scale."""
    drafts = [s.has_draft for s in specs]
    return drafts if any(drafts) else [not super_resolves(s) for s in specs]


def scale_applies(style: AnyStyle) -> bool:
    """Whether a processing scale paints any of `style`'s styles smaller (not a lone
    upscale: see `scaled_styles`)."""
    return any(scaled_styles(specs_of(style)))


def use_draft(renderer: Renderer, *, adapting: bool) -> None:
    """How a picture painted below full size is made: while live adaptive quality adapts,
    the cheapest draft (everything at the work size, no finish, the fast enlargement); else
    the style's own (full-quality subject map and tones, its finish and enlargement)."""
    renderer.upscale_method = FAST_METHOD if adapting else renderer.style.draft_upscale
    renderer.draft_finish = renderer.draft_borders = not adapting


def _motion_frame(frame: np.ndarray | moderngl.Texture, order: str) -> np.ndarray | None:
    """What motion is estimated from: the frame as an RGB or grey array (None for a
    texture)."""
    if not isinstance(frame, np.ndarray):
        return None
    if order != "bgr" or frame.ndim != 3:
        return frame
    if frame.dtype == np.uint8 and frame.shape[2] in (3, 4) and frame.flags.c_contiguous:
        # a webcam's BGR frame: motion needs only its grey, in one SIMD pass (a strided
        # numpy channel swap first would be 20x slower)
        return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY if frame.shape[2] == 3
                            else cv2.COLOR_BGRA2GRAY)
    # BGR(A) -> RGB: reverse the colour channels only, never bring alpha to the front
    return frame[..., 2::-1]
