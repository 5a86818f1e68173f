"""The package's architecture holds: no import circles between its modules (function-level
imports included), and no layer imports one above it (the engine and media never the ui or
command line; the ui never the command line)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parent.parent / "app"

# package -> the packages it must not import
FORBIDDEN = {
    "engine": {"media", "ui", "cli", "cluster", "eval", "upscale"},
    "media": {"ui", "cli", "cluster", "eval"},
    "eval": {"ui", "cli", "cluster"},
    "cluster": {"ui", "cli"},
    "ui": {"cli"},
}


def _modules() -> dict[str, Path]:
    out = {}
    for f in APP.rglob("*.py"):
        parts = f.relative_to(APP).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    return out


def _imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The package's modules that `name` imports, at any level of its code."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            if target in known:
                yield target
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                if sub in known:
                    yield sub
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""])
            for n in names:
                if n.startswith("aquarelle."):
                    target = n.removeprefix("aquarelle.")
                    while target and target not in known:
                        target = target.rpartition(".")[0]
                    if target:
                        yield target


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    known = _modules()
    return {name: set(_imports(name, path, known)) - {name} for name, path in known.items()}


def test_the_graph_is_read(graph: dict[str, set[str]]) -> None:
    assert {"media.sniff", "cli.render_video", "engine.errors"} <= graph["cli.render"]
    assert len(graph) > 100


def test_no_import_circles(graph: dict[str, set[str]]) -> None:
    state: dict[str, int] = {}
    circles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                circles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert not circles, "\n".join(" -> ".join(c) for c in circles)


def test_no_upward_imports(graph: dict[str, set[str]]) -> None:
    upward = sorted(f"{a} imports {b}" for a, targets in graph.items() for b in targets
                    if b.split(".")[0] in FORBIDDEN.get(a.split(".")[0], ()))
    assert not upward, "\n".join(upward)
