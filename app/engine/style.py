"""Styles as data: parameters, render targets and a graph of fragment-shader passes.

A style is one JSON file in assets/styles/ plus the shaders it names, close in spirit to
ISF: adding a style needs no Python. See ARCHITECTURE.md for the format.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..resources import assets_dir
from .errors import StyleError
from .params import ParamSpec

# name -> (components, moderngl dtype)
TEXTURE_FORMATS: dict[str, tuple[int, str]] = {
    "r8": (1, "f1"), "rg8": (2, "f1"), "rgba8": (4, "f1"),
    "r16f": (1, "f2"), "rg16f": (2, "f2"), "rgba16f": (4, "f2"),
    "r32f": (1, "f4"), "rg32f": (2, "f4"), "rgba32f": (4, "f4"),
}
SOURCE = "source"  # the reserved input name of the uploaded frame
BUILTIN_FLAGS = {"resampling", "history"}  # what `when` may name besides parameters


@dataclass(frozen=True)
class TargetSpec:
    """A render target: format and size (a scale of the work size, or the source size)."""

    name: str
    format: str
    scale: float = 1.0
    relative_to: str = "work"  # "work" (source x processing scale) or "source"
    persistent: bool = False  # kept across frames; read the previous frame as NAME.prev

    @property
    def components(self) -> int:
        return TEXTURE_FORMATS[self.format][0]

    @property
    def dtype(self) -> str:
        return TEXTURE_FORMATS[self.format][1]


@dataclass(frozen=True)
class InputSpec:
    """A texture a pass reads: a target (or `source`), sampled with a filter and wrap mode."""

    target: str
    filter: str = "linear"  # or "nearest"
    wrap: str = "clamp"  # or "repeat"


@dataclass(frozen=True)
class PassSpec:
    """One fragment-shader pass."""

    name: str
    shader: str
    output: str
    inputs: dict[str, InputSpec]
    uniforms: dict[str, Any] = field(default_factory=dict)
    when: str | None = None  # parameters (true / non-zero) or built-in flags: `a & b | c`
    bypass: str | None = None  # when skipped, the output aliases this input instead
    clear: tuple[float, ...] | None = None  # when skipped, the output is cleared to this


@dataclass(frozen=True)
class RepeatSpec:
    """A block of passes run N times, N a parameter."""

    count: str
    passes: tuple[PassSpec, ...]


Node = PassSpec | RepeatSpec


@dataclass(frozen=True)
class MotionSpec:
    """Optical flow a style asks for: an external input texture (RG32F, backward flow in UV
    units: current pixel uv came from uv + flow), computed while the `enable` parameter is on."""

    input: str
    enable: str
    max_width: int = 320


@dataclass(frozen=True)
class StyleSpec:
    """A complete style description."""

    name: str
    label: str
    description: str
    params: tuple[ParamSpec, ...]
    targets: dict[str, TargetSpec]
    graph: tuple[Node, ...]
    output: str
    debug_views: dict[str, str]
    path: Path
    motion: MotionSpec | None = None
    # Sizes given in "reference pixels" are pixels of a frame whose shorter side has this many
    # lines; shaders read the work frame's ratio to it as u_px (0: u_px is 1).
    reference_lines: int = 0

    def passes(self) -> list[PassSpec]:
        """Every pass of the graph, flattened, in order (repeat blocks once)."""
        out: list[PassSpec] = []
        for node in self.graph:
            out.extend(node.passes if isinstance(node, RepeatSpec) else [node])
        return out


def styles_dir() -> Path:
    return assets_dir() / "styles"


def list_styles() -> list[str]:
    """Names of the installed styles."""
    return sorted(p.stem for p in styles_dir().glob("*.json"))


def load_style(name_or_path: str | Path) -> StyleSpec:
    """Load a style by name (assets/styles/NAME.json) or from a JSON file."""
    path = Path(name_or_path)
    if not path.suffix:
        path = styles_dir() / f"{name_or_path}.json"
        if not path.is_file():
            raise StyleError(
                f"unknown style {str(name_or_path)!r}; available: {', '.join(list_styles())}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise StyleError(f"cannot read style {path}: {e}") from None
    try:
        return _parse_style(data, path)
    except (KeyError, TypeError, ValueError) as e:
        raise StyleError(f"malformed style {path}: {e!r}") from None


def _parse_input(v: str | dict[str, Any]) -> InputSpec:
    if isinstance(v, str):
        return InputSpec(target=v)
    return InputSpec(target=v["target"], filter=v.get("filter", "linear"),
                     wrap=v.get("wrap", "clamp"))


def _parse_pass(d: dict[str, Any]) -> PassSpec:
    clear = d.get("clear")
    return PassSpec(
        name=d["name"], shader=d["shader"], output=d["output"],
        inputs={k: _parse_input(v) for k, v in d.get("inputs", {}).items()},
        uniforms=dict(d.get("uniforms", {})), when=d.get("when"), bypass=d.get("bypass"),
        clear=tuple(clear) if clear is not None else None,
    )


def _parse_style(data: dict[str, Any], path: Path) -> StyleSpec:
    params = tuple(ParamSpec.from_dict(p) for p in data["params"])
    targets = {}
    for name, t in data["targets"].items():
        if t["format"] not in TEXTURE_FORMATS:
            raise ValueError(f"target {name}: unknown format {t['format']}")
        targets[name] = TargetSpec(name=name, format=t["format"], scale=float(t.get("scale", 1)),
                                   relative_to=t.get("relative_to", "work"),
                                   persistent=bool(t.get("persistent", False)))
    graph: list[Node] = []
    for node in data["passes"]:
        if "repeat" in node:
            graph.append(RepeatSpec(count=node["repeat"],
                                    passes=tuple(_parse_pass(p) for p in node["passes"])))
        else:
            graph.append(_parse_pass(node))
    motion = None
    if "motion" in data:
        m = data["motion"]
        motion = MotionSpec(input=m["input"], enable=m["enable"],
                            max_width=int(m.get("max_width", 320)))
    style = StyleSpec(
        motion=motion,
        name=data["name"], label=data.get("label", data["name"]),
        description=data.get("description", ""), params=params, targets=targets,
        graph=tuple(graph), output=data["output"], debug_views=dict(data.get("debug_views", {})),
        path=path, reference_lines=int(data.get("reference_lines", 0)),
    )
    _check(style)
    return style


def _check(style: StyleSpec) -> None:
    param_names = {p.name for p in style.params}
    known = set(style.targets) | {SOURCE} | {f"{n}.prev" for n, t in style.targets.items()
                                              if t.persistent}
    if style.motion is not None:
        known.add(style.motion.input)
        if style.motion.enable not in param_names:
            raise ValueError(f"motion: 'enable' names unknown parameter {style.motion.enable!r}")
    for node in style.graph:
        if isinstance(node, RepeatSpec) and node.count not in param_names:
            raise ValueError(f"repeat count {node.count!r} is not a parameter")
    for p in style.passes():
        if p.output not in style.targets:
            raise ValueError(f"pass {p.name}: unknown output target {p.output!r}")
        for inp in p.inputs.values():
            if inp.target not in known:
                raise ValueError(f"pass {p.name}: unknown input {inp.target!r}")
        unknown = [n.strip() for n in (p.when or "").replace("|", "&").split("&")
                   if n.strip() and n.strip() not in param_names | BUILTIN_FLAGS]
        if unknown:
            raise ValueError(f"pass {p.name}: 'when' names unknown parameter {unknown[0]!r}")
    for view, target in style.debug_views.items():
        if target not in style.targets:
            raise ValueError(f"debug view {view}: unknown target {target!r}")
    if style.output not in style.targets:
        raise ValueError(f"unknown output target {style.output!r}")
