"""Chains of styles (`denoise+watercolor+upscale`): one pipeline, textures handed from style
to style, each style with its own state; bypass; parameters by qualified and bare names."""

from __future__ import annotations

import numpy as np
import pytest
import skimage.data

from aquarelle.engine.chain_spec import ChainSpec, load_chain, param_set
from aquarelle.engine.errors import ParamError, StyleError
from aquarelle.engine.motion import MotionEstimator
from aquarelle.engine.presets import Preset, load_preset, save_preset
from aquarelle.engine.renderer import Renderer
from aquarelle.engine.style import load_style


def _photo() -> np.ndarray:
    return np.ascontiguousarray(skimage.data.astronaut()[::4, ::4])  # 128x128


def _frames(n: int) -> list[np.ndarray]:
    """A slow pan over a photo: the temporal features have motion to follow."""
    big = skimage.data.astronaut()[::2, ::2]
    return [np.ascontiguousarray(big[40:168, 20 + 2 * i:148 + 2 * i]) for i in range(n)]


def test_chain_equals_the_styles_one_after_the_other_through_readback(pipeline):
    img = _photo()
    chain = pipeline(style="denoise+watercolor+upscale")
    assert isinstance(chain, Renderer)
    out = chain.render_array(img)
    ref = img
    found = pipeline(style="watercolor")
    found.render(img)
    subject = found.last_subject  # found once, on the input
    for name in ("denoise", "watercolor", "upscale"):
        stage = pipeline(style=name)
        stage.subject_feed = "given"
        stage.set_subject(subject)
        ref = stage.render_array(ref)
    assert out.shape == (256, 256, 3) == ref.shape
    assert np.array_equal(out, ref)
    assert chain.output_size((128, 128)) == (256, 256)


def test_bypass_equals_absence(pipeline):
    img = _photo()
    chain = pipeline({"watercolor.bypass": True}, style="denoise+watercolor+sharpen")
    short = pipeline(style="denoise+sharpen")
    assert np.array_equal(chain.render_array(img), short.render_array(img))
    # and back: the style takes part again
    chain.set_params({"watercolor.bypass": False})
    full = pipeline(style="denoise+watercolor+sharpen")
    assert np.array_equal(chain.render_array(img), full.render_array(img))


def test_each_style_keeps_its_own_temporal_state_and_motion_is_estimated_once(
        pipeline, monkeypatch):
    calls: list[int] = []
    original = MotionEstimator.update

    def counting(self, frame):
        calls.append(self.max_width)
        return original(self, frame)

    monkeypatch.setattr(MotionEstimator, "update", counting)
    frames = _frames(4)
    chain = pipeline(style="denoise+watercolor")
    alone = pipeline(style="denoise")
    for f in frames:
        out = chain.render_array(f)
    # denoise and watercolor both follow motion: one estimate per flow width per frame
    widths = {chain.stages[0].style.motion.max_width, chain.stages[1].style.motion.max_width}
    assert sorted(calls) == sorted(list(widths) * len(frames))
    for f in frames:
        alone.render_array(f)
    # the denoise stage's history is the same as the denoise style's alone
    np.testing.assert_array_equal(chain.read_target("denoise.denoised"),
                                  alone.read_target("denoised"))
    assert out.shape == frames[0].shape


def test_a_still_through_a_chain_then_video_history_does_not_leak_between_styles(pipeline):
    """Resetting one style (re-enabled after a bypass) leaves the others' history alone."""
    frames = _frames(3)
    chain = pipeline(style="denoise+watercolor")
    for f in frames[:2]:
        chain.render_array(f)
    chain.set_params({"denoise.bypass": True})
    chain.render_array(frames[2])
    chain.set_params({"denoise.bypass": False})
    chain.render_array(frames[2])  # the denoise stage starts afresh: its output = spatial
    np.testing.assert_array_equal(chain.read_target("denoise.denoised"),
                                  chain.read_target("denoise.spatial"))


def test_parameters_qualified_bare_and_ambiguous():
    chain = load_chain("denoise+blur+watercolor")
    assert isinstance(chain, ChainSpec)
    ps = param_set(chain)
    ps.set("watercolor.dilution", 0.3)
    ps.set("dilution", 0.4)  # one style has it: the bare name works
    assert ps["watercolor.dilution"] == pytest.approx(0.4)
    with pytest.raises(ParamError, match="ambiguous parameter 'bypass'"):
        ps.set("bypass", True)
    with pytest.raises(ParamError, match="unknown parameter"):
        ps.set("blur.dilution", 0.1)
    # what is wrong, said (watercolor.exposure suggested watercolor.temporal; blur.radius in
    # a chain without blur listed 80 names; adjust.exposure for one style, only its names)
    chain, single = param_set(load_chain("adjust+watercolor")), param_set(load_chain("watercolor"))
    for params, name, said in (
            (ps, "blur.dilution", "blur has none; watercolor.dilution has"),
            (ps, "adjust.exposure", "adjust is not a style painted here (blur, denoise, "
                                    "watercolor): add it, --style denoise+adjust+blur+watercolor"),
            (chain, "watercolor.exposure", "watercolor has none; adjust.exposure has"),
            (single, "adjust.exposure", "adjust is not a style painted here (watercolor): "
                                        "add it, --style adjust+watercolor"),
            (single, "exposure", "watercolor has none; adjust has, a style not painted here: "
                                 "add it, --style adjust+watercolor (or did you mean "
                                 "'exposure_key'?)"),
            (chain, "factor", "adjust and watercolor have none; upscale has, a style not "
                              "painted here: add it, --style adjust+watercolor+upscale")):
        with pytest.raises(ParamError) as info:
            params.set(name, 0.1)
        assert str(info.value) == f"unknown parameter {name!r}: {said}"
    with pytest.raises(ParamError, match="'watercolor.dilutio'; did you mean 'dilution'"):
        single.set("watercolor.dilutio", 0.1)
    # a single style accepts its own qualified names
    single = param_set(load_chain("watercolor"))
    single.set("watercolor.dilution", 0.2)
    assert single["dilution"] == pytest.approx(0.2)
    with pytest.raises(ParamError):
        single.set("denoise.dilution", 0.2)


def test_chain_names_refused_with_one_line_errors():
    with pytest.raises(StyleError, match="unknown style 'nope'"):
        load_chain("denoise+nope")
    with pytest.raises(StyleError, match="twice"):
        load_chain("blur+denoise+blur")
    with pytest.raises(StyleError, match="joins style names"):
        load_chain("denoise++watercolor")


def test_debug_views_list_each_styles_own_views(pipeline):
    spec = load_chain("denoise+watercolor")
    views = spec.debug_views
    assert "Denoise › spatial" in views and views["Denoise › spatial"] == "denoise.spatial"
    water = load_style("watercolor")
    # the styles' readable views, grouped by style in chain order; no raw target names
    assert [v for v in views if v.startswith("Watercolor › ")] == \
        [f"Watercolor › {v}" for v in water.debug_views]
    assert len(views) == 1 + len(water.debug_views)
    chain = pipeline(style=spec)
    chain.render_array(_photo())
    for target in views.values():
        if target.startswith("denoise."):
            assert chain.target(target).size == (128, 128)


def test_presets_store_a_chain_and_single_style_presets_still_load(tmp_path):
    chain = load_chain("denoise+watercolor")
    values = param_set(chain)
    values.update({"denoise.sigma_space": 3.0, "watercolor.dilution": 0.3,
                   "denoise.bypass": True})
    saved = Preset(name="night cam", style=chain.name, values=values.as_json_values())
    path = save_preset(saved, tmp_path / chain.name)
    back = load_preset("night cam", chain.name, tmp_path / chain.name)
    assert back.style == "denoise+watercolor" and back.values == saved.values
    assert load_preset(path, chain.name).values == saved.values
    again = param_set(chain)
    again.update(back.values)
    assert again.values() == values.values()
    # a watercolor preset (built in) loads into a chain that holds watercolor
    wc = load_preset("loose_wash", "watercolor")
    into = load_preset("loose_wash", chain.name)
    assert into.values == {f"watercolor.{k}": v for k, v in wc.values.items()}
    with pytest.raises(StyleError, match="is for style"):
        load_preset(path, "watercolor")


def test_below_scale_1_the_filters_before_the_painting_run_at_its_work_size(pipeline):
    img = _photo()  # 128x128
    chain = pipeline(style="denoise+watercolor+sharpen", scale=0.5)
    out = chain.render_array(img)
    assert out.shape == (128, 128, 3)
    assert chain.target("denoise.spatial").size == (64, 64)  # shrunk once, filtered small
    assert chain.target("sharpen.result").size == (128, 128)  # after the painting: full size
    # a chain of filters only: each at the scale on its own, enlarged back to the frame size
    filters = pipeline(style="denoise+sharpen", scale=0.5)
    assert filters.render_array(img).shape == (128, 128, 3)
    assert filters.output_size((128, 128)) == (128, 128)
    assert pipeline(style="denoise", scale=0.5).render_array(img).shape == (128, 128, 3)


def test_a_chain_lists_its_styles_presets_addressed_to_them(tmp_path):
    from aquarelle.engine.presets import list_presets

    chain = "denoise+watercolor"
    saved = Preset(name="night cam", style=chain, values={"denoise.sigma_space": 3.0})
    save_preset(saved, tmp_path / chain)
    listed = list_presets(chain, tmp_path / chain)
    assert listed[0].name == "night cam"  # the chain's own first
    inherited = [p for p in listed if p.name == "loose_wash"]
    assert len(inherited) == 1 and inherited[0].builtin and inherited[0].style == chain
    assert all(k.startswith("watercolor.") for k in inherited[0].values)
    assert load_preset("loose_wash", chain, tmp_path / chain).values == inherited[0].values
