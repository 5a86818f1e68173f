"""Window geometry the user can always reach: on its screen, no larger than it, and a
fullscreen that hides everything but the picture and gives it all back."""

from __future__ import annotations

from collections.abc import Callable

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
PICTURE_SHARE = 0.5  # below it the panel hides: the picture would get less of the window
SHOWN = "Controls shown again"
HIDDEN = "Controls hidden to give the picture room (F9 shows them)"


class NarrowWindow:
    """A narrowing window keeps most of its width for the picture: the controls' panel
    shrinks to its narrowest, then gives its room to the picture (also where the window
    can go no narrower with it: a video's transport and the panel held a window at 791 px),
    and comes back once the window is wide again, at its ease where there is room (the
    panel kept ~460 px: a 500 px window left the picture a third). Only the panel it hid
    comes back: one the user hid or showed (F9) stays so."""

    def __init__(self, window: QMainWindow, panel: QDockWidget,
                 narrowest: Callable[[], int]) -> None:
        self.window, self.panel, self.narrowest = window, panel, narrowest
        self.hid_it = False
        self.users = False  # F9 while narrow: the panel stays as the user left it
        self.trimmed = False  # narrower than at its ease, by a narrowing window or F9

    def resized(self, before: int) -> str | None:
        """After the window's resize from `before` px wide: what was done, for the status
        bar (None: nothing)."""
        if self.window.isFullScreen():
            return None
        width, floor = self.window.width(), self.narrowest()
        hide_below = floor / (1.0 - PICTURE_SHARE)
        if width >= hide_below + 120:  # apart, so one drag does not flicker it
            self.users = False
        # narrowed by the user as far as it goes (a window that grew to fit a video opened
        # in it was not)
        held = before > width and width <= self.window.minimumSizeHint().width()
        said = None
        if (self.panel.isVisible() and not self.hid_it and not self.users
                and (width < hide_below or held)):
            self.panel.hide()
            self.hid_it = True
            said = HIDDEN
        elif width >= hide_below + 120 and self.hid_it:
            self.hid_it = False
            self.panel.show()
            said = SHOWN  # (the line saying it was hidden goes)
        if self.panel.isVisible():
            self._fit_panel(max(floor, int(PANEL_SHARE * width)))
        return said

    def _fit_panel(self, share: int) -> None:
        """The panel at most `share` px, and back towards its width at ease once there is
        room (trial W11: kept at its narrowest, rows wrapped, at every later size)."""
        now, ease = self.panel.width(), self.panel.widget().sizeHint().width() \
            if self.panel.widget() is not None else self.panel.width()
        if now > share:
            self.trimmed = True
            self._panel_width(share)
        elif self.trimmed and now < min(ease, share):
            self._panel_width(min(ease, share))
            self.trimmed = share < ease

    def _panel_width(self, width: int) -> None:
        self.window.resizeDocks([self.panel], [width], Qt.Orientation.Horizontal)

    def toggled_by_user(self) -> None:
        """F9 or the menu: the panel is the user's (until the window is wide again), shown
        at its narrowest where the window is narrow: back at its ease when wide."""
        self.hid_it = False
        self.trimmed = True
        self.users = True
