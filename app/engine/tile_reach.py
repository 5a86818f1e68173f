"""The `// tiles: reach EXPR` a shader declares: how many texels of its output an output texel
reads around itself, per axis, as a small Python expression over its uniforms, parsed once
and evaluated safely (numbers, names, arithmetic, comparisons, a few functions)."""

from __future__ import annotations

import ast
import functools
import math
import operator
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .tile_plan import TileError

XY = tuple[float, float]


@functools.lru_cache(maxsize=256)
def reach_expression(path: Path) -> ast.Expression | None:
    """The `// tiles: reach EXPR` of a shader file (continued on further `// tiles:` lines)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    parts = [ln.strip()[len("// tiles:"):].strip() for ln in lines
             if ln.strip().startswith("// tiles:") and not ln.strip().startswith("// tiles: here ")]
    text = " ".join(parts)
    if not text.startswith("reach "):
        return None
    try:
        return ast.parse(text[len("reach "):], mode="eval")
    except SyntaxError:
        raise TileError(f"{path.name}: '// tiles: reach' is not an expression") from None


@functools.lru_cache(maxsize=256)
def read_here(path: Path) -> frozenset[str]:
    """The samplers a shader reads only at its output texel's own place, whatever its reach
    (`// tiles: here NAME, NAME`): a tile needs none of their texels around it but the one
    (a pass that walks the photo far but takes the washes at the pixel adds its reach to
    the photo's chain only)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return frozenset()
    names: set[str] = set()
    for ln in lines:
        text = ln.strip()
        if text.startswith("// tiles: here "):
            names.update(n.strip() for n in text[len("// tiles: here "):].split(","))
    return frozenset(n for n in names if n)


def _along(direction: Any, r: float) -> XY:
    return abs(float(direction[0])) * r, abs(float(direction[1])) * r


_CALLS: dict[str, Callable[..., Any]] = {"min": min, "max": max, "ceil": math.ceil,
                                         "floor": math.floor, "abs": abs, "along": _along}
_OPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne}


def evaluate_reach(node: ast.expr, name: Callable[[str], Any]) -> Any:
    """A reach expression: numbers, uniforms (unset ones are 0, as in GL), arithmetic,
    comparisons, `and` / `or` / `not`, `a if c else b` and a few functions."""
    def ev(n: ast.expr) -> Any:
        return evaluate_reach(n, name)

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
