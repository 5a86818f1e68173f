"""Styles as data: parameters, render targets and a graph of fragment-shader passes.

A style is one JSON file in assets/styles/ plus the shaders it names, close in spirit to
ISF: adding a style needs no Python. See ARCHITECTURE.md for the format.
"""

from __future__ import annotations

import codecs
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..resources import assets_dir
from .errors import AquarelleError, StyleError
from .params import ParamSpec, suggest

# name -> (components, moderngl dtype)
TEXTURE_FORMATS: dict[str, tuple[int, str]] = {
    "r8": (1, "f1"), "rg8": (2, "f1"), "rgba8": (4, "f1"),
    "r16f": (1, "f2"), "rg16f": (2, "f2"), "rgba16f": (4, "f2"),
    "r32f": (1, "f4"), "rg32f": (2, "f4"), "rgba32f": (4, "f4"),
}
SOURCE = "source"  # the reserved input name of the uploaded frame
# The frame as it came into a chain, before any style (a style's `source` is the previous
# style's output): what stereo depth is estimated from under a painting. Alone: the source.
ORIGINAL = "original"
# what `when` may name besides parameters
BUILTIN_FLAGS = {"resampling", "history", "drafting", "learned", "subject", "subject_held",
                 "exposed", "blocky", "cheap"}
# A `when` term: a name, or a parameter compared with a number ("factor > 2").
WHEN_COMPARISON = re.compile(r"^\s*([A-Za-z_]\w*)\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d*)?)\s*$")


def when_name(term: str) -> str:
    """The parameter or flag a `when` term names (`!flag`: its negation)."""
    m = WHEN_COMPARISON.match(term)
    return m.group(1) if m else term.strip().removeprefix("!")
MAX_TARGET_SCALE = 4.0  # of the work (or source) size
# A menu parameter's table: (its name, {choice index: (x, y)}), choices not listed (1, 1)
MenuTable = tuple[str, dict[int, tuple[Any, Any]]]
# The upscale style's methods: how a draft may be enlarged
UPSCALE_METHODS = ("learned", "easu", "bicubic")


@dataclass(frozen=True)
class TargetSpec:
    """A render target: format and size (a scale of the work size, or the source size)."""

    name: str
    format: str
    scale: float = 1.0
    # "work" (source x processing scale), "source", or "full": of the work size at full
    # quality, which a draft (a style painted below the frame's size, then enlarged) keeps up
    # to its own work size: the passes that decide a picture's borders stay sharp in a draft;
    # or "reference": of the frame in reference px (graph.reference_px), the same texels at
    # any picture size (the shapes of the washes: as many on a thumbnail as on a 12 MP photo)
    relative_to: str = "work"
    persistent: bool = False  # kept across frames; read the previous frame as NAME.prev
    # Made once for the whole picture when a big still is rendered in tiles (its passes need
    # all of it: pyramids, saliency); tiles read it through windows (engine/tiles.py)
    whole: bool = False
    scale_param: str | None = None  # "scale": "$name": the scale is that parameter's value
    size: tuple[int, int] | None = None  # "size": [w, h]: a fixed size (histograms, tables)
    # "scale_by": [{"param": P, "values": {CHOICE: [sx, sy]}}]: per-axis factors picked by
    # menu parameters, multiplied (a side-by-side output is twice as wide; the views of a
    # side-by-side input half as wide). Choices not listed count as [1, 1].
    # (stored by the choice's index)
    scale_by: tuple[MenuTable, ...] = ()

    def factors(self, params: Any) -> tuple[float, float]:
        """(kx, ky): the target's size over its base size for these parameter values."""
        k = self.scale if self.scale_param is None else float(params[self.scale_param])
        kx = ky = k
        for param, table in self.scale_by:
            sx, sy = table.get(int(params[param]), (1.0, 1.0))
            kx, ky = kx * sx, ky * sy
        return kx, ky

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
    # A whole target read whole by a tile's pass, not through a window: the shader finds its
    # texels from the whole picture's position (u_origin, u_picture), as it does untiled
    # (small grids of seeds looked up by cell)
    whole: bool = False


@dataclass(frozen=True)
class SplitSpec:
    """Where a pass's costly part is needed (PassSpec.split): an input's channel above 0."""

    input: str
    channel: int
    when: str | None = None


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
    # "scatter": INPUT: instead of a full-screen triangle, one point per sample of that input
    # (every texel, or every k-th on large pictures), placed by the pass's own `vertex`
    # shader and added up (blending ONE, ONE) into the cleared output: GPU histograms, sums.
    scatter: str | None = None
    vertex: str | None = None
    clear: tuple[float, ...] | None = None  # when skipped, the output is cleared to this
    # Uniforms compiled in as constants while they are 0 (a float) or at their value (an int,
    # a switch): a CPU renderer runs both sides of every branch, so a term whose weight is 0
    # costs as much as one in use unless the compiler can drop it.
    specialize: tuple[str, ...] = ()
    # "split": {"input": NAME, "channel": 0-3, "when": ...}: on a CPU renderer (which runs
    # every branch for every pixel) the pass is drawn in two parts where `when` holds (as a
    # pass's): the whole output with `u_split` 1 (the shader leaves out a costly part), then
    # again with `u_split` 2 (all of it) only on the tiles where that input's channel is above
    # 0 (graph.py). The shader gives every pixel elsewhere the same value either way; `u_split`
    # is 0 (one draw, all of it) otherwise, and one of the pass's `specialize` uniforms.
    split: SplitSpec | None = None


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
class SubjectSpec:
    """The subject map a style asks for (engine/subject_map.py): an external input texture
    (RGBA: head, features, person, found), made while the `enable` parameter is on; the
    passes hear `u_subject` (1: a face was found) and, where a face was found, the gain that
    keys an underexposed frame up (`u_key_gain`, 1 .. 2; the `exposed` flag: above 1),
    while the `exposure` parameter is on (None: always)."""

    input: str
    enable: str
    exposure: str | None = None


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
    subject: SubjectSpec | None = None
    # Sizes given in "reference pixels" are pixels of a frame whose shorter side has this many
    # lines; shaders read the work frame's ratio to it as u_px (0: u_px is 1).
    reference_lines: int = 0
    # Static textures: name -> a .npy file under assets/ ((H, W, C) uint8, float16 or
    # float32, C 1..4), uploaded once; passes read them like targets (learned weights).
    textures: dict[str, str] = field(default_factory=dict)
    # Textures a file parameter replaces (name -> parameter): the file's table (a .cube LUT)
    # while the parameter names one, else the texture's own file.
    texture_params: dict[str, str] = field(default_factory=dict)
    # Painting below full resolution (draft): parameter values the painting at the work size
    # uses (what the finish re-applies), and the finish style (a file under styles/) run at
    # full size on the enlarged picture. Without a finish the enlarged picture is the result.
    draft_off: dict[str, Any] = field(default_factory=dict)
    draft_finish: str | None = None
    draft_upscale: str = "learned"  # how the draft is enlarged: an upscale style method
    # The finish enlarges the draft itself with this method (in its own full-size pass, not
    # one more before it): the finish's passes see the small picture as their source.
    draft_finish_enlarges: str | None = None
    # Where the style goes when added to a chain: lower comes first (clean-up filters ~10-30,
    # painting 50, effects 60, enlarging 90); users may reorder at will.
    chain_order: int = 50
    # How many views (across, down) the input and the output hold, by a menu's choice
    # ("views": {"input"|"output": {"param": MENU, "values": {CHOICE: [nx, ny]}}}): a stereo
    # pair side by side or top-bottom. What follows the picture view by view (a still's
    # alpha) is laid out by it. None given: one view.
    views: dict[str, MenuTable] = field(default_factory=dict)

    def view_grid(self, side: str, params: Any) -> tuple[int, int]:
        """(nx, ny): the views the `side` ("input" or "output") holds for these values."""
        table = self.views.get(side)
        if table is None:
            return 1, 1
        param, grid = table
        return grid.get(int(params[param]), (1, 1))

    @property
    def has_draft(self) -> bool:
        """Whether the style paints below full size at a processing scale under 1 (it has
        a `draft` section); in a chain, filters without one run at their input's size."""
        return bool(self.draft_off) or self.draft_finish is not None

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


def installed_params() -> dict[str, tuple[int, set[str]]]:
    """The installed styles' places in a chain and parameter names (for a ParamSet's
    message on a name another style has)."""
    found = {}
    for style in list_styles():
        try:
            spec = load_style(style)
        except AquarelleError:  # a broken style file is said where it is asked for
            continue
        found[style] = (spec.chain_order, {p.name for p in spec.params})
    return found


def load_style(name_or_path: str | Path) -> StyleSpec:
    """Load a style by name (assets/styles/NAME.json) or from a JSON file."""
    path = Path(name_or_path)
    if not path.suffix:
        path = styles_dir() / f"{name_or_path}.json"
        if not path.is_file():
            name = str(name_or_path)
            raise StyleError(f"unknown style {name!r}; {suggest(name, list_styles(), 'styles')}")
    data = read_json(path, "style")
    try:
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        return _parse_style(data, path)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise StyleError(f"malformed style {path}: {describe_error(e)}") from None


MAX_JSON_BYTES = 1 << 20  # styles and presets are a few kB; refuse what cannot be one
MAX_JSON_DEPTH = 32  # the shipped styles nest 7 levels


def read_json(path: Path, what: str) -> dict[str, Any]:
    """A JSON object from a file that users may have edited or been sent (UTF-8, with or
    without the BOM Windows editors add): size- and depth-limited, one-line errors that name
    the file and say what is wrong."""
    text = _json_text(path, what)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise StyleError(f"{path}: invalid JSON at line {e.lineno} column {e.colno}: "
                         f"{e.msg}") from None
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        raise StyleError(f"{path}: invalid JSON: {_first_line(e)}") from None
    except RecursionError:  # deeper than the parser's stack allows
        raise StyleError(_too_deep_message(path)) from None
    if _too_deep(data):  # parsed, but deeper than anything else should walk
        raise StyleError(_too_deep_message(path))
    if not isinstance(data, dict):
        raise StyleError(f"{path}: the top level must be an object ({{...}}), not "
                         f"{_json_kind(data)}")
    return data


def _json_text(path: Path, what: str) -> str:
    """The file's text: refused when it is not a file, too large, empty or not UTF-8."""
    try:
        if not path.is_file():  # a folder, or a FIFO that would block the read
            why = "not a file" if path.exists() else "no such file"
            raise StyleError(f"cannot read {what} {path}: {why}")
        with path.open("rb") as f:  # read at most one byte past the limit
            data = f.read(MAX_JSON_BYTES + 1)
    except OSError as e:
        raise StyleError(f"cannot read {what} {path}: {e.strerror or e}") from None
    if len(data) > MAX_JSON_BYTES:
        raise StyleError(f"{path}: too large (over {MAX_JSON_BYTES} bytes; a {what} is a "
                         "few kB)")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise StyleError(f"{path}: UTF-16 text; save it as UTF-8")
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        text = data[bom:].decode("utf-8")
    except UnicodeDecodeError as e:
        raise StyleError(f"{path}: not UTF-8 text (byte 0x{data[bom + e.start]:02x} at offset "
                         f"{bom + e.start}); save it as UTF-8") from None
    if not text.strip():
        raise StyleError(f"{path}: empty file")
    return text


def _too_deep(data: Any) -> bool:
    """Whether objects and arrays nest more than MAX_JSON_DEPTH levels (walked without
    recursion: what is checked here must not be able to exhaust the stack)."""
    stack = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > MAX_JSON_DEPTH:
                return True
            items = node.values() if isinstance(node, dict) else node
            stack.extend((v, depth + 1) for v in items if isinstance(v, dict | list))
    return False


def _too_deep_message(path: Path) -> str:
    return f"{path}: nested too deeply (over {MAX_JSON_DEPTH} levels)"


def _json_kind(data: Any) -> str:
    kinds = {list: "an array", str: "a string", bool: "true/false", type(None): "null"}
    return kinds.get(type(data), "a number")


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def describe_error(e: BaseException) -> str:
    """One line: which key is missing, or what is wrong."""
    if isinstance(e, KeyError):
        return f"missing key {e.args[0]!r}"
    if isinstance(e, TypeError | AttributeError | IndexError):
        return f"a value has the wrong type ({_first_line(e)})"
    return _first_line(e)


def _get(d: Any, key: str, kind: type | tuple[type, ...], where: str,
         default: Any = ...) -> Any:
    """d[key] checked against `kind` (a missing optional key gives `default`)."""
    if not isinstance(d, dict):
        raise ValueError(f"{where}: expected an object")
    if key not in d:
        if default is ...:
            raise ValueError(f"{where}: missing key {key!r}")
        return default
    v = d[key]
    if not isinstance(v, kind) or (isinstance(v, bool) and bool not in _tuple(kind)):
        names = "/".join(t.__name__ for t in _tuple(kind))
        raise ValueError(f"{where}: {key!r} must be {names}, not {v!r:.40}")
    return v


def _tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _parse_input(v: Any, where: str) -> InputSpec:
    if isinstance(v, str):
        return InputSpec(target=v)
    return InputSpec(target=_get(v, "target", str, where),
                     filter=_get(v, "filter", str, where, "linear"),
                     wrap=_get(v, "wrap", str, where, "clamp"),
                     whole=_get(v, "whole", bool, where, False))


def _parse_pass(d: Any) -> PassSpec:
    name = _get(d, "name", str, "pass")
    where = f"pass {name}"
    clear = _get(d, "clear", (list, type(None)), where, None)
    inputs = _get(d, "inputs", dict, where, {})
    return PassSpec(
        name=name, shader=_get(d, "shader", str, where), output=_get(d, "output", str, where),
        inputs={str(k): _parse_input(v, f"{where}, input {k}") for k, v in inputs.items()},
        uniforms=dict(_get(d, "uniforms", dict, where, {})),
        when=_get(d, "when", (str, type(None)), where, None),
        bypass=_get(d, "bypass", (str, type(None)), where, None),
        clear=tuple(clear) if clear is not None else None,
        scatter=_get(d, "scatter", (str, type(None)), where, None),
        vertex=_get(d, "vertex", (str, type(None)), where, None),
        specialize=tuple(str(u) for u in _get(d, "specialize", list, where, [])),
        split=_parse_split(d.get("split"), where),
    )


def _parse_split(d: Any, where: str) -> SplitSpec | None:
    if d is None:
        return None
    if not isinstance(d, dict):
        raise ValueError(f"{where}: split must be an object")
    return SplitSpec(_get(d, "input", str, f"{where}, split"),
                     _get(d, "channel", int, f"{where}, split"),
                     _get(d, "when", (str, type(None)), f"{where}, split", None))


def _parse_style(data: dict[str, Any], path: Path) -> StyleSpec:
    params = tuple(ParamSpec.from_dict(p) for p in _get(data, "params", list, "style"))
    targets = {}
    for name, t in _get(data, "targets", dict, "style").items():
        where = f"target {name}"
        fmt = _get(t, "format", str, where)
        if fmt not in TEXTURE_FORMATS:
            raise ValueError(f"{where}: unknown format {fmt!r}")
        relative = _get(t, "relative_to", str, where, "work")
        if relative not in ("work", "source", "full", "reference"):
            raise ValueError(f"{where}: relative_to must be work, source, full or reference")
        size = _get(t, "size", (list, type(None)), where, None)
        if size is not None and not (len(size) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 4096
                for v in size)):
            raise ValueError(f"{where}: size must be [width, height], whole numbers 1..4096")
        scale = _get(t, "scale", (int, float, str), where, 1)
        scale_param = None
        if isinstance(scale, str):
            if not scale.startswith("$"):
                raise ValueError(f"{where}: scale must be a number or \"$parameter\"")
            scale_param, scale = scale[1:], 1.0
        scale_by = [_menu_table(entry, params, where, "scale_by", float,
                                lambda x: 0 < x <= MAX_TARGET_SCALE,
                                f"scale_by factors are [sx, sy] in (0, {MAX_TARGET_SCALE}]")
                    for entry in _get(t, "scale_by", list, where, [])]
        targets[name] = TargetSpec(name=name, format=fmt, scale=float(scale),
                                   scale_by=tuple(scale_by),
                                   relative_to=relative,
                                   persistent=_get(t, "persistent", bool, where, False),
                                   whole=_get(t, "whole", bool, where, False),
                                   scale_param=scale_param,
                                   size=(size[0], size[1]) if size is not None else None)
    graph: list[Node] = []
    for node in _get(data, "passes", list, "style"):
        if isinstance(node, dict) and "repeat" in node:
            graph.append(RepeatSpec(count=_get(node, "repeat", str, "repeat block"),
                                    passes=tuple(_parse_pass(p) for p in
                                                 _get(node, "passes", list, "repeat block"))))
        else:
            graph.append(_parse_pass(node))
    motion = None
    if "motion" in data:
        m = data["motion"]
        width = _get(m, "max_width", int, "motion", 320)
        if not 16 <= width <= 4096:
            raise ValueError(f"motion: max_width {width} is not in 16..4096")
        motion = MotionSpec(input=_get(m, "input", str, "motion"),
                            enable=_get(m, "enable", str, "motion"), max_width=width)
    subject = None
    if "subject" in data:
        m = _get(data, "subject", dict, "style")
        subject = SubjectSpec(input=_get(m, "input", str, "subject"),
                              enable=_get(m, "enable", str, "subject"),
                              exposure=_get(m, "exposure", (str, type(None)), "subject", None))
    views = _get(data, "debug_views", dict, "style", {})
    if not all(isinstance(v, str) for v in views.values()):
        raise ValueError("debug_views: every view names a target")
    name = _get(data, "name", str, "style")
    style = StyleSpec(
        motion=motion, subject=subject,
        name=name, label=_get(data, "label", str, "style", name),
        description=_get(data, "description", str, "style", ""), params=params,
        targets=targets, graph=tuple(graph), output=_get(data, "output", str, "style"),
        debug_views=dict(views), path=path,
        reference_lines=_get(data, "reference_lines", int, "style", 0),
        textures={n: _get(t, "file", str, f"texture {n}")
                  for n, t in _get(data, "textures", dict, "style", {}).items()},
        texture_params={n: _get(t, "param", str, f"texture {n}")
                        for n, t in _get(data, "textures", dict, "style", {}).items()
                        if "param" in t},
        draft_off=dict(_get(_get(data, "draft", dict, "style", {}), "off", dict, "draft", {})),
        draft_finish=_get(_get(data, "draft", dict, "style", {}), "finish", (str, type(None)),
                          "draft", None),
        draft_upscale=_get(_get(data, "draft", dict, "style", {}), "upscale", str, "draft",
                           "learned"),
        draft_finish_enlarges=_get(_get(data, "draft", dict, "style", {}), "finish_enlarges",
                                   (str, type(None)), "draft", None),
        chain_order=_get(data, "chain_order", int, "style", 50),
        views=_views(data, params),
    )
    _check(style)
    return style


def _check_numbers(style: StyleSpec) -> None:
    params = {p.name: p for p in style.params}
    for t in style.targets.values():
        if t.scale_param is not None:
            p = params.get(t.scale_param)
            if p is None or p.type not in ("float", "int"):
                raise ValueError(f"target {t.name}: scale names {t.scale_param!r}, not a "
                                 "numeric parameter")
            if not 0 < p.min <= p.max <= MAX_TARGET_SCALE:  # type: ignore[operator]
                raise ValueError(f"target {t.name}: parameter {p.name}'s range is not in "
                                 f"(0, {MAX_TARGET_SCALE}]")
        if not (isinstance(t.scale, float) and 0.0 < t.scale <= MAX_TARGET_SCALE):
            raise ValueError(f"target {t.name}: scale {t.scale!r} is not in (0, "
                             f"{MAX_TARGET_SCALE}]")
    for p in style.params:
        if p.type in ("float", "int"):
            lo, hi = p.min, p.max
            if not all(isinstance(v, int | float) and not isinstance(v, bool)
                       and math.isfinite(v) for v in (lo, hi)):
                raise ValueError(f"parameter {p.name}: min and max must be finite numbers")
            if lo > hi:  # type: ignore[operator]
                raise ValueError(f"parameter {p.name}: min {lo} is above max {hi}")
    if not 0 <= style.reference_lines <= 100_000:
        raise ValueError(f"reference_lines {style.reference_lines} is out of range")


def _check_shader_path(p: PassSpec) -> None:
    from ..resources import shaders_dir

    root = shaders_dir().resolve()
    for file in (p.shader, p.vertex):
        if file is None:
            continue
        shader = Path(file)
        if shader.is_absolute() or ".." in shader.parts \
                or root not in (root / shader).resolve().parents:
            raise ValueError(f"pass {p.name}: shader {file!r} is outside the shaders folder")
    if (p.scatter is None) != (p.vertex is None):
        raise ValueError(f"pass {p.name}: a scatter pass names its input and its vertex "
                         "shader (both 'scatter' and 'vertex')")
    if p.scatter is not None and p.scatter not in p.inputs:
        raise ValueError(f"pass {p.name}: scatter {p.scatter!r} is not one of its inputs")
    if p.split is not None and (p.split.input not in p.inputs or "u_split" not in p.specialize
                                or not 0 <= p.split.channel <= 3
                                or p.scatter is not None or p.vertex is not None):
        raise ValueError(f"pass {p.name}: split names one of its inputs and a channel (0-3), "
                         "and specializes u_split, on a full-screen pass")


def _check_texture_file(name: str, file: str) -> None:
    path = Path(file)
    root = assets_dir().resolve()
    if path.is_absolute() or ".." in path.parts or path.suffix != ".npy" \
            or root not in (root / path).resolve().parents:
        raise ValueError(f"texture {name}: {file!r} is not a .npy file inside assets/")
    if not (root / path).is_file():
        raise ValueError(f"texture {name}: {file} is missing from assets/")


def load_texture_array(file: str) -> Any:
    """A style texture's array (checked: shape (H, W, 1..4), uint8 / float16 / float32)."""
    arr = np.load(assets_dir() / file, allow_pickle=False)
    if arr.ndim != 3 or not 1 <= arr.shape[2] <= 4 or arr.dtype not in (
            np.uint8, np.float16, np.float32) or max(arr.shape[:2]) > 8192:
        raise ValueError(f"texture {file}: expected (H, W, 1..4) uint8/float16/float32 up to "
                         f"8192 px, got {arr.shape} {arr.dtype}")
    return arr


def _views(data: Any, params: tuple[ParamSpec, ...]) -> dict[str, MenuTable]:
    """The style's "views" section (StyleSpec.views)."""
    out = {}
    for side, entry in _get(data, "views", dict, "style", {}).items():
        if side not in ("input", "output"):
            raise ValueError(f"views: {side!r} is neither \"input\" nor \"output\"")
        out[side] = _menu_table(entry, params, "style", f"views.{side}", int,
                                lambda x: 1 <= x <= 4, "views are [nx, ny], 1..4")
    return out


def _menu_table(entry: Any, params: tuple[ParamSpec, ...], where: str, key: str, kind: type,
                ok: Callable[[Any], bool], what: str) -> MenuTable:
    """`key`'s {"param": MENU, "values": {CHOICE: [x, y]}} as (MENU, {choice index: (x,
    y)}): pairs of `kind` that `ok` accepts (`what` says which, in the error)."""
    table = _get(entry, "values", dict, f"{where}, {key}")
    param = _get(entry, "param", str, f"{where}, {key}")
    spec = next((p for p in params if p.name == param), None)
    if spec is None or spec.choices is None:
        raise ValueError(f"{where}: {key} names {param!r}, not a menu parameter")
    for choice, v in table.items():
        if choice not in spec.choices:
            raise ValueError(f"{where}: {choice!r} is not a choice of {param}")
        if not (isinstance(v, list) and len(v) == 2
                and all(_is_number(x) and x == kind(x) and ok(x) for x in v)):
            raise ValueError(f"{where}: {what}")
    return param, {spec.choices.index(c): (kind(v[0]), kind(v[1])) for c, v in table.items()}


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _check_values(style: StyleSpec, param_names: set[str]) -> None:
    """Uniform constants, clear colours and sampler settings of every pass."""
    for p in style.passes():
        for name, v in p.uniforms.items():
            ok = (_is_number(v) or isinstance(v, bool)
                  or (isinstance(v, list) and 1 <= len(v) <= 4 and all(map(_is_number, v)))
                  or (isinstance(v, str) and v.startswith("$") and v[1:] in param_names))
            if not ok:
                raise ValueError(f"pass {p.name}: uniform {name} = {v!r} is not a number, a "
                                 "list of up to 4 numbers or a $parameter")
        if p.clear is not None and not (1 <= len(p.clear) <= 4
                                        and all(map(_is_number, p.clear))):
            raise ValueError(f"pass {p.name}: clear must be 1 to 4 numbers")
        for inp in p.inputs.values():
            if inp.filter not in ("linear", "nearest") or inp.wrap not in ("clamp", "repeat"):
                raise ValueError(f"pass {p.name}: input {inp.target!r}: filter must be linear "
                                 "or nearest, wrap clamp or repeat")
        for u in p.specialize:
            if not re.fullmatch(r"u_[A-Za-z_]\w*", u):
                raise ValueError(f"pass {p.name}: specialize names uniforms (u_...), got {u!r}")


def _check_order(style: StyleSpec) -> None:
    """Every input is written by an earlier pass (or is the source, an external input or a
    previous frame's target): no cycles, nothing read before it is written."""
    written = {SOURCE, ORIGINAL} | {f"{n}.prev" for n, t in style.targets.items() if t.persistent} \
        | set(style.textures)
    if style.motion is not None:
        written.add(style.motion.input)
    if style.subject is not None:
        written.add(style.subject.input)
    for p in style.passes():
        for inp in p.inputs.values():
            if inp.target not in written and inp.target != p.output:
                raise ValueError(f"pass {p.name}: input {inp.target!r} is read before it is "
                                 "written")
        if p.bypass is not None and p.bypass not in p.inputs:
            raise ValueError(f"pass {p.name}: bypass {p.bypass!r} is not one of its inputs")
        written.add(p.output)


def _check(style: StyleSpec) -> None:
    for p in style.passes():
        _check_shader_path(p)
    _check_numbers(style)
    param_names = {p.name for p in style.params}
    _check_values(style, param_names)
    for name in style.draft_off:
        if name not in param_names:
            raise ValueError(f"draft: 'off' names unknown parameter {name!r}")
    if style.draft_finish is not None:
        finish = Path(style.draft_finish)
        root = styles_dir().resolve()
        if finish.is_absolute() or ".." in finish.parts or finish.suffix != ".json" \
                or not (root / finish).is_file():
            raise ValueError(f"draft: finish {style.draft_finish!r} is not a style file under "
                             "styles/")
    if style.draft_upscale not in UPSCALE_METHODS:
        raise ValueError(f"draft: upscale must be one of {', '.join(UPSCALE_METHODS)}, got "
                         f"{style.draft_upscale!r}")
    if style.draft_finish_enlarges not in (None, "bicubic") or \
            (style.draft_finish_enlarges and style.draft_finish is None):
        raise ValueError("draft: finish_enlarges must be bicubic, with a finish")
    for name, param in style.texture_params.items():
        spec = next((p for p in style.params if p.name == param), None)
        if spec is None or spec.type != "file":
            raise ValueError(f"texture {name}: param {param!r} is not a file parameter")
    for name, file in style.textures.items():
        _check_texture_file(name, file)
        if name in style.targets or name in (SOURCE, ORIGINAL):
            raise ValueError(f"texture {name}: the name is taken by a target")
    known = set(style.targets) | {SOURCE, ORIGINAL} | {f"{n}.prev" for n, t in style.targets.items()
                                              if t.persistent} | set(style.textures)
    if style.motion is not None:
        known.add(style.motion.input)
        if style.motion.enable not in param_names:
            raise ValueError(f"motion: 'enable' names unknown parameter {style.motion.enable!r}")
    if style.subject is not None:
        known.add(style.subject.input)
        if style.subject.enable not in param_names:
            raise ValueError("subject: 'enable' names unknown parameter "
                             f"{style.subject.enable!r}")
        if style.subject.exposure is not None and style.subject.exposure not in param_names:
            raise ValueError("subject: 'exposure' names unknown parameter "
                             f"{style.subject.exposure!r}")
    for node in style.graph:
        if isinstance(node, RepeatSpec) and node.count not in param_names:
            raise ValueError(f"repeat count {node.count!r} is not a parameter")
    for p in style.passes():
        if p.output not in style.targets:
            raise ValueError(f"pass {p.name}: unknown output target {p.output!r}")
        for inp in p.inputs.values():
            if inp.target not in known:
                raise ValueError(f"pass {p.name}: unknown input {inp.target!r}")
        for what, when in (("when", p.when), ("split's when", p.split and p.split.when)):
            if when is not None and any(not t.strip() for t in when.replace("|", "&").split("&")):
                raise ValueError(f"pass {p.name}: {what} {when!r} has an empty term")
            unknown = [n for n in (when_name(t) for t in
                                   (when or "").replace("|", "&").split("&") if t.strip())
                       if n not in param_names | BUILTIN_FLAGS]
            if unknown:
                raise ValueError(f"pass {p.name}: {what} names unknown parameter {unknown[0]!r}")
    for view, target in style.debug_views.items():
        if target not in style.targets:
            raise ValueError(f"debug view {view}: unknown target {target!r}")
    if style.output not in style.targets:
        raise ValueError(f"unknown output target {style.output!r}")
    _check_order(style)
