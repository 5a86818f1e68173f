"""A frame as the pass graph sees it (FrameInfo, a big still's TileView) and what it decides
without GL: target sizes against the frame and reference pixels, the passes' `when`
conditions, a uniform's value by name."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import moderngl

from .params import ParamValue
from .style import ORIGINAL, SOURCE, WHEN_COMPARISON, PassSpec, StyleSpec, TargetSpec

MIN_REFERENCE_PX = 0.5


@dataclass(frozen=True)
class TileView:
    """A run over one tile of a big still (engine/tiles.py): where the tile lies in the whole
    picture, which passes this run makes, and how much of each pass's output it needs."""

    origin: tuple[int, int]  # the tile's top-left corner in the whole picture (work px)
    whole_size: tuple[int, int]  # the whole picture's work size: targets marked `whole`
    passes: frozenset[str]  # the passes of this run (the others are made in other runs)
    # pass -> (x, y, w, h) of its output that this run needs; the rest is left as it was
    regions: Mapping[str, tuple[int, int, int, int]] = field(default_factory=dict)
    # textures standing for targets this run does not make (windows onto whole targets)
    inputs: Mapping[str, moderngl.Texture] = field(default_factory=dict)


@dataclass
class FrameInfo:
    """Per-frame values the graph passes to every shader."""

    source: moderngl.Texture
    work_size: tuple[int, int]
    seed: int
    frame: int
    scale: float
    externals: dict[str, moderngl.Texture] = field(default_factory=dict)  # e.g. optical flow
    uniforms: dict[str, Any] = field(default_factory=dict)  # extra per-frame built-ins
    history: bool = True  # False: ignore the previous frame (first frame, cut, seek)
    keep_history: bool = True  # False: keep nothing for the next frame (temporal features off)
    again: bool = False  # the last frame painted anew: it reads the history it read then
    # A draft: the size of the frame it stands for. Reference sizes follow that frame's, in
    # proportion: a draft paints the same picture, smaller (not a thumbnail's larger features).
    drafted_from: tuple[int, int] | None = None
    full_targets: bool = True  # in a draft, targets relative to full keep their size
    learned: bool = True  # a draft's own x2 steps use the learned filters (False: bilinear)
    # Exact sizes (w, h) some targets must have this frame (an enlargement to a size its
    # factor only rounds to: no second resampling pass afterwards).
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)
    tile: TileView | None = None  # one tile of a big still (engine/tiles.py)

    @property
    def draft_scale(self) -> float:
        """A draft's work size over its frame's while targets relative to full keep their
        size; else 1 (they follow the work size)."""
        if self.drafted_from is None or not self.full_targets:
            return 1.0
        return self.work_size[0] / self.drafted_from[0]


def tile_input(style: StyleSpec, name: str) -> bool:
    """Whether an input is a tile's own picture in a tiled run: the source or a target not
    made for the whole picture (external inputs and static textures are neither)."""
    base = name.removesuffix(".prev")
    t = style.targets.get(base)
    return base in (SOURCE, ORIGINAL) or (t is not None and not t.whole)


def pass_runs(p: PassSpec, frame: FrameInfo, params: Mapping[str, ParamValue],
              history: bool) -> bool:
    """Whether a pass runs this frame (its `when`); skipped, it is bypassed or cleared."""
    return p.when is None or when_holds(p.when, frame, params, history)


def pass_uniform(p: PassSpec, name: str, builtins: Mapping[str, Any],
                 params: Mapping[str, ParamValue]) -> Any:
    """The value a pass's uniform gets from built-ins, its constants or the parameters (None
    for a texture's size, or a name nothing gives)."""
    return lookup_uniform(name, builtins, p.uniforms, params, {})


def target_factors(style: StyleSpec, t: TargetSpec, frame: FrameInfo,
                   params: Mapping[str, ParamValue]) -> tuple[float, float]:
    """A target's size over its base size (the work or source size) for this frame: a
    target relative to `full` keeps its full-quality size in a draft, up to the work size;
    one relative to `reference` is a scale of the frame in reference px."""
    kx, ky = t.factors(params)
    if t.relative_to == "reference":
        px = frame_px(style, frame)
        return kx / px, ky / px
    if t.relative_to == "full" and frame.draft_scale < 1.0:
        kx, ky = min(1.0, kx / frame.draft_scale), min(1.0, ky / frame.draft_scale)
    return kx, ky


def frame_px(style: StyleSpec, frame: FrameInfo) -> float:
    """Work pixels per reference pixel for this frame (a draft's in proportion to its frame)."""
    if frame.drafted_from is None:
        # a tile's features are as large as the whole picture's
        return reference_px(style, frame.tile.whole_size if frame.tile else frame.work_size)
    return reference_px(style, frame.drafted_from) * frame.work_size[0] / frame.drafted_from[0]


def reference_px(style: StyleSpec, work_size: tuple[int, int]) -> float:
    """Work pixels per reference pixel: sizes that should look the same on a thumbnail and
    on a 12-megapixel photo are declared for a frame of `style.reference_lines` lines. Below
    half that size features stop shrinking (they would fall below a pixel)."""
    if style.reference_lines <= 0:
        return 1.0
    return max(MIN_REFERENCE_PX, min(work_size) / style.reference_lines)


# Built-in `when` flags read from a frame uniform (whose value is then part of a plan's key)
FLAG_UNIFORMS = {"subject": "u_subject", "subject_held": "u_subject_held",
                 "exposed": "u_exposed", "blocky": "u_blocky"}


def when_holds(when: str, frame: FrameInfo, params: Mapping[str, ParamValue],
               history: bool) -> bool:
    """A pass's `when`: terms joined by `&`, each true if any of its `|` alternatives is (a
    parameter's truth or a built-in flag)."""
    return all(any(when_flag(name, frame, params, history) for name in term)
               for term in when_terms(when))


@functools.lru_cache(maxsize=256)
def when_terms(when: str) -> tuple[tuple[str, ...], ...]:
    """A `when`'s terms (joined by `&`), each its `|` alternatives."""
    return tuple(tuple(name.strip() for name in term.split("|")) for term in when.split("&"))


def when_flag(name: str, frame: FrameInfo, params: Mapping[str, ParamValue],
              history: bool) -> bool:
    """One alternative of a `when`: a parameter's truth, a comparison or a built-in flag."""
    if name.startswith("!"):
        return not when_flag(name[1:].strip(), frame, params, history)
    m = WHEN_COMPARISON.match(name)
    if m:
        value, op, number = float(params[m.group(1)]), m.group(2), float(m.group(3))
        return {"<": value < number, ">": value > number, "<=": value <= number,
                ">=": value >= number, "==": value == number, "!=": value != number}[op]
    if name == "resampling":  # the work size differs from the source size
        return frame.work_size != frame.source.size
    if name == "drafting":  # painted below the frame's size, to be enlarged
        return frame.draft_scale < 1.0
    if name == "learned":  # ... its own x2 steps with the learned filters (else bilinear)
        return frame.learned
    if name == "history":  # the previous frame's persistent targets are valid
        return history
    if name == "cheap":  # live adaptive quality's draft: everything at the work size
        return frame.drafted_from is not None and not frame.full_targets
    if name in FLAG_UNIFORMS:  # e.g. "subject": a face was found in this frame
        return bool(frame.uniforms.get(FLAG_UNIFORMS[name], 0))
    return bool(params[name])


# A uniform named after an input: that input's size, or its texel (from its (w, h)).
INPUT_UNIFORMS: dict[str, Callable[[tuple[int, int]], Any]] = {
    "_size": lambda s: (float(s[0]), float(s[1])),
    "_texel": lambda s: (1.0 / s[0], 1.0 / s[1]),
}


def constant_value(v: Any, params: Mapping[str, Any]) -> Any:
    """A pass constant's value (`$name`: a parameter's)."""
    if isinstance(v, str) and v.startswith("$"):
        v = params[v[1:]]
    return tuple(float(x) for x in v) if isinstance(v, list) else v


def param_value(v: Any) -> Any:
    """A parameter's value as a `u_<param>` uniform gets it."""
    return int(v) if isinstance(v, bool) else v


def lookup_uniform(name: str, builtins: Mapping[str, Any], constants: Mapping[str, Any],
                   params: Mapping[str, ParamValue], inputs: Mapping[str, moderngl.Texture]
                   ) -> Any:
    """A uniform's value by name: a built-in, a pass constant (`$name`: a parameter's), a
    parameter as `u_<name>`, an input's `<input>_size`/`_texel`; None if nothing gives it."""
    if name in builtins:
        return builtins[name]
    if name in constants:
        return constant_value(constants[name], params)
    if name.startswith("u_") and name[2:] in params:
        return param_value(params[name[2:]])
    for suffix, fn in INPUT_UNIFORMS.items():
        if name.endswith(suffix) and name[: -len(suffix)] in inputs:
            return fn(inputs[name[: -len(suffix)]].size)
    return None
