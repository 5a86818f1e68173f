"""Executing a style's pass graph: programs, uniforms, samplers, ping-pong and history."""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import moderngl
import numpy as np

from .compiled_plan import (
    BLANK,
    FRAME_UNIFORMS,
    CompiledPlan,
    Op,
    PlanContext,
    check_uniforms,
    compile_plan,
    reads_only_values,
    scatter_grid,
    specialization,
)
from .context import cpu_renderer, reset_draw_state
from .errors import StyleError
from .frame_info import (
    FLAG_UNIFORMS,
    FrameInfo,
    frame_px,
    lookup_uniform,
    pass_runs,
    target_factors,
    tile_input,
    when_flag,
    when_holds,
    when_terms,
)
from .frame_plan import BYPASS, CLEAR, RUN, build_plan, unrolled
from .glsl import (
    FULLSCREEN_VERTEX,
    SPLIT_TILES_VERTEX,
    ShaderSource,
    build_program,
    fullscreen_pass,
    with_constants,
)
from .interrupts import critical
from .params import ParamValue
from .style import (
    BUILTIN_FLAGS,
    ORIGINAL,
    SOURCE,
    InputSpec,
    PassSpec,
    RepeatSpec,
    StyleSpec,
    load_texture_array,
)
from .targets import TargetPool

MAX_REPEAT = 64
MAX_PLANS = 64  # compiled frame plans kept (keys met so far; the oldest goes first)
MAX_UNITS = 32  # texture units the executor tracks
# A split pass's second part (PassSpec.split): tiles of SPLIT_TILE output px; its map of
# them on this unit (its source on the one before), past any a pass's inputs take
SPLIT_TILE = 16
SPLIT_UNIT = MAX_UNITS - 1
MAX_SPLIT_MAPS = 8  # grids of those maps kept


@dataclass
class _Compiled:
    spec: PassSpec
    program: moderngl.Program
    vao: moderngl.VertexArray
    uniforms: dict[str, moderngl.Uniform]
    samplers: dict[str, int]  # input name -> texture unit
    written: dict[str, Any] = field(default_factory=dict)  # the uniforms' current values
    owner: Op | None = None  # the step whose static uniforms it holds now


class PassGraph:
    """A style's passes compiled for one GL context, ready to run frame after frame."""

    def __init__(self, ctx: moderngl.Context, style: StyleSpec,
                 shader_root: Path | None = None, *, deep: bool = False) -> None:
        self.ctx = ctx
        self.style = style
        self.pool = TargetPool(ctx, deep=deep)
        self._levels = 65535.0 if deep else 255.0  # of the 8-bit targets, as stored
        self._samplers: dict[tuple[str, str], moderngl.Sampler] = {}
        self._compiled: dict[str, _Compiled] = {}
        # programs with some uniforms compiled in (PassSpec.specialize), made on first use
        self._variants: dict[tuple[str, tuple[tuple[str, float | int], ...]], _Compiled] = {}
        self._shader_root = shader_root
        self._bound: dict[str, moderngl.Texture] = {}
        self._prev: dict[str, moderngl.Texture] = {}
        # the history the last frame read: read again when that frame is painted anew (with
        # its own subject, found after it was painted); its own results in `_prev` would
        # blend it with itself
        self._prev_read: dict[str, moderngl.Texture] = {}
        self._valid_read = False  # ... and whether it held
        self._memo: dict[str, tuple[Any, moderngl.Texture]] = {}
        self._kept: set[int] = set()  # textures kept as previous frames (glo)
        self._params: Mapping[str, ParamValue] = {}
        self._seen: dict[str, ParamValue] | None = None  # the parameters of the last frame
        self._rev = 0  # bumped when they change: steps re-read their parameter uniforms
        self._param_key: tuple[Any, ...] = ()
        self._history_valid = False
        self._plans: dict[tuple[Any, ...], CompiledPlan] = {}
        self._last: CompiledPlan | None = None  # the plan of the last frame
        # split passes (PassSpec.split) drawn in their two parts: on a CPU renderer, which
        # runs every branch of a shader for every pixel (a GPU's skip the parts unused)
        self.split = cpu_renderer(ctx)
        self.plans_built = 0  # frame plans made so far (tests: a pan makes no new ones)
        self._repeats = [n for n in style.graph if isinstance(n, RepeatSpec)]
        self._flags = {a.strip().lstrip("!").strip() for w in self._whens()
                       for term in when_terms(w) for a in term}
        self._atoms = sorted(self._flags - BUILTIN_FLAGS)  # the parameter tests in `when`s
        self._special = [p for p in style.passes() if p.specialize]
        # frame uniforms some pass compiles in: their value is part of the plan's key
        flagged = {FLAG_UNIFORMS[f] for f in self._flags & FLAG_UNIFORMS.keys()}
        self._special_frame = sorted(({n for p in self._special for n in p.specialize}
                                      & FRAME_UNIFORMS) | flagged)
        self._value_reads: dict[tuple[str, str], bool] = {}
        self._persistent = tuple(n for n, t in style.targets.items() if t.persistent)
        self._units: list[Any] = [None] * MAX_UNITS  # (texture, sampler) per unit, this frame
        self._samplers_on: list[Any] = [None] * MAX_UNITS
        # kept after a frame (read by consumers, the next frame or a tile's next run); the
        # other targets share textures with targets whose lives do not overlap theirs
        self._extra: frozenset[str] = frozenset()  # targets kept on request (a debug view)
        self.inspect = False
        # A still's frame: each shared texture is released after its last use in the frame
        # (the peak is the frame's widest moment, not every texture it ever needed); video
        # keeps them for the next frame.
        self.lean = False
        # passes that make a whole-picture target from a tile's (see TileView): they read
        # the tile through u_window
        self._bridges = {p.name for p in style.passes() if style.targets[p.output].whole
                         and any(tile_input(style, i.target) for i in p.inputs.values())}
        self._blank: moderngl.Texture | None = None
        # split passes' maps of tiles (_split_map), by grid: texture, framebuffer, grid (as
        # floats), tiles; a generation for the steps' memos of them (at most MAX_SPLIT_MAPS
        # grids: a video whose size keeps changing starts them afresh)
        self._split_maps: dict[tuple[int, int], tuple[moderngl.Texture, moderngl.Framebuffer,
                                                      tuple[float, float], int]] = {}
        self._split_generation = 0
        # the program that draws them, its vertex array and its two uniforms
        self._split_program: tuple[Any, ...] | None = None
        self._timers: list[moderngl.Query] = []  # reused frame after frame
        self._timed: list[tuple[str, moderngl.Query]] = []  # this frame's (pass, query)
        self.pass_ns: dict[str, int] = {}  # GPU time per pass of the last run (profile=True)
        self.profile = False
        self._textures: dict[str, moderngl.Texture] = {}
        self._texture_files: dict[str, str] = {}  # what a parameter's texture holds now
        try:
            for name, file in style.textures.items():
                self._set_texture(name, load_texture_array(file))
                self._texture_files[name] = ""
            for p in style.passes():
                self._compiled[p.name] = self._compile(p, shader_root)
        except Exception:
            self.release()
            raise

    # -- set-up ---------------------------------------------------------------------------
    def _whens(self) -> list[str]:
        """The `when`s of the style's passes and of their splits."""
        return [w for p in self.style.passes()
                for w in (p.when, p.split.when if p.split is not None else None) if w]

    def _compile(self, p: PassSpec, root: Path | None,
                 constants: Mapping[str, float | int] | None = None) -> _Compiled:
        if constants is None and p.specialize:
            # every uniform it names must be a scalar the shader declares: an error now,
            # not at the first frame that compiles a variant
            with_constants(ShaderSource(p.shader, root).text, dict.fromkeys(p.specialize, 0),
                           p.shader)
        vertex = p.vertex or FULLSCREEN_VERTEX
        if p.split is not None and constants is not None and constants.get("u_split") == 2:
            vertex = SPLIT_TILES_VERTEX  # a split pass's second part: its tiles
        with critical():  # moderngl builds these partly in Python: not to be interrupted
            prog = build_program(self.ctx, vertex, p.shader, root, constants)
            vao = self.ctx.vertex_array(prog, [])
            uniforms = {n: prog[n] for n in prog if isinstance(prog[n], moderngl.Uniform)}
        samplers = {}
        if "split_tiles" in uniforms:  # (common/split_tiles.vert's map: _split_map)
            uniforms.pop("split_tiles").value = SPLIT_UNIT
        for unit, name in enumerate(p.inputs):
            if name in uniforms:
                uniforms.pop(name).value = unit
                samplers[name] = unit
        if constants is None:
            check_uniforms(self.style, p, uniforms)
            self._check_constants(p, uniforms)
        return _Compiled(p, prog, vao, uniforms, samplers)

    def _program(self, p: PassSpec, value: Callable[[str], Any]) -> _Compiled:
        """The pass's program for a plan: `_specialized` given its uniforms' values."""
        c = self._compiled[p.name]
        return self._specialized(c, {n: value(n) for n in p.specialize}) if p.specialize else c

    def _values_only(self, p: PassSpec, name: str) -> bool:
        """Whether the pass reads input `name` only by filtered lookups (its size unread)."""
        c = self._compiled[p.name]
        if f"{name}_size" in c.uniforms or f"{name}_texel" in c.uniforms:
            return False
        key = (p.name, name)
        known = self._value_reads.get(key)
        if known is None:
            known = all(reads_only_values(ShaderSource(s, self._shader_root).text, name)
                        for s in (p.shader, p.vertex or FULLSCREEN_VERTEX))
            self._value_reads[key] = known
        return known

    def _specialized(self, c: _Compiled, values: Mapping[str, Any]) -> _Compiled:
        """The pass's program with its `specialize` uniforms that are 0 (floats) or switches
        (ints) compiled in at their values; compiled with the plan that needs it, then
        reused."""
        key = specialization(c.spec.specialize, values.get)
        if not key:
            return c
        k = (c.spec.name, key)
        variant = self._variants.get(k)
        if variant is None:
            variant = self._variants[k] = self._compile(c.spec, self._shader_root, dict(key))
        return variant

    def _release_unused_variants(self) -> None:
        """Release the specialized programs that no kept plan runs: each seed compiles its
        own paper, so a seed swept through hundreds of values held hundreds of programs."""
        used = {id(op.program) for plan in (*self._plans.values(), self._last) if plan
                for op in plan.ops}
        for k, c in list(self._variants.items()):
            if id(c) not in used:
                del self._variants[k]
                c.vao.release()
                c.program.release()

    def _check_constants(self, p: PassSpec, uniforms: dict[str, moderngl.Uniform]) -> None:
        """A style's constant uniforms must fit the shader's declarations (checked once, at
        build time, with parameters at their defaults): not a crash at the first frame."""
        defaults = {spec.name: spec.default for spec in self.style.params}
        for name, v in p.uniforms.items():
            uni = uniforms.get(name)
            if uni is None:
                continue  # not used by the shader (the GLSL compiler removed it)
            value = lookup_uniform(name, {}, p.uniforms, defaults, {})
            try:
                uni.value = int(value) if isinstance(value, bool) else value
            except (struct.error, TypeError, ValueError, KeyError) as e:
                raise StyleError(f"{self.style.path}: pass {p.name}: uniform {name} = {v!r} "
                                 f"does not fit the shader ({e})") from None

    def _sampler(self, inp: InputSpec) -> moderngl.Sampler:
        key = (inp.filter, inp.wrap)
        s = self._samplers.get(key)
        if s is None:
            f = moderngl.NEAREST if inp.filter == "nearest" else moderngl.LINEAR
            rep = inp.wrap == "repeat"
            s = self.ctx.sampler(filter=(f, f), repeat_x=rep, repeat_y=rep)
            self._samplers[key] = s
        return s

    # -- running --------------------------------------------------------------------------
    def target_size(self, name: str, frame: FrameInfo,
                    params: Mapping[str, ParamValue] | None = None) -> tuple[int, int]:
        t = self.style.targets[name]
        if t.size is not None:
            return t.size
        if name in frame.sizes:
            return frame.sizes[name]
        base = frame.source.size if t.relative_to == "source" else frame.work_size
        if t.whole and frame.tile is not None:
            base = frame.tile.whole_size
        kx, ky = target_factors(self.style, t, frame,
                                params if params is not None else self._params)
        return (max(1, round(base[0] * kx)), max(1, round(base[1] * ky)))

    def _set_texture(self, name: str, arr: np.ndarray) -> None:
        if arr.ndim == 2:
            arr = arr[:, :, None]
        dtype = {"uint8": "f1", "float16": "f2", "float32": "f4"}[arr.dtype.name]
        tex = self.ctx.texture((arr.shape[1], arr.shape[0]), arr.shape[2],
                               np.ascontiguousarray(arr).tobytes(), dtype=dtype, alignment=1)
        tex.repeat_x = tex.repeat_y = False
        old = self._textures.get(name)
        if old is not None:
            old.release()
        self._textures[name] = tex

    def _load_texture_params(self, params: Mapping[str, ParamValue]) -> None:
        """Textures a file parameter names: loaded when the parameter changes."""
        from .lut import FILE_LOADERS

        for name, param in self.style.texture_params.items():
            file = str(params[param])
            if self._texture_files.get(name) == file:
                continue
            if file:
                self._set_texture(name, FILE_LOADERS[Path(file).suffix.lower()](file))
            else:
                self._set_texture(name, load_texture_array(self.style.textures[name]))
            self._texture_files[name] = file

    def reset_history(self) -> None:
        """Forget the previous frame (scene cut, seek, new source)."""
        self._history_valid = False

    def run(self, frame: FrameInfo, params: Mapping[str, ParamValue]) -> None:
        """Render one frame through every pass: the frame's compiled plan, executed."""
        reset_draw_state(self.ctx)
        if params != self._seen:
            self._seen = dict(params)
            self._rev += 1
            if self.style.texture_params:
                self._load_texture_params(params)
            self._param_key = self._structure(params)
        self._params = params
        if self.profile:
            self.pass_ns = {}
        fv = {"u_seed": int(frame.seed) & 0x7FFFFFFF, "u_frame": int(frame.frame),
              **frame.uniforms}
        if frame.again:
            self._prev.clear()
            self._prev.update(self._prev_read)
            self._history_valid = self._valid_read
        else:  # (in place: no allocation a frame)
            self._prev_read.clear()
            self._prev_read.update(self._prev)
            self._valid_read = self._history_valid
        plan, history = self._plan(frame, params, fv)
        prev = self._prev
        bound = self._bound = {SOURCE: frame.source, ORIGINAL: frame.source,
                               **frame.externals, **self._textures}
        if frame.tile is not None:
            bound.update(frame.tile.inputs)
        if plan.prev_inputs:
            for name in plan.prev_inputs:
                bound[name + ".prev"] = prev.get(name) or self._blank_texture()
        bound[BLANK] = self._blank_texture()
        self._kept = {t.glo for t in prev.values()}
        units, samplers = self._units, self._samplers_on
        for i in range(plan.units):
            units[i] = samplers[i] = None  # another draw may have bound anything since
        lean = self.lean
        for op in plan.ops:
            action = op.action
            if action is RUN:
                self._run_op(op, bound, fv)
            elif action is BYPASS:
                bound[op.output] = bound[op.source]
            else:
                bound[op.output] = self.pool.cleared(op.target, op.size, op.clear)
            if lean and op.frees:
                for kind, register in op.frees:
                    self.pool.drop(kind, register)
        if self._timed:
            ns = self.pass_ns
            for name, q in self._timed:
                ns[name] = ns.get(name, 0) + q.elapsed
            self._timed.clear()
        if plan.units:
            # sampler objects stay bound between passes (each pass sets its own units'):
            # unbound once, for what draws after the graph (the display, the fitter)
            self.ctx.clear_samplers(0, plan.units)
        if plan is not self._last:
            self.pool.keep_sizes(plan.sizes)  # the frame's size changed: the others go
            self._last = plan
        for name in plan.transient:
            del bound[name]  # its texture may hold another target by now
        if not frame.keep_history:
            prev.clear()
            self._prev_read.clear()  # (nor did this frame read any: no history kept)
            self._history_valid = self._valid_read = False
            return
        for name in self._persistent:
            tex = bound.get(name)
            if tex is not None:
                prev[name] = tex
        self._history_valid = True

    def _run_op(self, op: Op, bound: dict[str, moderngl.Texture], fv: Mapping[str, Any]
                ) -> None:
        """Draw one step: bind what differs from the last step, write what moved."""
        if op.rev != self._rev:
            self._refresh(op)  # before the memo: its key is these values
        c = op.program
        if op.memo:
            # A pass that reads no texture (the procedural paper) draws the same picture as
            # long as its program and uniforms are the same: keep last frame's, while its
            # slot holds it.
            memo = (id(c), tuple([e[2] for e in op.static]),
                    tuple([fv.get(n) for _, n in op.frame]))
            kept = self._memo.get(op.name)
            if kept is not None and kept[0] == memo \
                    and any(t is kept[1] for t in self.pool.slots(op.target, op.size)):
                bound[op.output] = kept[1]
                return
        pool = self.pool
        if op.onto:  # a split pass's second part: onto what its first part drew
            out = bound[op.output]
            fbo = pool.framebuffer(out)
        elif op.register is not None:
            generation, out, fbo = op.drawn
            if generation != pool.generation:
                out = pool.shared(op.target, op.size, op.register)
                fbo = pool.framebuffer(out)
                op.drawn = (pool.generation, out, fbo)
        else:
            busy = self._kept | {bound[name].glo for _, name, _ in op.units}
            out = pool.free_slot(op.target, op.size, busy)
            fbo = pool.framebuffer(out)
        # after the output is found: a texture made now is bound to the default unit
        units, samplers = self._units, self._samplers_on
        for unit, name, sampler in op.units:
            tex = bound[name]
            if units[unit] is not tex:
                tex.use(unit)
                units[unit] = tex
            if samplers[unit] is not sampler:
                sampler.use(unit)
                samplers[unit] = sampler
        written = c.written
        if c.owner is not op:
            for u, name, value in op.static:
                if not _same(written.get(name, _UNSET), value):
                    u.value = value
                    written[name] = value
            c.owner = op
        for u, name in op.frame:
            value = fv.get(name)
            if value is not None and not _same(written.get(name, _UNSET), value):
                u.value = value
                written[name] = value
        for u, name, key, fn in op.dynamic:
            value = fn(bound[key])
            if not _same(written.get(name, _UNSET), value):
                u.value = value
                written[name] = value
        if op.region is not None:
            fbo.scissor = op.region
        fbo.use()
        if self.profile:
            # one query a step, read once the whole frame is issued: reading each after its
            # pass would wait for the GPU every pass (a table summing past the frame's time)
            timers = self._timers
            if len(timers) <= len(self._timed):
                timers.append(self.ctx.query(time=True))
            q = timers[len(self._timed)]
            with q:
                self._draw(op, fbo, bound)
            self._timed.append((op.name, q))
        else:
            self._draw(op, fbo, bound)
        if op.region is not None:
            fbo.scissor = None
        bound[op.output] = out
        if op.memo:
            self._memo[op.name] = (memo, out)

    def _refresh(self, op: Op) -> None:
        """The step's parameter uniforms after the parameters moved."""
        for index, get in op.params:
            entry = op.static[index]
            value = get(self._params)
            if not _same(entry[2], value):
                entry[2] = value
                op.program.owner = None
        op.rev = self._rev

    def _structure(self, params: Mapping[str, ParamValue]) -> tuple[Any, ...]:
        """What of the parameters decides a plan: the repeat counts, the parameter tests of
        the `when`s, the specialized programs, the targets' sizes and the textures' files
        (a parameter that only feeds uniforms is not in it)."""
        return (
            tuple(min(MAX_REPEAT, max(0, int(params[r.count]))) for r in self._repeats),
            tuple(when_flag(a, None, params, False) for a in self._atoms),  # type: ignore[arg-type]
            tuple(specialization(p.specialize, lambda n, p=p: lookup_uniform(
                n, {}, p.uniforms, params, {})) for p in self._special),
            tuple(t.factors(params) for t in self.style.targets.values()),
            tuple(str(params[v]) for v in self.style.texture_params.values()))

    def _plan(self, frame: FrameInfo, params: Mapping[str, ParamValue],
              fv: Mapping[str, Any]) -> tuple[CompiledPlan, bool]:
        """This frame's compiled plan, and whether it reads the previous frame: made once
        for each key (the parameters' structure, the frame's sizes and modes, the tile, the
        frame uniforms compiled in (`fv`: the frame's, the seed's too), whether history is
        read and kept), then reused."""
        tile = frame.tile
        key: tuple[Any, ...] = (
            self._param_key, frame.source.size, frame.work_size, frame.scale,
            frame.drafted_from, frame.full_targets, frame.learned, frame.keep_history,
            tuple(frame.sizes.items()) if frame.sizes else (),
            None if tile is None else (tile.origin, tile.whole_size, tile.passes,
                                       tuple(tile.regions.items())),
            tuple([_special_value(fv.get(n)) for n in self._special_frame]), self.split)
        history = frame.history and self._history_valid
        if history:
            sizes = self._sizes.get(key)
            if sizes is None:
                sizes = self._sizes[key] = {n: self.target_size(n, frame)
                                            for n in self.style.targets}
                if len(self._sizes) > MAX_PLANS:
                    del self._sizes[next(iter(self._sizes))]
            history = all(t.size == sizes[n] for n, t in self._prev.items())
        plan = self._plans.get((key, history))
        if plan is None:
            plan = self._plans[(key, history)] = self._build(frame, params, history, fv)
            if len(self._plans) > MAX_PLANS:
                del self._plans[next(iter(self._plans))]
                self._release_unused_variants()
            self.plans_built += 1
        return plan, history

    def _build(self, frame: FrameInfo, params: Mapping[str, ParamValue],
               history: bool, fv: Mapping[str, Any]) -> CompiledPlan:
        """Plan and compile a frame of this key (variants it needs compiled now)."""
        tile = frame.tile
        counts = {r.count: min(MAX_REPEAT, max(0, int(params[r.count]))) for r in self._repeats}
        passes = unrolled(self.style, counts)
        runs = {p.name: pass_runs(p, frame, params, history) for p in passes
                if tile is None or p.name in tile.passes}
        kept = self._kept_targets(frame)
        targets = self.style.targets
        sizes = {n: self.target_size(n, frame) for n in targets}
        plan = build_plan(passes, runs, kept, lambda n: (sizes[n], targets[n].components,
                                                           self.pool.dtype(targets[n])))
        split = frozenset(p.name for p in passes if self.split and p.split is not None and (
            p.split.when is None or when_holds(p.split.when, frame, params, history)))
        bound_sizes: dict[str, tuple[int, int] | None] = {
            SOURCE: frame.source.size, ORIGINAL: frame.source.size,
            **{n: None for n in frame.externals},
            **{n: t.size for n, t in self._textures.items()}}
        if tile is not None:
            bound_sizes.update(dict.fromkeys(tile.inputs))
        if history:
            bound_sizes.update({f"{n}.prev": sizes[n] for n in self._persistent})
        builtins = self._key_builtins(frame, history)
        whole: dict[str, Any] = {}
        if tile is not None:
            (ox, oy), (ww, wh) = tile.origin, tile.whole_size
            tw, th = frame.work_size
            builtins["u_origin"] = (float(ox), float(oy))
            # a pass onto a whole target draws the whole picture's grid; one that makes it
            # from this tile reads the tile through u_window
            whole = {"u_origin": (0.0, 0.0), "u_work_size": (float(ww), float(wh)),
                     "u_window": (ww / tw, wh / th, -ox / tw, -oy / th)}

        def pass_builtins(p: PassSpec) -> dict[str, Any]:
            size = sizes[p.output]
            out = {"u_resolution": (float(size[0]), float(size[1])),
                   "u_texel": (1.0 / size[0], 1.0 / size[1]),
                   "u_target_scale": float(target_factors(self.style, targets[p.output],
                                                          frame, params)[0])}
            if whole and targets[p.output].whole:
                out.update(whole)
                if p.name not in self._bridges:
                    out["u_window"] = _NO_WINDOW
            return out

        cx = PlanContext(self.style, sizes, bound_sizes, builtins, pass_builtins, fv, params,
                         history, self._program, self._values_only, self._sampler,
                         tile.regions if tile is not None else {}, split)
        return compile_plan(plan, cx, kept)

    def _key_builtins(self, frame: FrameInfo, history: bool) -> dict[str, Any]:
        """The built-ins every pass of a frame of this key shares."""
        return {
            "u_scale": float(frame.scale),
            "u_history": int(history),
            "u_learned": int(frame.learned),
            "u_work_size": (float(frame.work_size[0]), float(frame.work_size[1])),
            # the whole picture's source size (a tile's, or this frame's)
            "u_picture": tuple(float(v) for v in (frame.tile.whole_size if frame.tile
                                                  else frame.source.size)),
            # ... and at full quality (a draft's frame's): what seeds a shape that must not
            # change with the processing scale (live adaptive quality moves it)
            "u_full_size": tuple(float(v) for v in (frame.drafted_from or (
                frame.tile.whole_size if frame.tile else frame.source.size))),
            "u_px": frame_px(self.style, frame),
            "u_levels": self._levels,  # steps of an 8-bit target as stored (16-bit when deep)
            # a tile's top-left corner in the whole picture: noise and paper are seeded by the
            # picture's pixel, not the tile's
            "u_origin": (0.0, 0.0),
            "u_window": _NO_WINDOW,
        }

    @property
    def plan(self) -> CompiledPlan | None:
        """The plan of the last frame (benchmarks count its steps)."""
        return self._last

    @property
    def inspect(self) -> bool:
        """Whether every target is kept after a frame for reading (tests, debugging): no
        two targets share a texture."""
        return self._inspect

    @inspect.setter
    def inspect(self, on: bool) -> None:
        self._inspect = on
        self._update_kept()

    def keep(self, names: Iterable[str]) -> None:
        """Targets kept after each frame besides the style's own (a debug view on screen)."""
        extra = frozenset(names) & set(self.style.targets)
        if extra != self._extra:
            self._extra = extra
            self._update_kept()

    def _update_kept(self) -> None:
        self._kept_sets: dict[tuple[bool, bool], frozenset[str]] = {}
        self._plans.clear()
        self._sizes: dict[tuple[Any, ...], dict[str, tuple[int, int]]] = {}

    def _kept_targets(self, frame: FrameInfo) -> frozenset[str]:
        """The targets that outlive this frame: the output, what passes without inputs drew
        (kept as drawn), the history when a frame follows, the whole picture's targets
        across a big still's tiles, the targets asked for; every one when inspecting."""
        key = (frame.keep_history, frame.tile is not None)
        kept = self._kept_sets.get(key)
        if kept is None:
            targets = self.style.targets
            if self._inspect:
                names = set(targets)
            else:
                names = {self.style.output, *self._extra} | {
                    p.output for p in self.style.passes() if not p.inputs}
                names |= {n for n, t in targets.items() if (t.persistent and key[0])
                          or (t.whole and key[1])}
            kept = self._kept_sets[key] = frozenset(names)
        return kept

    def trim(self) -> None:
        """Release the shared textures no kept target holds (after a still)."""
        self.pool.trim({t.glo for t in (*self._bound.values(), *self._prev.values(),
                                        *self._prev_read.values())})

    def release_targets(self, names: Iterable[str]) -> None:
        """Free these targets' textures now; a later run that needs them makes them again (a
        big still's whole-picture targets, once its tiles hold what they read of them)."""
        for name in names:
            self.pool.slots(self.style.targets[name], (0, 0))  # another size: dropped

    @property
    def shader_root(self) -> Path | None:
        """Where this graph's shaders come from (None: the installed ones)."""
        return self._shader_root

    def uses_uniform(self, name: str) -> bool:
        """Whether any pass's shader reads this uniform (built-ins that cost work to make)."""
        return any(name in c.uniforms for c in self._compiled.values())

    def output(self, name: str | None = None) -> moderngl.Texture:
        """The texture a target holds after the last run (the style's output by default)."""
        return self._bound[name or self.style.output]

    def has(self, name: str) -> bool:
        """Whether the last run produced `name`."""
        return name in self._bound

    def drawn(self, name: str) -> bool:
        """Whether the last run drew `name` (or aliased it), rather than clearing it: the
        passes that make it did not run for that frame's values and flags (a stereo pair's
        matching, given one picture)."""
        plan = self._last
        return plan is None or all(op.action is not CLEAR for op in plan.ops
                                   if op.output == name)

    def _blank_texture(self) -> moderngl.Texture:
        if self._blank is None:
            self._blank = self.ctx.texture((1, 1), 4, bytes(4))
        return self._blank

    def _draw(self, op: Op, fbo: moderngl.Framebuffer,
              bound: Mapping[str, moderngl.Texture]) -> None:
        vao = op.program.vao
        if op.tiles is not None:  # two triangles a tile (those not flagged collapse)
            tiles = self._split_map(op, bound[op.tiles[0]], fbo)
            vao.render(moderngl.TRIANGLES, vertices=6 * tiles)
            return
        if op.scatter is None:
            vao.render(moderngl.TRIANGLES, vertices=3)
            return
        fbo.clear(0.0, 0.0, 0.0, 0.0)
        name, vertices = op.scatter
        if vertices is None:
            columns, rows = scatter_grid(bound[name].size)[1]
            vertices = columns * rows
        self.ctx.enable(moderngl.BLEND)
        self.ctx.blend_func = moderngl.ONE, moderngl.ONE
        try:
            vao.render(moderngl.POINTS, vertices=vertices)
        finally:
            self.ctx.disable(moderngl.BLEND)
            self.ctx.blend_func = moderngl.DEFAULT_BLENDING

    def _split_map(self, op: Op, src: moderngl.Texture, out: moderngl.Framebuffer) -> int:
        """The tiles of `out` where `src`'s channel (the step's) is above 0
        (common/split_map.frag), drawn and bound to SPLIT_UNIT for a split pass's second part
        (`out` in use again); how many tiles."""
        memo = op.split_map
        if memo is None or memo[0] != self._split_generation or memo[1] is not out:
            memo = op.split_map = (self._split_generation, out, *self._split_texture(out.size))
        _, _, tex, fbo, grid, tiles = memo
        _, vao, channel, grid_uniform = self._split_program  # type: ignore[misc]
        src.use(SPLIT_UNIT - 1)
        channel.value = op.tiles[1]  # type: ignore[index]
        grid_uniform.value = grid
        fbo.use()
        vao.render(moderngl.TRIANGLES, vertices=3)
        tex.use(SPLIT_UNIT)
        out.use()
        return tiles

    def _split_texture(self, size: tuple[int, int]) -> tuple[Any, ...]:
        """The map of tiles for an output of `size` (made on first use)."""
        grid = (-(-size[0] // SPLIT_TILE), -(-size[1] // SPLIT_TILE))
        made = self._split_maps.get(grid)
        if made is None:
            if len(self._split_maps) >= MAX_SPLIT_MAPS:
                self._release_split_maps()
            if self._split_program is None:
                program, vao = fullscreen_pass(self.ctx, "common/split_map.frag",
                                               self._shader_root)
                program["src"].value = SPLIT_UNIT - 1
                self._split_program = (program, vao, program["u_channel"], program["u_grid"])
            tex = self.ctx.texture(grid, 1, dtype="f1")
            made = self._split_maps[grid] = (
                tex, self.ctx.framebuffer(color_attachments=[tex]),
                (float(grid[0]), float(grid[1])), grid[0] * grid[1])
        return made

    def _release_split_maps(self) -> None:
        for tex, fbo, _, _ in self._split_maps.values():
            fbo.release()
            tex.release()
        self._split_maps.clear()
        self._split_generation += 1  # (the steps' memos of them are stale)

    # -- clean-up -------------------------------------------------------------------------
    def release(self) -> None:
        """Release all GL objects of the graph."""
        for c in (*self._compiled.values(), *self._variants.values()):
            c.vao.release()
            c.program.release()
        self._compiled.clear()
        self._variants.clear()
        for s in self._samplers.values():
            s.release()
        self._samplers.clear()
        self._timers.clear()  # queries have no explicit release; the context frees them
        for tex in self._textures.values():
            tex.release()
        self._textures.clear()
        if self._blank is not None:
            self._blank.release()
            self._blank = None
        self._release_split_maps()
        if self._split_program is not None:
            self._split_program[1].release()
            self._split_program[0].release()
            self._split_program = None
        self.pool.release()
        self._bound.clear()
        self._prev.clear()
        self._prev_read.clear()
        self._memo.clear()
        self._plans.clear()
        self._last = None


_UNSET = object()
_NO_WINDOW = (1.0, 1.0, 0.0, 0.0)


def _same(old: Any, new: Any) -> bool:
    """A uniform's value is unchanged (scalars and tuples; anything else is written again)."""
    return type(old) is type(new) and isinstance(new, int | float | tuple) and old == new


def _special_value(v: Any) -> Any:
    """What of a frame uniform's value decides its variant (see `specialization`)."""
    if isinstance(v, int):
        return int(v)
    return v == 0.0 if isinstance(v, float) else None
