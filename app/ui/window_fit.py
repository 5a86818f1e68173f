"""Window geometry the user can always reach: on its screen, no larger than it, and a
fullscreen that hides everything but the picture and gives it all back."""

from __future__ import annotations

from PyQt6.QtCore import QByteArray
from PyQt6.QtWidgets import QApplication, QMainWindow, QWidget

MIN_SIZE = (320, 240)


def fit_to_screen(window: QWidget) -> None:
    """Keep `window` on its screen and no larger than it (a saved size from a larger
    monitor, or 1100x700 at 150% scaling on a small laptop screen)."""
    screen = window.screen() or QApplication.primaryScreen()
    if screen is None or window.isFullScreen() or window.isMaximized():
        return
    room = screen.availableGeometry()
    frame = window.frameGeometry().size() - window.geometry().size()  # title bar, borders
    w = min(window.width(), room.width() - frame.width())
    h = min(window.height(), room.height() - frame.height())
    if (w, h) != (window.width(), window.height()):
        window.resize(max(w, MIN_SIZE[0]), max(h, MIN_SIZE[1]))
    outer = window.frameGeometry()
    x = min(max(window.x(), room.left()), room.right() - outer.width() + 1)
    y = min(max(window.y(), room.top()), room.bottom() - outer.height() + 1)
    if (x, y) != (window.x(), window.y()):
        window.move(max(x, room.left()), max(y, room.top()))


class Fullscreen:
    """Fullscreen with only the picture: the window's chrome hidden, then the window given
    back as it was (its chrome, maximized or not)."""

    def __init__(self, window: QMainWindow, chrome: list[QWidget | None]) -> None:
        self.window = window
        self.chrome = [w for w in chrome if w is not None]
        self._shown: dict[QWidget, bool] = {}  # what was hidden, and whether it showed
        self._maximized = False
        self._layout = (QByteArray(), QByteArray())  # saveGeometry(), saveState() before

    def toggle(self) -> bool:
        """Into fullscreen (True) or back (False)."""
        if self.window.isFullScreen():
            if self._maximized:
                self.window.showMaximized()
            else:
                self.window.showNormal()
            for widget, shown in self._shown.items():
                widget.setVisible(shown)
            self._shown.clear()
            return False
        self._maximized = self.window.isMaximized()
        self._layout = (self.window.saveGeometry(), self.window.saveState())
        self._shown = {w: w.isVisible() for w in self.chrome}
        for widget in self._shown:
            widget.hide()
        self.window.showFullScreen()
        return True

    def leave(self) -> bool:
        """Back from fullscreen (Esc); False when not in it."""
        if not self.window.isFullScreen():
            return False
        self.toggle()
        return True

    def saved_layout(self) -> tuple[QByteArray, QByteArray]:
        """The window's saveGeometry() and saveState() to keep for the next launch; in
        fullscreen, those from before it (now they would reopen it fullscreen, without the
        docks fullscreen hid; leaving first is no cure: a window manager gives the size back
        only later)."""
        if self.window.isFullScreen():
            return QByteArray(self._layout[0]), QByteArray(self._layout[1])
        return self.window.saveGeometry(), self.window.saveState()
