"""User presets' names and files, without the app: the names the chooser keeps for itself,
importing and exporting preset files (a new-user trial's findings)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from aquarelle.engine.errors import StyleError
from aquarelle.engine.presets import (
    Preset,
    check_preset_name,
    export_preset,
    importable,
    list_presets,
    load_preset,
    save_preset,
)

OWN = "the style's own values"
UNSAVED = "your own unsaved values"


@pytest.mark.parametrize("name, meaning", [
    ("Default", OWN), ("default", OWN), (" CUSTOM ", UNSAVED), ("custom", UNSAVED),
    ("\uff24\uff45\uff46\uff41\uff55\uff4c\uff54", OWN)])  # (full-width: read alike)
def test_the_choosers_own_names_are_refused(tmp_path: Path, name: str, meaning: str) -> None:
    # "Default" and "Custom" were saved and listed as "Default (yours)" beside the
    # chooser's own "Default" and "Custom" entries
    shown = name.strip()
    with pytest.raises(StyleError) as e:
        check_preset_name(name)
    assert str(e.value) == (f"“{shown}” is what the preset chooser calls {meaning}; choose "
                            "another name for a preset")
    with pytest.raises(StyleError, match="preset chooser"):
        save_preset(Preset(shown, "watercolor", {"dilution": 0.5}), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_names_that_only_contain_them_may_be_saved(tmp_path: Path) -> None:
    for name in ("Default look", "My custom", "Defaults", "Custom 2"):
        assert check_preset_name(name) == name
        save_preset(Preset(name, "watercolor", {"dilution": 0.5}), tmp_path)
    assert sorted(p.name for p in list_presets("watercolor", tmp_path) if not p.builtin) \
        == ["Custom 2", "Default look", "Defaults", "My custom"]


# -- preset files to import and export ---------------------------------------------------------

def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def test_an_exported_preset_imports_as_it_was(tmp_path: Path) -> None:
    mine = Preset("Warm look", "sharpen+watercolor", {"sharpen.amount": 1.5,
                                                      "watercolor.dilution": 0.4},
                  description="warm")
    dest = tmp_path / "shared" / "warm.json"
    dest.parent.mkdir()
    export_preset(mine, dest)
    assert [p.name for p in dest.parent.iterdir()] == ["warm.json"]  # no temporary left
    assert dest.stat().st_mode & 0o777 == 0o644  # to give to others
    back = importable(dest)
    assert (back.name, back.style, back.values, back.description) == \
        (mine.name, mine.style, mine.values, mine.description)
    # and the command line takes the file as it is
    assert load_preset(dest, "sharpen+watercolor").values == mine.values
    export_preset(Preset("Other", "watercolor", {"dilution": 0.1}), dest)  # replaced whole
    assert json.loads(dest.read_text())["name"] == "Other"


def test_an_export_that_cannot_be_written_says_so_in_words(tmp_path: Path) -> None:
    dest = tmp_path / "nowhere" / "x.json"
    with pytest.raises(StyleError) as e:
        export_preset(Preset("Mine", "watercolor", {"dilution": 0.1}), dest)
    assert str(e.value) == f"cannot export preset “Mine” to {dest}: no such file or directory"


@pytest.mark.parametrize("data, said", [
    ("{nope", "invalid JSON"),
    ({"name": "x", "style": "watercolor"}, "not a preset: a preset needs 'style' and 'values'"),
    ({"name": "x", "style": "oils", "values": {}},
     "the preset “x” is for the style 'oils', which is not installed here"),
    ({"name": "x", "style": "../../x", "values": {}}, "which is not installed here"),
    ({"name": "x", "style": "watercolor", "values": {"nope": 1}}, "nope"),
    ({"name": "x", "style": "watercolor", "values": {"dilution": "lots"}}, "dilution"),
    ({"name": "Custom", "style": "watercolor", "values": {}}, "is what the preset chooser"),
    ({"name": "a\nb", "style": "watercolor", "values": {}}, "must be one line"),
])
def test_a_file_that_is_no_preset_to_import_is_refused_by_name(
        tmp_path: Path, data: object, said: str) -> None:
    path = write(tmp_path / "given.json", data)
    with pytest.raises(StyleError) as e:
        importable(path)
    assert str(e.value).startswith(f"{path}: ") and said in str(e.value)


def test_an_imported_name_loses_its_spaces_and_a_file_without_one_is_named_by_the_file(
        tmp_path: Path) -> None:
    named = write(tmp_path / "a.json", {"name": "  Mine ", "style": "watercolor",
                                        "values": {"dilution": 0.2}})
    assert importable(named).name == "Mine"
    unnamed = write(tmp_path / "Evening.json", {"style": "watercolor", "values": {}})
    assert importable(unnamed).name == "Evening"
    assert sorted(os.listdir(tmp_path)) == ["Evening.json", "a.json"]
