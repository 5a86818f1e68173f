"""The menu bar, built from the one table of shortcuts (shortcuts.SHORTCUTS)."""

from __future__ import annotations

from collections.abc import Callable

from PyQt6.QtCore import Qt
from PyQt6.QtGui import QAction, QKeySequence
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
