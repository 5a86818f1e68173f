"""A style's pass graph as tiles see it: which passes make whole-picture targets, which bridge
from a tile to them, what each pass reads around a pixel (its reach), and so how far beyond
a tile's core each output is needed (see tiles.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..resources import shaders_dir
from .chain_spec import ChainSpec
from .frame_info import (
    FrameInfo,
    TileView,
    frame_px,
    pass_runs,
    pass_uniform,
    target_factors,
    tile_input,
)
from .graph import MAX_REPEAT
from .params import ParamSet
from .style import ORIGINAL, SOURCE, PassSpec, RepeatSpec, StyleSpec
from .tile_plan import TileError
from .tile_reach import XY, evaluate_reach, reach_expression, read_here

BYTES = {"f1": 1, "f2": 2, "f4": 4, "nu2": 2}


# -- the graph seen by tiles ------------------------------------------------------------------
@dataclass
class _Step:
    """One run of a pass in a frame (repeat blocks unrolled): whether it draws, or, skipped,
    bypasses or clears its output (`acts`: False when an alternative already made it)."""

    spec: PassSpec
    runs: bool
    acts: bool = True


@dataclass
class Phase:
    """What a tile's run makes: its passes, and how far beyond the core each one's output is
    needed (work px, per axis)."""

    passes: set[str] = field(default_factory=set)
    needs: dict[str, XY] = field(default_factory=dict)
    margin: XY = (0.0, 0.0)  # of the source


class _Size:
    """A stand-in for a frame's source texture where only its size counts."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size


def tile_frame(size: tuple[int, int], tile: TileView,
               uniforms: Mapping[str, Any] | None = None) -> FrameInfo:
    """A tile's frame as the graph sees it (sizes, flags, the frame uniforms that decide
    passes), for planning."""
    return FrameInfo(source=_Size(size), work_size=size,  # type: ignore[arg-type]
                     seed=0, frame=0, scale=1.0, uniforms=dict(uniforms or {}),
                     history=False, keep_history=False, tile=tile)


def planning_uniforms(style: StyleSpec, params: Mapping[str, Any]) -> dict[str, Any]:
    """The frame uniforms tiles are planned with: a face found wherever the style looks for
    one (the passes a subject adds are then in every tile's plan; without a face they do
    not run, and the plan's tiles still hold)."""
    if style.subject is not None and params.get(style.subject.enable):
        return {"u_subject": 1}
    return {}


def _schedule(style: StyleSpec, frame: FrameInfo, params: Mapping[str, Any]) -> list[_Step]:
    """The passes of a frame without history, in order, as PassGraph.run draws them."""
    steps: list[_Step] = []
    for node in style.graph:
        if isinstance(node, RepeatSpec):
            count = min(MAX_REPEAT, max(0, int(params[node.count])))
            steps += [_Step(p, pass_runs(p, frame, params, False))
                      for _ in range(count) for p in node.passes]
        else:
            steps.append(_Step(node, pass_runs(node, frame, params, False)))
    made: set[str] = set()
    for s in steps:
        s.acts = s.runs or s.spec.output not in made
        made.add(s.spec.output)
    return steps


class TileAnalysis:
    """A style's passes sorted for tiles (whole, bridge, tile), their reaches and the two runs
    of a tile (first: what the bridges read; second: the painting), for given parameters."""

    def __init__(self, style: StyleSpec, params: Mapping[str, Any], size: tuple[int, int],
                 root: Path | None = None) -> None:
        self.style = style
        self.params = params
        self.root = root or shaders_dir()
        self.size = size
        self.uniforms = planning_uniforms(style, params)
        self.frame = tile_frame(size, TileView((0, 0), size, frozenset()), self.uniforms)
        self.px = frame_px(style, self.frame)
        out = style.targets[style.output]
        if out.whole or target_factors(style, out, self.frame, self.params) != (1.0, 1.0) \
                or out.size is not None:
            raise TileError(f"style {style.name}'s picture is not the size of its input")
        self.steps = _schedule(style, self.frame, self.params)
        for s in self.steps:
            self._check(s)
        self.first = self._needs(bridges=True)
        self.second = self._needs(bridges=False)
        self.whole_passes = {s.spec.name for s in self.steps
                             if s.acts and self.whole(s.spec.output) and not self.bridge(s)}
        self.bridges = {s.spec.name for s in self.steps if self.bridge(s)}
        self.windows = self._windows()
        # whole targets the painting reads whole (an input marked "whole"), not in windows
        self.whole_reads = {inp.target for s in self.steps
                            if s.runs and s.spec.name in self.second.passes
                            for inp in s.spec.inputs.values() if inp.whole}
        self.align = self._align()

    def whole(self, name: str) -> bool:
        t = self.style.targets.get(name.removesuffix(".prev"))
        return t is not None and t.whole

    def reads(self, s: _Step) -> list[str]:
        """The inputs a step reads (a skipped one: what it bypasses to)."""
        if s.runs:
            return [i.target for i in s.spec.inputs.values() if not i.target.endswith(".prev")]
        return [s.spec.inputs[s.spec.bypass].target] if s.spec.bypass else []

    def bridge(self, s: _Step) -> bool:
        return s.acts and self.whole(s.spec.output) \
            and any(tile_input(self.style, n) for n in self.reads(s))

    def _check(self, s: _Step) -> None:
        names = self.reads(s)
        if self.whole(s.spec.output) and any(self.whole(n) for n in names) \
                and any(tile_input(self.style, n) for n in names):
            raise TileError(f"pass {s.spec.name} reads a tile and a whole target")
        for n in names:
            t = self.style.targets.get(n)
            if t is not None and t.size is not None:
                raise TileError(f"pass {s.spec.name} reads {n}, a fixed-size target")

    def factors(self, name: str) -> XY:
        if name in (SOURCE, ORIGINAL):
            return 1.0, 1.0
        return target_factors(self.style, self.style.targets[name], self.frame, self.params)

    def reach(self, s: _Step) -> XY:
        """How far (work px, per axis) a drawing step reads around an output pixel."""
        p = s.spec
        expr = reach_expression(self.root / p.shader)
        if expr is None:
            raise TileError(f"shader {p.shader} does not say how far it reads ('// tiles: "
                            "reach')")
        kx, ky = self.factors(p.output)
        builtins = {"u_px": self.px, "u_target_scale": kx, "u_scale": 1.0, "u_history": 0,
                    "u_frame": 0, "u_work_size": self.size}
        r = evaluate_reach(expr.body, lambda n: pass_uniform(p, n, builtins, self.params))
        if r is None:
            raise TileError(f"pass {p.name} reads arbitrarily far")
        rx, ry = (r, r) if isinstance(r, int | float) else r
        return max(0.0, rx) / kx, max(0.0, ry) / ky

    def _needs(self, *, bridges: bool) -> Phase:
        """Backwards from the output (or the bridges): which tile passes the run makes and
        how far beyond the core each output is needed."""
        phase = Phase()
        need: dict[str, XY] = {} if bridges else {self.style.output: (0.0, 0.0)}
        for s in reversed(self.steps):
            if not s.acts:
                continue
            out = s.spec.output
            if self.whole(out):
                if bridges and self.bridge(s):
                    # its texels' centres lie in the core: one of its texels around it
                    kx, ky = self.factors(out)
                    self._read(s, (1.0 / kx, 1.0 / ky), need)
                continue
            if out not in need:
                continue
            n = need.pop(out)
            phase.passes.add(s.spec.name)
            if s.runs:
                old = phase.needs.get(s.spec.name, (0.0, 0.0))
                phase.needs[s.spec.name] = (max(old[0], n[0]), max(old[1], n[1]))
                if bridges and any(self.whole(i) for i in self.reads(s)):
                    raise TileError(f"pass {s.spec.name} reads a whole target before it is made")
            self._read(s, n, need)
        phase.margin = tuple(max(need.get(k, (0.0, 0.0))[a] for k in (SOURCE, ORIGINAL))
                             for a in (0, 1))  # type: ignore[assignment]
        return phase

    def _read(self, s: _Step, n: XY, need: dict[str, XY]) -> None:
        """What a step needs of its inputs to make `n` beyond the core of its output: its
        reach, one texel of the input (bilinear taps) and half one of the output."""
        here = n
        if s.runs:  # the outermost texel drawn has its centre up to half a texel further
            rx, ry = self.reach(s)
            ox, oy = self.factors(s.spec.output)
            here = (n[0] + 0.5 / ox, n[1] + 0.5 / oy)
            n = (here[0] + rx, here[1] + ry)
        local = {i.target for k, i in s.spec.inputs.items()
                 if k in read_here(self.root / s.spec.shader)} if s.runs else set()
        for name in self.reads(s):
            if not tile_input(self.style, name):
                continue  # whole targets come through windows; flow and textures as they are
            kx, ky = self.factors(name)
            extra = (1.0 / kx, 1.0 / ky) if s.runs else (0.0, 0.0)
            at = here if name in local else n
            old = need.get(name, (0.0, 0.0))
            need[name] = (max(old[0], at[0] + extra[0]), max(old[1], at[1] + extra[1]))

    def _windows(self) -> dict[str, tuple[str, str]]:
        """Whole targets the painting reads -> (the reading pass's output, sampler filter);
        every pass that reads one must read it on the same grid, with the same filter."""
        found: dict[str, tuple[str, str]] = {}
        for s in self.steps:
            if not (s.runs and s.spec.name in self.second.passes):
                continue
            for inp in s.spec.inputs.values():
                if not self.whole(inp.target) or inp.target.endswith(".prev") or inp.whole:
                    continue
                grid = (s.spec.output, inp.filter)
                old = found.setdefault(inp.target, grid)
                if old != grid and (self.factors(old[0]), old[1]) != (self.factors(grid[0]),
                                                                      grid[1]):
                    raise TileError(f"{inp.target} is read on two grids ({old[0]}, {grid[0]})")
        return found

    def _align(self) -> int:
        """The coarsest tile target's texel (work px): a power of two."""
        align = 1
        for s in self.steps:
            if s.spec.name not in self.first.passes | self.second.passes:
                continue
            for f in self.factors(s.spec.output):
                k = round(1.0 / f)
                if f > 1.0 or abs(1.0 / f - k) > 1e-9 or k & (k - 1):
                    raise TileError(f"target {s.spec.output}'s scale {f:g} is not 1/2^n")
                align = max(align, k)
        return align

    def first_bpp(self) -> float:
        """Memory a tile's first run takes per pixel (see paint_bpp)."""
        return self._bpp(self.first.passes | self.bridges)

    def paint_bpp(self) -> float:
        """Memory a tile takes per pixel while painted: its targets (two slots for one a
        pass reads and writes), the windows, the source texture and the arrays around it."""
        total = self._bpp(self.first.passes | self.second.passes)
        for whole, (reader, _) in self.windows.items():
            kx, ky = self.factors(reader)
            total += self.style.targets[whole].components * 4 * kx * ky
        return total

    def _bpp(self, made: set[str]) -> float:
        total = 4.0 + 10.0
        for name, t in self.style.targets.items():
            runs = [s for s in self.steps if s.spec.name in made and s.spec.output == name]
            if t.whole or not runs:
                continue
            kx, ky = self.factors(name)
            slots = 2 if any(name in self.reads(s) for s in runs) else 1
            total += t.components * BYTES[t.dtype] * kx * ky * slots
        return total

    def whole_bytes(self, *, all_of_them: bool = False) -> float:
        """Memory of the whole targets: all of them (while made), or those the tiles read."""
        total = 0.0
        for name, t in self.style.targets.items():
            if t.whole and (all_of_them or name in self.windows):
                kx, ky = self.factors(name)
                total += t.components * BYTES[t.dtype] * kx * ky * self.size[0] * self.size[1]
        return total


def tiling_problem(style: StyleSpec | ChainSpec, values: Mapping[str, Any],
                   size: tuple[int, int], *, scale: float = 1.0) -> str | None:
    """Why a still of `size` cannot be painted in tiles with these parameter values (None:
    it can), known before anything is decoded or compiled."""
    if isinstance(style, ChainSpec):
        return "a chain of styles is not painted in tiles"
    if scale != 1.0:
        return "tiles are painted at scale 1 only"
    params = ParamSet(style.params, scope=style.name)
    params.update(values)
    try:
        TileAnalysis(style, params.values(), size)
    except TileError as e:
        return str(e)
    return None


def target_size_in(plan: TileAnalysis, name: str, size: tuple[int, int]) -> tuple[int, int]:
    """A tile target's size in a picture (or tile) of `size`, as PassGraph makes it."""
    kx, ky = plan.factors(name)
    return max(1, round(size[0] * kx)), max(1, round(size[1] * ky))
