"""The mouse on the viewport: drag to pan, drag the split divider, wheel to zoom around the
pointer, double-click to fit."""

from __future__ import annotations

from typing import Protocol, cast

from PyQt6.QtCore import QEvent, QObject, QPointF, Qt, pyqtBoundSignal
from PyQt6.QtGui import QMouseEvent, QWheelEvent
from PyQt6.QtWidgets import QWidget

from .view_transform import CompareMode, ViewTransform


class NavigableView(Protocol):
    """What the navigation needs of the view it moves (the Viewport is one): a widget with
    a view transform, a compare mode and split, and a signal for changes."""

    compare: CompareMode
    split: float
    transform: ViewTransform
    viewChanged: pyqtBoundSignal

    def fit(self) -> None: ...
    def set_split(self, fraction: float) -> None: ...
    def view_size(self) -> tuple[int, int]: ...
    # QWidget's, as used here
    def width(self) -> int: ...
    def devicePixelRatioF(self) -> float: ...
    def update(self) -> None: ...
    def setCursor(self, cursor: Qt.CursorShape) -> None: ...
    def unsetCursor(self) -> None: ...
    def setFocus(self) -> None: ...

DIVIDER_GRAB_PX = 6  # logical pixels either side of the split divider that start a drag
WHEEL_STEP = 1.2  # zoom factor per wheel notch


class ViewNavigation(QObject):
    """An event filter on the viewport that moves its view (see the module docstring)."""

    def __init__(self, viewport: QWidget) -> None:
        super().__init__(viewport)
        self.vp = cast(NavigableView, viewport)  # the widget, as far as navigation needs it
        self._drag: str | None = None  # "pan", "divider" or None
        self._last = QPointF()
        viewport.setMouseTracking(True)
        viewport.installEventFilter(self)

    def eventFilter(self, obj: QObject | None, event: QEvent | None) -> bool:
        if obj is not self.vp or event is None:
            return False
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent):
            return self._press(event)
        if kind == QEvent.Type.MouseMove and isinstance(event, QMouseEvent):
            self._move(event)
            return True
        if kind == QEvent.Type.MouseButtonRelease and isinstance(event, QMouseEvent):
            if event.button() == Qt.MouseButton.LeftButton:
                self._drag = None
                self.vp.unsetCursor()
            return True
        if kind == QEvent.Type.MouseButtonDblClick:
            self.vp.fit()
            return True
        if kind == QEvent.Type.Wheel and isinstance(event, QWheelEvent):
            return self._wheel(event)
        return False

    def _near_divider(self, pos: QPointF) -> bool:
        vp = self.vp
        return (vp.compare is CompareMode.SPLIT
                and abs(pos.x() - vp.split * vp.width()) <= DIVIDER_GRAB_PX)

    def _press(self, e: QMouseEvent) -> bool:
        if e.button() != Qt.MouseButton.LeftButton:
            return False
        self._drag = "divider" if self._near_divider(e.position()) else "pan"
        self._last = e.position()
        if self._drag == "pan":
            self.vp.setCursor(Qt.CursorShape.ClosedHandCursor)
        self.vp.setFocus(Qt.FocusReason.MouseFocusReason)
        return True

    def _move(self, e: QMouseEvent) -> None:
        vp, pos = self.vp, e.position()
        if self._drag == "divider":
            vp.set_split(pos.x() / max(1, vp.width()))
        elif self._drag == "pan":
            dpr = vp.devicePixelRatioF()
            d = pos - self._last
            vp.transform.pan(d.x() * dpr, d.y() * dpr)
            vp.viewChanged.emit()
            vp.update()
        elif self._near_divider(pos):
            vp.setCursor(Qt.CursorShape.SplitHCursor)
        else:
            vp.unsetCursor()
        self._last = pos

    def _wheel(self, e: QWheelEvent) -> bool:
        steps = e.angleDelta().y() / 120.0
        if steps == 0:
            return False
        vp = self.vp
        dpr = vp.devicePixelRatioF()
        w, h = vp.view_size()
        x, y = e.position().x() * dpr, e.position().y() * dpr
        if vp.compare is CompareMode.SIDE_BY_SIDE:
            w = max(1, w // 2)
            x = x % w
        vp.transform.zoom_at((w, h), (x, y), WHEEL_STEP ** steps)
        vp.viewChanged.emit()
        vp.update()
        return True
