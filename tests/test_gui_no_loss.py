"""Nothing the user made is lost without a word, and no menu item is enabled where it does
nothing (a QA trial's findings):

- two recordings started in the same second were given the same name, the second replacing
  the first; a recording never replaces a file now (the next free name, as snapshots');
- user presets whose names make the same file name ("Warm/Cool", "Warm?Cool") shared one
  file, and saving or renaming onto a preset's name replaced it without a question;
- Playback items on a still or with nothing open, the camera's modes and Open the next
  camera without a camera, Undo and Redo with nothing to take were enabled and did nothing;
  Mirror ticked without a camera said nothing.
"""
# ruff: noqa: F811 - pytest fixtures imported from test_gui

from __future__ import annotations

import json
import os
import shlex
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PyQt6.QtCore import QSettings, Qt
from PyQt6.QtWidgets import QInputDialog, QMessageBox, QWidget
from test_gui import (  # noqa: F401 - fixtures
    TIMEOUT,
    Dialogs,
    FakeCamera,
    config,
    dialogs,
    make_window,
    media,
    open_and_render,
    paused_at_start,
    step_painted,
    window,
)

from aquarelle.cli.main import main as cli_main
from aquarelle.engine.presets import NAME_CHARS
from aquarelle.ui import recorder as recorder_module
from aquarelle.ui import recording
from aquarelle.ui import source_controller as sc
from aquarelle.ui.main_window import PLAYING_ACTIONS, SEEKING_ACTIONS, MainWindow
from aquarelle.ui.recorder import Recorder, unused_name
from aquarelle.ui.sources import SourceSpec

pytestmark = pytest.mark.gui

PLAYBACK = PLAYING_ACTIONS + SEEKING_ACTIONS
assert set(PLAYBACK) == {"play", "step", "step_back", "rewind", "jump_back", "pause",
                         "play_on", "slower", "faster", "loop"}


def status(win: MainWindow) -> str:
    bar = win.statusBar()
    assert bar is not None
    return bar.currentMessage()


# -- recordings ------------------------------------------------------------------------------

def test_two_recordings_in_the_same_second_are_two_files(
        qtbot: Any, window: MainWindow, media: dict[str, Path], tmp_path: Path,
        dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch) -> None:
    # Record, stop, Record, stop within a second: both were aquarelle-rec-...-HHMMSS.mp4,
    # the second replacing the first (Recorder.stop used Path.replace).
    videos = tmp_path / "videos"
    videos.mkdir()
    window.settings.set_last_dir("record", str(videos))
    stamp = time.strftime("aquarelle-rec-%Y%m%d-%H%M%S")
    monkeypatch.setattr(recording.time, "strftime", lambda fmt: stamp)  # one second
    open_and_render(qtbot, window, media["clip"])
    paused_at_start(qtbot, window)  # each step is a frame
    said = []
    for _ in range(2):
        window.toggle_record()
        for _ in range(2):
            step_painted(qtbot, window)
        window.toggle_record()
        said.append(status(window))
    assert dialogs.calls == []
    first, second = videos / f"{stamp}.mp4", videos / f"{stamp}-1.mp4"
    assert set(videos.iterdir()) == {first, second}
    assert first.name in said[0] and second.name in said[1]  # (the folder: its link)
    assert first.stat().st_size > 0 and second.stat().st_size > 0


def test_a_recording_never_replaces_a_file(qtbot: Any, window: MainWindow,
                                           media: dict[str, Path], tmp_path: Path,
                                           dialogs: Dialogs) -> None:
    open_and_render(qtbot, window, media["clip"])
    paused_at_start(qtbot, window)
    dst = tmp_path / "rec.mp4"
    dst.write_bytes(b"someone's video")
    window.toggle_record(dst)
    step_painted(qtbot, window)
    window.toggle_record()
    assert dst.read_bytes() == b"someone's video"
    saved = tmp_path / "rec-1.mp4"
    assert saved.stat().st_size > 0
    assert f"to {saved.name} " in status(window) and "rec.mp4 exists and was kept" in status(window)
    assert not list(tmp_path.glob("*.part"))


def test_a_file_that_takes_the_name_during_a_recording_is_kept(tmp_path: Path) -> None:
    rec = Recorder(tmp_path / "a.mp4", fps=10, clock=lambda: 0.0)
    rec.push(np.zeros((24, 32, 3), np.uint8), 0.0)
    (tmp_path / "a.mp4").write_bytes(b"mine")  # e.g. another window's recording
    out = rec.stop()
    assert out == tmp_path / "a-1.mp4" == rec.path and out.stat().st_size > 0
    assert (tmp_path / "a.mp4").read_bytes() == b"mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-1.mp4", "a.mp4"]


def test_snapshots_and_recordings_share_their_naming(tmp_path: Path) -> None:
    assert unused_name(tmp_path, "x", ".png") == tmp_path / "x.png"
    (tmp_path / "x.png").touch()
    (tmp_path / "x-1.png").touch()
    assert unused_name(tmp_path, "x", ".png") == tmp_path / "x-2.png"
    (tmp_path / "y.mp4").symlink_to(tmp_path / "nowhere")  # a dangling link is a name too
    assert unused_name(tmp_path, "y", ".mp4") == tmp_path / "y-1.mp4"


# -- presets ---------------------------------------------------------------------------------

def preset_files(config: Path) -> dict[str, Any]:
    """The watercolor's user preset files: name -> (stored name, values)."""
    folder = config.parent / "config" / "aquarelle" / "presets" / "watercolor"
    out = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        out[path.name] = (data["name"], data["values"]["dilution"])
    return out


def cli_values(capsys: pytest.CaptureFixture[str], name: str) -> str:
    """`aquarelle presets show NAME`: what the CLI finds by the preset's name."""
    capsys.readouterr()
    assert cli_main(["presets", "show", name]) == 0
    return capsys.readouterr().out


def listed(win: MainWindow) -> list[str]:
    return [p.name for p in win.presets.presets if not p.builtin]


def test_names_that_make_one_file_name_are_two_presets(
        qtbot: Any, window: MainWindow, config: Path, dialogs: Dialogs,
        capsys: pytest.CaptureFixture[str]) -> None:
    # "Warm/Cool" then "Warm?Cool" were both written to Warm_Cool.json: the first was lost.
    presets, panel = window.presets, window.param_panel
    panel.set_value("dilution", 0.2)
    presets.save_as("Warm/Cool")
    panel.set_value("dilution", 0.7)
    presets.save_as("Warm?Cool")
    assert dialogs.calls == []  # another name: nothing to ask
    assert preset_files(config) == {"Warm_Cool.json": ("Warm/Cool", 0.2),
                                    "Warm_Cool-1.json": ("Warm?Cool", 0.7)}
    assert sorted(listed(window)) == ["Warm/Cool", "Warm?Cool"]
    assert presets.select("Warm/Cool") is not None
    assert window.state.params["dilution"] == pytest.approx(0.2)
    # the command line finds each by its name (the file name is not the preset's), as the
    # chooser's tooltip says
    panel.set_value("dilution", 0.5)
    presets.save_as("Warm_Cool")  # the other's file name, as a name
    assert preset_files(config)["Warm_Cool-2.json"] == ("Warm_Cool", 0.5)
    combo = presets.combo
    for name, value in (("Warm/Cool", 0.2), ("Warm?Cool", 0.7), ("Warm_Cool", 0.5)):
        assert "dilution=" + str(value) in cli_values(capsys, name)
        i = next(i for i in range(combo.count()) if combo.itemText(i) == f"{name} (yours)")
        tip = str(combo.itemData(i, Qt.ItemDataRole.ToolTipRole))
        assert shlex.split(tip.split("--preset ", 1)[1].rstrip(")")) == [name]


def test_a_long_name_keeps_its_preset_in_a_shorter_file(
        qtbot: Any, window: MainWindow, config: Path, dialogs: Dialogs,
        capsys: pytest.CaptureFixture[str]) -> None:
    # A 300-character name said "[Errno 36] File name too long" in a dialog (such names are
    # refused now: NAME_CHARS); names that differ only past the file name's end (120 bytes)
    # must still be two presets.
    presets, panel = window.presets, window.param_panel
    long_a, long_b = "\u00e9" * 60 + "x" * 19 + "a", "\u00e9" * 60 + "x" * 19 + "b"
    wide = "\u00fc" * NAME_CHARS  # 160 bytes in UTF-8
    for name, value in ((long_a, 0.2), (long_b, 0.7), (wide, 0.4)):
        panel.set_value("dilution", value)
        presets.save_as(name)
        assert presets.combo.currentText() == f"{name} (yours)"
    assert dialogs.calls == []
    files = preset_files(config)
    assert sorted(files.values()) == sorted([(long_a, 0.2), (long_b, 0.7), (wide, 0.4)])
    assert all(len(f.encode()) <= 255 for f in files)
    assert files["\u00e9" * 60 + ".json"] == (long_a, 0.2)
    assert files["\u00e9" * 60 + "-1.json"] == (long_b, 0.7)
    assert files["\u00fc" * 60 + ".json"] == (wide, 0.4)  # cut between characters
    assert sorted(listed(window)) == sorted([long_a, long_b, wide])
    for name, value in ((long_a, 0.2), (long_b, 0.7), (wide, 0.4)):  # found by name
        assert f"dilution={value}" in cli_values(capsys, name)
    assert presets.select(long_a) is not None
    assert window.state.params["dilution"] == pytest.approx(0.2)


def test_saving_onto_a_presets_name_asks_first(qtbot: Any, window: MainWindow, config: Path,
                                               dialogs: Dialogs) -> None:
    presets, panel = window.presets, window.param_panel
    panel.set_value("dilution", 0.2)
    presets.save_as("Mine")
    panel.set_value("dilution", 0.7)
    assert presets.save_as("Mine") is None  # No: kept as it was
    assert [c[:2] for c in dialogs.calls] == [("question", "Replace preset")]
    assert preset_files(config) == {"Mine.json": ("Mine", 0.2)}
    assert "kept" in status(window)
    dialogs.answer = QMessageBox.StandardButton.Yes
    assert presets.save_as("Mine") is not None
    assert preset_files(config) == {"Mine.json": ("Mine", 0.7)}  # the same file, replaced
    assert listed(window) == ["Mine"]


def test_renaming_onto_a_presets_name_asks_first(qtbot: Any, window: MainWindow,
                                                 config: Path, dialogs: Dialogs,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # Renaming "Grey Look" to an existing preset's name replaced that preset's file with no
    # dialog.
    presets, panel = window.presets, window.param_panel
    panel.set_value("dilution", 0.7)
    presets.save_as("Warm?Cool")
    panel.set_value("dilution", 0.3)
    grey = presets.save_as("Grey Look")
    assert grey is not None and dialogs.calls == []
    before = preset_files(config)
    assert before == {"Grey Look.json": ("Grey Look", 0.3),
                      "Warm_Cool.json": ("Warm?Cool", 0.7)}
    assert presets.rename(grey, "Warm?Cool") is None  # No: both kept as they were
    assert [c[:2] for c in dialogs.calls] == [("question", "Replace preset")]
    assert preset_files(config) == before
    assert sorted(listed(window)) == ["Grey Look", "Warm?Cool"]
    dialogs.answer = QMessageBox.StandardButton.Yes
    renamed = presets.rename(grey, "Warm?Cool")
    assert renamed is not None and renamed.path == config.parent / "config" / "aquarelle" / \
        "presets" / "watercolor" / "Warm_Cool.json"
    assert preset_files(config) == {"Warm_Cool.json": ("Warm?Cool", 0.3)}
    assert listed(window) == ["Warm?Cool"]
    assert "dilution=0.3" in cli_values(capsys, "Warm?Cool")
    # a rename to a free name asks nothing
    dialogs.calls.clear()
    assert presets.rename(renamed, "Grey") is not None and dialogs.calls == []
    assert preset_files(config) == {"Grey.json": ("Grey", 0.3)}


class NameDialog:
    """Stands in for QInputDialog.getText: records the name offered, answers `typed` (None:
    the name offered, as Enter takes it)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.offered: list[str] = []
        self.typed: str | None = None
        monkeypatch.setattr(QInputDialog, "getText", staticmethod(self.get_text))

    def get_text(self, parent: Any, title: str, label: str, mode: Any,
                 text: str = "") -> tuple[str, bool]:
        self.offered.append(text)
        return (text if self.typed is None else self.typed), True


def user_items(win: MainWindow) -> list[str]:
    combo = win.presets.combo
    return [combo.itemText(i) for i in range(combo.count()) if "(yours" in combo.itemText(i)]


def test_a_name_that_differs_only_in_case_is_the_same_name(
        qtbot: Any, window: MainWindow, config: Path, dialogs: Dialogs,
        capsys: pytest.CaptureFixture[str]) -> None:
    # "My look" then "my look": a second file, the chooser at "Custom", the look listed as
    # "my look (yours)" (whose name, saved, made a third file), two alike entries on reopen.
    presets, panel = window.presets, window.param_panel
    panel.set_value("dilution", 0.5)
    presets.save_as("My look")
    panel.set_value("dilution", 0.6)
    assert presets.save_as("my look") is None  # No: kept
    assert dialogs.calls == [("question", "Replace preset", "A preset called “My look” "
                              "exists (My look.json); “my look” is the same name. Replace it?")]
    assert status(window) == "Preset “My look” kept; nothing was saved"
    assert preset_files(config) == {"My look.json": ("My look", 0.5)}
    dialogs.answer = QMessageBox.StandardButton.Yes
    assert presets.save_as("my look") is not None
    assert preset_files(config) == {"My look.json": ("my look", 0.6)}  # replaced, renamed
    assert status(window) == "Saved preset “my look”"
    assert presets.combo.currentText() == "my look (yours)" and user_items(window) == [
        "my look (yours)"]
    assert (window.state.preset, window.state.modified) == ("my look", False)
    assert "dilution=0.6" in cli_values(capsys, "MY LOOK")


def test_old_presets_whose_names_differ_only_in_case_are_told_apart(
        qtbot: Any, window: MainWindow, config: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Two files an older version saved: two entries that do not look alike, each chosen
    # with its values, and each saved over its own file (no third one).
    folder = config.parent / "config" / "aquarelle" / "presets" / "watercolor"
    folder.mkdir(parents=True)
    for name, value in (("My look", 0.5), ("my look", 0.6)):
        (folder / f"{name}.json").write_text(json.dumps(
            {"name": name, "style": "watercolor", "values": {"dilution": value}}))
    presets, panel, ask = window.presets, window.param_panel, NameDialog(monkeypatch)
    presets.refresh()
    assert user_items(window) == ["My look (yours)", "my look (my look.json) (yours)"]
    for name, value in (("My look", 0.5), ("my look (my look.json)", 0.6)):
        assert presets.select(name) is not None
        assert window.state.params["dilution"] == pytest.approx(value)
    panel.set_value("dilution", 0.7)
    assert presets.combo.currentText() == "my look (my look.json) (yours), modified"
    dialogs.answer = QMessageBox.StandardButton.Yes
    presets.save_dialog()
    assert ask.offered == ["my look"]
    assert dialogs.calls == [("question", "Replace preset",
                              "A preset called “my look” exists (my look.json). Replace it?")]
    assert preset_files(config) == {"My look.json": ("My look", 0.5),
                                    "my look.json": ("my look", 0.7)}
    assert presets.combo.currentText() == "my look (my look.json) (yours)"
    assert (window.state.preset, window.state.modified) == ("my look (my look.json)", False)


def test_save_offers_the_name_of_the_preset_edited(
        qtbot: Any, window: MainWindow, config: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # After editing your own preset Save... offered an empty name.
    presets, panel, ask = window.presets, window.param_panel, NameDialog(monkeypatch)
    panel.set_value("dilution", 0.2)
    presets.save_as("Mine")
    panel.set_value("dilution", 0.4)
    assert presets.combo.currentText() == "Mine (yours), modified"
    dialogs.answer = QMessageBox.StandardButton.Yes
    presets.save_dialog()  # Enter, then Yes: updated
    assert ask.offered == ["Mine"] and dialogs.kinds() == ["question"]
    assert preset_files(config) == {"Mine.json": ("Mine", 0.4)}
    assert presets.combo.currentText() == "Mine (yours)"
    presets.select("soft_wash")  # a built-in's name is not offered: it cannot be saved over
    panel.set_value("dilution", 0.3)
    presets.save_dialog()
    assert ask.offered == ["Mine", ""]


@pytest.mark.parametrize("typed, said", [
    ("line1\nline2", "a preset's name must be one line of text: it holds a line break "
                     "(U+000A)"),
    ("a\tb", "a preset's name must be one line of text: it holds a tab (U+0009)"),
    ("x" * 300, f"a preset's name can be at most {NAME_CHARS} characters long; this one has "
                "300")])
def test_a_name_of_several_lines_or_too_long_is_refused_with_a_dialog(
        qtbot: Any, window: MainWindow, config: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch, typed: str, said: str) -> None:
    presets, ask = window.presets, NameDialog(monkeypatch)
    items = [presets.combo.itemText(i) for i in range(presets.combo.count())]
    ask.typed = typed
    presets.save_dialog()
    assert dialogs.calls == [("warning", "Preset", said)]
    assert preset_files(config) == {}
    assert [presets.combo.itemText(i) for i in range(presets.combo.count())] == items
    ask.typed = "Mine"
    presets.save_dialog()
    assert preset_files(config) == {"Mine.json": ("Mine", pytest.approx(
        window.state.params["dilution"]))}
    ask.typed = typed  # a rename to it: refused the same way, the preset kept
    dialogs.calls.clear()
    presets.rename_dialog()
    assert dialogs.calls == [("warning", "Preset", said)]
    assert list(preset_files(config)) == ["Mine.json"] and user_items(window) == [
        "Mine (yours)"]


# -- menu items that cannot act --------------------------------------------------------------

def enabled(win: MainWindow, names: tuple[str, ...]) -> dict[str, bool]:
    return {name: win._actions[name].isEnabled() for name in names}


def camera_menus_enabled(win: MainWindow) -> list[bool]:
    live = next(a.menu() for a in win.menuBar().actions() if a.text() == "Live")
    return [a.isEnabled() for a in live.actions()
            if a.text() in ("Camera resolution", "Camera frame rate")]


def test_menu_items_are_enabled_only_where_they_act(
        qtbot: Any, window: MainWindow, media: dict[str, Path], dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    off = dict.fromkeys(PLAYBACK, False)
    # nothing open (and no camera found)
    assert enabled(window, PLAYBACK) == off
    assert camera_menus_enabled(window) == [False, False]
    # the next camera looks again, and says none was found (W11: greyed out, its key silent)
    window._actions["camera"].trigger()
    assert dialogs.calls[-1][1:] == ("Camera", "No camera was found: plug one in and press "
                                     "Ctrl+K again, or open a video (Ctrl+O).")
    dialogs.calls.clear()
    assert enabled(window, ("undo", "redo")) == {"undo": False, "redo": False}
    # a still: nothing plays
    open_and_render(qtbot, window, media["image"])
    assert enabled(window, PLAYBACK) == off
    assert enabled(window, ("undo", "redo")) == {"undo": False, "redo": False}
    window._actions["play"].trigger()  # (a disabled action's key does nothing)
    # Mirror without a camera is kept for cameras, and says so
    window._actions["mirror"].trigger()
    assert window.live.mirror and "none is showing" in status(window)
    window._actions["mirror"].trigger()
    assert not window.live.mirror
    # an undo step made, then undone
    window.param_panel.set_value("dilution", 0.42)
    assert enabled(window, ("undo", "redo")) == {"undo": True, "redo": False}
    window._actions["undo"].trigger()
    assert window.state.params["dilution"] != 0.42
    assert enabled(window, ("undo", "redo")) == {"undo": False, "redo": True}
    window._actions["redo"].trigger()
    assert window.state.params["dilution"] == pytest.approx(0.42)
    assert enabled(window, ("undo", "redo")) == {"undo": True, "redo": False}
    # a video: all of the Playback menu
    open_and_render(qtbot, window, media["clip"])
    assert enabled(window, PLAYBACK) == dict.fromkeys(PLAYBACK, True)
    assert camera_menus_enabled(window) == [False, False]
    # a camera found, then opened: its modes; nothing plays
    monkeypatch.setattr(sc, "list_cameras", lambda: [("0", "Fake camera")])
    window.sources.refresh_cameras()
    assert window._actions["camera"].isEnabled()
    monkeypatch.setattr(sc, "open_source",
                        lambda spec, loop=True, **kw: FakeCamera(unplug=False, frames=10**6))
    assert window.open_spec(SourceSpec("camera", "0"))
    assert enabled(window, PLAYBACK) == off
    assert camera_menus_enabled(window) == [True, True]
    status_before = status(window)
    window._actions["mirror"].trigger()
    assert window.live.mirror and status(window) == status_before  # it acts: no excuse
    assert dialogs.calls == []


# -- errors in short words ---------------------------------------------------------------------

def test_an_unreadable_file_is_said_in_short_words(
        qtbot: Any, window: MainWindow, media: dict[str, Path], dialogs: Dialogs,
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "noperm.jpg: PermissionError: [Errno 13] Permission denied: '/…/noperm.jpg'"
    locked = tmp_path / "noperm.png"
    locked.write_bytes(media["image"].read_bytes())
    locked.chmod(0)
    if os.geteuid() == 0:  # root reads it anyway: the error reading it raises, as a user's
        real_open = sc.open_source

        def refuse(spec: SourceSpec, *args: Any, **kw: Any) -> Any:
            if spec.kind == "file" and Path(spec.ref) == locked:
                raise PermissionError(13, "Permission denied", str(locked))
            return real_open(spec, *args, **kw)
        monkeypatch.setattr(sc, "open_source", refuse)
    open_and_render(qtbot, window, media["image"])
    assert window.open_file(locked) is False
    assert dialogs.calls == [("warning", "Cannot open source",
                              "cannot read noperm.png: permission denied")]
    assert window.source_spec == SourceSpec("file", str(media["image"].resolve()))


def test_a_recording_into_a_folder_it_cannot_write_says_so_in_short_words(
        qtbot: Any, window: MainWindow, media: dict[str, Path], dialogs: Dialogs,
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "cannot write /…/rec.mp4: [Errno 13] Permission denied: '/…/rec.mp4.part'"
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if os.geteuid() == 0:  # root writes anyway: the part file's creation fails as a user's
        def refuse(name_for: Any) -> Path:
            raise PermissionError(13, "Permission denied", str(name_for(0)))
        monkeypatch.setattr(recorder_module, "claim_new", refuse)
    try:
        open_and_render(qtbot, window, media["clip"])
        window.toggle_record(locked / "rec.mp4")
        assert window.recorder is None
        assert dialogs.calls == [("warning", "Cannot record", "cannot write the recording "
                                  f"into {locked}: permission denied")]
    finally:
        locked.chmod(0o700)


# -- recent files that moved or were deleted ---------------------------------------------------

def recent_items(win: MainWindow) -> list[tuple[str, bool]]:
    menu = win.recent_menu
    menu.aboutToShow.emit()
    return [(a.text(), a.isEnabled()) for a in menu.actions() if not a.isSeparator()]


def test_recent_files_that_are_gone_are_greyed_taken_off_and_cleared(
        qtbot: Any, window: MainWindow, media: dict[str, Path], dialogs: Dialogs,
        tmp_path: Path) -> None:
    # a moved file was listed, enabled; clicking it said "no such file" and it stayed; no
    # way to clear the list
    kept, moved = tmp_path / "kept.png", tmp_path / "moved.png"
    for path in (kept, moved):
        path.write_bytes(media["image"].read_bytes())
    open_and_render(qtbot, window, moved)
    open_and_render(qtbot, window, kept)
    moved.rename(tmp_path / "elsewhere.png")
    assert recent_items(window) == [(str(kept), True),
                                    (f"{moved} (no longer there)", False),
                                    ("Clear recent files", True)]
    # gone between the menu's showing and the click: taken off, and said
    window.sources.open_recent(str(moved))
    assert dialogs.kinds() == ["warning"] and str(moved) in dialogs.calls[0][2]
    assert "no longer there" in dialogs.calls[0][2]
    assert window.settings.recent_files() == [str(kept)]
    assert window.source_spec == SourceSpec("file", str(kept))
    assert recent_items(window)[0] == (str(kept), True)
    clear = next(a for a in window.recent_menu.actions() if a.text() == "Clear recent files")
    clear.trigger()
    assert window.settings.recent_files() == []
    assert recent_items(window) == [("(none)", False)]



def test_a_file_named_at_start_that_cannot_open_falls_back(
        qtbot: Any, window: MainWindow, media: dict[str, Path], dialogs: Dialogs,
        tmp_path: Path) -> None:
    # `aquarelle zero.mp4`: the warning, then a black window with nothing open
    zero = tmp_path / "zero.mp4"
    zero.write_bytes(b"")
    with qtbot.waitSignal(window.viewport.rendered, timeout=TIMEOUT):
        window.open_initial(str(zero))  # nothing open last time: the demo
    assert dialogs.kinds() == ["warning"] and "zero.mp4" in dialogs.calls[0][2]
    assert window.source_spec == SourceSpec("demo")
    open_and_render(qtbot, window, media["image"])
    with qtbot.waitSignal(window.viewport.rendered, timeout=TIMEOUT):
        window.open_initial(str(zero))  # the last source
    assert dialogs.kinds() == ["warning", "warning"]
    assert window.source_spec == SourceSpec("file", str(media["image"].resolve()))


# -- recording loose ends ----------------------------------------------------------------------

def test_quitting_while_recording_asks_and_names_the_file(
        qtbot: Any, window: MainWindow, media: dict[str, Path], dialogs: Dialogs,
        tmp_path: Path) -> None:
    # Ctrl+Q finished the recording without a word of where it went
    videos = tmp_path / "videos"
    videos.mkdir()
    open_and_render(qtbot, window, media["clip"])
    window.toggle_record(videos / "rec.mp4")
    qtbot.waitUntil(lambda: window.recorder is not None and window.recorder.frames > 2,
                    timeout=TIMEOUT)
    dialogs.answer = QMessageBox.StandardButton.No
    window._actions["quit"].trigger()
    assert window.isVisible() and window.recorder is not None
    assert dialogs.calls == [("question", "Recording",
                              f"Recording to rec.mp4 in {videos}.\n\nStop recording and quit? "
                              "The recording is kept.")]
    dialogs.answer = QMessageBox.StandardButton.Yes
    window._actions["quit"].trigger()
    assert not window.isVisible() and dialogs.kinds() == ["question", "question"]
    assert [p.name for p in videos.iterdir()] == ["rec.mp4"]
    assert window.recording.saved == videos / "rec.mp4"


def test_record_snapshot_and_export_need_something_open(
        qtbot: Any, window: MainWindow, media: dict[str, Path], dialogs: Dialogs) -> None:
    # Record with nothing open showed REC, then "No frame was recorded"
    actions = ("record", "snapshot", "snapshot_as", "export")
    assert enabled(window, actions) == dict.fromkeys(actions, False)
    window.toggle_record()  # (as the REC panel's callers would)
    assert window.recorder is None and not window.overlays.recording.isVisible()
    assert dialogs.calls == [("warning", "Recording", "Nothing is open to record: open a "
                              "file, a camera or the demo first.")]
    open_and_render(qtbot, window, media["image"])
    assert enabled(window, actions) == dict.fromkeys(actions, True)


# -- settings ----------------------------------------------------------------------------------

def test_settings_that_cannot_be_saved_are_said_once(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:
    # a config folder it cannot write: QSettings.status() was AccessError, and not a word
    blocker = tmp_path / "blocker"  # (the settings' folder, a file: as root can write
    blocker.write_text("")          # into a read-only folder, this fails for anyone)
    settings_file = blocker / "settings.ini"
    win = make_window(qtbot, settings_file)
    for value in (0.6, 0.7):  # two changes, each saved (the save timer's save)
        win.param_panel.set_value("dilution", value)
        win.save_render_settings()
    said = f"Settings could not be saved to {settings_file}: {blocker} is not a folder"
    assert dialogs.calls == [("warning", "Settings", f"{said}\n\nChanges stay in use until "
                              "Aquarelle quits, and are lost then.")]
    win.close()  # no dialog holds the quit
    assert len(dialogs.calls) == 1 and not win.isVisible()


def saved_size(settings_file: Path, tmp_path: Path, n: list[int]) -> tuple[int, int] | None:
    """The window size in the settings file on disk (read from a copy: QSettings keeps the
    file's values in memory for the process)."""
    if not settings_file.exists():
        return None
    n.append(0)
    copy = tmp_path / f"copy{len(n)}.ini"
    copy.write_bytes(settings_file.read_bytes())
    value = QSettings(str(copy), QSettings.Format.IniFormat).value("window/geometry")
    if value is None:
        return None
    probe = QWidget()
    probe.restoreGeometry(value)
    return probe.width(), probe.height()


def test_the_window_size_is_saved_when_it_changes_not_only_at_the_close(
        qtbot: Any, window: MainWindow, config: Path, tmp_path: Path) -> None:
    # after a crash (SIGKILL) everything but the window's place and size came back
    n: list[int] = []
    window.resize(700, 450)
    qtbot.waitUntil(lambda: saved_size(config, tmp_path, n) == (700, 450), timeout=TIMEOUT)
    window.resize(640, 420)
    qtbot.waitUntil(lambda: saved_size(config, tmp_path, n) == (640, 420), timeout=TIMEOUT)
