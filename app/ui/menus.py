"""The menu bar, built from the one table of shortcuts (shortcuts.SHORTCUTS)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PyQt6.QtCore import Qt
from PyQt6.QtGui import QAction, QActionGroup, QKeySequence
from PyQt6.QtWidgets import QMainWindow, QMenu

from .shortcuts import SHORTCUTS

SEPARATED_AFTER = ("quit", "loop", "fullscreen", "panel", "reset_all", "rewind")
CHECKABLE = ("loop", "mute", "virtual_camera", "mirror", "adaptive")


def build_menus(window: QMainWindow, handlers: dict[str, Callable[[], object]]
                ) -> tuple[dict[str, QAction], dict[str, QMenu]]:
    """One action per shortcut that has a handler, in its menu; the actions are also the
    window's own, so their keys work in fullscreen (menu bar hidden). Returns the actions
    by id and the menus by title."""
    menubar = window.menuBar()
    assert menubar is not None
    actions: dict[str, QAction] = {}
    menus: dict[str, QMenu] = {}
    for s in SHORTCUTS:
        if s.action not in handlers:
            continue  # hold-to-see-original is handled as a key event, not an action
        menu = menus.get(s.menu)
        if menu is None:
            menu = menus[s.menu] = menubar.addMenu(s.menu)  # type: ignore[assignment]
            assert menu is not None
        action = QAction(s.menu_text, window)
        if s.menu_text != s.text:  # the whole description, in the status bar while pointed at
            action.setStatusTip(s.text)
        action.setShortcuts([QKeySequence(k) for k in s.keys])
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setCheckable(s.action in CHECKABLE)
        fn = handlers[s.action]
        action.triggered.connect(lambda _=False, fn=fn: fn())
        menu.addAction(action)
        window.addAction(action)
        actions[s.action] = action
        if s.action in SEPARATED_AFTER:
            menu.addSeparator()
    return actions, menus


def fill_choices(menu: QMenu, group: QActionGroup, choices: list[tuple[str, Any]],
                 chosen: Any, choose: Callable[[Any], object], *, enabled: bool,
                 empty: str | None = None) -> None:
    """`menu` as one checkable action a choice (label, key), the `chosen` key's checked,
    `choose(key)` on a click, all in `group` (one checked); `empty`: a greyed line after
    them saying there is nothing to choose."""
    menu.clear()  # (an action deleted leaves its group)
    for label, key in choices:
        action = menu.addAction(label)
        assert action is not None
        action.setCheckable(True)
        action.setChecked(key == chosen)
        action.triggered.connect(lambda _=False, k=key: choose(k))
        group.addAction(action)
    menu.setEnabled(enabled)
    if empty is not None:
        line = menu.addAction(empty)
        assert line is not None
        line.setEnabled(False)
