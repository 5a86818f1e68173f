"""Presets and styles written by other editors (issue #27): UTF-8 with or without a BOM is
read; every malformed file gives one line naming the file and what is wrong, whichever way
it is loaded (--preset FILE, a user preset in the presets folder, --style FILE), and a broken
file in the presets folder is skipped with a warning instead of breaking the listing."""

from __future__ import annotations

import codecs
import json
import re
import shlex
import unicodedata
from pathlib import Path

import cv2
import numpy as np
import pytest

from aquarelle.cli.main import main
from aquarelle.engine import ParamSpec, list_presets, load_preset, load_style
from aquarelle.engine.errors import StyleError
from aquarelle.engine.presets import (
    NAME_CHARS,
    Preset,
    check_preset_name,
    read_preset,
    save_preset,
    user_preset_named,
)
from aquarelle.engine.style import MAX_JSON_DEPTH, styles_dir

PRESET = {"name": "mine", "style": "watercolor", "description": "from Notepad",
          "values": {"dilution": 0.25}}
GOOD = json.dumps(PRESET, indent=2).encode()
STYLE = (styles_dir() / "watercolor.json").read_bytes()


def nested(levels: int) -> bytes:
    return b'{"style": "watercolor", "values": {}, "x": ' + b"[" * levels + b"]" * levels \
        + b"}"


# (file bytes, the problem as said after "PATH: ")
MALFORMED = [
    (b'{"style": "watercolor", "name": "caf\xe9", "values": {}}',
     "not UTF-8 text (byte 0xe9 at offset 36); save it as UTF-8"),
    (codecs.BOM_UTF8 + b'{"name": "\xff"}',
     "not UTF-8 text (byte 0xff at offset 13); save it as UTF-8"),
    (codecs.BOM_UTF16_LE + '{"style": "watercolor"}'.encode("utf-16-le"),
     "UTF-16 text; save it as UTF-8"),
    (nested(100_000), f"nested too deeply (over {MAX_JSON_DEPTH} levels)"),  # past the stack
    (nested(MAX_JSON_DEPTH), f"nested too deeply (over {MAX_JSON_DEPTH} levels)"),  # parsed
    (b'{\n  "style": "watercolor"\n  "values": {}\n}',
     "invalid JSON at line 3 column 3: Expecting ',' delimiter"),
    (codecs.BOM_UTF8 + b'{"style": }', "invalid JSON at line 1 column 11: Expecting value"),
    (b'{"values": {"x": ' + b"1" * 5000 + b"}}", "invalid JSON: Exceeds the limit (4300 "
     "digits) for integer string conversion: value has 5000 digits; use "
     "sys.set_int_max_str_digits() to increase the limit"),
    (b"", "empty file"),
    (codecs.BOM_UTF8 + b" \n\t\n", "empty file"),
    (b"[1, 2]", "the top level must be an object ({...}), not an array"),
    (b'"watercolor"', "the top level must be an object ({...}), not a string"),
    (b"null", "the top level must be an object ({...}), not null"),
    (b"3", "the top level must be an object ({...}), not a number"),
]
IDS = ["latin1", "bom-bad-byte", "utf16", "deep-stack", "deep", "comma", "bom-syntax",
       "long-int", "empty", "blank", "array", "string", "null", "number"]


@pytest.fixture
def photo(tmp_path) -> Path:
    path = tmp_path / "in.png"
    cv2.imwrite(str(path), np.full((24, 32, 3), 120, np.uint8))
    return path


def cli(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


ERROR = re.compile(r"aquarelle (render|presets|params): error: ")  # the command's, as argparse's


def one_error(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and ERROR.match(lines[0]), err
    return ERROR.sub("", lines[0], count=1)


def test_a_preset_with_a_bom_loads(tmp_path):
    path = tmp_path / "mine.json"
    path.write_bytes(codecs.BOM_UTF8 + GOOD)
    preset = load_preset(path, "watercolor")
    assert preset.values == {"dilution": 0.25} and preset.description == "from Notepad"


def test_a_style_with_a_bom_loads(tmp_path):
    path = tmp_path / "my_style.json"
    path.write_bytes(codecs.BOM_UTF8 + STYLE)
    assert load_style(path).params == load_style("watercolor").params


@pytest.mark.parametrize("data, problem", MALFORMED, ids=IDS)
def test_a_malformed_preset_file_is_one_line(tmp_path, data, problem):
    path = tmp_path / "my.json"
    path.write_bytes(data)
    for load in (lambda: load_preset(path, "watercolor"), lambda: read_preset(path)):
        with pytest.raises(StyleError) as info:
            load()
        assert str(info.value) == f"{path}: {problem}"


@pytest.mark.parametrize("data, problem", MALFORMED, ids=IDS)
def test_a_malformed_style_file_is_one_line(tmp_path, data, problem):
    path = tmp_path / "my_style.json"
    path.write_bytes(data)
    with pytest.raises(StyleError) as info:
        load_style(path)
    assert str(info.value) == f"{path}: {problem}"


def test_a_preset_without_values_says_so(tmp_path):
    path = tmp_path / "my.json"
    path.write_text('{"style": "watercolor"}')
    with pytest.raises(StyleError) as info:
        load_preset(path, "watercolor")
    assert str(info.value) == (f"{path}: not a preset: a preset needs 'style' and 'values' "
                               "(an object of parameter values)")


def test_a_folder_named_like_a_style_file(tmp_path):
    (tmp_path / "my_style.json").mkdir()
    with pytest.raises(StyleError) as info:
        load_style(tmp_path / "my_style.json")
    assert str(info.value) == f"cannot read style {tmp_path / 'my_style.json'}: not a file"
    with pytest.raises(StyleError, match="no such file"):
        load_style(tmp_path / "missing.json")


# The command line: --preset FILE, --style FILE, a user's preset folder


def test_render_with_a_bom_preset_file(tmp_path, capsys, photo, gl_ctx):
    preset = tmp_path / "my.json"
    preset.write_bytes(codecs.BOM_UTF8 + GOOD)
    code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "out.png", "--preset", preset)
    assert code == 0, err
    assert (tmp_path / "out.png").is_file()


@pytest.mark.parametrize("data, problem", [MALFORMED[0], MALFORMED[3], MALFORMED[5],
                                           MALFORMED[8], MALFORMED[10]],
                         ids=["latin1", "deep", "comma", "empty", "array"])
def test_render_with_a_malformed_preset_file(tmp_path, capsys, photo, data, problem):
    preset = tmp_path / "my.json"
    preset.write_bytes(data)
    code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "out.png", "--preset", preset)
    assert code == 2 and one_error(err) == f"{preset}: {problem}"
    assert not (tmp_path / "out.png").exists()


def test_render_with_a_style_file(tmp_path, capsys, photo, gl_ctx):
    style = tmp_path / "my_style.json"
    style.write_bytes(codecs.BOM_UTF8 + STYLE)
    code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "out.png", "--style", style)
    assert code == 0, err
    style.write_bytes(STYLE.replace(b"{", b"{\xff", 1))
    code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "out.png", "--style", style)
    assert code == 2 and one_error(err) == (f"{style}: not UTF-8 text (byte 0xff at offset "
                                            "1); save it as UTF-8")


@pytest.fixture
def user_presets(tmp_path, monkeypatch) -> Path:
    """The user's presets folder of watercolor, with one good preset (BOM) and broken ones."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    folder = tmp_path / "config" / "aquarelle" / "presets" / "watercolor"
    folder.mkdir(parents=True)
    (folder / "mine.json").write_bytes(codecs.BOM_UTF8 + GOOD)
    (folder / "latin1.json").write_bytes(MALFORMED[0][0])
    (folder / "deep.json").write_bytes(MALFORMED[3][0])
    return folder


def test_a_listing_skips_broken_user_presets_with_a_warning(user_presets):
    said: list[str] = []
    names = [p.name for p in list_presets("watercolor", warn=said.append)]
    assert "mine" in names and "latin1" not in names and "deep" not in names
    assert said == [f"{user_presets / 'deep.json'}: {MALFORMED[3][1]}; skipped",
                    f"{user_presets / 'latin1.json'}: {MALFORMED[0][1]}; skipped"]


def test_presets_command_lists_past_a_broken_file(user_presets, capsys):
    code, out, err = cli(capsys, "presets", "watercolor")
    assert code == 0, err
    assert any(line.startswith("mine ") for line in out.splitlines())
    assert err.splitlines() == [
        f"aquarelle: warning: {user_presets / 'deep.json'}: {MALFORMED[3][1]}; skipped",
        f"aquarelle: warning: {user_presets / 'latin1.json'}: {MALFORMED[0][1]}; skipped"]
    cli(capsys, "presets", "watercolor")
    assert capsys.readouterr().err == ""  # said once per file and problem


def test_render_with_a_user_preset_by_name_past_a_broken_one(user_presets, tmp_path, capsys,
                                                             photo, gl_ctx):
    code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "out.png", "--preset", "mine")
    assert code == 0, err
    assert "Traceback" not in err and (tmp_path / "out.png").is_file()


def test_a_chains_user_preset_by_name_paints_its_chain(tmp_path, monkeypatch, capsys, photo,
                                                      gl_ctx):
    # The app saves a chain's preset under the chain; `--preset NAME` without --style
    # looked among the watercolor's only: "unknown preset"
    import cv2
    import numpy as np

    from aquarelle.engine.presets import Preset, save_preset, user_presets_dir

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    chain = "watercolor+sharpen"
    save_preset(Preset("My look", chain, {"sharpen.amount": 1.5, "watercolor.dilution": 0.5}),
                user_presets_dir(chain))
    code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "a.png", "--preset", "My look")
    assert code == 0, err
    code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "b.png", "--style", chain,
                       "--preset", "My look")
    assert code == 0, err
    assert np.array_equal(cv2.imread(str(tmp_path / "a.png")), cv2.imread(str(tmp_path / "b.png")))
    # a watercolor preset of the same name comes first, as before
    save_preset(Preset("My look", "watercolor", {"dilution": 0.1}), user_presets_dir("watercolor"))
    code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "c.png", "--preset", "My look")
    assert code == 0, err
    assert not np.array_equal(cv2.imread(str(tmp_path / "c.png")),
                              cv2.imread(str(tmp_path / "a.png")))


# -- presets show, found as render finds it; a preset's bad values named ------------------

@pytest.fixture
def config(tmp_path, monkeypatch) -> Path:
    """An empty user presets folder (the base, STYLE/ below it)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    base = tmp_path / "config" / "aquarelle" / "presets"
    base.mkdir(parents=True)
    return base


def user_preset(base: Path, style: str, name: str, values: dict) -> Path:
    (base / style).mkdir(exist_ok=True)
    path = base / style / f"{name}.json"
    path.write_text(json.dumps({"name": name, "style": style, "values": values}))
    return path


def set_lines(out: str) -> list[str]:
    """`presets show`'s option lines without their `(default ...)` notes."""
    return [line.split("    (default")[0].strip() for line in out.splitlines()[1:]]


def test_presets_show_prints_what_can_be_pasted(config, capsys, tmp_path, photo, gl_ctx):
    code, out, err = cli(capsys, "presets", "show", "loose_wash")
    assert code == 0, err
    assert "  --set background='loose wash'    (default painted)" in out.splitlines()
    assert "  --set quantize_levels=3    (default 6)" in out.splitlines()
    pasted = shlex.split(" ".join(set_lines(out)))
    code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "pasted.png", *pasted)
    assert code == 0, err
    code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "preset.png", "--preset",
                       "loose_wash")
    assert code == 0, err
    assert np.array_equal(cv2.imread(str(tmp_path / "pasted.png")),
                          cv2.imread(str(tmp_path / "preset.png")))


def test_presets_show_finds_a_file_of_a_chain(config, capsys, tmp_path):
    path = tmp_path / "night.json"
    path.write_text(json.dumps({"style": "denoise+watercolor", "values": {
        "watercolor.paper_color": [0.9, 0.85, 0.8], "watercolor.background": 2}}))
    code, out, err = cli(capsys, "presets", "show", path)
    assert code == 0, err
    assert out.splitlines()[1:] == [
        "  --style denoise+watercolor",
        "  --set watercolor.paper_color='#e6d9cc'    (default #f7f2e6)",
        "  --set watercolor.background='bare paper'    (default painted)"]


def test_presets_show_finds_a_user_preset_of_another_style(config, capsys):
    user_preset(config, "blur", "myblur", {"mode": "lens"})
    code, out, err = cli(capsys, "presets", "show", "myblur")
    assert code == 0, err
    assert out.splitlines()[1:] == ["  --style blur", "  --set mode=lens    (default gaussian)"]


def test_presets_show_with_an_unknown_style(config, capsys):
    code, _, err = cli(capsys, "presets", "show", "sepia", "--style", "blurr")
    assert code == 2 and one_error(err) == "unknown style 'blurr'; did you mean 'blur'?"


def test_a_name_too_long_for_a_file_name_is_an_unknown_preset(config, capsys, tmp_path,
                                                              photo):
    # (the name was looked up as a file first: "[Errno 36] File name too long", a traceback)
    code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "out.png", "--preset",
                       "x" * 300)
    assert code == 2 and one_error(err).startswith("unknown preset 'xxxxxxxx")
    assert not (tmp_path / "out.png").exists()


def test_the_presets_table_keeps_its_column_past_a_long_name(config, capsys):
    """A 300-character user preset pushed every description out to column 302: a name
    longer than the column (28) has a line of its own, its description below at the
    column; a wide character (an emoji) counts as the two columns it takes."""
    long = "x" * 300
    (config / "watercolor").mkdir()
    (config / "watercolor" / "long.json").write_text(json.dumps(
        {"name": long, "style": "watercolor", "values": {"dilution": 0.3}}))
    user_preset(config, "watercolor", "mine", {"dilution": 0.2})
    user_preset(config, "watercolor", "pal\U0001f3a8", {"dilution": 0.4})
    code, out, err = cli(capsys, "presets")
    assert code == 0, err
    lines = out.splitlines()
    names = [p.name for p in list_presets("watercolor")]
    assert long in names and len(lines) == len(names) + 1
    column = max(len(n) for n in names if n != long) + 2  # pencil_and_wash: 17
    assert column == 17
    at = lines.index(long)
    assert lines[at + 1] == " " * column + "no description (yours, 1 value)"
    table = lines[:at] + lines[at + 2:]
    for name, line in zip([n for n in names if n != long], table, strict=True):
        wide = sum(unicodedata.east_asian_width(c) == "W" for c in name)
        assert line.startswith(name) and line[column - wide - 1] == " ", line
        assert line[column - wide] != " ", line  # every description at the same column
    assert table[-1] == "pal\U0001f3a8" + " " * 12 + "no description (yours, 1 value)"


# -- preset names: one name whatever the case, one line, not endless (a user trial) ------------

def stored(folder: Path) -> dict[str, tuple[str, float]]:
    """A user presets folder: file name -> (the name it holds, its dilution)."""
    return {p.name: (json.loads(p.read_text())["name"], json.loads(p.read_text())[
        "values"]["dilution"]) for p in sorted(folder.glob("*.json"))}


def test_a_name_that_differs_only_in_case_is_the_same_preset(tmp_path):
    # "My look" then "my look" made two files, listed as "My look" and "my look (yours)".
    folder = tmp_path / "watercolor"
    first = save_preset(Preset("My look", "watercolor", {"dilution": 0.5}), folder)
    again = save_preset(Preset("MY  LOOK", "watercolor", {"dilution": 0.6}), folder)
    assert again == first and stored(folder) == {"My look.json": ("MY  LOOK", 0.6)}
    found = user_preset_named("my look", folder)
    assert found is not None and found.path == first and found.name == "MY  LOOK"
    assert user_preset_named("my looks", folder) is None
    assert [p.name for p in list_presets("watercolor", folder) if not p.builtin] == [
        "MY  LOOK"]


def test_old_files_whose_names_differ_only_in_case_stay_two_presets(config, capsys):
    # Files an older version wrote: both listed, told apart, each found by its own name;
    # neither renamed "(yours)" (a name that, saved, made a third file).
    user_preset(config, "watercolor", "My look", {"dilution": 0.5})
    user_preset(config, "watercolor", "my look", {"dilution": 0.6})
    mine = [p for p in list_presets("watercolor") if not p.builtin]
    assert [(p.name, p.own_name, p.values["dilution"]) for p in mine] == [
        ("My look", "My look", 0.5), ("my look (my look.json)", "my look", 0.6)]
    for name, value in (("My look", 0.5), ("my look", 0.6), ("my look (my look.json)", 0.6),
                        ("MY LOOK", 0.5)):
        assert load_preset(name, "watercolor").values == {"dilution": value}, name
    code, out, err = cli(capsys, "presets")
    assert code == 0, err
    listed = [line.split("  ")[0] for line in out.splitlines() if "(yours" in line]
    assert listed == ["My look", "my look (my look.json)"]
    # saving one of them again replaces its own file, not the other's
    folder = config / "watercolor"
    save_preset(Preset("my look", "watercolor", {"dilution": 0.7}), folder)
    assert stored(folder) == {"My look.json": ("My look", 0.5),
                              "my look.json": ("my look", 0.7)}
    save_preset(Preset("MY LOOK", "watercolor", {"dilution": 0.8}), folder,
                over=user_preset_named("MY LOOK", folder, prefer=folder / "my look.json")
                .path)  # type: ignore[union-attr]
    assert stored(folder) == {"My look.json": ("My look", 0.5),
                              "my look.json": ("MY LOOK", 0.8)}


@pytest.mark.parametrize("name, said", [
    ("line1\nline2", "a preset's name must be one line of text: it holds a line break "
                     "(U+000A)"),
    ("tab\there", "a preset's name must be one line of text: it holds a tab (U+0009)"),
    ("bell\x07", "a preset's name must be one line of text: it holds a control character "
                 "(U+0007)"),
    ("para\u2029graph", "a preset's name must be one line of text: it holds a line break "
                        "(U+2029)"),
    ("x" * (NAME_CHARS + 1), f"a preset's name can be at most {NAME_CHARS} characters long; "
                             f"this one has {NAME_CHARS + 1}"),
    ("x" * 300, f"a preset's name can be at most {NAME_CHARS} characters long; this one "
                "has 300"),
    ("   ", "a preset needs a name")])
def test_a_name_of_several_lines_or_too_long_is_refused(tmp_path, name, said):
    with pytest.raises(StyleError) as e:
        check_preset_name(name)
    assert str(e.value) == said
    folder = tmp_path / "watercolor"
    with pytest.raises(StyleError, match="preset"):
        save_preset(Preset(name, "watercolor", {"dilution": 0.5}), folder)
    assert not folder.exists() or list(folder.iterdir()) == []  # nothing written


def test_names_that_may_be_saved(tmp_path):
    longest = "\u00e9" * NAME_CHARS
    for name in (longest, "pal\U0001f3a8 \u00fcn\u00efcode", "Warm/Cool?*"):
        assert check_preset_name(f"  {name} ") == name
        save_preset(Preset(name, "watercolor", {"dilution": 0.5}), tmp_path)
    assert sorted(p.name for p in list_presets("watercolor", tmp_path) if not p.builtin) \
        == sorted([longest, "pal\U0001f3a8 \u00fcn\u00efcode", "Warm/Cool?*"])


def test_an_old_name_of_several_lines_is_listed_on_one(config, capsys):
    # A name with a line break (an older version saved it) broke the chooser's entry and
    # the table's columns: it is shown with the line break's symbol, and still found.
    (config / "watercolor").mkdir()
    (config / "watercolor" / "two.json").write_text(json.dumps(
        {"name": "line1\nline2", "style": "watercolor", "values": {"dilution": 0.3}}))
    mine = [p for p in list_presets("watercolor") if not p.builtin]
    assert [(p.name, p.own_name) for p in mine] == [("line1\u240aline2", "line1\nline2")]
    assert load_preset("line1\u240aline2", "watercolor").values == {"dilution": 0.3}
    code, out, err = cli(capsys, "presets")
    assert code == 0, err
    assert [line for line in out.splitlines() if "yours" in line] == [
        "line1\u240aline2" + " " * 6 + "no description (yours, 1 value)"]
    code, _, err = cli(capsys, "presets", "show", "nosuch")
    assert code == 2 and "line1\u240aline2" in one_error(err)


BAD_VALUES = [({"nosuchparam": 1}, "unknown parameter 'nosuchparam'"),
              ({"dilution": "x"}, "dilution: 'x' is not a number")]


@pytest.mark.parametrize("values, problem", BAD_VALUES, ids=["unknown", "not-a-number"])
def test_a_presets_bad_value_names_the_preset(config, capsys, tmp_path, photo, values,
                                              problem):
    path = user_preset(config, "watercolor", "badrange", values)
    for argv in (["render", photo, "-o", tmp_path / "out.png", "--preset", "badrange"],
                 ["presets", "show", "badrange"]):
        code, _, err = cli(capsys, *argv)
        assert code == 2 and one_error(err).startswith(f"preset 'badrange' ({path}): {problem}")
    assert not (tmp_path / "out.png").exists()
    code, out, err = cli(capsys, "presets")
    assert code == 0, err
    line = next(ln for ln in out.splitlines() if ln.startswith("badrange "))
    assert line.endswith(f"(yours, 1 value) (broken: {problem})")
    assert sum("(broken: " in ln for ln in out.splitlines()) == 1  # the built-ins are fine


def test_a_presets_clamped_value_names_the_preset(config, capsys):
    path = user_preset(config, "watercolor", "strong", {"dilution": 5})
    code, out, err = cli(capsys, "presets", "show", "strong")
    assert code == 0
    assert err == (f"aquarelle: warning: preset 'strong' ({path}): dilution=5 is out of "
                   "range [0, 0.9]; clamped to 0.9\n")
    assert "  --set dilution=0.9    (default 0.22)" in out.splitlines()


def test_params_json_gives_defaults_as_set_takes_them(capsys):
    code, out, err = cli(capsys, "params", "watercolor", "--json")
    assert code == 0, err
    data = {d["name"]: d for d in json.loads(out)}
    assert data["background"]["default"] == "painted"
    # a menu, as the table says it (it read "int" from 0 to 2 with a default of "painted")
    assert data["background"]["type"] == "choice" and "min" not in data["background"]
    assert data["background"]["choices"] == ["painted", "loose wash", "bare paper"]
    assert data["paper_color"]["default"] == "#f7f2e6"
    assert data["dilution"]["default"] == 0.22
    for spec in load_style("watercolor").params:  # still a declaration the style file takes
        assert ParamSpec.from_dict(data[spec.name]) == spec


def test_a_mistyped_background_choice_gets_a_suggestion(config, capsys, tmp_path, photo):
    code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "out.png",
                       "--set", "background=paper")
    assert code == 2 and one_error(err) == ("background: 'paper' is not one of painted, "
                                            "loose wash, bare paper; did you mean 'bare paper'?")


@pytest.mark.parametrize("chain", ["watercolor", "denoise+watercolor"])
def test_background_given_twice_must_agree(config, capsys, tmp_path, photo, chain):
    code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "out.png", "--style", chain,
                       "--background", "paper", "--set", "background=loose wash")
    assert code == 2 and one_error(err) == ("--background paper and --set background=loose "
                                            "wash disagree; give one of them")
    assert not (tmp_path / "out.png").exists()


def test_background_given_twice_alike(config, capsys, tmp_path, photo, gl_ctx):
    for value in ("bare paper", "2"):
        code, _, err = cli(capsys, "render", photo, "-o", tmp_path / "out.png",
                           "--background", "paper", "--set", f"background={value}")
        assert code == 0, err
