"""Keys and the wheel where the window's controls would otherwise take them from the user.

- Hold O to see the original; Esc leaves fullscreen, else gives the focus back to the
  picture from a control (a text field keeps its own Esc).
- Buttons, check boxes and choosers take the focus from Tab only (a click leaves Space to
  play and pause).
- A control with the focus gets the keys it uses (`used_keys`), not the window's one-key
  shortcuts: Space toggles a check box or presses a button (Return and Enter press a push
  button too), PgUp/PgDn/Home/End step a slider or a list, Space opens a chooser. Elsewhere
  (the picture, a control that has no use for the key) the window's shortcut acts.
- A number field with the focus does not swallow the window's letter shortcuts (C, D, O,
  N...: a number has no letters), undo and redo (its own text undo would hide the look's),
  nor the window's Ctrl shortcuts (a line edit's Ctrl+E, end of line, hid Export).
- The wheel over a field, slider or list that has not been clicked scrolls the panel instead
  of changing a parameter under the pointer.
"""

from __future__ import annotations

from collections.abc import Callable

from PyQt6.QtCore import QEvent, QObject, Qt
from PyQt6.QtGui import QKeyEvent, QKeySequence
from PyQt6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QWidget,
)

PLAIN = (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)
UNDO_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)
K = Qt.Key
PAGES = frozenset({K.Key_PageUp, K.Key_PageDown})
ENDS = frozenset({K.Key_Home, K.Key_End})
PRESS = frozenset({K.Key_Space, K.Key_Select})
RETURN = frozenset({K.Key_Return, K.Key_Enter})
# The plain keys (no modifier) each kind of control uses, first match: the window's one-key
# shortcuts among them (Space, PgUp, PgDn, Home) make way for it while it has the focus.
# Number and text fields are not here: see `_override` and the fields' own ShortcutOverride.
USED_KEYS: tuple[tuple[type, frozenset[Qt.Key]], ...] = (
    (QPushButton, PRESS | RETURN),  # (Return and Enter: pressed by `_key`)
    (QAbstractButton, PRESS),  # check boxes, tool buttons
    (QAbstractSlider, PAGES | ENDS),  # (the arrows too; no shortcut has them)
    (QComboBox, PRESS | PAGES | ENDS),  # Space opens the list
    (QAbstractItemView, PRESS | PAGES | ENDS),  # Space selects
    (QAbstractSpinBox, PAGES),  # ten steps
    (QAbstractScrollArea, PAGES),  # the side panel: a page of it
)


def used_keys(widget: QWidget | None) -> frozenset[Qt.Key]:
    """The plain keys `widget` (with the focus) uses itself (see USED_KEYS)."""
    field = number_field(widget)
    if field is not None:
        widget = field
    for kind, keys in USED_KEYS:
        if isinstance(widget, kind):
            return keys
    return frozenset()


def tab_focus_only(widget: QWidget) -> None:
    """Buttons, check boxes and choosers take the focus from Tab, not from a click: a click
    on Loop or a style's chooser leaves Space to play and pause (with the focus it toggled
    Loop or opened the list), and the keyboard still reaches them (see USED_KEYS)."""
    clicked = widget.focusPolicy() & Qt.FocusPolicy.ClickFocus
    chooser = isinstance(widget, QComboBox) and not widget.isEditable()
    if clicked and (isinstance(widget, QAbstractButton) or chooser):
        widget.setFocusPolicy(Qt.FocusPolicy.TabFocus)


def number_field(widget: QWidget | None) -> QAbstractSpinBox | None:
    """The number field `widget` is, or is the text entry of."""
    while widget is not None:
        if isinstance(widget, QAbstractSpinBox):
            return widget
        if not isinstance(widget, QLineEdit):
            return None
        widget = widget.parentWidget()
    return None


class KeyRouter(QObject):
    """The application-wide event filter of one window (see the module docstring)."""

    def __init__(self, window: QWidget, panel: QScrollArea, picture: QWidget,
                 show_original: Callable[[bool], None], leave_fullscreen: Callable[[], bool],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.window, self.panel, self.picture = window, panel, picture
        self.show_original, self.leave_fullscreen = show_original, leave_fullscreen
        for widget in window.findChildren(QWidget):  # (polished already; later ones: Polish)
            tab_focus_only(widget)

    def eventFilter(self, obj: QObject | None, event: QEvent | None) -> bool:
        if event is None or not isinstance(obj, QWidget) or obj.window() is not self.window:
            return False
        kind = event.type()
        if kind == QEvent.Type.Polish:
            tab_focus_only(obj)
            return False
        if kind == QEvent.Type.Wheel:
            return self._wheel(obj, event)
        if kind == QEvent.Type.ShortcutOverride:
            assert isinstance(event, QKeyEvent)
            return self._override(event)
        if kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            assert isinstance(event, QKeyEvent)
            return self._key(event, kind == QEvent.Type.KeyPress)
        return False

    def _wheel(self, obj: QWidget, event: QEvent) -> bool:
        control = isinstance(obj, QAbstractSpinBox | QAbstractSlider | QComboBox) \
            or number_field(obj) is not None
        body = self.panel.widget()
        if not control or obj.hasFocus() or body is None or not body.isAncestorOf(obj):
            return False
        bar = self.panel.verticalScrollBar()
        if bar is not None:
            QApplication.sendEvent(bar, event)
        return True  # the control under the pointer keeps its value

    def _override(self, event: QKeyEvent) -> bool:
        focus = QApplication.focusWidget()
        if event.modifiers() in PLAIN and event.key() in used_keys(focus):
            event.accept()  # the control's: no window shortcut takes it
            return True
        if number_field(focus) is None:
            return False
        letter = Qt.Key.Key_A <= event.key() <= Qt.Key.Key_Z and event.modifiers() in PLAIN
        if letter or event.key() == Qt.Key.Key_Space or \
                any(event.matches(k) for k in UNDO_KEYS) or self._window_ctrl_key(event):
            event.ignore()  # not the field's: the window's shortcut takes it
            return True
        return False

    def _window_ctrl_key(self, event: QKeyEvent) -> bool:
        """Whether the key, with Ctrl, is one of the window's menu shortcuts."""
        if not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            return False
        keys = QKeySequence(event.keyCombination())
        return any(keys in action.shortcuts() for action in self.window.actions())

    def _key(self, event: QKeyEvent, press: bool) -> bool:
        focus = QApplication.focusWidget()
        if isinstance(focus, QLineEdit) and number_field(focus) is None:
            return False  # a text field (a name): its letters are text
        if event.key() == Qt.Key.Key_O and event.modifiers() in PLAIN:
            if not event.isAutoRepeat():  # the key's auto-repeat pairs change nothing
                self.show_original(press)
            return True
        if press and not event.isAutoRepeat() and event.key() == Qt.Key.Key_Escape:
            if self.leave_fullscreen():
                return True
            if focus is None or focus is self.picture:
                return False
            self.picture.setFocus(Qt.FocusReason.ShortcutFocusReason)
            return True
        if press and event.key() in RETURN and event.modifiers() in PLAIN \
                and isinstance(focus, QPushButton) and focus.isEnabled() \
                and not (focus.autoDefault() or focus.isDefault()):
            if not event.isAutoRepeat():  # (a push button outside a dialog ignores Return)
                focus.click()
            return True
        return False
