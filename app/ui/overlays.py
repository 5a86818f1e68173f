"""Widgets drawn over the viewport: compare labels, the recording panel, transient hints,
the painting in progress.

Each is as large as its text, at most as wide as the viewport allows (a longer text wraps,
and the widget is as tall as its lines: a word-wrapped QLabel's own size hint guesses a
narrow width and many lines); the viewport's resizes place them again."""

from __future__ import annotations

import time
from collections.abc import Callable

from PyQt6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer
from PyQt6.QtWidgets import (
    QBoxLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QWidget,
)

BADGE_STYLE = ("background-color: rgba(20, 20, 20, 170); color: white; padding: 3px 8px;"
               " border-radius: 4px;")
REC_STYLE = ("QWidget#rec { background-color: rgba(150, 0, 0, 200); border-radius: 6px; }"
             " QLabel { color: white; font-size: 16pt; font-weight: bold; }"
             " QPushButton { font-size: 12pt; padding: 4px 14px; }")
SUBTITLE_STYLE = ("background-color: rgba(0, 0, 0, 160); color: white; padding: 2px 10px;"
                  " border-radius: 3px; font-size: {px}px;")
SUBTITLE_SIZE = (0.045, 16, 56)  # a line's font: of the viewport's height, at least, at most
MARGIN = 10
HINT_CHARS = 100  # a hint's lines are at most about this many characters: longer ones tire
SUBTITLE_CHARS = 48  # a subtitle's line, as films set them (two lines of ~42)


def _badge(parent: QWidget, text: str) -> QLabel:
    label = QLabel(text, parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setStyleSheet(BADGE_STYLE)
    label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
    label.hide()
    return label


def fit_label(label: QLabel, most: int) -> QSize:
    """Size a word-wrapped `label` to its text: as few lines as `most` px wide allows, and
    the narrowest width that keeps them (a line's worth where it fits on one); as tall as
    its lines. The label's own heightForWidth measures, its indent and padding included."""
    most = max(1, most)
    height = label.heightForWidth(most)
    lo, hi = min(most, label.minimumSizeHint().width()), most  # (its longest word's width)
    while lo < hi:  # (fewer lines with more width: a binary search)
        mid = (lo + hi) // 2
        if label.heightForWidth(mid) <= height:
            hi = mid
        else:
            lo = mid + 1
    size = QSize(lo, height)
    label.resize(size)
    return size


class RecordingPanel(QWidget):
    """A large "REC" sign with the elapsed time and a visible Stop button."""

    def __init__(self, parent: QWidget, stop: Callable[[], None],
                 resized: Callable[[], None] | None = None) -> None:
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
        self._resized = resized
        self.hide()

    def show_time(self, seconds: float, frames: int) -> None:
        m, s = divmod(int(seconds), 60)
        self.label.setText(f"\u25cf REC {m:02d}:{s:02d}  {frames} frames")
        if self._resized is not None:
            self._resized()  # centred again: the text's width changes with its digits
        else:
            self.adjustSize()

    def fit(self, most: int) -> QSize:
        """Size the panel to its contents: one row where it fits in `most` px, else the
        time (wrapped) above the Stop button."""
        layout = self.layout()
        assert isinstance(layout, QBoxLayout)
        m = layout.contentsMargins()
        button = self.stop_button.sizeHint()
        self.label.ensurePolished()  # (its font is the style sheet's)
        one_row = (m.left() + self.label.fontMetrics().horizontalAdvance(self.label.text())
                   + layout.spacing() + button.width() + m.right())
        row = one_row <= most
        direction = QBoxLayout.Direction.LeftToRight if row else \
            QBoxLayout.Direction.TopToBottom
        if layout.direction() != direction:  # (only when it changes: no relayout each second)
            layout.setDirection(direction)
            self.label.setWordWrap(not row)
        if row:
            size = self.sizeHint()
        else:
            text = fit_label(self.label, most - m.left() - m.right())
            size = QSize(max(text.width(), button.width()) + m.left() + m.right(),
                         text.height() + layout.spacing() + button.height() + m.top()
                         + m.bottom())
        self.resize(size)
        return size


class PaintingBadge(QWidget):
    """A painting that takes a while (a big still, painted apart): a busy bar, what is
    painted and the time it has taken so far (no share of it is known)."""

    def __init__(self, parent: QWidget, resized: Callable[[], None] | None = None) -> None:
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
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)  # (a narrow viewport)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.bar)
        layout.addWidget(self.label)
        self.what = ""
        self.started = 0.0
        self._resized = resized
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

    def fit(self, most: int) -> QSize:
        """Size the badge to its text, at most `most` px wide (the text wraps beyond)."""
        layout = self.layout()
        assert layout is not None
        m = layout.contentsMargins()
        around = m.left() + m.right() + self.bar.width() + layout.spacing()
        text = fit_label(self.label, max(20, most - around))
        size = QSize(min(most, around + text.width()),
                     max(self.bar.height(), text.height()) + m.top() + m.bottom())
        self.resize(size)
        return size

    def _tick(self) -> None:
        m, s = divmod(int(max(0.0, time.monotonic() - self.started)), 60)
        self.label.setText(f"{self.what}\u2026 {m}:{s:02d}")
        parent = self.parentWidget()
        if self._resized is not None:
            self._resized()
        elif parent is not None:
            self.fit(parent.width())


class ViewportOverlays(QObject):
    """Keeps the overlay widgets placed on the viewport as it resizes."""

    def __init__(self, viewport: QWidget, stop_recording: Callable[[], None]) -> None:
        super().__init__(viewport)
        self.viewport = viewport
        self.original = _badge(viewport, "Original")
        self.painted = _badge(viewport, "Painted")
        self.hint = _badge(viewport, "")
        self.hint.setWordWrap(True)
        self.recording = RecordingPanel(viewport, stop_recording, self.place)
        self.painting = PaintingBadge(viewport, self.place)
        self.subtitle = _badge(viewport, "")
        self.subtitle.setWordWrap(True)
        self.subtitle.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._subtitle_px = 0
        self._hint_timer = QTimer(self)
        self._hint_timer.setSingleShot(True)
        self._hint_timer.timeout.connect(self.hint.hide)
        viewport.installEventFilter(self)

    def eventFilter(self, obj: QObject | None, event: QEvent | None) -> bool:
        if obj is self.viewport and event is not None and event.type() == QEvent.Type.Resize:
            self.place()
        return False

    def place(self) -> None:
        """Original top left, painted top right, recording top centre (below the two where
        they would meet), the painting in progress bottom left, the subtitle bottom centre
        and the hint above it (both above the painting where they would meet); none wider
        than the viewport."""
        w, h = self.viewport.width(), self.viewport.height()
        room = max(20, w - 2 * MARGIN)
        for label in (self.original, self.painted):
            label.adjustSize()
        self.original.move(MARGIN, MARGIN)
        self.painted.move(w - self.painted.width() - MARGIN, MARGIN)
        self.recording.fit(room)
        rec = QRect((w - self.recording.width()) // 2, MARGIN, self.recording.width(),
                    self.recording.height())
        if self.recording.width() > w:  # the Stop button kept in view
            rec.moveLeft(w - self.recording.width())
        if any(b.isVisible() and rec.intersects(b.geometry())
               for b in (self.original, self.painted)):
            rec.moveTop(self.original.geometry().bottom() + 1 + MARGIN // 2)
        self.recording.move(rec.topLeft())
        self.painting.fit(room)
        self.painting.move(MARGIN, h - self.painting.height() - MARGIN)
        share, least, most = SUBTITLE_SIZE  # (a film's lines grow with the screen: W12)
        px = max(least, min(most, round(share * h)))
        if px != self._subtitle_px:
            self._subtitle_px = px
            self.subtitle.setStyleSheet(SUBTITLE_STYLE.format(px=px))
        bottom = self._place_centred(self.subtitle, SUBTITLE_CHARS, w, h - 2 * MARGIN)
        if self.subtitle.isVisible():
            self._place_centred(self.hint, HINT_CHARS, w, bottom - MARGIN // 2)
        else:
            self._place_centred(self.hint, HINT_CHARS, w, h - 3 * MARGIN)

    def _place_centred(self, label: QLabel, chars: int, w: int, bottom: int) -> int:
        """`label` centred, its bottom at `bottom` (above the painting badge where they
        would meet), lines of at most about `chars` characters; returns its top."""
        reading = label.fontMetrics().averageCharWidth() * chars
        size = fit_label(label, max(60, min(w - 4 * MARGIN, reading)))
        x = (w - size.width()) // 2
        badge = self.painting.geometry()
        if self.painting.isVisible() and x < badge.right() + MARGIN:
            bottom = min(bottom, badge.top() - MARGIN // 2)
        top = max(0, bottom - size.height())
        label.move(x, top)
        return top

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

    def show_subtitle(self, text: str) -> None:
        """A subtitle's line(s) over the picture ("" for none)."""
        self.subtitle.setText(text)
        self.subtitle.setVisible(bool(text))
        if text:
            self.place()
            self.subtitle.raise_()

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
