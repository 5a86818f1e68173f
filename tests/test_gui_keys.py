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
from PyQt6.QtCore import Qt
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
