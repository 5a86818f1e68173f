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
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtWidgets import QFileDialog, QInputDialog, QMessageBox
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


# -- import, export, the folder ------------------------------------------------------------

def preset_file(path: Path, name: str, style: str = "watercolor",
                values: dict[str, Any] | None = None) -> Path:
    path.write_text(json.dumps({"name": name, "style": style, "description": "given",
                                "values": values or {"dilution": 0.6}}))
    return path


def stored(where: Path) -> dict[str, tuple[str, Any]]:
    return {p.name: (json.loads(p.read_text())["name"], json.loads(p.read_text())["values"])
            for p in sorted(where.glob("*.json"))}


def answer_file(monkeypatch: pytest.MonkeyPatch, kind: str, path: Path | str) -> list[Any]:
    asked: list[Any] = []

    def fn(*args: Any, **kw: Any) -> tuple[str, str]:
        asked.append(args)
        return str(path), "Presets (*.json)"
    monkeypatch.setattr(QFileDialog, kind, staticmethod(fn))
    return asked


def test_the_more_button_holds_import_export_and_the_folder(panel: Panel) -> None:
    assert panel.more_button.text() == "\u22ef"
    menu = panel.more_button.menu()
    assert menu is not None
    assert [a.text() for a in menu.actions() if not a.isSeparator()] == [
        "Import preset\u2026", "Export preset\u2026", "Show presets folder"]
    assert not panel.export_action.isEnabled()  # "Custom": no preset to export
    panel.select("soft_wash")
    assert panel.export_action.isEnabled()


def test_import_copies_a_preset_file_among_the_users_and_chooses_it(
        panel: Panel, dialogs: Dialogs, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    chosen: list[Preset] = []
    panel.presetChosen.connect(chosen.append)
    given = preset_file(tmp_path / "from a friend.json", "Evening")
    where = folder(panel)
    where.mkdir(parents=True)
    preset_file(where / "Evening.json", "Morning", values={"dilution": 0.1})  # the file name
    asked = answer_file(monkeypatch, "getOpenFileName", given)
    panel.import_dialog()
    assert asked and dialogs.calls == []
    assert stored(where) == {"Evening.json": ("Morning", {"dilution": 0.1}),
                             "Evening-1.json": ("Evening", {"dilution": 0.6})}
    assert sorted(mine(panel)) == ["Evening", "Morning"]
    assert panel.combo.currentText() == "Evening (yours)"
    assert [p.name for p in chosen] == ["Evening"] and chosen[0].values == {"dilution": 0.6}
    assert panel.said == ["Imported preset “Evening” from from a friend.json"]
    assert given.is_file()  # a copy


def test_importing_a_presets_name_asks_first(panel: Panel, dialogs: Dialogs, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    assert panel.save_as("Evening") is not None
    where = folder(panel)
    before = stored(where)
    given = preset_file(tmp_path / "evening.json", "EVENING", values={"dilution": 0.9})
    answer_file(monkeypatch, "getOpenFileName", given)
    panel.said.clear()
    panel.import_dialog()  # No
    assert [c[:2] for c in dialogs.calls] == [("question", "Replace preset")]
    assert stored(where) == before
    assert panel.said == ["Preset “Evening” kept; nothing was imported"]
    dialogs.answer = QMessageBox.StandardButton.Yes
    panel.import_dialog()
    assert stored(where) == {"Evening.json": ("EVENING", {"dilution": 0.9})}  # in place
    assert mine(panel) == ["EVENING"]


def test_a_file_that_cannot_be_imported_is_told_and_nothing_is_written(
        panel: Panel, dialogs: Dialogs, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    bad = [preset_file(tmp_path / "a.json", "Soft wash"),  # reads like a built-in
           preset_file(tmp_path / "b.json", "x", values={"nope": 1}),
           preset_file(tmp_path / "c.json", "Default"),
           preset_file(tmp_path / "d.json", "x", style="oils")]
    for path in bad:
        answer_file(monkeypatch, "getOpenFileName", path)
        panel.import_dialog()
    assert [c[:2] for c in dialogs.calls] == [("warning", "Preset")] * 4
    assert "“Soft wash” is a built-in preset" in dialogs.calls[0][2]
    assert "nope" in dialogs.calls[1][2] and "b.json" in dialogs.calls[1][2]
    assert "“Default” is what the preset chooser calls" in dialogs.calls[2][2]
    assert "not installed here" in dialogs.calls[3][2]
    assert panel.said == [] and mine(panel) == []
    assert panel.user_dir is not None and not panel.user_dir.exists()


def test_a_preset_of_another_style_goes_to_its_folder(
        panel: Panel, dialogs: Dialogs, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    given = preset_file(tmp_path / "crisp.json", "Crisp", style="sharpen",
                        values={"amount": 1.5})
    answer_file(monkeypatch, "getOpenFileName", given)
    panel.import_dialog()
    assert dialogs.calls == []
    assert stored(folder(panel, "sharpen")) == {"Crisp.json": ("Crisp", {"amount": 1.5})}
    assert mine(panel) == [] and panel.combo.currentText() == "Custom"
    # (the style as the chooser names it: it said "among the presets of sharpen")
    assert panel.said == ["Imported preset “Crisp” from crisp.json among the presets of "
                          "Sharpen"]
    chained = preset_file(tmp_path / "both.json", "Both", style="sharpen+edges",
                          values={"sharpen.amount": 1.2})
    answer_file(monkeypatch, "getOpenFileName", chained)
    panel.import_dialog()
    assert dialogs.calls == [] and panel.said[-1] == (
        "Imported preset “Both” from both.json among the presets of Sharpen → Edges")
    panel.set_style("sharpen+watercolor")  # and a chain holding it lists it
    assert any(p.name == "Crisp" and p.values == {"sharpen.amount": 1.5}
               for p in panel.presets)


def test_export_writes_the_chosen_preset_to_a_file_the_user_names(
        panel: Panel, dialogs: Dialogs, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    saved = panel.save_as("Warm/Cool")
    assert saved is not None
    dest = tmp_path / "out" / "shared"  # no .json given: added
    dest.parent.mkdir()
    asked = answer_file(monkeypatch, "getSaveFileName", dest)
    panel.said.clear()
    panel.export_dialog()
    assert Path(asked[0][2]).name == "Warm_Cool.json"  # offered: its file's name
    out = tmp_path / "out" / "shared.json"
    assert json.loads(out.read_text()) == {"name": "Warm/Cool", "style": "watercolor",
                                           "description": "", "values": {"dilution": 0.3}}
    assert panel.said == [f"Exported preset “Warm/Cool” to {out}"] and dialogs.calls == []
    # a built-in too, and the exported file imports back as a user's
    panel.select("ink_and_wash")
    answer_file(monkeypatch, "getSaveFileName", tmp_path / "out" / "ink.json")
    panel.export_dialog()
    ink = json.loads((tmp_path / "out" / "ink.json").read_text())
    assert ink["name"] == "ink_and_wash" and ink["values"] == panel.current().values
    # where it cannot be written: said in words, nothing else
    panel.said.clear()
    answer_file(monkeypatch, "getSaveFileName", tmp_path / "gone" / "x.json")
    panel.export_dialog()
    assert [c[:2] for c in dialogs.calls] == [("warning", "Preset")]
    assert dialogs.calls[0][2] == (f"cannot export preset “ink_and_wash” to "
                                   f"{tmp_path / 'gone' / 'x.json'}: no such file or directory")
    assert panel.said == []


def test_show_presets_folder_opens_the_styles_folder(panel: Panel) -> None:
    opened: list[Path] = []
    panel.open_folder = opened.append
    panel.folder_action.trigger()
    assert opened == [folder(panel)] and folder(panel).is_dir()


def test_a_file_copied_into_the_folder_is_listed_when_the_chooser_opens(
        panel: Panel, qtbot: Any) -> None:
    states: list[tuple[Any, bool]] = []
    panel.stateChanged.connect(lambda base, modified: states.append((base, modified)))
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.save_as("Mine") is not None
    assert panel.select("Mine") is not None
    states.clear()
    preset_file(folder(panel) / "copied.json", "Copied")
    panel.combo.showPopup()
    panel.combo.hidePopup()
    assert sorted(mine(panel)) == ["Copied", "Mine"]
    assert panel.combo.currentText() == "Mine (yours)" and states == []  # still chosen
    # the chosen preset's file deleted meanwhile: the values are the user's own now
    (folder(panel) / "Mine.json").unlink()
    panel.combo.showPopup()
    panel.combo.hidePopup()
    assert mine(panel) == ["Copied"]
    assert panel.combo.currentText() == "Custom" and states == [(None, True)]


def test_import_path_is_what_a_dropped_file_may_use(
        panel: Panel, dialogs: Dialogs, tmp_path: Path) -> None:
    # (the window's drop of a .json is its to wire: one call, the refusal told here)
    assert panel.import_path(tmp_path / "missing.json") is False
    assert [c[:2] for c in dialogs.calls] == [("warning", "Preset")]
    assert "missing.json" in dialogs.calls[0][2]
    assert panel.import_path(preset_file(tmp_path / "ok.json", "Dropped")) is True
    assert mine(panel) == ["Dropped"] and len(dialogs.calls) == 1
