"""Shader compile errors name the file and line; a style with new shaders needs no Python."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from aquarelle.engine import Renderer, ShaderCompileError, load_style
from aquarelle.engine.errors import StyleError
from aquarelle.resources import shaders_dir


def _style(tmp_path: Path, shader: str) -> Path:
    spec = {
        "name": "tint", "label": "Tint",
        "params": [{"name": "amount", "type": "float", "min": 0, "max": 1, "default": 0.5}],
        "targets": {"out": {"format": "rgba8", "relative_to": "source"}},
        "passes": [{"name": "tint", "shader": shader, "inputs": {"src": "source"},
                    "output": "out"}],
        "output": "out",
    }
    path = tmp_path / "tint.json"
    path.write_text(json.dumps(spec))
    return path


def _shader_tree(tmp_path: Path) -> Path:
    root = tmp_path / "shaders"
    shutil.copytree(shaders_dir(), root)
    return root


def _tint_shader(root: Path, body: str) -> None:
    """tint.frag: `body` turns the source colour c towards grey by u_amount, then frag = c."""
    (root / "tint.frag").write_text(
        "#version 330 core\nin vec2 v_uv;\nout vec4 frag;\nuniform sampler2D src;\n"
        "uniform float u_amount;\n#include \"common/color.glsl\"\n"
        f"void main() {{ vec3 c = texture(src, v_uv).rgb;\n  {body}\n  frag = vec4(c, 1.0); }}\n")


def test_new_style_is_data_plus_shader(gl_ctx, tmp_path: Path) -> None:
    root = _shader_tree(tmp_path)
    _tint_shader(root, "c = mix(c, vec3(luma(c)), u_amount);")
    with Renderer(gl_ctx, load_style(_style(tmp_path, "tint.frag")), shader_root=root) as p:
        p.set_params({"amount": 1.0})
        out = p.render_array(np.array([[[255, 0, 0], [0, 0, 255]]], np.uint8))
    # Full desaturation: grey values equal to the Rec. 709 luma of red and blue.
    assert out.shape == (1, 2, 3)
    assert np.all(out[0, 0] == out[0, 0, 0]) and abs(int(out[0, 0, 0]) - 54) <= 1
    assert np.all(out[0, 1] == out[0, 1, 0]) and abs(int(out[0, 1, 0]) - 18) <= 1


def test_compile_error_names_file_and_line(gl_ctx, tmp_path: Path) -> None:
    root = _shader_tree(tmp_path)
    (root / "broken.frag").write_text(
        "#version 330 core\n#include \"common/noise.glsl\"\nout vec4 frag;\n"
        "void main() {\n  frag = vec4(undefined_thing, 1.0);\n}\n")
    with pytest.raises(ShaderCompileError) as err:
        Renderer(gl_ctx, load_style(_style(tmp_path, "broken.frag")), shader_root=root)
    assert err.value.path == "broken.frag"
    assert err.value.line == 5
    assert "undefined_thing" in str(err.value)


def test_error_inside_an_include_names_the_include(gl_ctx, tmp_path: Path) -> None:
    root = _shader_tree(tmp_path)
    (root / "common" / "bad.glsl").write_text("float f() {\n  return nope;\n}\n")
    (root / "uses_bad.frag").write_text(
        "#version 330 core\n#include \"common/bad.glsl\"\nout vec4 frag;\n"
        "void main() { frag = vec4(f()); }\n")
    with pytest.raises(ShaderCompileError) as err:
        Renderer(gl_ctx, load_style(_style(tmp_path, "uses_bad.frag")), shader_root=root)
    assert (err.value.path, err.value.line) == ("common/bad.glsl", 2)


def test_missing_shader_file(gl_ctx, tmp_path: Path) -> None:
    with pytest.raises(ShaderCompileError, match="not found"):
        Renderer(gl_ctx, load_style(_style(tmp_path, "nowhere.frag")))


def test_specialize_must_name_a_scalar_uniform_of_the_shader(gl_ctx, tmp_path: Path) -> None:
    path = _style(tmp_path, "common/fit.frag")
    spec = json.loads(path.read_text())
    spec["passes"][0]["specialize"] = ["u_no_such_thing"]
    path.write_text(json.dumps(spec))
    with pytest.raises(ShaderCompileError, match="u_no_such_thing") as err:
        Renderer(gl_ctx, load_style(path))
    assert err.value.path == "common/fit.frag"


def test_a_specialized_shader_paints_what_the_generic_one_does(gl_ctx, tmp_path: Path) -> None:
    # The tint at amount 0 compiles with the amount as a constant (its branch folded away);
    # at 0.5 the generic program runs: both paint what a style without `specialize` does.
    root = _shader_tree(tmp_path)
    _tint_shader(root, "if (u_amount > 0.0) c = mix(c, vec3(luma(c)), u_amount);")
    plain = load_style(_style(tmp_path, "tint.frag"))
    path = _style(tmp_path, "tint.frag")
    spec = json.loads(path.read_text())
    spec["passes"][0]["specialize"] = ["u_amount"]
    path.write_text(json.dumps(spec))
    img = np.array([[[255, 0, 0], [0, 0, 255]]], np.uint8)
    with Renderer(gl_ctx, load_style(path), shader_root=root) as p, \
            Renderer(gl_ctx, plain, shader_root=root) as ref:
        for amount in (0.0, 0.5, 0.0):
            p.set_params({"amount": amount})
            ref.set_params({"amount": amount})
            np.testing.assert_array_equal(p.render_array(img), ref.render_array(img))
        assert len(p.stages[0].graph._variants) == 1  # one variant for 0, reused
        assert not ref.stages[0].graph._variants
        p.set_params({"amount": 0.5})
        assert not np.array_equal(p.render_array(img), img)  # the tint is on


def test_a_uniform_nothing_gives_is_an_error_when_the_style_loads(gl_ctx, tmp_path: Path) -> None:
    # u_strength is neither a built-in, a constant, a parameter (u_<param>) nor an input's
    # size: it would silently stay 0, so the style is refused when its graph is built.
    root = _shader_tree(tmp_path)
    _tint_shader(root, "c = mix(c, vec3(luma(c)), u_amount * u_strength);")
    (root / "tint.frag").write_text((root / "tint.frag").read_text().replace(
        "uniform float u_amount;", "uniform float u_amount;\nuniform float u_strength;"))
    path = _style(tmp_path, "tint.frag")
    with pytest.raises(StyleError, match="pass tint: uniform u_strength has no source"):
        Renderer(gl_ctx, load_style(path), shader_root=root)
    spec = json.loads(path.read_text())
    spec["passes"][0]["uniforms"] = {"u_strength": 1.0}  # a constant gives it
    path.write_text(json.dumps(spec))
    with Renderer(gl_ctx, load_style(path), shader_root=root) as p:
        p.set_params({"amount": 1.0})
        out = p.render_array(np.array([[[255, 0, 0]]], np.uint8))
    assert np.all(out[0, 0] == out[0, 0, 0])


def test_an_edited_include_is_read_again(gl_ctx, tmp_path: Path) -> None:
    # Shader files are expanded once (a Renderer builds about 80 programs from the same
    # few files); an include edited since, even to the same length, is read again.
    import os

    root = _shader_tree(tmp_path)
    _tint_shader(root, "c = tinted(c);")
    include = root / "common" / "color.glsl"
    original = include.read_text()
    pixel = np.array([[[200, 40, 40]]], np.uint8)

    def painted(body: str, second: int) -> np.ndarray:
        include.write_text(original + f"\nvec3 tinted(vec3 c) {{ {body} }}\n")
        os.utime(include, (second, second))  # (two writes in one tick of a coarse clock)
        with Renderer(gl_ctx, load_style(_style(tmp_path, "tint.frag")),
                      shader_root=root) as p:
            return p.render_array(pixel)

    first = painted("return c.bgr;", 1_000_000)
    again = painted("return c.grb;", 1_000_001)  # the same length
    assert tuple(first[0, 0]) == (40, 40, 200) and tuple(again[0, 0]) == (40, 200, 40)
