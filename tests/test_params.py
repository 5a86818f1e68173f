"""Parameter declarations and values (ParamSpec, ParamSet) and style-file loading errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from aquarelle.engine import ParamError, ParamSet, ParamSpec, StyleError, load_style
from aquarelle.engine.params import color_to_hex
from aquarelle.engine.style import list_styles

FLOAT = ParamSpec.from_dict({"name": "radius", "type": "float", "min": 0.5, "max": 8.0,
                             "default": 2.0})
INT = ParamSpec.from_dict({"name": "count", "type": "int", "min": 0, "max": 8, "default": 2})
BOOL = ParamSpec.from_dict({"name": "flag", "type": "bool", "default": False})
COLOR = ParamSpec.from_dict({"name": "tint", "type": "color", "default": "#f7f2e6"})


def make_set() -> ParamSet:
    return ParamSet([FLOAT, INT, BOOL, COLOR])


# -- ParamSpec ------------------------------------------------------------------------------

def test_spec_from_dict_fills_label_and_coerces_default():
    assert FLOAT.label == "Radius"
    assert FLOAT.default == 2.0 and isinstance(FLOAT.default, float)
    assert INT.default == 2 and isinstance(INT.default, int)
    assert COLOR.default == pytest.approx((0xF7 / 255, 0xF2 / 255, 0xE6 / 255))


@pytest.mark.parametrize("value, expected", [(3.25, 3.25), ("3.25", 3.25), (" 7 ", 7.0), (1, 1.0)])
def test_float_in_range_is_kept(value, expected):
    val, warning = FLOAT.coerce(value)
    assert val == expected and isinstance(val, float)
    assert warning is None


@pytest.mark.parametrize("value, expected", [(100.0, 8.0), ("-3", 0.5), (8.0001, 8.0)])
def test_float_out_of_range_clamps_with_warning(value, expected):
    val, warning = FLOAT.coerce(value)
    assert val == expected
    assert warning is not None
    assert "radius" in warning and "clamped" in warning and "8" in warning


def test_bounds_themselves_are_not_clamped():
    assert FLOAT.coerce(0.5) == (0.5, None)
    assert FLOAT.coerce(8.0) == (8.0, None)
    assert INT.coerce(0) == (0, None)
    assert INT.coerce(8) == (8, None)


@pytest.mark.parametrize("value", ["abc", "", None, True, float("nan"), float("inf"), [1, 2],
                                   "1e999"])
def test_float_wrong_type_raises(value):
    with pytest.raises(ParamError, match="radius"):
        FLOAT.coerce(value)


@pytest.mark.parametrize("value, expected", [(3, 3), ("5", 5), (4.0, 4), (" 6 ", 6)])
def test_int_values(value, expected):
    val, warning = INT.coerce(value)
    assert val == expected and type(val) is int
    assert warning is None


def test_int_clamps_with_warning():
    val, warning = INT.coerce(99)
    assert val == 8 and type(val) is int
    assert warning and "count" in warning


@pytest.mark.parametrize("value", [1.5, "1.5", "x", True, None])
def test_int_wrong_type_raises(value):
    with pytest.raises(ParamError, match="whole number"):
        INT.coerce(value)


@pytest.mark.parametrize("text, expected", [
    ("true", True), ("True", True), ("1", True), ("yes", True), ("on", True), (1, True),
    (True, True), ("false", False), ("0", False), ("No", False), ("off", False), (0, False),
    (False, False),
])
def test_bool_parsing(text, expected):
    assert BOOL.coerce(text) == (expected, None)


@pytest.mark.parametrize("value", ["maybe", 2, "", None, 0.5])
def test_bool_wrong_value_raises(value):
    with pytest.raises(ParamError, match="true or false"):
        BOOL.coerce(value)


@pytest.mark.parametrize("text, expected", [
    ("#ff8000", (1.0, 128 / 255, 0.0)),
    ("#FF8000", (1.0, 128 / 255, 0.0)),
    ("ff8000", (1.0, 128 / 255, 0.0)),
    ("  #000000 ", (0.0, 0.0, 0.0)),
    ("1,0.5,0", (1.0, 0.5, 0.0)),
    (" 0.25 , 0.5 , 0.75 ", (0.25, 0.5, 0.75)),
    ([0.1, 0.2, 0.3], (0.1, 0.2, 0.3)),
    ((1, 1, 1), (1.0, 1.0, 1.0)),
])
def test_color_parsing(text, expected):
    val, warning = COLOR.coerce(text)
    assert warning is None
    assert isinstance(val, tuple) and len(val) == 3
    assert val == pytest.approx(expected)


@pytest.mark.parametrize("value", ["#ff80", "#gg0000", "red", "1,2,3", "0.5,0.5", "-0.1,0,0",
                                   "0.1,0.2,0.3,0.4", "", 5, None])
def test_color_wrong_value_raises(value):
    with pytest.raises(ParamError, match="colour"):
        COLOR.coerce(value)


def test_color_to_hex_round_trip():
    for text in ("#f7f2e6", "#000000", "#ffffff", "#0a7f80"):
        assert color_to_hex(COLOR.coerce(text)[0]) == text


def test_spec_rejects_unknown_type_and_missing_range():
    with pytest.raises(ParamError, match="unknown type"):
        ParamSpec.from_dict({"name": "x", "type": "vec2", "default": 0})
    with pytest.raises(ParamError, match="min and max"):
        ParamSpec.from_dict({"name": "x", "type": "float", "default": 0})
    with pytest.raises(ParamError):
        ParamSpec.from_dict({"name": "x", "type": "int", "min": 0, "max": 3, "default": "many"})


# -- ParamSet -------------------------------------------------------------------------------

def test_set_starts_at_defaults():
    ps = make_set()
    assert ps.values() == {"radius": 2.0, "count": 2, "flag": False, "tint": COLOR.default}


def test_set_clamps_and_warns():
    ps = make_set()
    warning = ps.set("radius", 50)
    assert ps["radius"] == 8.0
    assert warning and "clamped" in warning
    assert ps.set("radius", 3) is None and ps["radius"] == 3.0


def test_unknown_name_suggests_or_lists_valid_names():
    ps = make_set()
    with pytest.raises(ParamError) as info:
        ps.set("radiuss", 1)
    assert "radiuss" in str(info.value) and "did you mean 'radius'?" in str(info.value)
    with pytest.raises(ParamError) as info:
        ps.set("zzz", 1)  # nothing close: the whole list
    for name in ("radius", "count", "flag", "tint"):
        assert name in str(info.value)
    with pytest.raises(ParamError, match="valid names"):
        ps["nope"]  # noqa: B018 - the lookup itself must raise
    with pytest.raises(ParamError, match="valid names"):
        ps.update({"nope": 1})


def test_update_is_all_or_nothing():
    ps = make_set()
    before = ps.values()
    rev = ps.revision
    with pytest.raises(ParamError):
        ps.update({"radius": 4.0, "count": "lots"})
    assert ps.values() == before
    assert ps.revision == rev


def test_update_returns_all_clamp_warnings_and_bumps_revision():
    ps = make_set()
    rev = ps.revision
    warnings = ps.update({"radius": -1, "count": 100, "flag": "on", "tint": "#102030"})
    assert len(warnings) == 2
    assert any("radius" in w for w in warnings) and any("count" in w for w in warnings)
    assert ps["radius"] == 0.5 and ps["count"] == 8 and ps["flag"] is True
    assert ps.revision > rev
    rev = ps.revision
    ps.update({"radius": 0.5})  # unchanged value: no new revision
    assert ps.revision == rev


def test_reset_and_json_values():
    ps = make_set()
    ps.update({"radius": 5, "tint": "#000000"})
    assert ps.as_json_values()["tint"] == "#000000"
    ps.reset("radius")
    assert ps["radius"] == 2.0 and ps["tint"] == (0.0, 0.0, 0.0)
    ps.reset()
    assert ps.values() == make_set().values()
    assert json.loads(json.dumps(ps.as_json_values()))["tint"] == "#f7f2e6"


def test_watercolor_params_are_consistent():
    style = load_style("watercolor")
    names = [p.name for p in style.params]
    assert len(names) == len(set(names))
    for spec in style.params:
        if spec.type in ("float", "int"):
            assert spec.min <= spec.default <= spec.max, spec.name
            # the declared default is accepted without a warning
            assert spec.coerce(spec.default) == (spec.default, None)
    groups = ParamSet(style.params).groups()
    assert sum(len(v) for v in groups.values()) == len(names)


# -- style files ---------------------------------------------------------------------------

def _base_style() -> dict:
    return json.loads(load_style("watercolor").path.read_text(encoding="utf-8"))


def _write(tmp_path: Path, data: object, name: str = "broken.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_valid_copy_of_the_style_loads(tmp_path):
    style = load_style(_write(tmp_path, _base_style(), "copy.json"))
    assert style.name == "watercolor"
    assert style.output in style.targets


def test_list_styles_has_watercolor():
    assert "watercolor" in list_styles()


def test_unknown_style_name_lists_available():
    with pytest.raises(StyleError, match="watercolor"):
        load_style("no_such_style")


def test_missing_style_file(tmp_path):
    with pytest.raises(StyleError):
        load_style(tmp_path / "absent.json")


def test_malformed_json(tmp_path):
    with pytest.raises(StyleError, match="invalid JSON at line 1 column 26: Expecting value"):
        load_style(_write(tmp_path, '{"name": "x", "params": [}'))


def _mutations():
    def drop(key):
        def f(d):
            del d[key]
        return f

    def set_first_param(key, value):
        def f(d):
            first_float = next(p for p in d["params"] if p.get("type", "float") == "float")
            first_float[key] = value
        return f

    def set_target_format(d):
        next(iter(d["targets"].values()))["format"] = "rgb10"

    def bad_input(d):
        first = next(n for n in d["passes"] if "repeat" not in n)
        first["inputs"] = {"src": "no_such_target"}

    def bad_output(d):
        next(n for n in d["passes"] if "repeat" not in n)["output"] = "nowhere"

    def bad_repeat(d):
        next(n for n in d["passes"] if "repeat" in n)["repeat"] = "not_a_param"

    def bad_when(d):
        next(n for n in d["passes"] if "repeat" not in n)["when"] = "not_a_param"

    def negated_unknown_when(d):
        next(n for n in d["passes"] if "repeat" not in n)["when"] = "!not_a_flag"

    def finish_enlarges_without_finish(d):
        d["draft"] = {"finish_enlarges": "bicubic"}

    def unknown_draft_upscale(d):
        d["draft"] = {"upscale": "nearest"}

    def bad_output_target(d):
        d["output"] = "nothing"

    def bad_debug_view(d):
        d["debug_views"] = {"x": "nothing"}

    def params_not_list(d):
        d["params"] = 5

    return {
        "no params": drop("params"),
        "no targets": drop("targets"),
        "no passes": drop("passes"),
        "no output": drop("output"),
        "unknown param type": set_first_param("type", "vec2"),
        "numeric param without min": set_first_param("min", None),
        "bad default": set_first_param("default", "lots"),
        "unknown format": set_target_format,
        "unknown input": bad_input,
        "unknown output target": bad_output,
        "repeat count not a param": bad_repeat,
        "when not a param": bad_when,
        "negated when not a flag": negated_unknown_when,
        "draft finish_enlarges without a finish": finish_enlarges_without_finish,
        "draft upscale not an upscale method": unknown_draft_upscale,
        "style output unknown": bad_output_target,
        "debug view unknown": bad_debug_view,
        "params not a list": params_not_list,
    }


@pytest.mark.parametrize("case", list(_mutations()))
def test_malformed_style_raises_style_error(tmp_path, case):
    data = copy.deepcopy(_base_style())
    _mutations()[case](data)
    path = _write(tmp_path, data)
    with pytest.raises(StyleError) as info:
        load_style(path)
    assert str(path) in str(info.value)


def test_style_that_is_not_an_object(tmp_path):
    with pytest.raises(StyleError):
        load_style(_write(tmp_path, "[1, 2, 3]"))


def test_a_menu_given_a_number_says_what_it_became():
    blur = ParamSet(load_style("blur").params)
    assert blur.set("mode", "1") is None and blur["mode"] == 1  # a choice's number: box
    assert blur.set("mode", "7") == "mode=7 is no choice's number (0..2); lens taken"
    stereo = ParamSet(load_style("stereo").params)
    stereo.set("max_disparity", "32")
    assert stereo["max_disparity"] == 0
    for wrong in ("16", "2", "100"):  # a disparity, not the index of one
        with pytest.raises(ParamError, match="is not one of 32, 64, 128"):
            stereo.set("max_disparity", wrong)
    assert stereo["max_disparity"] == 0


def test_a_mistyped_choice_gets_the_nearest_one():
    blur = ParamSet(load_style("blur").params)
    with pytest.raises(ParamError) as info:
        blur.set("mode", "lense")
    assert str(info.value) == "mode: 'lense' is not one of gaussian, box, lens; did you " \
        "mean 'lens'?"
    with pytest.raises(ParamError) as info:
        blur.set("mode", "xyz")
    assert str(info.value) == "mode: 'xyz' is not one of gaussian, box, lens"


def test_values_as_set_takes_them():
    water = ParamSet(load_style("watercolor").params)
    spec = water.spec("background")
    assert [spec.as_text(i) for i in range(3)] == ["painted", "loose wash", "bare paper"]
    assert COLOR.as_text(COLOR.default) == "#f7f2e6"
    assert (FLOAT.as_text(2.0), INT.as_text(3), BOOL.as_text(True)) == ("2", "3", "true")
    for spec, value in ((FLOAT, 2.5), (INT, 3), (BOOL, True), (COLOR, COLOR.default),
                        *((spec, i) for i in range(3))):  # what --set reads back
        assert spec.coerce(spec.as_text(value))[0] == value
