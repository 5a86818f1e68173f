"""User presets' names and files, without the app: the names the chooser keeps for itself,
importing and exporting preset files (a new-user trial's findings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aquarelle.engine.errors import StyleError
from aquarelle.engine.presets import Preset, check_preset_name, list_presets, save_preset

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
