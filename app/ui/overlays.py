"""Widgets drawn over the viewport: compare labels, the recording panel, transient hints,
the painting in progress."""

from __future__ import annotations

import time
from collections.abc import Callable

from PyQt6.QtCore import QEvent, QObject, Qt, QTimer
from PyQt6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

BADGE_STYLE = ("background-color: rgba(20, 20, 20, 170); color: white; padding: 3px 8px;"
               " border-radius: 4px;")
REC_STYLE = ("QWidget#rec { background-color: rgba(150, 0, 0, 200); border-radius: 6px; }"
             " QLabel { color: white; font-size: 16pt; font-weight: bold; }"
             " QPushButton { font-size: 12pt; padding: 4px 14px; }")
MARGIN = 10


def _badge(parent: QWidget, text: str) -> QLabel:
    label = QLabel(text, parent)
    label.setStyleSheet(BADGE_STYLE)
    label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
    label.hide()
    return label


class RecordingPanel(QWidget):
    """A large "REC" sign with the elapsed time and a visible Stop button."""

    def __init__(self, parent: QWidget, stop: Callable[[], None]) -> None:
        super().__init__(parent)
        self.setObjectName("rec")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self.setStyleSheet(REC_STYLE)
        self.label = QLabel("\u25cf REC", self)
        self.stop_button = QPushButton("Stop", self)
        self.stop_button.setToolTip("Stop recording (Ctrl+Shift+R)")
        self.stop_button.clicked.connect(stop)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.label)
        layout.addWidget(self.stop_button)
        self.hide()

    def show_time(self, seconds: float, frames: int) -> None:
        m, s = divmod(int(seconds), 60)
        self.label.setText(f"\u25cf REC {m:02d}:{s:02d}  {frames} frames")
        self.adjustSize()


class PaintingBadge(QWidget):
    """A painting that takes a while (a big still, painted apart): a busy bar, what is
    painted and the time it has taken so far (no share of it is known)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("painting")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self.setStyleSheet("QWidget#painting { background-color: rgba(20, 20, 20, 170);"
                           " border-radius: 4px; } QLabel { color: white; }")
        self.setToolTip("A big picture is painted in a process of its own: the window stays "
                        "usable meanwhile. Until it is done you see the last painting of the "
                        "picture, or the picture itself.")
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 0)  # busy: a picture painted whole has no progress to show
        self.bar.setTextVisible(False)
        self.bar.setFixedSize(60, 10)
        self.label = QLabel(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.bar)
        layout.addWidget(self.label)
        self.what = ""
        self.started = 0.0
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._tick)
        self.hide()

    def follow(self, what: str | None, started: float = 0.0) -> None:
        """Show `what` is being painted since `started` (time.monotonic()); None: hide."""
        if what is None:
            self._timer.stop()
            self.hide()
            return
        self.what, self.started = what, started
        self._tick()
        self._timer.start(500)
        self.show()
        self.raise_()

    def _tick(self) -> None:
        m, s = divmod(int(max(0.0, time.monotonic() - self.started)), 60)
        self.label.setText(f"{self.what}\u2026 {m}:{s:02d}")
        self.adjustSize()


class ViewportOverlays(QObject):
    """Keeps the overlay widgets placed on the viewport as it resizes."""

    def __init__(self, viewport: QWidget, stop_recording: Callable[[], None]) -> None:
        super().__init__(viewport)
        self.viewport = viewport
        self.original = _badge(viewport, "Original")
        self.painted = _badge(viewport, "Painted")
        self.hint = _badge(viewport, "")
        self.hint.setWordWrap(True)
        self.recording = RecordingPanel(viewport, stop_recording)
        self.painting = PaintingBadge(viewport)
        self._hint_timer = QTimer(self)
        self._hint_timer.setSingleShot(True)
        self._hint_timer.timeout.connect(self.hint.hide)
        viewport.installEventFilter(self)

    def eventFilter(self, obj: QObject | None, event: QEvent | None) -> bool:
        if obj is self.viewport and event is not None and event.type() == QEvent.Type.Resize:
            self.place()
        return False

    def place(self) -> None:
        """Original top left, painted top right, recording top centre, hint bottom centre,
        the painting in progress bottom left."""
        w, h = self.viewport.width(), self.viewport.height()
        for label in (self.original, self.painted, self.hint):
            label.adjustSize()
        self.original.move(MARGIN, MARGIN)
        self.painted.move(w - self.painted.width() - MARGIN, MARGIN)
        self.recording.adjustSize()
        self.recording.move((w - self.recording.width()) // 2, MARGIN)
        text_w = self.hint.fontMetrics().horizontalAdvance(self.hint.text()) + 24
        self.hint.setFixedWidth(max(60, min(text_w, w - 4 * MARGIN)))
        self.hint.adjustSize()
        self.hint.move((w - self.hint.width()) // 2, h - self.hint.height() - 3 * MARGIN)
        self.painting.adjustSize()
        self.painting.move(MARGIN, h - self.painting.height() - MARGIN)

    def show_compare(self, comparing: bool, original_only: bool) -> None:
        """Label what each side shows: both while comparing, "Original" while holding O."""
        self.original.setVisible(comparing or original_only)
        self.painted.setVisible(comparing and not original_only)
        self.place()

    def show_hint(self, text: str, ms: int = 6000) -> None:
        """A message over the picture for a while (first start, fullscreen)."""
        self.hint.setText(text)
        self.hint.show()
        self.place()
        self.hint.raise_()
        self._hint_timer.start(ms)

    def show_painting(self, what: str | None, started: float = 0.0) -> None:
        """The painting in progress (see PaintingBadge), or none."""
        self.painting.follow(what, started)
        self.place()

    def show_recording(self, on: bool) -> None:
        self.recording.setVisible(on)
        if on:
            self.recording.show_time(0.0, 0)
            self.place()
            self.recording.raise_()
