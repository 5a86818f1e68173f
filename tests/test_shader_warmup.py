"""The shader warm-up: a style's presets painted ahead in a process of its own, as the window
paints them (a still, a video's next frames, a slider's draft), once per look and version."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from aquarelle.engine.presets import list_presets
from aquarelle.engine.shader_warmup import shader_digest, warm_looks
from aquarelle.ui import shader_warmup as sw
from aquarelle.ui.render_state import RenderState


def picture(w: int = 96, h: int = 64) -> np.ndarray:
    y, x = np.mgrid[0:h, 0:w]
    return np.stack([x * 255 // w, y * 255 // h, (x * y) % 256], axis=2).astype(np.uint8)


def test_each_look_is_painted_as_the_window_paints_it() -> None:
    seen: list[tuple[int, int]] = []
    looks = [{"brightness": 0.0}, {"brightness": 0.2, "saturation": 1.4}]
    assert warm_looks("adjust", looks, picture(), moving=True,
                      progress=lambda done, n: seen.append((done, n))) == 2
    assert seen == [(1, 2), (2, 2)]


def test_the_shaders_digest_follows_every_file(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "a.frag").write_text("void main() {}")
    (tmp_path / "inc" / "b.glsl").write_text("float f;")
    first = shader_digest(tmp_path)
    assert shader_digest(tmp_path) == first
    (tmp_path / "inc" / "b.glsl").write_text("float g;")
    assert shader_digest(tmp_path) != first
    (tmp_path / "inc" / "b.glsl").write_text("float f;")
    (tmp_path / "inc" / "b.glsl").rename(tmp_path / "inc" / "c.glsl")
    assert shader_digest(tmp_path) != first


def test_a_key_changes_with_the_looks_the_kind_of_source_and_the_renderer() -> None:
    looks: sw.Looks = [{"a": 1.0}]
    key = sw.warm_key("adjust", looks, False, "llvmpipe", "d1")
    assert key == sw.warm_key("adjust", [{"a": 1.0}], False, "llvmpipe", "d1")
    others = {sw.warm_key("adjust", [{"a": 2.0}], False, "llvmpipe", "d1"),
              sw.warm_key("adjust", looks, True, "llvmpipe", "d1"),
              sw.warm_key("adjust", looks, False, "NVIDIA", "d1"),
              sw.warm_key("adjust", looks, False, "llvmpipe", "d2"),
              sw.warm_key("blur", looks, False, "llvmpipe", "d1")}
    assert key not in others and len(others) == 5


def test_stamps_are_kept_newest_last_and_a_broken_file_is_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stamps = sw.WarmStamps(tmp_path / "sub" / "warm.json")
    assert "k" not in stamps
    monkeypatch.setattr(sw, "MAX_KEPT", 3)
    for k in ("a", "b", "c", "a", "d"):
        stamps.add(k)
    assert stamps.keys() == ["c", "a", "d"]
    (tmp_path / "sub" / "warm.json").write_text("{not json")
    assert stamps.keys() == [] and "a" not in stamps
    stamps.add("e")
    assert json.loads((tmp_path / "sub" / "warm.json").read_text()) == ["e"]


def test_a_small_picture_is_8_bits_and_at_most_its_size() -> None:
    deep = (picture(1600, 900).astype(np.uint16) * 257)
    small = sw.small_picture(deep)
    assert small.dtype == np.uint8 and small.shape == (360, 640, 3)
    assert abs(int(small[180, 320, 0]) - int(deep[450, 800, 0] // 257)) <= 2
    assert sw.small_picture(picture()).shape == (64, 96, 3)


def test_a_presets_look_is_what_choosing_it_sets_and_the_state_keeps_its_own() -> None:
    state = RenderState("watercolor")
    state.apply_values({"dilution": 0.9})
    own = state.params.values()
    revision = state.revision
    for preset in list_presets("watercolor"):
        look = state.preset_look(preset.values)
        assert state.params.values() == own and state.revision == revision
        chosen = RenderState("watercolor")
        chosen.apply_values(own)
        chosen.apply_values(preset.values, reset_others=True)
        assert look == chosen.params.values(), preset.name
