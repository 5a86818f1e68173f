"""The presets panel on its own (no window, no GL): what a new-user trial found.

- in a read-only presets folder a failed Delete was followed by "Deleted preset “X”" (the
  preset still listed), and errors read "[Errno 13] Permission denied: '.../.preset-….tmp'";
- user presets could be called "Default" or "Custom", the chooser's own entries;
- presets could not be imported or exported, and a file copied into the presets folder was
  not listed until a restart.
"""
# ruff: noqa: F811 - pytest fixtures imported from test_gui

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtWidgets import QInputDialog, QMessageBox
from test_gui import Dialogs, dialogs  # noqa: F401 - fixtures

from aquarelle.engine.presets import Preset, save_preset
from aquarelle.ui.presets_panel import PresetsPanel

pytestmark = pytest.mark.gui


class Panel(PresetsPanel):
    """The panel with its status messages kept."""

    said: list[str]


@pytest.fixture
def panel(qtbot: Any, tmp_path: Path, dialogs: Dialogs) -> Iterator[Panel]:
    values = {"dilution": 0.3}
    p = Panel(lambda: dict(values), None, tmp_path / "presets", defaults=dict)
    p.said = []
    p.message.connect(p.said.append)
    p.set_style("watercolor")
    qtbot.addWidget(p)
    yield p


def folder(panel: PresetsPanel, style: str = "watercolor") -> Path:
    assert panel.user_dir is not None
    return panel.user_dir / style


def mine(panel: PresetsPanel) -> list[str]:
    return [p.name for p in panel.presets if not p.builtin]


def read_only(where: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `where` a folder nobody may write into; as root (who may), the calls that
    would write there fail as they would for a user."""
    where.chmod(0o555)
    if os.geteuid() != 0:
        return

    def inside(path: Any) -> bool:
        return Path(os.fsdecode(path)).parent == where

    def denied(path: Any) -> OSError:
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))

    real_open, real_unlink, real_replace = os.open, os.unlink, os.replace

    def fake_open(path: Any, flags: int, *args: Any, **kw: Any) -> int:
        if inside(path) and flags & (os.O_CREAT | os.O_WRONLY | os.O_RDWR):
            raise denied(path)
        return real_open(path, flags, *args, **kw)

    def fake_unlink(path: Any, *args: Any, **kw: Any) -> None:
        if inside(path):
            raise denied(path)
        real_unlink(path, *args, **kw)

    def fake_replace(src: Any, dst: Any, *args: Any, **kw: Any) -> None:
        if inside(src) or inside(dst):
            raise denied(dst)
        real_replace(src, dst, *args, **kw)

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "unlink", fake_unlink)
    monkeypatch.setattr(os, "replace", fake_replace)


# -- a failure is never followed by a success -------------------------------------------------

def test_a_failed_delete_rename_or_save_says_so_and_only_so(
        panel: Panel, dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch) -> None:
    crashy = panel.save_as("Crashy")
    assert crashy is not None and crashy.path is not None
    where = folder(panel)
    read_only(where, monkeypatch)
    assert panel.select("Crashy") is not None
    panel.said.clear()
    dialogs.answer = QMessageBox.StandardButton.Yes
    panel.delete_current()
    assert [c[:2] for c in dialogs.calls] == [("question", "Delete preset"),
                                              ("warning", "Preset")]
    assert dialogs.calls[1][2] == \
        f"cannot delete preset “Crashy” from {where}: permission denied"
    assert panel.said == []  # not "Deleted preset “Crashy”"
    assert mine(panel) == ["Crashy"] and crashy.path.is_file()
    assert panel.combo.currentText() == "Crashy (yours)"  # still chosen
    # Rename... and Save... the same way
    dialogs.calls.clear()
    monkeypatch.setattr(QInputDialog, "getText",
                        staticmethod(lambda *a, **k: ("Crashy2", True)))
    panel.rename_dialog()
    panel.save_dialog()
    assert [c[:2] for c in dialogs.calls] == [("warning", "Preset")] * 2
    assert [c[2] for c in dialogs.calls] == [
        f"cannot rename preset “Crashy” in {where}: permission denied",
        f"cannot save preset “Crashy2” into {where}: permission denied"]
    assert panel.said == []
    assert mine(panel) == ["Crashy"]
    assert sorted(p.name for p in where.iterdir()) == ["Crashy.json"]  # nothing half-made


def test_a_rename_whose_old_file_stays_leaves_one_preset(
        panel: Panel, dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch) -> None:
    # the new file written, the old one not removable: the new one goes again
    crashy = panel.save_as("Crashy")
    assert crashy is not None and crashy.path is not None
    old = crashy.path
    real_unlink = os.unlink

    def keep_old(path: Any, *args: Any, **kw: Any) -> None:
        if Path(os.fsdecode(path)) == old:
            raise PermissionError(errno.EPERM, os.strerror(errno.EPERM), os.fsdecode(path))
        real_unlink(path, *args, **kw)

    monkeypatch.setattr(os, "unlink", keep_old)
    panel.said.clear()
    dialogs.answer = QMessageBox.StandardButton.Yes
    panel.select("Crashy")
    monkeypatch.setattr(QInputDialog, "getText",
                        staticmethod(lambda *a, **k: ("Other", True)))
    panel.rename_dialog()
    assert [c[2] for c in dialogs.calls] == [
        f"cannot rename preset “Crashy” in {folder(panel)}: operation not permitted"]
    assert panel.said == []
    assert sorted(p.name for p in folder(panel).iterdir()) == ["Crashy.json"]


def test_save_preset_into_a_read_only_folder_says_it_in_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from aquarelle.engine.errors import StyleError

    where = tmp_path / "watercolor"
    where.mkdir()
    read_only(where, monkeypatch)
    with pytest.raises(StyleError) as e:
        save_preset(Preset("Mine", "watercolor", {"dilution": 0.5}), where)
    assert str(e.value) == f"cannot save preset “Mine” into {where}: permission denied"
    assert list(where.iterdir()) == []


# -- the chooser's own names ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["Default", "custom"])
def test_a_preset_cannot_take_the_choosers_own_names(
        panel: Panel, dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: (name, True)))
    panel.save_dialog()
    assert [c[:2] for c in dialogs.calls] == [("warning", "Preset")]
    assert f"“{name}” is what the preset chooser calls" in dialogs.calls[0][2]
    assert panel.said == [] and mine(panel) == []
    assert not folder(panel).exists() or list(folder(panel).iterdir()) == []
    # nor by renaming
    dialogs.calls.clear()
    assert panel.save_as("Mine") is not None
    panel.rename_dialog()
    assert [c[:2] for c in dialogs.calls] == [("warning", "Preset")]
    assert mine(panel) == ["Mine"]
    texts = [panel.combo.itemText(i) for i in range(panel.combo.count())]
    assert f"{name} (yours)" not in texts
