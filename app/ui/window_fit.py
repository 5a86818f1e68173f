"""Window geometry the user can always reach: on its screen, no larger than it, and a
fullscreen that hides everything but the picture and gives it all back."""

from __future__ import annotations

from PyQt6.QtCore import QByteArray, Qt
from PyQt6.QtWidgets import QApplication, QDockWidget, QMainWindow, QWidget

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


PANEL_SHARE = 0.42  # of a narrowing window's width, at most, while the panel can shrink


class NarrowWindow:
    """A narrowing window keeps most of its width for the picture: the controls' panel
    shrinks to its share, then gives its room to the picture, and comes back once the
    window is wide again (the panel kept ~460 px: a 700 px window left the picture a third).
    Only the panel it hid comes back: one the user hid or showed (F9) stays so."""

    def __init__(self, window: QMainWindow, panel: QDockWidget, panel_width: int) -> None:
        self.window, self.panel, self.narrowest = window, panel, panel_width
        self.hide_below = 2 * panel_width  # the picture would get less than the panel
        self.show_from = 2 * panel_width + 120  # apart, so one drag does not flicker it
        self.hid_it = False
        self.users = False  # F9 while narrow: the panel stays as the user left it

    def resized(self) -> str | None:
        """After the window's resize: what was done, for the status bar (None: nothing)."""
        if self.window.isFullScreen():
            return None
        width = self.window.width()
        said = None
        if width >= self.show_from:
            self.users = False
        if (width < self.hide_below and self.panel.isVisible() and not self.hid_it
                and not self.users):
            self.panel.hide()
            self.hid_it = True
            said = "Controls hidden to give the picture room (F9 shows them)"
        elif width >= self.show_from and self.hid_it:
            self.hid_it = False
            self.panel.show()
        if self.panel.isVisible():
            self._fit_panel(width)
        return said

    def _fit_panel(self, width: int) -> None:
        """The panel at most its share of the window (the user may widen it again)."""
        share = max(self.narrowest, int(PANEL_SHARE * width))
        if self.panel.width() > share:
            self.window.resizeDocks([self.panel], [share], Qt.Orientation.Horizontal)

    def toggled_by_user(self) -> None:
        """F9 or the menu: the panel is the user's (until the window is wide again)."""
        self.hid_it = False
        self.users = True
