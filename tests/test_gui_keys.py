"""The keyboard, drops and menus as a newcomer meets them: a focused control gets the keys it
uses (the window's one-key shortcuts act elsewhere), a drop says what it opened or why not,
and the menu items say what they do.

The window, media and dialog fixtures are test_gui's (imported, so they are used by name).
"""
# ruff: noqa: F811

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PyQt6.QtGui import QDragEnterEvent, QDropEvent
from PyQt6.QtWidgets import QApplication, QInputDialog, QWidget
from test_gui import (  # noqa: F401 - fixtures
    TIMEOUT,
    Dialogs,
    config,
    dialogs,
    media,
    open_and_render,
    window,
)

from aquarelle.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


def focus_on(qtbot: Any, win: MainWindow, widget: QWidget) -> Any:
    """Activate the window, give `widget` the focus; the QWindow that keys are sent to (as
    a user's keys go: through the shortcuts first)."""
    with qtbot.waitActive(win, timeout=TIMEOUT):
        win.activateWindow()
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus, timeout=TIMEOUT)
    handle = win.windowHandle()
    assert handle is not None
    return handle


class Triggered:
    """Counts a window action's triggers (its shortcut's, above all)."""

    def __init__(self, win: MainWindow, *names: str) -> None:
        self.counts = dict.fromkeys(names, 0)
        for name in names:
            win._actions[name].triggered.connect(lambda _=False, n=name: self._hit(n))

    def _hit(self, name: str) -> None:
        self.counts[name] += 1

    @property
    def any(self) -> bool:
        return any(self.counts.values())


# -- a focused control gets its keys -------------------------------------------------------

def test_space_toggles_a_focused_check_box_instead_of_playing(
        qtbot: Any, window: MainWindow, media: dict[str, Path]) -> None:
    open_and_render(qtbot, window, media["clip"])
    src = window.source
    assert src is not None and not src.paused
    shortcuts = Triggered(window, "play")
    rows = window.param_panel.rows
    checks = [row.check for row in rows.values() if getattr(row, "check", None) is not None]
    assert checks, "the watercolor has check-box parameters (Dither, Temporal)"
    for box in (checks[0], window.transport.loop):
        was = box.isChecked()
        handle = focus_on(qtbot, window, box)
        qtbot.keyClick(handle, Qt.Key.Key_Space)
        assert box.isChecked() != was, box.text()
        assert not shortcuts.any and not src.paused
    # a key the check box has no use for is still the window's
    presets = Triggered(window, "next_preset")
    qtbot.keyClick(handle, Qt.Key.Key_PageDown)
    assert presets.counts["next_preset"] == 1


def test_space_and_return_press_a_focused_button(qtbot: Any, window: MainWindow,
                                                 media: dict[str, Path],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    open_and_render(qtbot, window, media["clip"])
    asked: list[str] = []

    def get_text(parent: Any, title: str, *args: Any, **kw: Any) -> tuple[str, bool]:
        asked.append(title)
        return "", False  # cancelled

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(get_text))
    shortcuts = Triggered(window, "play")
    button = window.presets.save_button
    for key in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
        handle = focus_on(qtbot, window, button)
        qtbot.keyClick(handle, key)
        qtbot.waitUntil(lambda: len(asked) > 0, timeout=TIMEOUT)
        assert len(asked) == 1, key
        asked.clear()
    assert not shortcuts.any
    src = window.source
    assert src is not None and not src.paused


def test_a_focused_slider_takes_page_and_home_keys(qtbot: Any, window: MainWindow,
                                                   media: dict[str, Path]) -> None:
    open_and_render(qtbot, window, media["clip"])
    shortcuts = Triggered(window, "next_preset", "prev_preset", "rewind", "play")
    preset = window.editor.preset
    slider = window.param_panel.rows["granulation"].slider
    assert slider is not None
    slider.setValue((slider.minimum() + slider.maximum()) // 2)
    handle = focus_on(qtbot, window, slider)
    middle = slider.value()
    qtbot.keyClick(handle, Qt.Key.Key_PageDown)
    assert slider.value() == middle - slider.pageStep()  # (a page down, as Qt's sliders go)
    qtbot.keyClick(handle, Qt.Key.Key_PageUp)
    assert slider.value() == middle
    qtbot.keyClick(handle, Qt.Key.Key_Home)
    assert slider.value() == slider.minimum()
    qtbot.keyClick(handle, Qt.Key.Key_End)
    assert slider.value() == slider.maximum()
    assert not shortcuts.any, shortcuts.counts
    assert window.editor.preset == preset  # no other preset chosen
    # the same keys on the picture are the window's again
    handle = focus_on(qtbot, window, window.viewport)
    qtbot.keyClick(handle, Qt.Key.Key_Home)
    qtbot.keyClick(handle, Qt.Key.Key_PageDown)
    assert shortcuts.counts["rewind"] == 1 and shortcuts.counts["next_preset"] == 1


def test_esc_gives_the_focus_back_to_the_picture_and_tab_reaches_it(
        qtbot: Any, window: MainWindow, media: dict[str, Path]) -> None:
    """By keyboard alone the focus could not go back to the picture (the trial: not among
    the 218 Tab stops, Esc in a field kept it there), where PgDn and Home are the window's."""
    open_and_render(qtbot, window, media["clip"])
    shortcuts = Triggered(window, "next_preset")
    spin = window.param_panel.rows["granulation"].spin
    assert spin is not None
    handle = focus_on(qtbot, window, spin)
    qtbot.keyClick(handle, Qt.Key.Key_Escape)
    assert window.viewport.hasFocus()
    qtbot.keyClick(handle, Qt.Key.Key_PageDown)  # the picture's: the next preset
    assert shortcuts.counts["next_preset"] == 1
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus, timeout=TIMEOUT)
    for _ in range(400):  # Tab on round the window comes to the picture
        if window.viewport.hasFocus():
            break
        qtbot.keyClick(handle, Qt.Key.Key_Tab)
    assert window.viewport.hasFocus()


def test_space_opens_a_focused_chooser_and_the_picture_keeps_its_keys(
        qtbot: Any, window: MainWindow, media: dict[str, Path]) -> None:
    open_and_render(qtbot, window, media["clip"])
    shortcuts = Triggered(window, "play", "next_preset")
    combo = window.style_combo
    handle = focus_on(qtbot, window, combo)
    qtbot.keyClick(handle, Qt.Key.Key_Space)
    view = combo.view()
    assert view is not None
    qtbot.waitUntil(view.isVisible, timeout=TIMEOUT)
    combo.hidePopup()
    assert not shortcuts.any
    # a number field: letters and Space are the window's (as before), PgDn its ten steps
    spin = window.param_panel.rows["granulation"].spin
    assert spin is not None
    spin.setValue(spin.minimum() if spin.minimum() > -1000 else 0)
    before = spin.value()
    handle = focus_on(qtbot, window, spin)
    qtbot.keyClick(handle, Qt.Key.Key_PageUp)
    assert spin.value() > before and not shortcuts.any
    qtbot.keyClick(handle, Qt.Key.Key_Space)
    assert shortcuts.counts["play"] == 1
    handle = focus_on(qtbot, window, window.viewport)
    qtbot.keyClick(handle, Qt.Key.Key_Space)
    assert shortcuts.counts["play"] == 2
    assert QApplication.focusWidget() is window.viewport


# -- drops ---------------------------------------------------------------------------------

def dragged(*paths: Path) -> QMimeData:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    return mime


def drag_enter(win: MainWindow, *paths: Path) -> bool:
    """Whether the window takes a drag of `paths` entering it (the cursor says yes)."""
    mime = dragged(*paths)  # (kept: the event does not own it)
    event = QDragEnterEvent(QPoint(50, 50), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    event.ignore()
    QApplication.sendEvent(win, event)
    return event.isAccepted()


def drop(qtbot: Any, win: MainWindow, *paths: Path) -> None:
    """Drag `paths` in and drop them (taken: the drop's picture is painted)."""
    assert drag_enter(win, *paths)
    mime = dragged(*paths)
    event = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(win.viewport.rendered, timeout=TIMEOUT):
        QApplication.sendEvent(win, event)


def status(win: MainWindow) -> str:
    bar = win.statusBar()
    assert bar is not None
    return bar.currentMessage()


def test_a_drop_of_several_files_opens_one_and_says_so(qtbot: Any, window: MainWindow,
                                                       dialogs: Dialogs,
                                                       media: dict[str, Path],
                                                       tmp_path: Path) -> None:
    drop(qtbot, window, media["image"], media["clip"])
    assert window.source_spec is not None
    assert Path(window.source_spec.ref).name == "scene.png"
    said = status(window)
    assert said.startswith("Opened scene.png")
    assert "only one file is shown at a time: scene.png, the first of the 2 dropped" in said
    readme = tmp_path / "README.md"
    readme.write_text("# notes")
    drop(qtbot, window, readme, media["clip"])  # (it was refused whole)
    assert Path(window.source_spec.ref).name == "clip.mp4"
    said = status(window)
    assert "clip.mp4, the first of the 2 dropped that opens" in said
    assert "cannot open README.md: not a picture or a video" in said
    assert dialogs.calls == []


def test_a_refused_drag_says_why(qtbot: Any, window: MainWindow, dialogs: Dialogs,
                                 media: dict[str, Path], tmp_path: Path) -> None:
    """While dragged (the status bar); dropped, in a dialog (the test below)."""
    open_and_render(qtbot, window, media["image"])
    empty = tmp_path / "zero.mp4"
    empty.write_bytes(b"")
    folder = tmp_path / "holiday"
    folder.mkdir()
    readme = tmp_path / "README.md"
    readme.write_text("# notes")
    said = {}
    for path in (empty, folder, readme, media["corrupt_png"]):
        assert drag_enter(window, path), path.name  # (taken: a drop says why in a dialog)
        said[path.name] = status(window)
    assert said == {
        "zero.mp4": "cannot open zero.mp4: the file is empty (0 bytes)",
        "holiday": "cannot open holiday: it is a folder; drop a picture or a video file",
        "README.md": "cannot open README.md: not a picture or a video (FFmpeg decodes no "
                     "picture in it)",
        "corrupt.png": "cannot open corrupt.png: not a picture that can be read (damaged, or "
                       "not the format its name says)"}
    assert drag_enter(window, empty, folder)
    assert status(window) == ("cannot open zero.mp4: the file is empty (0 bytes); cannot "
                              "open holiday: it is a folder; drop a picture or a video file")
    assert Path(window.source_spec.ref).name == "scene.png" and dialogs.calls == []


def test_a_refused_drop_is_a_dialog_naming_the_reason(qtbot: Any, window: MainWindow,
                                                      dialogs: Dialogs, media: dict[str, Path],
                                                      tmp_path: Path) -> None:
    """A dropped file that does not open is said in a dialog, in the words `aquarelle render`
    says it (trial W10: a status-bar line gone in ten seconds, a truncated MP4 'not a picture
    or a video', a notes file named .mp4 in FFmpeg's own words); the picture stays."""
    open_and_render(qtbot, window, media["image"])
    cut = tmp_path / "cut.mp4"  # an MP4 cut in half, its index (at its end) gone
    whole = media["clip"].read_bytes()
    cut.write_bytes(whole[:len(whole) // 2])
    notes = tmp_path / "notes.mp4"
    notes.write_text("shopping list")
    for path in (cut, notes):
        assert drag_enter(window, path)  # (Qt delivers a drop only to a drag it took)
        mime = dragged(path)
        event = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime,
                           Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(window, event)
    assert [(kind, title) for kind, title, _ in dialogs.calls] == \
        [("warning", "Cannot open source")] * 2
    assert [text for _, _, text in dialogs.calls] == [
        "cannot open cut.mp4: not a readable video (truncated: the file ends before its "
        "boxes do)",
        "cannot open notes.mp4: not a readable video (damaged, or not the format its name "
        "says)"]
    assert Path(window.source_spec.ref).name == "scene.png"


# -- menu words ----------------------------------------------------------------------------

def test_menu_items_that_open_a_dialog_end_with_an_ellipsis(window: MainWindow) -> None:
    from aquarelle.ui.shortcuts import SHORTCUTS

    texts = {name: action.text() for name, action in window._actions.items()}
    assert texts["open"] == "Open an image or video file\u2026"
    assert texts["export"] == "Export the painted video or image\u2026"  # (a photo's too)
    assert texts["snapshot_as"].endswith("\u2026") and texts["save_preset"].endswith("\u2026")
    for s in SHORTCUTS:
        if s.action in texts and s.text.endswith("\u2026"):
            assert texts[s.action].endswith("\u2026"), s.action


def test_undo_and_redo_name_their_step(qtbot: Any, window: MainWindow,
                                       media: dict[str, Path]) -> None:
    open_and_render(qtbot, window, media["image"])
    undo, redo = window._actions["undo"], window._actions["redo"]
    assert (undo.text(), redo.text()) == ("Undo", "Redo")
    window.seed_spin.setValue(window.seed_spin.value() + 7)
    assert undo.text() == "Undo Seed change" and undo.isEnabled()
    label = window.param_panel.rows["dilution"].spec.label
    window.param_panel.set_value("dilution", 0.6)
    assert undo.text() == f"Undo {label} change"
    window.presets.select(window.presets.presets[0].name)
    assert undo.text() == "Undo Preset change"
    window.param_panel.reset_all()
    assert undo.text() == "Undo Reset all parameters"
    undo.trigger()
    assert (undo.text(), redo.text()) == ("Undo Preset change", "Redo Reset all parameters")
    undo.trigger()
    undo.trigger()
    assert (undo.text(), redo.text()) == ("Undo Seed change", f"Redo {label} change")
    undo.trigger()
    assert (undo.text(), redo.text()) == ("Undo", "Redo Seed change")
    assert not undo.isEnabled()
    redo.trigger()
    assert (undo.text(), redo.text()) == ("Undo Seed change", f"Redo {label} change")
    other = next(window.style_combo.itemData(i) for i in range(window.style_combo.count())
                 if window.style_combo.itemData(i) != window.state.style.name)
    assert window.set_style(other)
    assert undo.text() == "Undo Style change" and redo.text() == "Redo"


def test_a_click_on_a_check_box_or_chooser_leaves_space_to_play(
        qtbot: Any, window: MainWindow, media: dict[str, Path]) -> None:
    """Clicking Loop (or a chooser) gave it the focus, so the next Space toggled Loop (or
    opened the list) instead of pausing: they take the focus from Tab only, and Tab still
    reaches them."""
    from PyQt6.QtTest import QTest

    open_and_render(qtbot, window, media["clip"])
    src = window.source
    assert src is not None and not src.paused
    handle = focus_on(qtbot, window, window.viewport)
    loop = window.transport.loop
    was = loop.isChecked()
    QTest.mouseClick(loop, Qt.MouseButton.LeftButton)
    assert loop.isChecked() != was and not loop.hasFocus()
    qtbot.keyClick(handle, Qt.Key.Key_Space)
    assert src.paused and loop.isChecked() != was  # paused; Loop as clicked
    assert loop.focusPolicy() == Qt.FocusPolicy.TabFocus
    assert window.style_combo.focusPolicy() == Qt.FocusPolicy.TabFocus


def test_a_dropped_file_that_does_not_open_gives_way_to_the_next(
        qtbot: Any, window: MainWindow, dialogs: Dialogs, media: dict[str, Path],
        tmp_path: Path) -> None:
    """A truncated JPEG (its header reads) dropped first with a photo: its dialog says why,
    then the photo opens (it stopped at the dialog, the photo never tried)."""
    import cv2

    img = cv2.imread(str(media["image"]))
    ok, jpeg = cv2.imencode(".jpg", img)
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(jpeg.tobytes()[: len(jpeg) // 3])
    drop(qtbot, window, cut, media["image"])
    assert window.source_spec is not None
    assert Path(window.source_spec.ref).name == "scene.png"
    assert [title for _, title, _ in dialogs.calls] == ["Cannot open source"]
    assert "cut.jpg" in dialogs.calls[0][2]
