"""Executing a style's pass graph: programs, uniforms, samplers, ping-pong and history."""

from __future__ import annotations

import functools
import math
import struct
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import moderngl
import numpy as np

from .context import reset_draw_state
from .critical import critical
from .errors import StyleError
from .frame_plan import BYPASS, RUN, FramePlan, Step, build_plan, unrolled
from .glsl import ShaderSource, build_program, with_constants
from .params import ParamValue
from .style import (
    ORIGINAL,
    SOURCE,
    WHEN_COMPARISON,
    InputSpec,
    PassSpec,
    RepeatSpec,
    StyleSpec,
    TargetSpec,
    load_texture_array,
)
from .targets import TargetPool

VERTEX_SHADER = "common/fullscreen.vert"
MAX_REPEAT = 64
MAX_PLANS = 64  # frame plans kept (combinations of `when` outcomes met so far)
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


@dataclass
class _Compiled:
    spec: PassSpec
    program: moderngl.Program
    vao: moderngl.VertexArray
    uniforms: dict[str, moderngl.Uniform]
    samplers: dict[str, int]  # input name -> texture unit
    written: dict[str, Any] = field(default_factory=dict)  # the uniforms' current values


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
        self._memo: dict[str, tuple[dict[str, Any], moderngl.Texture]] = {}
        self._frame_builtins: dict[str, Any] = {}  # this frame's built-ins shared by passes
        self._kept: set[int] = set()  # textures kept as previous frames (glo)
        self._params: Mapping[str, ParamValue] = {}
        self._history_valid = False
        self._plans: dict[tuple[Any, ...], FramePlan] = {}
        self.plans_built = 0  # frame plans made so far (tests: a pan makes no new ones)
        self._repeats = [n for n in style.graph if isinstance(n, RepeatSpec)]
        self._conditional = [p for p in style.passes() if p.when is not None]
        self._live: dict[int, float] = {}  # texture (glo) -> the last step reading it
        self._position = 0  # the step being made
        self._units = 0  # texture units given sampler objects this frame
        # kept after a frame (read by consumers, the next frame or a tile's next run); the
        # other targets share textures with targets whose lives do not overlap theirs
        self._extra: frozenset[str] = frozenset()  # targets kept on request (a debug view)
        self._frame_kept: frozenset[str] = frozenset()
        self.inspect = False
        # passes that make a whole-picture target from a tile's (see TileView): they read
        # the tile through u_window
        self._bridges = {p.name for p in style.passes() if style.targets[p.output].whole
                         and any(tile_input(style, i.target) for i in p.inputs.values())}
        self._whole_builtins: dict[str, Any] = {}  # what passes onto whole targets see
        self._blank: moderngl.Texture | None = None
        self._timers: dict[str, moderngl.Query] = {}
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
    def _compile(self, p: PassSpec, root: Path | None,
                 constants: Mapping[str, float | int] | None = None) -> _Compiled:
        if constants is None and p.specialize:
            # every uniform it names must be a scalar the shader declares: an error now,
            # not at the first frame that compiles a variant
            with_constants(ShaderSource(p.shader, root).text, dict.fromkeys(p.specialize, 0),
                           p.shader)
        with critical():  # moderngl builds these partly in Python: not to be interrupted
            prog = build_program(self.ctx, p.vertex or VERTEX_SHADER, p.shader, root,
                                 constants)
            vao = self.ctx.vertex_array(prog, [])
            uniforms = {n: prog[n] for n in prog if isinstance(prog[n], moderngl.Uniform)}
        samplers = {}
        for unit, name in enumerate(p.inputs):
            if name in uniforms:
                uniforms.pop(name).value = unit
                samplers[name] = unit
        if constants is None:
            self._check_constants(p, uniforms)
        return _Compiled(p, prog, vao, uniforms, samplers)

    def _specialized(self, c: _Compiled, values: Mapping[str, Any]) -> _Compiled:
        """The pass's program with its `specialize` uniforms that are 0 (floats) or switches
        (ints) compiled in at their values; compiled on first use, then reused."""
        key = []
        for name in c.spec.specialize:
            v = values.get(name)
            if isinstance(v, int):
                key.append((name, int(v)))
            elif isinstance(v, float) and v == 0.0:
                key.append((name, 0.0))
        if not key:
            return c
        k = (c.spec.name, tuple(key))
        variant = self._variants.get(k)
        if variant is None:
            variant = self._variants[k] = self._compile(c.spec, self._shader_root, dict(key))
        return variant

    def _check_constants(self, p: PassSpec, uniforms: dict[str, moderngl.Uniform]) -> None:
        """A style's constant uniforms must fit the shader's declarations (checked once, at
        build time, with parameters at their defaults): not a crash at the first frame."""
        defaults = {spec.name: spec.default for spec in self.style.params}
        for name, v in p.uniforms.items():
            uni = uniforms.get(name)
            if uni is None:
                continue  # not used by the shader (the GLSL compiler removed it)
            value = _lookup(name, {}, p.uniforms, defaults, {})
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
        """Render one frame through every pass."""
        reset_draw_state(self.ctx)
        if self.style.texture_params:
            self._load_texture_params(params)
        self._bound = {SOURCE: frame.source, ORIGINAL: frame.source, **frame.externals,
                       **self._textures, **(frame.tile.inputs if frame.tile else {})}
        self._params = params
        if self.profile:
            self.pass_ns = {}
        sizes_before = {n: self.target_size(n, frame) for n in self._prev}
        history = frame.history and self._history_valid and all(
            self._prev[n].size == s for n, s in sizes_before.items())
        # what every pass of this frame shares (a GPU frame is mostly this Python per pass)
        self._frame_builtins = {
            "u_seed": int(frame.seed) & 0x7FFFFFFF,
            "u_frame": int(frame.frame),
            "u_scale": float(frame.scale),
            "u_history": int(history),
            "u_learned": int(frame.learned),
            "u_work_size": (float(frame.work_size[0]), float(frame.work_size[1])),
            # the whole picture's source size (a tile's, or this frame's)
            "u_picture": tuple(float(v) for v in (frame.tile.whole_size if frame.tile
                                                  else frame.source.size)),
            "u_px": frame_px(self.style, frame),
            "u_levels": self._levels,  # steps of an 8-bit target as stored (16-bit when deep)
            # a tile's top-left corner in the whole picture: noise and paper are seeded by the
            # picture's pixel, not the tile's
            "u_origin": (0.0, 0.0),
            "u_window": _NO_WINDOW,
            **frame.uniforms,
        }
        self._whole_builtins = {}
        if frame.tile is not None:
            (ox, oy), (ww, wh) = frame.tile.origin, frame.tile.whole_size
            tw, th = frame.work_size
            self._frame_builtins["u_origin"] = (float(ox), float(oy))
            # a pass onto a whole target draws the whole picture's grid; one that makes it
            # from this tile reads the tile through u_window
            self._whole_builtins = {"u_origin": (0.0, 0.0),
                                    "u_work_size": (float(ww), float(wh)),
                                    "u_window": (ww / tw, wh / th, -ox / tw, -oy / th)}
        self._kept = {t.glo for t in self._prev.values()}
        self._frame_kept = self._kept_targets(frame)
        self._live = {}
        for i, step in enumerate(self._frame_plan(frame, params, history).steps):
            self._position = i
            if step.action == RUN:
                self._run_pass(step, frame, params, history)
            else:
                self._skip(step, frame)
        if self._units:
            # sampler objects stay bound between passes (each pass sets its own units'):
            # unbound once, for what draws after the graph (the display, the fitter)
            self.ctx.clear_samplers(0, self._units)
            self._units = 0
        self.pool.end_frame()
        for name in [n for n in self._bound
                     if n in self.style.targets and n not in self._frame_kept]:
            del self._bound[name]  # its texture may hold another target by now
        if not frame.keep_history:
            self._prev.clear()
            self._history_valid = False
            return
        for name, spec in self.style.targets.items():
            if spec.persistent and name in self._bound:
                self._prev[name] = self._bound[name]
        self._history_valid = True

    def _frame_plan(self, frame: FrameInfo, params: Mapping[str, ParamValue],
                    history: bool) -> FramePlan:
        """This frame's plan: made once for each combination of the passes' `when`
        outcomes, the repeat counts, the tile's passes and whether history is kept (which
        decide `_frame_kept`), then reused."""
        tile = frame.tile.passes if frame.tile is not None else None
        repeats = tuple(min(MAX_REPEAT, max(0, int(params[r.count]))) for r in self._repeats)
        runs = tuple(p.when is None or _condition(p.when, frame, params, history)
                     for p in self._conditional)
        key = (repeats, runs, tile, frame.keep_history)
        plan = self._plans.get(key)
        if plan is None:
            counts = {r.count: n for r, n in zip(self._repeats, repeats, strict=True)}
            passes = unrolled(self.style, counts)
            outcome = dict(zip((p.name for p in self._conditional), runs, strict=True))
            plan = build_plan(passes, {p.name: outcome.get(p.name, True) for p in passes
                                       if tile is None or p.name in tile},
                              self._frame_kept)
            if len(self._plans) >= MAX_PLANS:
                self._plans.clear()
            self._plans[key] = plan
            self.plans_built += 1
        return plan

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
        self.pool.trim({t.glo for t in (*self._bound.values(), *self._prev.values())})

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

    def _input_texture(self, target: str, history: bool) -> moderngl.Texture:
        if target.endswith(".prev"):
            base = target[:-5]
            if history and base in self._prev:
                return self._prev[base]
            return self._bound.get(base) or self._blank_texture()
        return self._bound[target]

    def _blank_texture(self) -> moderngl.Texture:
        if self._blank is None:
            self._blank = self.ctx.texture((1, 1), 4, bytes(4))
        return self._blank

    def _run_pass(self, step: Step, frame: FrameInfo, params: Mapping[str, ParamValue],
                  history: bool) -> None:
        tile = frame.tile
        p = step.spec
        c = self._compiled[p.name]
        inputs = {n: self._input_texture(i.target, history) for n, i in p.inputs.items()}
        spec = self.style.targets[p.output]
        size = self.target_size(p.output, frame)
        values = self._uniform_values(c, inputs, size, params,
                                      target_factors(self.style, spec, frame, params)[0])
        if p.specialize:
            c = self._specialized(c, values)
        region = tile.regions.get(p.name) if tile is not None else None
        if not inputs and region is None:
            # A pass that reads no texture (the procedural paper) draws the same picture as
            # long as its uniforms are the same: keep last frame's, while its slot holds it.
            kept = self._memo.get(p.name)
            if kept is not None and kept[0] == values \
                    and any(t is kept[1] for t in self.pool.slots(spec, size)):
                self._bind(step, kept[1])
                return
        out = self._out_texture(p.output, size, {t.glo for t in inputs.values()})
        for name, unit in c.samplers.items():
            inputs[name].use(unit)
            self._sampler(p.inputs[name]).use(unit)
        written = c.written
        for name, value in values.items():
            u = c.uniforms.get(name)
            # None: compiled in, or dropped by the compiler; a program keeps what was written
            if u is not None and not _same(written.get(name, _UNSET), value):
                u.value = value
                written[name] = value
        if not inputs and region is None:
            self._memo[p.name] = (values, out)
        fbo = self.pool.framebuffer(out)
        fbo.scissor = region
        fbo.use()
        if self.profile:
            q = self._timers.get(p.name)
            if q is None:
                q = self._timers[p.name] = self.ctx.query(time=True)
            with q:
                self._draw(c, fbo, inputs)
            self.pass_ns[p.name] = self.pass_ns.get(p.name, 0) + q.elapsed
        else:
            self._draw(c, fbo, inputs)
        self._units = max(self._units, len(c.samplers))
        if region is not None:
            fbo.scissor = None
        self._bind(step, out)

    def _out_texture(self, target: str, size: tuple[int, int],
                     inputs: set[int]) -> moderngl.Texture:
        """A texture to draw `target` into: never an input of the pass, a texture kept as a
        previous frame (a persistent target may alias another target's texture when its pass
        was bypassed), nor one holding a value a later step reads."""
        spec = self.style.targets[target]
        busy = inputs | self._kept
        if target in self._frame_kept:
            return self.pool.free_slot(spec, size, busy)
        busy |= {glo for glo, until in self._live.items() if until >= self._position}
        return self.pool.shared_slot(spec, size, busy)

    def _bind(self, step: Step, tex: moderngl.Texture) -> None:
        self._bound[step.spec.output] = tex
        self._live[tex.glo] = max(self._live.get(tex.glo, -1), step.last_read)

    def _draw(self, c: _Compiled, fbo: moderngl.Framebuffer,
              inputs: dict[str, moderngl.Texture]) -> None:
        if c.spec.scatter is None:
            c.vao.render(moderngl.TRIANGLES, vertices=3)
            return
        fbo.clear(0.0, 0.0, 0.0, 0.0)
        step, grid = scatter_grid(inputs[c.spec.scatter].size)
        self.ctx.enable(moderngl.BLEND)
        self.ctx.blend_func = moderngl.ONE, moderngl.ONE
        try:
            c.vao.render(moderngl.POINTS, vertices=grid[0] * grid[1])
        finally:
            self.ctx.disable(moderngl.BLEND)
            self.ctx.blend_func = moderngl.DEFAULT_BLENDING

    def _skip(self, step: Step, frame: FrameInfo) -> None:
        p = step.spec
        if step.action == BYPASS:
            self._bind(step, self._bound[p.inputs[p.bypass].target])  # type: ignore[index]
            return
        if step.last_read == self._position:
            return  # nothing reads what it would leave
        value = tuple(float(v) for v in p.clear) if p.clear is not None else (0.0,) * 4
        size = self.target_size(p.output, frame)
        self._bind(step, self.pool.cleared(self.style.targets[p.output], size, value))

    def _uniform_values(self, c: _Compiled, inputs: dict[str, moderngl.Texture],
                        size: tuple[int, int], params: Mapping[str, ParamValue],
                        target_scale: float) -> dict[str, Any]:
        builtins: dict[str, Any] = {
            **self._frame_builtins,
            "u_resolution": (float(size[0]), float(size[1])),
            "u_texel": (1.0 / size[0], 1.0 / size[1]),
            "u_target_scale": float(target_scale),
        }
        if self._whole_builtins and self.style.targets[c.spec.output].whole:
            builtins.update(self._whole_builtins)
            if c.spec.name not in self._bridges:
                builtins["u_window"] = _NO_WINDOW
        if c.spec.scatter is not None:
            step, grid = scatter_grid(inputs[c.spec.scatter].size)
            builtins["u_scatter_step"] = step
            builtins["u_scatter_grid"] = grid
        values = {}
        for name in c.uniforms:
            value = _lookup(name, builtins, c.spec.uniforms, params, inputs)
            if value is not None:
                values[name] = value
        return values

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
        self.pool.release()
        self._bound.clear()
        self._prev.clear()
        self._memo.clear()


MAX_SCATTER_POINTS = 1 << 16
_UNSET = object()
_NO_WINDOW = (1.0, 1.0, 0.0, 0.0)


def tile_input(style: StyleSpec, name: str) -> bool:
    """Whether an input is a tile's own picture in a tiled run: the source or a target not
    made for the whole picture (external inputs and static textures are neither)."""
    base = name.removesuffix(".prev")
    t = style.targets.get(base)
    return base in (SOURCE, ORIGINAL) or (t is not None and not t.whole)


def pass_runs(p: PassSpec, frame: FrameInfo, params: Mapping[str, ParamValue],
              history: bool) -> bool:
    """Whether a pass runs this frame (its `when`); skipped, it is bypassed or cleared."""
    return p.when is None or _condition(p.when, frame, params, history)


def pass_uniform(p: PassSpec, name: str, builtins: Mapping[str, Any],
                 params: Mapping[str, ParamValue]) -> Any:
    """The value a pass's uniform gets from built-ins, its constants or the parameters (None
    for a texture's size, or a name nothing gives)."""
    return _lookup(name, builtins, p.uniforms, params, {})


def _same(old: Any, new: Any) -> bool:
    """A uniform's value is unchanged (scalars and tuples; anything else is written again)."""
    return type(old) is type(new) and isinstance(new, int | float | tuple) and old == new


def scatter_grid(size: tuple[int, int]) -> tuple[int, tuple[int, int]]:
    """A scatter pass's samples of a picture of `size`: every `step`-th texel in x and y,
    (step, (columns, rows)); every texel up to MAX_SCATTER_POINTS (256x256), then sparser
    (every 4th at 1280x720), which a histogram or a mean barely notices."""
    w, h = size
    step = max(1, math.ceil(math.sqrt(w * h / MAX_SCATTER_POINTS)))
    return step, (-(-w // step), -(-h // step))


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


def _condition(when: str, frame: FrameInfo, params: Mapping[str, ParamValue],
               history: bool) -> bool:
    """A pass's `when`: terms joined by `&`, each true if any of its `|` alternatives is (a
    parameter's truth or a built-in flag)."""
    return all(any(_flag(name, frame, params, history) for name in term)
               for term in _when_terms(when))


@functools.lru_cache(maxsize=256)
def _when_terms(when: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(name.strip() for name in term.split("|")) for term in when.split("&"))


def _flag(name: str, frame: FrameInfo, params: Mapping[str, ParamValue], history: bool) -> bool:
    if name.startswith("!"):
        return not _flag(name[1:].strip(), frame, params, history)
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
    return bool(params[name])


def _lookup(name: str, builtins: Mapping[str, Any], constants: Mapping[str, Any],
            params: Mapping[str, ParamValue], inputs: Mapping[str, moderngl.Texture]) -> Any:
    if name in builtins:
        return builtins[name]
    if name in constants:
        v = constants[name]
        if isinstance(v, str) and v.startswith("$"):  # a parameter's value
            v = params[v[1:]]
        return tuple(float(x) for x in v) if isinstance(v, list) else v
    if name.startswith("u_") and name[2:] in params:
        v = params[name[2:]]
        return int(v) if isinstance(v, bool) else v
    for suffix, fn in _INPUT_UNIFORMS.items():
        if name.endswith(suffix) and name[: -len(suffix)] in inputs:
            return fn(inputs[name[: -len(suffix)]])
    return None


_INPUT_UNIFORMS: dict[str, Callable[[moderngl.Texture], Any]] = {
    "_size": lambda t: (float(t.width), float(t.height)),
    "_texel": lambda t: (1.0 / t.width, 1.0 / t.height),
}
