"""Running a chain of styles: each style's pipeline hands its output texture to the next.

Every style keeps its own targets, history and temporal state; the motion between frames is
estimated once from the input and shared. Sizes may change along the chain (an upscaler).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import moderngl
import numpy as np

from .chain_spec import BYPASS, AnyStyle, ChainSpec, param_set
from .errors import AquarelleError
from .fit import FrameFitter
from .motion import FrameMotion, MotionTracker
from .pipeline import Pipeline, _motion_frame, checked_scale
from .subject import Subject
from .targets import TargetPool
from .upscaler import FAST_METHOD


class _StagesSwitch:
    """A pipeline setting of a chain: set on every stage, read from the last."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, chain: ChainPipeline | None, owner: type | None = None) -> Any:
        if chain is None:
            return self
        return getattr(chain.stages[-1], self.name)

    def __set__(self, chain: ChainPipeline, value: Any) -> None:
        for stage in chain.stages:
            setattr(stage, self.name, value)


class ChainPipeline:
    """Stylizes frames with a chain of styles; the same interface as `Pipeline`.

    Parameters are qualified (`watercolor.dilution`; unambiguous bare names work), and
    `STYLE.bypass` leaves a style out. The processing scale applies to the styles that
    paint below full size (a `draft` section) and the filters before them (see `render`);
    filters after the painting run at its output's size. In a chain without a painting
    style it applies to each style on its own.
    """

    def __init__(self, ctx: moderngl.Context, style: ChainSpec, *, seed: int = 0,
                 scale: float = 1.0, shader_root: Path | None = None,
                 deep: bool = False) -> None:
        self.ctx = ctx
        self.style = style
        self.deep = deep
        self.params = param_set(style)
        self.tracker = MotionTracker()
        self._fitter: FrameFitter | None = None
        self.stages: list[Pipeline] = []
        try:
            for s in style.styles:
                stage = Pipeline(ctx, s, seed=seed, shader_root=shader_root, deep=deep)
                stage.tracker = self.tracker
                stage.shared_tracker = True
                self.stages.append(stage)
        except Exception:
            self.release()
            raise
        self.names = [s.name for s in style.styles]
        self._scaled = [s.has_draft for s in style.styles]
        self._paints = any(self._scaled)  # else the scale applies to every style on its own
        if not self._paints:
            self._scaled = [True] * len(self._scaled)
        self._seed = seed
        self._scale = 1.0
        self.scale = scale
        self._applied = -1
        self._bypassed = {n: False for n in self.names}
        self._uploader = self.stages[0]
        self._input: moderngl.Texture | None = None
        # the subject, found once for the styles that want it (see Pipeline.subject_feed)
        self.subject_feed = "detect"
        self._given: Subject | None = None
        self._subject_stage = next((s for s in self.stages if s.style.subject is not None),
                                   None)
        for stage in self.stages:
            stage.subject_feed = "given"
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
        self._scale = value = checked_scale(value)
        for stage, scaled in zip(self.stages, self._scaled, strict=True):
            stage.scale = value if scaled else 1.0

    def set_params(self, values: Mapping[str, Any]) -> list[str]:
        """Validate and set parameters; returns warnings for clamped values."""
        return self.params.update(values)

    def _apply_params(self) -> None:
        if self._applied == self.params.revision:
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

    def _active(self) -> list[tuple[str, Pipeline]]:
        self._apply_params()
        return [(n, s) for n, s in zip(self.names, self.stages, strict=True)
                if not self._bypassed[n]]

    # The draft switches (see Pipeline): every stage gets the chain's.
    draft = _StagesSwitch()
    draft_finish = _StagesSwitch()
    draft_borders = _StagesSwitch()
    upscale_method = _StagesSwitch()

    @property
    def profile(self) -> bool:
        return self.stages[0].profile

    @profile.setter
    def profile(self, on: bool) -> None:
        for stage in self.stages:
            stage.profile = on

    def pass_times_ms(self) -> dict[str, float]:
        """GPU milliseconds per pass of the last frame, as `style.pass`."""
        return {f"{n}.{k}": v for n, s in zip(self.names, self.stages, strict=True)
                for k, v in s.pass_times_ms().items()}

    @property
    def canvas(self) -> np.ndarray:
        """The paper's position (see `Pipeline.canvas`): every style follows the same camera
        from the same frames, so one matrix stands for all."""
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
        """Forget temporal state (seeks, cuts, new sources)."""
        self.tracker.reset()
        for stage in self.stages:
            stage.reset_history()
        self.frame_index = 0

    # -- frames ---------------------------------------------------------------------------
    def upload(self, frame: np.ndarray, order: str = "rgb") -> moderngl.Texture:
        """Copy a frame to the (reused) source texture."""
        return self._uploader.upload(frame, order)

    def render(self, frame: np.ndarray | moderngl.Texture, order: str = "rgb", *,
               motion: FrameMotion | None = None) -> moderngl.Texture:
        """The frame through every style not bypassed; the texture belongs to the chain.

        Below scale 1 the filters before the (last) painting style run on the frame shrunk
        once to the painting's work size, which then enlarges its result to the frame's
        size: a live camera's clean-up costs as little as the painting.
        """
        tex = frame if isinstance(frame, moderngl.Texture) else self.upload(frame, order)
        self._input = tex
        self.tracker.next_frame(_motion_frame(frame, order), motion)
        if self._subject_stage is not None:
            subject = self._given
            if self.subject_feed == "detect":
                subject = self._subject_stage.detect_subject(frame, order) \
                    if isinstance(frame, np.ndarray) else None
            for stage in self.stages:
                stage.set_subject(subject)
        active = self._active()
        painting = max((i for i, (n, _) in enumerate(active) if self._scaled[self.names.index(n)]
                        and self._paints), default=-1)
        full = None
        if painting > 0 and self._scale < 1.0 and active[painting][1].draft:
            full = tex.size
            work = (max(1, round(full[0] * self._scale)), max(1, round(full[1] * self._scale)))
            tex = self._shrinker().draw(tex, work, "stretch", dtype="f2")
        original = self._input
        for i, (_, stage) in enumerate(active):
            tex = stage.render(tex, full_size=full if i == painting else None,
                               original=original)
        self._frame_index += 1
        return tex

    def set_subject(self, subject: Subject | None) -> None:
        """The subject of the frames rendered from now on (`subject_feed = "given"`)."""
        self._given = subject

    @property
    def last_subject(self) -> Subject | None:
        """The last frame's subject, where a face was found."""
        return self._subject_stage.last_subject if self._subject_stage is not None else None

    def _shrinker(self) -> FrameFitter:
        if self._fitter is None:
            self._fitter = FrameFitter(self.ctx)
        return self._fitter

    def motion_widths(self) -> frozenset[int]:
        """The flow widths the active styles ask motion at (Pipeline.motion_widths)."""
        return frozenset().union(*(stage.motion_widths() for _, stage in self._active()))

    def render_array(self, frame: np.ndarray, order: str = "rgb") -> np.ndarray:
        """Stylize a frame and read it back as a uint8 (H, W, 3) array in the same order."""
        return self.read(self.render(frame, order), order)

    def read(self, tex: moderngl.Texture, order: str = "rgb", *,
             low_memory: bool = False, into: np.ndarray | None = None) -> np.ndarray:
        """Read an RGBA8 texture back as a uint8 (H, W, 3) array (Pipeline.read)."""
        return self.stages[0].read(tex, order, low_memory=low_memory, into=into)

    def output_size(self, size: tuple[int, int]) -> tuple[int, int]:
        """The size of the picture `render` returns for a frame of `size` (w, h)."""
        for _, stage in self._active():
            size = stage.output_size(size)
        return size

    @property
    def input_texture(self) -> moderngl.Texture | None:
        return self._input

    def _stage(self, name: str) -> tuple[Pipeline, str]:
        style, _, target = name.partition(".")
        if style not in self.names or not target:
            raise AquarelleError(f"no target {name!r} in the chain {self.style.name}")
        return self.stages[self.names.index(style)], target

    def target(self, name: str) -> moderngl.Texture:
        """A style's intermediate target of the last frame, named `style.target`."""
        stage, target = self._stage(name)
        if self._bypassed[name.partition(".")[0]]:
            raise AquarelleError(f"{name!r}: that style is bypassed")
        return stage.target(target)

    @property
    def keep_history(self) -> bool:
        """False: no frame follows (a still): no style keeps its history."""
        return self.stages[0].keep_history

    @keep_history.setter
    def keep_history(self, on: bool) -> None:
        for stage in self.stages:
            stage.keep_history = on

    def trim(self) -> None:
        """Release the textures only the next frame would reuse, in every style."""
        for stage in self.stages:
            stage.trim()

    @property
    def inspect(self) -> bool:
        """Whether every style keeps all its intermediate targets after a frame."""
        return all(stage.inspect for stage in self.stages)

    @inspect.setter
    def inspect(self, on: bool) -> None:
        for stage in self.stages:
            stage.inspect = on

    def keep_targets(self, names: Iterable[str]) -> None:
        """Intermediate targets (`style.target`) to keep after each frame for `target`."""
        wanted: dict[str, list[str]] = {}
        for name in names:
            style, _, target = name.partition(".")
            wanted.setdefault(style, []).append(target)
        for style, stage in zip(self.names, self.stages, strict=True):
            stage.keep_targets(wanted.get(style, ()))

    def read_target(self, name: str) -> np.ndarray:
        """A style's intermediate target as float32 (H, W, C)."""
        stage, target = self._stage(name)
        return stage.read_target(target)

    def texture_pools(self) -> list[TargetPool]:
        """The pools of every style's textures (see Pipeline.texture_pools)."""
        return [pool for stage in self.stages for pool in stage.texture_pools()]

    def release(self) -> None:
        for stage in self.stages:
            stage.release()
        if self._fitter is not None:
            self._fitter.release()
            self._fitter = None
        self.stages.clear()
        self._input = None

    def __enter__(self) -> ChainPipeline:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def build_pipeline(ctx: moderngl.Context, style: AnyStyle | str, *, seed: int = 0,
                   scale: float = 1.0, shader_root: Path | None = None, deep: bool = False
                   ) -> Pipeline | ChainPipeline:
    """The pipeline for a style or a chain (`a+b`); `deep`: 16-bit targets and readback
    (for 10-bit and 16-bit sources)."""
    from .chain_spec import load_chain

    spec = load_chain(style) if isinstance(style, str) else style
    if isinstance(spec, ChainSpec):
        return ChainPipeline(ctx, spec, seed=seed, scale=scale, shader_root=shader_root,
                             deep=deep)
    return Pipeline(ctx, spec, seed=seed, scale=scale, shader_root=shader_root, deep=deep)


AnyPipeline = Pipeline | ChainPipeline


def wants_subject(pipeline: AnyPipeline) -> bool:
    """Whether a pipeline (or a style of a chain) paints with a subject map."""
    stages = pipeline.stages if isinstance(pipeline, ChainPipeline) else [pipeline]
    return any(s.style.subject is not None for s in stages)


def use_draft(pipeline: AnyPipeline, *, adapting: bool) -> None:
    """How a picture painted below full size is made: while live adaptive quality adapts,
    the cheapest draft (everything at the work size, no finish, the fast enlargement); else
    the style's own (full-quality subject map and tones, its finish and enlargement)."""
    pipeline.upscale_method = FAST_METHOD if adapting else pipeline.style.draft_upscale
    pipeline.draft_finish = pipeline.draft_borders = not adapting
