"""Styles and presets are files users edit and share: parsed defensively. A few hundred
seeded random mutations of the shipped files each either load or fail with one StyleError
naming the file; nothing else escapes (no traceback), and what loads can be built and run."""

from __future__ import annotations

import copy
import json
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from aquarelle.engine import AquarelleError, Renderer, load_preset, load_style
from aquarelle.engine.style import styles_dir
from aquarelle.resources import assets_dir

STYLE = json.loads((styles_dir() / "watercolor.json").read_text())
PRESETS = [json.loads(p.read_text())
           for p in sorted((assets_dir() / "presets" / "watercolor").glob("*.json"))]
WEIRD: list[Any] = [None, True, 0, -1, 1e308, -1e308, float("nan"), float("inf"), "",
                    "x" * 300, "../../etc/passwd", "/etc/passwd", [], {}, [1, 2], {"a": 1},
                    2**70, 0.5, "$nope", "common/../../../x.frag"]


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


def mutate(doc: Any, rng: random.Random, n: int = 3) -> Any:
    doc = copy.deepcopy(doc)
    for _ in range(n):
        paths = [p for p in _paths(doc) if p]
        path = rng.choice(paths)
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        action = rng.random()
        if action < 0.3 and isinstance(parent, dict):
            del parent[key]
        elif action < 0.4 and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(rng.choice(parent)))  # duplicates, reorders
        else:
            parent[key] = copy.deepcopy(rng.choice(WEIRD))
    return doc


def write(tmp: Path, name: str, doc: Any) -> Path:
    path = tmp / name
    path.write_text(json.dumps(doc, allow_nan=True))
    return path


@pytest.mark.parametrize("seed", range(8))
def test_mutated_styles_load_or_fail_with_one_clear_error(tmp_path, seed, gl_ctx):
    rng = random.Random(seed)
    built = 0
    for i in range(40):
        path = write(tmp_path, f"s{i}.json", mutate(STYLE, rng, rng.randint(1, 4)))
        try:
            spec = load_style(path)
        except AquarelleError as e:
            assert str(path) in str(e) and "\n" not in str(e)
            continue
        if built < 2:  # what loads must also build and render (compiling is slow: a few)
            built += 1
            try:
                with Renderer(gl_ctx, spec) as p:
                    p.render_array(np.zeros((16, 24, 3), np.uint8))
            except AquarelleError as e:
                assert "\n" not in str(e).strip() or "line" in str(e)


@pytest.mark.parametrize("seed", range(4))
def test_mutated_presets_load_or_fail_with_one_clear_error(tmp_path, seed):
    rng = random.Random(100 + seed)
    spec = load_style("watercolor")
    for i in range(60):
        doc = mutate(rng.choice(PRESETS), rng, rng.randint(1, 3))
        path = write(tmp_path, f"p{i}.json", doc)
        try:
            preset = load_preset(path, "watercolor")
        except AquarelleError as e:
            assert str(path) in str(e)
            continue
        from aquarelle.engine.params import ParamSet

        params = ParamSet(spec.params)
        try:
            params.update(preset.values)
        except AquarelleError:
            continue
        for name, value in params.values().items():
            if isinstance(value, float):
                assert math.isfinite(value), name


@pytest.mark.parametrize("doc, needle", [
    ({**STYLE, "passes": [{**STYLE["passes"][1], "shader": "../../../etc/passwd"}]},
     "shader"),
    ({**STYLE, "passes": [{**STYLE["passes"][1], "shader": "/etc/passwd"}]}, "shader"),
    ({**STYLE, "passes": list(reversed(STYLE["passes"]))}, "before it is written"),
    ({**STYLE, "targets": {**STYLE["targets"], "image": {"format": "rgba16f", "scale": 1e9}}},
     "scale"),
    ({**STYLE, "params": [{**STYLE["params"][0], "min": 5.0, "max": 1.0}]}, "min"),
])
def test_specific_hostile_styles_are_refused(tmp_path, doc, needle):
    path = write(tmp_path, "hostile.json", doc)
    with pytest.raises(AquarelleError) as info:
        load_style(path)
    assert str(path) in str(info.value) and needle in str(info.value)


def test_huge_files_are_refused_before_parsing(tmp_path):
    path = tmp_path / "huge.json"
    path.write_text('{"name": "x", "pad": "' + "x" * (3 << 20) + '"}')
    with pytest.raises(AquarelleError, match="too large"):
        load_style(path)
    with pytest.raises(AquarelleError, match="too large"):
        load_preset(path, "watercolor")


def test_a_garbled_settings_file_falls_back_to_defaults(tmp_path):
    from aquarelle.ui.render_state import RenderState
    from aquarelle.ui.settings import Settings

    ini = tmp_path / "settings.ini"
    ini.write_bytes(b"[render]\nseed=banana\nscale=nan\nstyle=\\x00\\xff\n[params]\n"
                    b"watercolor=\"{\\\"dilution\\\": \\\"lots\\\", \\\"gaps\\\": 1e999, "
                    b"\\\"nope\\\": 3}\"\n[source]\nrecent=[1, {\\\"a\\\": 2}]\n"
                    b"last=file:\n[presets]\nwatercolor_modified=maybe\n\x00\x01garbage\n")
    s = Settings(ini)
    assert s.seed() == 0 and s.scale() == 1.0  # "banana" and NaN: the defaults
    assert all(isinstance(r, str) for r in s.recent_files())
    state = RenderState("watercolor")
    warnings = state.apply_values(s.params("watercolor"))
    assert warnings  # said, not raised
    for name, value in state.params.values().items():
        if isinstance(value, float):
            assert math.isfinite(value), name
    name, modified = s.preset("watercolor")
    assert name is None and isinstance(modified, bool)


def test_a_styles_views_are_checked(tmp_path):
    # "views" (how many views the input and output hold, by a menu's choice) is data like
    # scale_by: a stereo pair's alpha is laid out by it, not by the style's name
    stereo = json.loads((Path(load_style("stereo").path)).read_text(encoding="utf-8"))
    spec = load_style("stereo")
    index = spec.params[[p.name for p in spec.params].index("output")].choices.index
    assert spec.view_grid("output", {"output": index("sbs")}) == (2, 1)
    assert spec.view_grid("output", {"output": index("tb")}) == (1, 2)
    assert spec.view_grid("output", {"output": index("anaglyph")}) == (1, 1)
    assert load_style("watercolor").view_grid("output", {}) == (1, 1)
    for views, needle in (({"sideways": stereo["views"]["output"]}, "sideways"),
                          ({"output": {"param": "output", "values": {"sbs": [0, 1]}}},
                           "views are [nx, ny], 1..4"),
                          ({"output": {"param": "seed", "values": {}}}, "not a menu")):
        path = write(tmp_path, "views.json", {**stereo, "views": views})
        with pytest.raises(AquarelleError) as info:
            load_style(path)
        assert str(path) in str(info.value) and needle in str(info.value)
