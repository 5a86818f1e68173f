"""GLSL source loading: `#include "file"` resolution and compile errors mapped to file:line."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import moderngl

from ..resources import shaders_dir
from .errors import ShaderCompileError
from .interrupts import critical

_INCLUDE = re.compile(r'^\s*#include\s+"([^"]+)"\s*$')
# Mesa: "3:12(5): error: ..."; NVIDIA: "3(12) : error C1008: ..."
_MESA_ERR = re.compile(r"^(\d+):(\d+)\(\d+\):\s*(?:error|warning):\s*(.*)$", re.M)
_NV_ERR = re.compile(r"^(\d+)\((\d+)\)\s*:\s*(?:error|warning)\s*\w*:\s*(.*)$", re.M)


# Each file's lines are renumbered as FILE_STRIDE * file_index + line: some drivers (Mesa)
# do not report the source-string number of `#line N S` reliably, but all report N.
FILE_STRIDE = 100000


# (root, name) -> the files read, each with its stamp, the text and the files' order: every
# Renderer builds about 80 programs from the same few files (a third of its making)
_expanded: dict[tuple[Path, str], tuple[tuple[tuple[str, tuple[int, int] | None], ...], str]] = {}


def _stamp(path: Path) -> tuple[int, int] | None:
    """What tells a file's edit (modification time, size); None: no such file."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class ShaderSource:
    """A shader with its includes expanded; `#line` directives keep file and line numbers.
    Expanded once per file and its includes, again after any of them is edited."""

    def __init__(self, name: str, root: Path | None = None) -> None:
        self.root = root or shaders_dir()
        self.files: list[str] = []
        hit = _expanded.get((self.root, name))
        if hit is not None and all(_stamp(self.root / f) == st for f, st in hit[0]):
            self.files.extend(f for f, _ in hit[0])
            self.text = hit[1]
            return
        self.text = self._expand(name, set())
        _expanded[self.root, name] = (tuple((f, _stamp(self.root / f)) for f in self.files),
                                      self.text)

    def _file_index(self, name: str) -> int:
        if name not in self.files:
            self.files.append(name)
        return self.files.index(name)

    def _expand(self, name: str, stack: set[str]) -> str:
        path = self.root / name
        if name in stack:
            raise ShaderCompileError(name, None, "recursive #include")
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError:
            raise ShaderCompileError(name, None, "shader file not found") from None
        idx = self._file_index(name)
        base = FILE_STRIDE * idx
        out: list[str] = [f"#line {base + 1}"] if stack else []
        for number, line in enumerate(lines, start=1):
            m = _INCLUDE.match(line)
            if m:
                out.append(self._expand(m.group(1), stack | {name}))
                out.append(f"#line {base + number + 1}")
            else:
                out.append(line)
                if number == 1 and line.startswith("#version"):
                    out.append(f"#line {base + 2}")
        return "\n".join(out)

    def locate(self, log: str) -> tuple[str, int | None, str]:
        """The file, line and message of the first error in a driver's compile log."""
        for pattern in (_MESA_ERR, _NV_ERR):
            m = pattern.search(log)
            if m:
                coded, msg = int(m.group(2)), m.group(3).strip()
                idx, line = divmod(coded, FILE_STRIDE)
                name = self.files[idx] if idx < len(self.files) else self.files[0]
                return name, line, msg
        first = next((ln.strip() for ln in log.splitlines() if ln.strip()), "compile failed")
        return self.files[0], None, first


def _literal(value: float | int | bool, kind: str) -> str:
    if kind == "float":
        return repr(float(value))
    if kind == "bool":
        return "true" if value else "false"
    return str(int(value))


def with_constants(text: str, constants: Mapping[str, float | int | bool],
                   shader: str = "") -> str:
    """GLSL `text` (of file `shader`, for errors) with the scalar uniforms named in
    `constants` declared as constants of those values instead (the compiler then folds the
    branches they decide)."""
    for name, value in constants.items():
        pattern = re.compile(rf"^(\s*)uniform\s+(float|int|bool)\s+{re.escape(name)}\s*;", re.M)
        m = pattern.search(text)
        if m is None:
            raise ShaderCompileError(shader, None, f"no scalar uniform {name} to specialize")
        decl = f"{m.group(1)}const {m.group(2)} {name} = {_literal(value, m.group(2))};"
        text = text[:m.start()] + decl + text[m.end():]
    return text


def build_program(ctx: moderngl.Context, vertex: str, fragment: str,
                  root: Path | None = None,
                  constants: Mapping[str, float | int | bool] | None = None
                  ) -> moderngl.Program:
    """Compile and link a program from shader files (with some of the fragment shader's
    uniforms as constants, see `with_constants`); raises ShaderCompileError."""
    vs = ShaderSource(vertex, root)
    fs = ShaderSource(fragment, root)
    if constants:
        fs.text = with_constants(fs.text, constants, fragment)
    try:
        with critical():  # an interrupt half-way through crashes moderngl
            return ctx.program(vertex_shader=vs.text, fragment_shader=fs.text)
    except moderngl.Error as e:
        log = str(e)
        src = vs if "vertex_shader" in log.split("\n", 1)[0] else fs
        name, line, msg = src.locate(log)
        raise ShaderCompileError(name, line, msg) from None


FULLSCREEN_VERTEX = "common/fullscreen.vert"
SPLIT_TILES_VERTEX = "common/split_tiles.vert"  # a split pass's tiles (PassSpec.split)


def fullscreen_pass(ctx: moderngl.Context, fragment: str, root: Path | None = None
                    ) -> tuple[moderngl.Program, moderngl.VertexArray]:
    """A fragment shader's program over the one triangle that covers the viewport, and the
    vertex array that draws it (`vao.render(moderngl.TRIANGLES, vertices=3)`)."""
    program = build_program(ctx, FULLSCREEN_VERTEX, fragment, root)
    return program, ctx.vertex_array(program, [])
