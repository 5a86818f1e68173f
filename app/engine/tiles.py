"""Big stills in tiles: plan tiles with overlap, render each through the Pipeline, stitch the
cores (issue 27: memory stays bounded, and a picture wider than the GPU's texture limit
renders).

A tile is a still of its own, painted with the whole picture's feature sizes (`u_px`) and its
noise and paper seeded by the whole picture's pixel (`u_origin`). Its overlap covers what
every pass reads around a pixel: each shader says so in a line `// tiles: reach EXPR`, the
texels of its output an output texel reads around itself, per axis, a Python expression over
the shader's uniforms (parameters, constants, built-ins; `along(u_dir, r)` for a pass along
one axis; None: unbounded). The reaches add up backwards from the output, and each pass draws
only the part of its target that the tile's core needs. A shader without the line cannot be
tiled (a style with one renders whole, within the texture limit).

Targets marked `whole` need all of the picture (the flow's pull-push pyramid, the saliency
map): they are made once, on the whole picture's grid. A pass that makes one from a tile's
picture (a bridge) draws, in each tile's first run, the texels whose centres lie in the
tile's core, reading the tile through `u_window`; the passes between whole targets run once,
after the last tile's bridges. The tiles' passes then read them through windows: the whole
target resampled at the texel centres of the pass that reads it, which is what that pass
reads untiled.

Tile corners lie on multiples of the coarsest tile target's texel, so a tile's targets are
exact sub-grids of the whole picture's: where the picture's sides are such multiples too, the
tiled render is the untiled one. Elsewhere the untiled render's reduced targets span the
picture with a ratio that is not a power of two; the tiles (whose last ones are padded with
repeated edge pixels) follow the exact ratio instead and still agree with each other.
"""

from __future__ import annotations

import ast
import functools
import math
import operator
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import moderngl
import numpy as np

from ..resources import shaders_dir
from .chain_spec import ChainSpec
from .context import reset_draw_state
from .errors import AquarelleError
from .glsl import build_program
from .graph import (
    MAX_REPEAT,
    FrameInfo,
    TileView,
    frame_px,
    pass_runs,
    pass_uniform,
    target_factors,
    tile_input,
)
from .params import ParamSet
from .pipeline import Pipeline
from .style import ORIGINAL, SOURCE, PassSpec, RepeatSpec, StyleSpec

# A still is rendered in tiles above this many pixels (a 16 MP picture takes about 1.2 GB
# whole), and always when a side exceeds the GPU's texture limit.
TILE_ABOVE_PX = 16_000_000
# What a tiled render aims to stay under, the process included (a 16000 x 10667 photo: the
# picture 512 MB, painted in place, the flow's pyramid 460 MB, tiles of 6-8 MP), and what the
# process takes before any picture (Python, OpenCV, the GL driver, the style's programs).
PEAK_BYTES = 1800 << 20
BASELINE_BYTES = 260 << 20
MIN_TILE_PX = 1 << 20
MAX_TILES_ACROSS = 96
TILE_PENALTY_PX = 250_000  # a tile's fixed cost (uploads, per-pass overhead) in pixels

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1
XY = tuple[float, float]
_BYTES = {"f1": 1, "f2": 2, "f4": 4, "nu2": 2}


class TileError(AquarelleError):
    """A style (or picture) that cannot be rendered in tiles."""


@dataclass(frozen=True)
class Tile:
    """One tile: the core it delivers and the box it renders (core and overlap, inside the
    picture), in the whole picture's pixels; `pad`: edge pixels repeated right of and below
    the box, so that its size stays a multiple of the alignment."""

    core: Rect
    box: Rect
    pad: tuple[int, int] = (0, 0)

    @property
    def origin(self) -> tuple[int, int]:
        return self.box[0], self.box[1]

    @property
    def size(self) -> tuple[int, int]:
        """The rendered size, padding included."""
        return self.box[2] - self.box[0] + self.pad[0], self.box[3] - self.box[1] + self.pad[1]


def needs_tiles(size: tuple[int, int], max_side: int, *, above_px: int = TILE_ABOVE_PX) -> bool:
    """Whether a still of `size` is rendered in tiles."""
    return size[0] * size[1] > above_px or max(size) > max_side


def plan_tiles(size: tuple[int, int], margin: tuple[int, int], align: int, max_px: int,
               max_side: int) -> list[Tile]:
    """Tiles covering a picture of `size`: cores on a grid (corners on multiples of `align`),
    each box its core and `margin` around it, at most `max_px` pixels and `max_side` a side;
    the grid that renders the fewest pixels (counting a fixed cost a tile). The boxes all have
    the size of the largest, moved inside the picture (padded beyond it to the alignment):
    the textures are made once."""
    w, h = size
    best: tuple[float, list[_Span], list[_Span]] | None = None
    across = [_axis(w, n, margin[0], align) for n in range(1, _most(w, align) + 1)]
    down = [_axis(h, n, margin[1], align) for n in range(1, _most(h, align) + 1)]
    for xs in (x for x in across if x and max(s.rendered for s in x) <= max_side):
        wmax, wsum = max(s.rendered for s in xs), sum(s.rendered for s in xs)
        for ys in (y for y in down if y and max(s.rendered for s in y) <= max_side):
            hmax, hsum = max(s.rendered for s in ys), sum(s.rendered for s in ys)
            if wmax * hmax > max_px:
                continue
            cost = wsum * hsum + TILE_PENALTY_PX * len(xs) * len(ys)
            if best is None or cost < best[0]:
                best = (cost, xs, ys)
    if best is None:
        raise TileError(f"no tiles of at most {max_px / 1e6:.1f} MP fit a {w}x{h} picture with "
                        f"an overlap of {margin[0]}x{margin[1]} px")
    xs = _uniform(best[1], w, align)
    ys = _uniform(best[2], h, align)
    return [Tile((x.c0, y.c0, x.c1, y.c1), (x.b0, y.b0, x.b1, y.b1), (x.pad, y.pad))
            for y in ys for x in xs]


def _uniform(spans: list[_Span], length: int, align: int) -> list[_Span]:
    """The spans with boxes as long as the longest, inside the picture padded to `align`."""
    size = max(s.rendered for s in spans)
    padded = -(-length // align) * align
    out = []
    for s in spans:
        b0 = min(s.b0, max(0, padded - size))
        b1 = min(length, b0 + size)
        out.append(_Span(s.c0, s.c1, b0, b1, b0 + size - b1))
    return out


@dataclass(frozen=True)
class _Span:
    """A tile along one side: its core, its box and the box's padding."""

    c0: int
    c1: int
    b0: int
    b1: int
    pad: int

    @property
    def rendered(self) -> int:
        return self.b1 - self.b0 + self.pad


def _most(length: int, align: int) -> int:
    return max(1, min(MAX_TILES_ACROSS, length // align))


def _axis(length: int, n: int, margin: int, align: int) -> list[_Span] | None:
    """n cores along one side (multiples of `align` long, the last one shorter) and their
    boxes (core and margin, inside the picture, padded to a multiple of `align`); None when
    cores of that length leave the last one empty."""
    step = -(-length // n)
    step = -(-step // align) * align
    if step * (n - 1) >= length:
        return None
    spans = []
    for i in range(n):
        c0, c1 = i * step, min(length, (i + 1) * step)
        b0, b1 = max(0, c0 - margin), min(length, c1 + margin)
        spans.append(_Span(c0, c1, b0, b1, -(b1 - b0) % align))
    return spans


# -- the graph seen by tiles ------------------------------------------------------------------
@dataclass
class _Step:
    """One run of a pass in a frame (repeat blocks unrolled): whether it draws, or, skipped,
    bypasses or clears its output (`acts`: False when an alternative already made it)."""

    spec: PassSpec
    runs: bool
    acts: bool = True


@dataclass
class _Phase:
    """What a tile's run makes: its passes, and how far beyond the core each one's output is
    needed (work px, per axis)."""

    passes: set[str] = field(default_factory=set)
    needs: dict[str, XY] = field(default_factory=dict)
    margin: XY = (0.0, 0.0)  # of the source


class _Size:
    """A stand-in for a frame's source texture where only its size counts."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size


def _frame(size: tuple[int, int], tile: TileView) -> FrameInfo:
    """A tile's frame as the graph sees it (sizes, flags), for planning."""
    return FrameInfo(source=_Size(size), work_size=size,  # type: ignore[arg-type]
                     seed=0, frame=0, scale=1.0, history=False, keep_history=False, tile=tile)


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


class _Analysis:
    """A style's passes sorted for tiles (whole, bridge, tile), their reaches and the two runs
    of a tile (first: what the bridges read; second: the painting), for given parameters."""

    def __init__(self, style: StyleSpec, params: Mapping[str, Any], size: tuple[int, int],
                 root: Path | None = None) -> None:
        self.style = style
        self.params = params
        self.root = root or shaders_dir()
        self.size = size
        self.frame = _frame(size, TileView((0, 0), size, frozenset()))
        self.px = frame_px(style, self.frame)
        out = style.targets[style.output]
        if out.whole or target_factors(out, self.frame, self.params) != (1.0, 1.0) \
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
        return target_factors(self.style.targets[name], self.frame, self.params)

    def reach(self, s: _Step) -> XY:
        """How far (work px, per axis) a drawing step reads around an output pixel."""
        p = s.spec
        expr = _reach_expression(self.root / p.shader)
        if expr is None:
            raise TileError(f"shader {p.shader} does not say how far it reads ('// tiles: "
                            "reach')")
        kx, ky = self.factors(p.output)
        builtins = {"u_px": self.px, "u_target_scale": kx, "u_scale": 1.0, "u_history": 0,
                    "u_frame": 0, "u_work_size": self.size}
        r = _evaluate(expr.body, lambda n: pass_uniform(p, n, builtins, self.params))
        if r is None:
            raise TileError(f"pass {p.name} reads arbitrarily far")
        rx, ry = (r, r) if isinstance(r, int | float) else r
        return max(0.0, rx) / kx, max(0.0, ry) / ky

    def _needs(self, *, bridges: bool) -> _Phase:
        """Backwards from the output (or the bridges): which tile passes the run makes and
        how far beyond the core each output is needed."""
        phase = _Phase()
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
        if s.runs:  # the outermost texel drawn has its centre up to half a texel further
            rx, ry = self.reach(s)
            ox, oy = self.factors(s.spec.output)
            n = (n[0] + rx + 0.5 / ox, n[1] + ry + 0.5 / oy)
        for name in self.reads(s):
            if not tile_input(self.style, name):
                continue  # whole targets come through windows; flow and textures as they are
            kx, ky = self.factors(name)
            extra = (1.0 / kx, 1.0 / ky) if s.runs else (0.0, 0.0)
            old = need.get(name, (0.0, 0.0))
            need[name] = (max(old[0], n[0] + extra[0]), max(old[1], n[1] + extra[1]))

    def _windows(self) -> dict[str, tuple[str, str]]:
        """Whole targets the painting reads -> (the reading pass's output, sampler filter);
        every pass that reads one must read it on the same grid, with the same filter."""
        found: dict[str, tuple[str, str]] = {}
        for s in self.steps:
            if not (s.runs and s.spec.name in self.second.passes):
                continue
            for inp in s.spec.inputs.values():
                if not self.whole(inp.target) or inp.target.endswith(".prev"):
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
            total += t.components * _BYTES[t.dtype] * kx * ky * slots
        return total

    def whole_bytes(self, *, all_of_them: bool = False) -> float:
        """Memory of the whole targets: all of them (while made), or those the tiles read."""
        total = 0.0
        for name, t in self.style.targets.items():
            if t.whole and (all_of_them or name in self.windows):
                kx, ky = self.factors(name)
                total += t.components * _BYTES[t.dtype] * kx * ky * self.size[0] * self.size[1]
        return total


@functools.lru_cache(maxsize=256)
def _reach_expression(path: Path) -> ast.Expression | None:
    """The `// tiles: reach EXPR` of a shader file (continued on further `// tiles:` lines)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    parts = [ln.strip()[len("// tiles:"):].strip() for ln in lines
             if ln.strip().startswith("// tiles:")]
    text = " ".join(parts)
    if not text.startswith("reach "):
        return None
    try:
        return ast.parse(text[len("reach "):], mode="eval")
    except SyntaxError:
        raise TileError(f"{path.name}: '// tiles: reach' is not an expression") from None


def _along(direction: Any, r: float) -> XY:
    return abs(float(direction[0])) * r, abs(float(direction[1])) * r


_CALLS: dict[str, Callable[..., Any]] = {"min": min, "max": max, "ceil": math.ceil,
                                         "floor": math.floor, "abs": abs, "along": _along}
_OPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne}


def _evaluate(node: ast.expr, name: Callable[[str], Any]) -> Any:
    """A reach expression: numbers, uniforms (unset ones are 0, as in GL), arithmetic,
    comparisons, `and` / `or` / `not`, `a if c else b` and a few functions."""
    def ev(n: ast.expr) -> Any:
        return _evaluate(n, name)

    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value,
                                                                            int | float)):
        return node.value
    if isinstance(node, ast.Name):
        v = name(node.id)
        return 0 if v is None else v
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](ev(node.left), ev(node.right))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.Not):
        v = ev(node.operand)
        return -v if isinstance(node.op, ast.USub) else not v
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _OPS:
        return _OPS[type(node.ops[0])](ev(node.left), ev(node.comparators[0]))
    if isinstance(node, ast.BoolOp):
        values = [ev(v) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.IfExp):
        return ev(node.body) if ev(node.test) else ev(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in _CALLS and not node.keywords:
        return _CALLS[node.func.id](*(ev(a) for a in node.args))
    raise TileError(f"'// tiles: reach': {ast.unparse(node)!r} is not allowed")


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
        _Analysis(style, params.values(), size)
    except TileError as e:
        return str(e)
    return None


# -- rendering ------------------------------------------------------------------------------
class TiledStill:
    """Renders one big still in tiles through a Pipeline (a single style at scale 1), for the
    pipeline's parameter values when it is made.

    The tiles are as large as `peak_bytes` allows the whole process (the picture of
    `channel_bytes` a channel, painted in place, and `BASELINE_BYTES`); `max_tile_px` forces
    smaller ones."""

    def __init__(self, pipeline: Pipeline, size: tuple[int, int], *,
                 peak_bytes: int = PEAK_BYTES, channel_bytes: int = 1,
                 max_tile_px: int | None = None) -> None:
        if not isinstance(pipeline, Pipeline):
            raise TileError("a chain of styles is not rendered in tiles")
        if pipeline.scale != 1.0:
            raise TileError("a still is rendered in tiles at scale 1 only")
        self.pipeline = pipeline
        self.size = size
        self.plan = plan = _Analysis(pipeline.style, pipeline.params.values(), size,
                                     pipeline.graph.shader_root)
        a = plan.align
        margin = tuple(int(-(-math.ceil(max(plan.first.margin[i], plan.second.margin[i]))
                               // a) * a) for i in (0, 1))
        self.margin: tuple[int, int] = (margin[0], margin[1])
        limit = int(pipeline.ctx.info["GL_MAX_TEXTURE_SIZE"])
        self._check_whole(limit)
        row = size[0] * 3 * channel_bytes  # bytes of a row of the picture
        avail = peak_bytes - BASELINE_BYTES - row * size[1]
        px = max_tile_px
        band = 0
        for _ in range(3):  # the band of rows a row of tiles is painted from depends on them
            if max_tile_px is None:
                px = int(min((avail - plan.whole_bytes(all_of_them=True)) / plan.first_bpp(),
                             (avail - plan.whole_bytes() - band) / plan.paint_bpp()))
                px = max(px, MIN_TILE_PX)
            assert px is not None
            self.tiles = plan_tiles(size, self.margin, a, px, limit - a)
            band = max(t.box[3] - t.box[1] for t in self.tiles) * row

    def _check_whole(self, limit: int) -> None:
        graph = self.pipeline.graph
        for name, t in self.plan.style.targets.items():
            if t.whole and max(graph.target_size(name, self.plan.frame)) > limit:
                raise TileError(f"target {name} of the whole picture exceeds the GPU's texture "
                                f"limit {limit}")

    def render(self, frame: np.ndarray, order: str = "rgb",
               progress: Callable[[int, int], None] | None = None, *,
               in_place: bool = False, out_order: str | None = None) -> np.ndarray:
        """The painting of `frame` (H, W, 3), as Pipeline.render_array gives it (in
        `out_order`, by default `order`); `progress` is told (tiles painted, tiles) as it
        goes. `in_place`: painted into `frame` itself (which is returned) where the painting
        has its type, keeping only the band of rows that the next tiles still read."""
        if (frame.shape[1], frame.shape[0]) != self.size:
            raise TileError(f"the tiles were planned for {self.size}, not {frame.shape[1::-1]}")
        p, graph, plan = self.pipeline, self.pipeline.graph, self.plan
        windows = _Windows(p.ctx, graph.shader_root)
        try:
            last = len(self.tiles) - 1
            for k, tile in enumerate(self.tiles):
                passes = plan.first.passes | plan.bridges | (plan.whole_passes if k == last
                                                              else set())
                p.render_tile(_crop(frame, tile, 0), self._view(tile, plan.first, passes),
                              order)
            whole = {name: graph.output(name) for name in plan.windows}
            graph.release_targets(self._unread(whole))
            if progress is not None:
                progress(0, len(self.tiles))
            out: np.ndarray | None = None
            for k, (tile, crop) in enumerate(self._bands(frame, in_place)):
                inputs = windows.make(plan, tile, whole)
                view = self._view(tile, plan.second, plan.second.passes, inputs)
                tex = p.render_tile(crop, view, order)
                del crop
                assert tex is not None
                arr = p.read(tex, out_order or order)
                if out is None:
                    same = in_place and arr.dtype == frame.dtype
                    out = frame if same else np.empty((*frame.shape[:2], 3), arr.dtype)
                x0, y0, x1, y1 = tile.core
                bx, by = tile.origin
                out[y0:y1, x0:x1] = arr[y0 - by:y1 - by, x0 - bx:x1 - bx]
                if progress is not None:
                    progress(k + 1, len(self.tiles))
            assert out is not None
            return out
        finally:
            graph.release_targets(n for n, t in plan.style.targets.items() if t.whole)
            windows.release()

    def _bands(self, frame: np.ndarray, in_place: bool) -> Iterator[tuple[Tile, np.ndarray]]:
        """The tiles with their boxes of the picture. Painting in place, a row of tiles reads
        a copy of its rows made before it is painted over, the rows above its cores (painted
        already) kept from the last row's copy."""
        rows = [[t for t in self.tiles if t.core[1] == y] for y in
                sorted({t.core[1] for t in self.tiles})]
        carry: np.ndarray | None = None
        for i, row in enumerate(rows):
            top, bottom, core = row[0].box[1], row[0].box[3], row[0].core[1]
            if not in_place:
                band = frame[top:bottom]
            elif carry is None:
                band = frame[top:bottom].copy()
            else:
                band = np.concatenate([carry, frame[core:bottom]])
            if in_place and i + 1 < len(rows):
                below = rows[i + 1][0]
                carry = band[below.box[1] - top:below.core[1] - top].copy()
            for tile in row:
                yield tile, _crop(band, tile, top)
            del band  # before the next row's copy is made

    def _unread(self, whole: Mapping[str, moderngl.Texture]) -> list[str]:
        """The whole targets no tile reads (their textures are not among the windowed)."""
        graph, kept = self.pipeline.graph, {t.glo for t in whole.values()}
        names = []
        for name, t in self.plan.style.targets.items():
            if t.whole and not any(s.glo in kept for s in graph.pool.slots(
                    t, graph.target_size(name, self.plan.frame))):
                names.append(name)
        return names

    def _view(self, tile: Tile, phase: _Phase, passes: set[str],
              inputs: Mapping[str, moderngl.Texture] | None = None) -> TileView:
        """A run over a tile: its passes, each drawing what the core needs (a bridge: the
        texels of its whole target whose centres lie in the core)."""
        plan, graph = self.plan, self.pipeline.graph
        frame = _frame(tile.size, TileView(tile.origin, self.size, frozenset(passes)))
        regions: dict[str, tuple[int, int, int, int]] = {}
        bx, by = tile.origin
        cx0, cy0, cx1, cy1 = tile.core
        for s in plan.steps:
            name, out = s.spec.name, s.spec.output
            if name not in passes or not s.runs or name in regions:
                continue
            kx, ky = plan.factors(out)
            sw, sh = graph.target_size(out, frame, plan.params)
            if name in plan.bridges:
                x0, x1 = _owned(cx0, cx1, self.size[0], sw)
                y0, y1 = _owned(cy0, cy1, self.size[1], sh)
            elif name in phase.needs:
                nx, ny = phase.needs[name]
                x0 = max(0, math.floor((cx0 - bx - nx) * kx))
                y0 = max(0, math.floor((cy0 - by - ny) * ky))
                x1 = min(sw, math.ceil((cx1 - bx + nx) * kx))
                y1 = min(sh, math.ceil((cy1 - by + ny) * ky))
            else:
                continue  # a pass between whole targets: all of them
            regions[name] = (x0, y0, max(0, x1 - x0), max(0, y1 - y0))
        return TileView(tile.origin, self.size, frozenset(passes), regions, inputs or {})


def _crop(rows: np.ndarray, tile: Tile, top: int) -> np.ndarray:
    """A tile's box out of the picture's rows from `top` on, padded with its edge pixels."""
    x0, y0, x1, y1 = tile.box
    part = rows[y0 - top:y1 - top, x0:x1]
    if tile.pad == (0, 0):
        return part
    return cv2.copyMakeBorder(part, 0, tile.pad[1], 0, tile.pad[0], cv2.BORDER_REPLICATE)


def _owned(c0: int, c1: int, length: int, texels: int) -> tuple[int, int]:
    """The texels of a whole target `texels` long (over `length` px) whose centres lie in
    the core [c0, c1): (i + 0.5) * length / texels in it."""
    def first(c: int) -> int:  # the first texel whose centre is at or after c
        return max(0, -(-(2 * c * texels - length) // (2 * length)))
    return first(c0), min(texels, first(c1))


class _Windows:
    """Tiles' windows onto whole targets: each resampled at the texel centres of the pass
    that reads it (shaders/common/window.frag)."""

    def __init__(self, ctx: moderngl.Context, root: Path | None) -> None:
        self.ctx = ctx
        self.program = build_program(ctx, "common/fullscreen.vert", "common/window.frag", root)
        self.vao = ctx.vertex_array(self.program, [])
        self._samplers: dict[str, moderngl.Sampler] = {}
        self._made: dict[str, tuple[moderngl.Texture, moderngl.Framebuffer]] = {}

    def make(self, plan: _Analysis, tile: Tile,
             whole: Mapping[str, moderngl.Texture]) -> dict[str, moderngl.Texture]:
        out = {}
        reset_draw_state(self.ctx)
        for name, (reader, filt) in plan.windows.items():
            kx, ky = plan.factors(reader)
            size = _target_size(plan, reader, tile.size)
            grid = _target_size(plan, reader, plan.size)
            tex, fbo = self._texture(name, size, whole[name].components)
            fbo.use()
            whole[name].use(0)
            self._sampler(filt).use(0)
            self.program["src"].value = 0
            self.program["u_offset"].value = (tile.origin[0] * kx, tile.origin[1] * ky)
            self.program["u_grid"].value = (float(grid[0]), float(grid[1]))
            self.vao.render(moderngl.TRIANGLES, vertices=3)
            self.ctx.clear_samplers(0, 1)
            out[name] = tex
        return out

    def _texture(self, name: str, size: tuple[int, int], components: int
                 ) -> tuple[moderngl.Texture, moderngl.Framebuffer]:
        made = self._made.get(name)
        if made is not None and made[0].size == size and made[0].components == components:
            return made
        if made is not None:
            made[1].release()
            made[0].release()
        tex = self.ctx.texture(size, components, dtype="f4")
        tex.repeat_x = tex.repeat_y = False
        self._made[name] = tex, self.ctx.framebuffer(color_attachments=[tex])
        return self._made[name]

    def _sampler(self, filt: str) -> moderngl.Sampler:
        s = self._samplers.get(filt)
        if s is None:
            f = moderngl.NEAREST if filt == "nearest" else moderngl.LINEAR
            s = self._samplers[filt] = self.ctx.sampler(filter=(f, f), repeat_x=False,
                                                        repeat_y=False)
        return s

    def release(self) -> None:
        for tex, fbo in self._made.values():
            fbo.release()
            tex.release()
        self._made.clear()
        for s in self._samplers.values():
            s.release()
        self._samplers.clear()
        self.vao.release()
        self.program.release()


def _target_size(plan: _Analysis, name: str, size: tuple[int, int]) -> tuple[int, int]:
    """A tile target's size in a picture (or tile) of `size`, as PassGraph makes it."""
    kx, ky = plan.factors(name)
    return max(1, round(size[0] * kx)), max(1, round(size[1] * ky))
