"""A frame plan compiled for one key: each step's program (its specialized variant chosen),
texture units, samplers and the source of every uniform resolved once, so that the
per-frame loop (graph.py) only binds and writes what moved."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import moderngl

from .errors import StyleError
from .frame_info import INPUT_UNIFORMS, constant_value, lookup_uniform, param_value
from .frame_plan import BYPASS, CLEAR, RUN, FramePlan, Step
from .style import InputSpec, PassSpec, StyleSpec, TargetSpec

BLANK = "\0blank"  # where a `.prev` input with no history to read finds its 1x1 stand-in
MAX_SCATTER_POINTS = 1 << 16

# Built-ins the graph gives every pass: those of the frame's key, then each pass's own.
KEY_BUILTINS = frozenset({"u_scale", "u_history", "u_learned", "u_work_size", "u_picture",
                          "u_full_size", "u_px", "u_levels", "u_origin", "u_window"})
PASS_BUILTINS = frozenset({"u_resolution", "u_texel", "u_target_scale", "u_scatter_step",
                           "u_scatter_grid", "u_split"})
# Given anew every frame: the seed and frame number, and what the pipeline measures
# (FrameInfo.uniforms: the camera's motion, the paper's canvas, the subject).
FRAME_UNIFORMS = frozenset({"u_seed", "u_frame", "u_subject", "u_subject_held",
                            "u_subject_weight", "u_face_size", "u_heads",
                            "u_portrait", "u_light", "u_face_sharp", "u_face_skin", "u_content",
                            "u_key_gain", "u_head_lift",
                            "u_exposed", "u_blocky", "u_blocks", "u_block_strength",
                            "u_block_reach", "u_motion",
                            "u_flow_range", "u_canvas", "u_paper_sheets"})


def scatter_grid(size: tuple[int, int]) -> tuple[int, tuple[int, int]]:
    """A scatter pass's samples of a picture of `size`: every `step`-th texel in x and y,
    (step, (columns, rows)); every texel up to MAX_SCATTER_POINTS (256x256), then sparser
    (every 4th at 1280x720), which a histogram or a mean barely notices."""
    w, h = size
    step = max(1, math.ceil(math.sqrt(w * h / MAX_SCATTER_POINTS)))
    return step, (-(-w // step), -(-h // step))


_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_LOOKUPS = frozenset({"texture", "textureLod", "textureGrad", "textureOffset",
                      "textureLodOffset", "textureGather"})
_FUNCTION = re.compile(r"\b\w+\s+(\w+)\s*\(([^()]*)\)\s*\{")


def reads_only_values(shader_text: str, sampler: str) -> bool:
    """Whether a shader reads the sampler only through filtered lookups (`texture(s, uv)`
    and kin, also inside functions it is handed to), never its size or a texel by index
    (`textureSize`, `texelFetch`): then a constant picture reads the same from a 1x1
    texture."""
    text = _COMMENTS.sub(" ", shader_text)
    functions: dict[str, list[tuple[list[str], str]]] = {}
    for m in _FUNCTION.finditer(text):
        params = [q.split()[-1] if q.split() else "" for q in m.group(2).split(",")]
        functions.setdefault(m.group(1), []).append((params, _body(text, m.end() - 1)))
    return _values_only(text, sampler, functions, set())


def _values_only(text: str, name: str, functions: dict[str, list[tuple[list[str], str]]],
                 seen: set[tuple[str, int]]) -> bool:
    for m in re.finditer(rf"\b{re.escape(name)}\b", text):
        before = text[:m.start()].rstrip()
        if before.endswith("sampler2D"):
            continue  # its declaration (a uniform, or a function's parameter)
        call = _enclosing_call(text, m.start(), m.end())
        if call is None:
            return False
        fn, index = call
        if fn in _LOOKUPS and index == 0:
            continue
        if fn not in functions:
            return False  # a built-in that reads more than values (textureSize, texelFetch)
        if (fn, index) in seen:
            continue
        seen.add((fn, index))
        for params, body in functions[fn]:
            if index >= len(params) or not _values_only(body, params[index], functions, seen):
                return False
    return True


def _enclosing_call(text: str, start: int, end: int) -> tuple[str, int] | None:
    """(function, argument index) when text[start:end] is a whole argument of a call."""
    if text[:start].rstrip()[-1:] not in ("(", ",") or text[end:].lstrip()[:1] not in (",", ")"):
        return None
    depth, commas, i = 0, 0, start - 1
    while i >= 0:
        ch = text[i]
        if ch in ")]":
            depth += 1
        elif ch in "([":
            if depth == 0:
                if ch == "[":
                    return None
                m = re.search(r"(\w+)\s*$", text[:i])
                return (m.group(1), commas) if m else None
            depth -= 1
        elif ch == "," and depth == 0:
            commas += 1
        elif ch in ";{}":
            return None
        i -= 1
    return None


def _body(text: str, brace: int) -> str:
    """The text of the block opening at text[brace] ('{')."""
    depth = 0
    for i in range(brace, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[brace:i + 1]
    return text[brace:]


def unresolved_uniform(style: StyleSpec, p: PassSpec, name: str) -> bool:
    """Whether nothing gives a pass's uniform a value: no built-in, constant, parameter
    (`u_<param>`) or input's size (`<input>_size`, `<input>_texel`)."""
    if name in KEY_BUILTINS or name in PASS_BUILTINS or name in FRAME_UNIFORMS \
            or name in p.uniforms:
        return False
    if name.startswith("u_") and any(s.name == name[2:] for s in style.params):
        return False
    return not any(name.endswith(sfx) and name[: -len(sfx)] in p.inputs
                   for sfx in INPUT_UNIFORMS)


def check_uniforms(style: StyleSpec, p: PassSpec, uniforms: Mapping[str, Any]) -> None:
    """A StyleError, when the plan is built, for a uniform nothing gives a value (it would
    silently stay 0), or one a parameter or the pass would give that the frame's built-in of
    the same name overrides (adjust's `u_exposure` was set to the exposure key's gain)."""
    for name in uniforms:
        if name in FRAME_UNIFORMS and (name in p.uniforms or any(
                s.name == name[2:] for s in style.params)):
            raise StyleError(f"{style.path}: pass {p.name}: uniform {name} is a built-in the "
                             "engine sets on every frame: name the parameter or the uniform "
                             "otherwise")
        if unresolved_uniform(style, p, name):
            raise StyleError(f"{style.path}: pass {p.name}: uniform {name} has no source (a "
                             f"built-in, a constant, a parameter u_<name> or an input's "
                             f"<input>_size/_texel)")


def specialization(names: tuple[str, ...], value: Callable[[str], Any]
                   ) -> tuple[tuple[str, float | int], ...]:
    """The uniforms of `names` a variant compiles in: switches (ints) at their value and
    floats at 0 (their terms fold away)."""
    out: list[tuple[str, float | int]] = []
    for name in names:
        v = value(name)
        if isinstance(v, int):
            out.append((name, int(v)))
        elif isinstance(v, float) and v == 0.0:
            out.append((name, 0.0))
    return tuple(out)


class Op:
    """One step of a compiled plan (see graph.py's executor for how each field is used)."""

    __slots__ = ("action", "name", "output", "target", "size", "register", "program",
                 "units", "static", "params", "frame", "dynamic", "rev", "memo", "region",
                 "scatter", "source", "clear", "drawn", "frees", "onto", "tiles",
                 "split_map")

    def __init__(self, action: str, p: PassSpec, target: TargetSpec,
                 size: tuple[int, int]) -> None:
        self.action = action
        self.name = p.name
        self.output = p.output
        self.target = target
        self.size = size
        self.register: int | None = None
        self.drawn: tuple[int, Any, Any] = (-1, None, None)  # (pool generation, texture, fbo)
        self.frees: tuple[tuple[Any, int], ...] = ()  # shared textures unused after this step
        self.program: Any = None  # graph._Compiled
        # (unit, bound name, sampler) of each input the program samples
        self.units: tuple[tuple[int, str, moderngl.Sampler], ...] = ()
        # [uniform, name, value] written when the program last ran another step (or values
        # moved); `params`: (index in static, how to get it from the parameters)
        self.static: list[list[Any]] = []
        self.params: tuple[tuple[int, Callable[[Mapping[str, Any]], Any]], ...] = ()
        self.frame: tuple[tuple[moderngl.Uniform, str], ...] = ()  # from FRAME_UNIFORMS
        # (uniform, name, bound name, fn of its size): inputs whose size is not the key's
        self.dynamic: tuple[tuple[moderngl.Uniform, str, str, Callable[..., Any]], ...] = ()
        self.rev = -1  # the parameters' revision `static` holds
        self.memo = False  # no inputs: the same uniforms draw the same picture
        self.region: tuple[int, int, int, int] | None = None  # a tile's part of the output
        self.scatter: tuple[str, int | None] | None = None  # (input, vertices if known)
        self.source = ""  # BYPASS: the bound name it stands for
        self.clear: tuple[float, ...] = ()  # CLEAR: the value
        # a split pass's second part (PassSpec.split): drawn onto the texture the first part
        # drew, only on the tiles where `tiles` (the bound name of an input, a channel) is
        # above 0
        self.onto = False
        self.tiles: tuple[str, int] | None = None
        self.split_map: tuple[Any, ...] | None = None  # (graph.py's memo of its map of tiles)


@dataclass(frozen=True)
class CompiledPlan:
    """A frame plan ready to execute: its ops, what it leaves bound, what it needs."""

    plan: FramePlan
    ops: tuple[Op, ...]
    transient: tuple[str, ...]  # targets bound during the frame but not kept after it
    sizes: frozenset[tuple[int, int]]  # of its shared and cleared textures
    units: int  # texture units its steps use (0 to units - 1)
    prev_inputs: tuple[str, ...]  # targets whose previous frame it reads (history on)


@dataclass
class PlanContext:
    """What compiling a plan needs from the graph, for one key."""

    style: StyleSpec
    sizes: Mapping[str, tuple[int, int]]  # every target's size this key
    bound_sizes: Mapping[str, tuple[int, int] | None]  # bound before the first step (None:
    # only known per frame: externals, a tile's windows)
    builtins: Mapping[str, Any]  # KEY_BUILTINS' values
    pass_builtins: Callable[[PassSpec], dict[str, Any]]  # PASS_BUILTINS but scatter's
    frame_uniforms: Mapping[str, Any]  # this frame's, for the variant to choose
    params: Mapping[str, Any]
    history: bool
    program: Callable[[PassSpec, Callable[[str], Any]], Any]  # the (variant) program
    values_only: Callable[[PassSpec, str], bool]  # the pass reads that input's values only
    sampler: Callable[[InputSpec], moderngl.Sampler]
    regions: Mapping[str, tuple[int, int, int, int]]
    split: frozenset[str] = frozenset()  # the passes drawn in their two parts (PassSpec.split)


def compile_plan(plan: FramePlan, cx: PlanContext, kept: frozenset[str]) -> CompiledPlan:
    """Resolve every step of `plan` for the key `cx` describes."""
    style = cx.style
    value_size: dict[str, tuple[int, int] | None] = dict(cx.bound_sizes)
    made: set[str] = set()
    ops: list[Op] = []
    prev_inputs: set[str] = set()
    units = 0
    sizes: set[tuple[int, int]] = set()
    tiny = _constant_reads(plan, cx, kept)
    for i, step in enumerate(plan.steps):
        p = step.spec
        size = cx.sizes[p.output]
        op = Op(step.action, p, style.targets[p.output], size)
        op.frees = step.frees
        if step.action == BYPASS:
            op.source = p.inputs[p.bypass].target  # type: ignore[index]
            value_size[p.output] = value_size.get(op.source)
        elif step.action == CLEAR:
            if step.last_read == i:
                continue  # nobody reads what it would leave
            op.clear = tuple(float(v) for v in p.clear) if p.clear is not None else (0.0,) * 4
            if i in tiny:
                op.size = size = (1, 1)
            value_size[p.output] = size
            sizes.add(size)
        else:
            keys = {n: _input_key(i.target, cx.history, made, style, prev_inputs)
                    for n, i in p.inputs.items()}
            in_sizes = {n: value_size.get(k) if k != BLANK else (1, 1)
                        for n, k in keys.items()}
            split = p.name in cx.split
            _compile_run(op, p, step.register, cx, keys, in_sizes, 1 if split else 0)
            units = max([units, *(u + 1 for u, _, _ in op.units)])
            if split:
                op.frees = ()  # (the textures the step frees: after its second part)
                ops.append(op)
                op = Op(step.action, p, style.targets[p.output], size)
                op.frees = step.frees
                _compile_run(op, p, step.register, cx, keys, in_sizes, 2)
                op.onto, op.memo = True, False
                op.tiles = (keys[p.split.input], p.split.channel)  # type: ignore[union-attr]
                units = max([units, *(u + 1 for u, _, _ in op.units)])
            value_size[p.output] = size
            if step.register is not None:
                sizes.add(size)
        made.add(p.output)
        ops.append(op)
    transient = tuple(n for n in dict.fromkeys(o.output for o in ops) if n not in kept)
    return CompiledPlan(plan, tuple(ops), transient, frozenset(sizes), units,
                        tuple(sorted(prev_inputs)))


def _constant_reads(plan: FramePlan, cx: PlanContext, kept: frozenset[str]) -> set[int]:
    """The cleared steps whose value every reader only samples (see `reads_only_values`):
    they clear a 1x1 texture instead of one of the target's size (a 4K picture's outlines,
    turned off, are 16 MB of one value). Not for targets read after the frame or across a
    big still's tiles, nor values a scatter pass counts; a value a bypass hands on counts
    its new name's readers too (the rigger's lines, off, through its temporal blend)."""
    out = set()
    steps = plan.steps
    for i, step in enumerate(steps):
        name = step.spec.output
        if step.action == CLEAR and _read_as_value(steps, i, name, cx, kept):
            out.add(i)
    return out


def _read_as_value(steps: tuple[Step, ...], i: int, name: str, cx: PlanContext,
                   kept: frozenset[str]) -> bool:
    """Whether target `name`, made by steps[i], is read only by filtered lookups until it is
    made again, also under the names bypasses hand it on as."""
    if name in kept or cx.style.targets[name].whole:
        return False
    for j in range(i + 1, len(steps)):
        later = steps[j]
        p = later.spec
        if later.action == BYPASS:
            if p.inputs[p.bypass].target.removesuffix(".prev") == name \
                    and not _read_as_value(steps, j, p.output, cx, kept):  # type: ignore[index]
                return False
        elif not _reads_value_only(later, name, cx):
            return False
        if p.output == name:
            break
    return True


def _reads_value_only(step: Step, name: str, cx: PlanContext) -> bool:
    """Whether a step that runs or clears reads target `name` (if at all) only by filtered
    lookups."""
    p = step.spec
    names = [n for n, i in p.inputs.items() if i.target.removesuffix(".prev") == name]
    if step.action != RUN or not names:
        return True
    return p.scatter not in names and all(cx.values_only(p, n) for n in names)


def _input_key(target: str, history: bool, made: set[str], style: StyleSpec,
               prev_inputs: set[str]) -> str:
    """The bound name an input reads: a `.prev` input reads the previous frame's value when
    there is history, else this frame's when made already, else the 1x1 stand-in."""
    if not target.endswith(".prev"):
        return target
    base = target[:-5]
    if history and style.targets[base].persistent:
        prev_inputs.add(base)
        return target
    return base if base in made else BLANK


def _compile_run(op: Op, p: PassSpec, register: int | None, cx: PlanContext,
                 keys: Mapping[str, str], in_sizes: Mapping[str, tuple[int, int] | None],
                 split: int = 0) -> None:
    op.register = register
    op.memo = not p.inputs and op.name not in cx.regions
    op.region = cx.regions.get(op.name)
    builtins = {**cx.builtins, **cx.pass_builtins(p), "u_split": split}
    dynamic_sizes: list[tuple[str, str, Callable[..., Any]]] = []
    if p.scatter is not None:
        s = in_sizes[p.scatter]
        if s is not None:
            step, grid = scatter_grid(s)
            builtins["u_scatter_step"], builtins["u_scatter_grid"] = step, grid
            op.scatter = (keys[p.scatter], grid[0] * grid[1])
        else:
            op.scatter = (keys[p.scatter], None)
            dynamic_sizes += [("u_scatter_step", keys[p.scatter], _scatter_step),
                              ("u_scatter_grid", keys[p.scatter], _scatter_cells)]

    given = {**builtins, **cx.frame_uniforms}  # the frame's own uniforms come first

    def value(name: str) -> Any:
        return lookup_uniform(name, given, p.uniforms, cx.params, {})

    c = cx.program(p, value)
    op.program = c
    op.units = tuple((unit, keys[n], cx.sampler(p.inputs[n])) for n, unit in c.samplers.items())
    static: list[list[Any]] = []
    params: list[tuple[int, Callable[[Mapping[str, Any]], Any]]] = []
    frame: list[tuple[moderngl.Uniform, str]] = []
    dynamic: list[tuple[moderngl.Uniform, str, str, Callable[..., Any]]] = []
    for name, u in c.uniforms.items():
        if name in FRAME_UNIFORMS:
            frame.append((u, name))
        elif name in builtins:
            static.append([u, name, builtins[name]])
        elif name in p.uniforms:
            v = p.uniforms[name]
            if isinstance(v, str) and v.startswith("$"):
                params.append((len(static), _constant_getter(v)))
            static.append([u, name, constant_value(v, cx.params)])
        elif name.startswith("u_") and name[2:] in cx.params:
            params.append((len(static), _param_getter(name[2:])))
            static.append([u, name, param_value(cx.params[name[2:]])])
        else:
            for sfx, fn in INPUT_UNIFORMS.items():
                base = name[: -len(sfx)]
                if name.endswith(sfx) and base in p.inputs:
                    s = in_sizes[base]
                    if s is not None:
                        static.append([u, name, fn(s)])
                    else:
                        dynamic.append((u, name, keys[base], _texture_size(fn)))
                    break
    for name, key, fn in dynamic_sizes:
        u = c.uniforms.get(name)
        if u is not None:
            dynamic.append((u, name, key, fn))
    op.static, op.params, op.frame, op.dynamic = static, tuple(params), tuple(frame), \
        tuple(dynamic)
    op.rev = -1


def _constant_getter(v: str) -> Callable[[Mapping[str, Any]], Any]:
    return lambda params: constant_value(v, params)


def _param_getter(name: str) -> Callable[[Mapping[str, Any]], Any]:
    return lambda params: param_value(params[name])


def _texture_size(fn: Callable[[tuple[int, int]], Any]) -> Callable[[moderngl.Texture], Any]:
    return lambda t: fn(t.size)


def _scatter_step(t: moderngl.Texture) -> int:
    return scatter_grid(t.size)[0]


def _scatter_cells(t: moderngl.Texture) -> tuple[int, int]:
    return scatter_grid(t.size)[1]

