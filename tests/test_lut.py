"""Colour look-up tables: .cube files read as cube_texture lays them out, applied by the
`adjust` style (trilinear, against numpy), chosen through a file parameter."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from aquarelle.engine.errors import ParamError
from aquarelle.engine.lut import LutError, apply_lut, cube_texture, read_cube
from aquarelle.engine.params import ParamSet
from aquarelle.engine.style import load_style


def write_cube(path: Path, table: np.ndarray, header: str = "") -> Path:
    """`table` [b, g, r] written with red varying fastest, as the format says."""
    n = table.shape[0]
    lines = [header, 'TITLE "test"', f"LUT_3D_SIZE {n}", "DOMAIN_MIN 0 0 0", "DOMAIN_MAX 1 1 1"]
    lines += [" ".join(f"{v:.6f}" for v in table[b, g, r])
              for b in range(n) for g in range(n) for r in range(n)]
    path.write_text("\n".join(lines) + "\n")
    return path


def graded(n: int = 17) -> np.ndarray:
    """A look: lifted blacks in blue, gamma in red, green squeezed; [b, g, r]."""
    x = np.linspace(0.0, 1.0, n)
    b, g, r = np.meshgrid(x, x, x, indexing="ij")
    return np.stack([r ** 0.8, 0.05 + 0.9 * g, 0.1 + 0.85 * np.sqrt(b)], axis=-1)


def test_read_cube_and_texture_layout(tmp_path):
    t = graded(5)
    path = write_cube(tmp_path / "a.cube", t, "# comment line")
    got = read_cube(path)
    np.testing.assert_allclose(got, t, atol=1e-6)
    tex = cube_texture(path)
    assert tex.shape == (5, 25, 3)
    b, g, r = 3, 1, 4
    np.testing.assert_allclose(tex[g, b * 5 + r], t[b, g, r], atol=1e-6)


@pytest.mark.parametrize("text, message", [
    ("LUT_1D_SIZE 4\n0 0 0\n", "1D LUT"),
    ("LUT_3D_SIZE 2\n0 0 0\n", "needs 8"),
    ("LUT_3D_SIZE 2\n" + "0 0 x\n" * 8, "unexpected"),
    ("0 0 0\n", "LUT_3D_SIZE"),
])
def test_broken_cube_files_are_refused_in_one_line(tmp_path, text, message):
    path = tmp_path / "bad.cube"
    path.write_text(text)
    with pytest.raises(LutError, match=message):
        read_cube(path)


def test_lut_parameter_checks_the_file(tmp_path):
    params = ParamSet(load_style("adjust").params)
    with pytest.raises(ParamError, match="no such file"):
        params.set("lut", str(tmp_path / "missing.cube"))
    with pytest.raises(ParamError, match="not a .cube file"):
        params.set("lut", str(tmp_path / "look.png"))
    (tmp_path / "bad.cube").write_text("LUT_3D_SIZE 3\n")
    with pytest.raises(LutError):
        params.set("lut", str(tmp_path / "bad.cube"))
    assert params["lut"] == ""


def test_adjust_applies_a_lut_like_numpy(pipeline, tmp_path):
    table = graded()
    path = write_cube(tmp_path / "look.cube", table)
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)
    p = pipeline(style="adjust")
    before = p.render_array(img)
    assert np.array_equal(before, img)  # no LUT, defaults: the picture as it is
    p.set_params({"lut": str(path)})
    out = p.render_array(img).astype(float)
    ref = apply_lut(img / 255.0, table) * 255.0
    # float32 table, the texture unit's bilinear weights (8-bit fixed point on llvmpipe)
    assert np.abs(out - ref).max() <= 1.0
    assert np.abs(out - ref).mean() < 0.35
    p.set_params({"lut_amount": 0.5})
    half = p.render_array(img).astype(float)
    assert np.abs(half - (img + ref) / 2).max() <= 1.0
    p.set_params({"lut": ""})  # back to none
    assert np.array_equal(p.render_array(img), img)


def test_identity_lut_keeps_the_picture(pipeline, tmp_path):
    x = np.linspace(0.0, 1.0, 9)
    b, g, r = np.meshgrid(x, x, x, indexing="ij")
    path = write_cube(tmp_path / "id.cube", np.stack([r, g, b], axis=-1))
    img = np.random.default_rng(1).integers(0, 256, (32, 32, 3), dtype=np.uint8)
    out = pipeline({"lut": str(path)}, style="adjust").render_array(img).astype(int)
    assert np.abs(out - img).max() <= 1


def test_a_table_over_another_domain_is_looked_up_in_it(pipeline, tmp_path):
    # Outputs half the input over inputs 0..2: a 0..1 picture comes out at half (read as
    # spanning 0..1 it would come out at a quarter).
    x = np.linspace(0.0, 2.0, 9)
    b, g, r = np.meshgrid(x, x, x, indexing="ij")
    path = tmp_path / "wide.cube"
    write_cube(path, np.stack([r, g, b], axis=-1) / 2)
    path.write_text(path.read_text().replace("DOMAIN_MAX 1 1 1", "DOMAIN_MAX 2 2 2"))
    y = np.linspace(0.0, 1.0, 9)
    b, g, r = np.meshgrid(y, y, y, indexing="ij")
    np.testing.assert_allclose(read_cube(path), np.stack([r, g, b], axis=-1) / 2, atol=1e-6)
    img = np.random.default_rng(2).integers(0, 256, (32, 32, 3), dtype=np.uint8)
    out = pipeline({"lut": str(path)}, style="adjust").render_array(img).astype(float)
    assert np.abs(out - img / 2.0).max() <= 1.0


@pytest.mark.parametrize("header, message", [
    ("DOMAIN_MIN 0 0\n", "DOMAIN_MIN needs 3 numbers"),
    ("DOMAIN_MAX 1 1 x\n", "DOMAIN_MAX needs 3 numbers"),
    ("DOMAIN_MIN 1 0 0\nDOMAIN_MAX 1 1 1\n", "must be above"),
])
def test_a_broken_domain_is_refused(tmp_path, header, message):
    path = tmp_path / "bad.cube"
    path.write_text(header + "LUT_3D_SIZE 2\n" + "0 0 0\n" * 8)
    with pytest.raises(LutError, match=message):
        read_cube(path)
