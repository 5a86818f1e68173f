"""Source chooser (cameras, open file, demo) and the transport bar for files."""

from __future__ import annotations

import math

from PyQt6.QtCore import Qt, pyqtSignal
from PyQt6.QtGui import QAction, QActionGroup, QMouseEvent
from PyQt6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSizePolicy,
    QSlider,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..media.file_source import RATES

SEEK_STEPS = 1000


def speed_text(rate: float) -> str:
    """A playback speed as players write it: "1\u00d7", "0.25\u00d7", "1.5\u00d7"."""
    return f"{rate:g}\u00d7"


def format_time(seconds: float | None) -> str:
    """m:ss.s (or h:mm:ss) for the transport's time label."""
    if seconds is None or seconds != seconds:
        return "--:--"
    seconds = max(0.0, seconds)
    m, s = divmod(seconds, 60)
    if m >= 60:
        h, m = divmod(int(m), 60)
        return f"{h}:{m:02d}:{int(s):02d}"
    return f"{int(m)}:{s:04.1f}"


def format_timecode(seconds: float | None, fps: float | None) -> str:
    """h:mm:ss:ff (frames within the second), or m:ss.s where the rate is unknown."""
    if seconds is None or seconds != seconds or not fps or fps <= 0:
        return format_time(seconds)
    rate = max(1, round(fps))
    # the frame showing at that time; a millisecond's worth more, as a frame's time may be
    # rounded to the millisecond (Matroska, WebM: 0.083 s is frame 2 at 24 fps, not 1) or cut
    # to it (a muxer's: 0.166 s is frame 4, shown as a second frame 3)
    frames = max(0, math.floor(seconds * fps + 0.001 * fps + 1e-6))
    s, f = divmod(frames, rate)
    m, s = divmod(s, 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}:{f:02d}"


class SeekSlider(QSlider):
    """A seek bar that jumps to where it is clicked (and drags from there), as video players
    do, instead of paging towards the click."""

    def _value_at(self, e: QMouseEvent) -> int:
        return QStyle.sliderValueFromPosition(self.minimum(), self.maximum(),
                                              round(e.position().x()), max(1, self.width()))

    def mousePressEvent(self, e: QMouseEvent | None) -> None:
        if e is not None and e.button() == Qt.MouseButton.LeftButton and self.isEnabled():
            self.setSliderDown(True)
            self.setSliderPosition(self._value_at(e))  # emits sliderMoved: the seek
            return
        super().mousePressEvent(e)

    def mouseMoveEvent(self, e: QMouseEvent | None) -> None:
        if e is not None and self.isSliderDown():
            self.setSliderPosition(self._value_at(e))
            return
        super().mouseMoveEvent(e)

    def mouseReleaseEvent(self, e: QMouseEvent | None) -> None:
        if self.isSliderDown():
            self.setSliderDown(False)  # emits sliderReleased: the final seek
            return
        super().mouseReleaseEvent(e)


class SourcePanel(QWidget):
    """Camera list, Open file and Demo buttons."""

    cameraChosen = pyqtSignal(str)  # camera id
    openRequested = pyqtSignal()
    demoRequested = pyqtSignal()
    refreshRequested = pyqtSignal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cameras = QComboBox(self)
        self.cameras.setToolTip("Cameras found on this computer")
        self.cameras.activated.connect(self._camera_activated)
        refresh = QToolButton(self)
        refresh.setText("\u27f3")
        refresh.setToolTip("Look for cameras again")
        refresh.clicked.connect(self.refreshRequested)
        self.open_button = QPushButton("Open file\u2026", self)
        self.open_button.setToolTip("Open an image or video (or drop a file on the window)")
        self.open_button.clicked.connect(self.openRequested)
        self.demo_button = QPushButton("Demo", self)
        self.demo_button.setToolTip("Play the bundled demo clip")
        self.demo_button.clicked.connect(self.demoRequested)
        self.current = QLabel("no source", self)
        self.current.setWordWrap(True)
        self._camera: str | None = None  # the camera on screen, selected in the list
        row1 = QHBoxLayout()
        row1.addWidget(self.cameras, 1)
        row1.addWidget(refresh)
        row2 = QHBoxLayout()
        row2.addWidget(self.open_button, 1)
        row2.addWidget(self.demo_button, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row1)
        layout.addLayout(row2)
        self._buttons = QHBoxLayout()
        layout.addLayout(self._buttons)
        layout.addWidget(self.current)

    def add_button(self, action: QAction, tip: str) -> QToolButton:
        """A full-width toggle button for a window action (e.g. the virtual camera)."""
        button = QToolButton(self)
        button.setDefaultAction(action)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        button.setToolTip(tip)
        self._buttons.addWidget(button)
        return button

    def set_cameras(self, cameras: list[tuple[str, str]]) -> None:
        """Fill the camera list with (id, name) pairs."""
        self.cameras.clear()
        if not cameras:
            self.cameras.addItem("no camera found", None)
            self.cameras.setEnabled(False)
            return
        self.cameras.setEnabled(True)
        self.cameras.addItem("choose a camera\u2026", None)
        for ident, name in cameras:
            self.cameras.addItem(name, ident)
        self.show_camera(self._camera)

    def show_camera(self, ident: str | None) -> None:
        """Select the camera on screen in the list ("choose a camera..." without one)."""
        self._camera = ident
        found = self.cameras.findData(ident) if ident is not None else -1
        self.cameras.setCurrentIndex(max(0, found))

    def camera_name(self, ident: str) -> str | None:
        """The listed name of camera `ident`, if listed."""
        found = self.cameras.findData(ident)
        return self.cameras.itemText(found) if found >= 0 else None

    def _camera_activated(self, index: int) -> None:
        ident = self.cameras.itemData(index)
        if ident is not None:
            self.cameraChosen.emit(str(ident))


_WIDE_DIGITS = str.maketrans("0123456789", "8888888888")  # room for any digits of that count


class TransportBar(QWidget):
    """Play/pause, frame step, seek bar, time, speed and loop for file sources."""

    playToggled = pyqtSignal()
    stepRequested = pyqtSignal(int)  # +1 / -1 frames
    seekRequested = pyqtSignal(float)  # seconds
    loopToggled = pyqtSignal(bool)
    speedChosen = pyqtSignal(float)  # x the file's pace
    muteToggled = pyqtSignal(bool)  # True: sound off

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        style = self.style()
        assert style is not None
        self._icons = (style.standardIcon(QStyle.StandardPixmap.SP_MediaPlay),
                       style.standardIcon(QStyle.StandardPixmap.SP_MediaPause))
        self.play_button = QToolButton(self)
        self.play_button.setToolTip("Play / pause (Space)")
        self.play_button.clicked.connect(self.playToggled)
        self.back_button = QToolButton(self)
        self.back_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_MediaSeekBackward))
        self.back_button.setToolTip("Previous frame (,)")
        self.back_button.clicked.connect(lambda: self.stepRequested.emit(-1))
        self.step_button = QToolButton(self)
        self.step_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_MediaSeekForward))
        self.step_button.setToolTip("Next frame (.)")
        self.step_button.clicked.connect(lambda: self.stepRequested.emit(1))
        self.seek = SeekSlider(Qt.Orientation.Horizontal, self)
        self.seek.setRange(0, SEEK_STEPS)
        self.seek.setToolTip("Click or drag to seek; J back a second, K pause, L play")
        self.seek.sliderReleased.connect(self._seek_released)
        self.seek.sliderMoved.connect(self._seek_moved)
        self.seek.actionTriggered.connect(self._seek_action)
        self.time = QLabel("--:-- / --:--", self)
        self.time.setToolTip("Timecode (hours:minutes:seconds:frames) and frame number")
        self.time.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.speed = QToolButton(self)
        self.speed.setToolTip("Playback speed (< slower, > faster); exports keep the file's")
        self.speed.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.speed_menu = QMenu("Speed", self)
        self._speeds = QActionGroup(self)
        for rate in RATES:
            action = self.speed_menu.addAction(speed_text(rate) + (" (normal)" if rate == 1
                                                                    else ""))
            assert action is not None
            action.setCheckable(True)
            action.setData(rate)
            action.triggered.connect(lambda _=False, r=rate: self.speedChosen.emit(r))
            self._speeds.addAction(action)
        self.speed.setMenu(self.speed_menu)
        # (no arrow: the bar's width counts in the window's least width, side panel beside)
        self.speed.setStyleSheet("QToolButton::menu-indicator { image: none; width: 0px; }")
        # (icons, not a "Loop" box: the bar's width counts in the window's least width)
        self.loop = QToolButton(self)
        self.loop.setCheckable(True)
        self.loop.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_BrowserReload))
        self.loop.setToolTip("Loop: start again at the end (Ctrl+L)")
        self.loop.toggled.connect(self.loopToggled)
        self._sound_icons = (style.standardIcon(QStyle.StandardPixmap.SP_MediaVolume),
                             style.standardIcon(QStyle.StandardPixmap.SP_MediaVolumeMuted))
        self.mute = QToolButton(self)
        self.mute.setCheckable(True)
        self.mute.setToolTip("Sound off / on (M)")
        self.mute.toggled.connect(self._mute_toggled)
        self._mute_toggled(False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(3)
        for w in (self.back_button, self.play_button, self.step_button):
            layout.addWidget(w)
        layout.addWidget(self.seek, 1)
        layout.addWidget(self.time)
        layout.addWidget(self.speed)
        layout.addWidget(self.mute)
        layout.addWidget(self.loop)
        self.duration: float | None = None
        self._widest = ""  # the longest time the source shows, its room taken (_hold_width)
        self._held = 0  # ... the widest room taken for this source (px)
        self._seekable = True  # the source can seek (set_enabled_for)
        self.set_playing(False)
        self.set_speed(1.0)

    def set_playing(self, playing: bool) -> None:
        self.play_button.setIcon(self._icons[1 if playing else 0])

    def _mute_toggled(self, muted: bool) -> None:
        self.mute.setIcon(self._sound_icons[1 if muted else 0])
        self.muteToggled.emit(muted)

    def set_speed(self, rate: float) -> None:
        """Show the playback speed (on the button, checked in its menu)."""
        self.speed.setText(speed_text(rate))
        for action in self._speeds.actions():
            action.setChecked(action.data() == rate)

    def set_enabled_for(self, seekable: bool, playable: bool) -> None:
        """Enable what makes sense for the current source (a new one: the time's room is
        measured afresh)."""
        self._widest, self._held = "", 0
        for w in (self.play_button, self.step_button, self.back_button, self.speed,
                  self.mute, self.loop):
            w.setEnabled(playable)
        self._seekable = seekable
        self.seek.setEnabled(seekable)
        self.setVisible(playable)

    def set_position(self, seconds: float | None, duration: float | None,
                     fps: float | None = None, frame: int | None = None,
                     frames: int | None = None, about: bool = False) -> None:
        """Show the playback position (timecode, and the frame number on screen where
        known) unless the user is dragging the seek bar. Without a known length (an
        animated PNG's) the seek bar is off: any place on it meant the start. `about`: the
        frame count is an estimate (a Matroska's, from its duration and rate)."""
        self.duration = duration
        self.seek.setEnabled(self._seekable and bool(duration))
        end = format_timecode(duration, fps)
        text = f"{format_timecode(seconds, fps)} / {end}"
        of = f" of about {frames}" if about else f" of {frames}"
        if frame is not None:
            text += f"   frame {frame + 1}" + (of if frames else "")
        self._hold_width(f"{end} / {end}" + (f"   frame {frames}{of}" if frames else ""))
        self.time.setText(text)
        if self.seek.isSliderDown() or not duration or seconds is None:
            return
        self.seek.blockSignals(True)
        self.seek.setValue(round(SEEK_STEPS * min(1.0, max(0.0, seconds / duration))))
        self.seek.blockSignals(False)

    def _hold_width(self, widest: str) -> None:
        """Room for the longest time this source shows, taken at once: a label that grew
        with its text (the frame number, more digits) squeezed the side panel mid-play.
        Within a source it only grows: a count found exact later ("of about 51" to "of
        20") keeps the room, so the picture is not fitted again mid-play."""
        if widest == self._widest:  # (the same source: measured once, not every frame)
            return
        self._widest = widest
        width = self.time.fontMetrics().horizontalAdvance(widest.translate(_WIDE_DIGITS) + " ")
        width = max(width, self._held)
        self._held = width
        if width != self.time.minimumWidth():
            self.time.setMinimumWidth(width)

    def _seconds(self, value: int) -> float:
        return (self.duration or 0.0) * value / SEEK_STEPS

    def _seek_moved(self, value: int) -> None:
        self.seekRequested.emit(self._seconds(value))

    def _seek_released(self) -> None:
        self.seekRequested.emit(self._seconds(self.seek.value()))

    def _seek_action(self, action: int) -> None:
        if not self.seek.isSliderDown():  # page clicks and keys
            self.seekRequested.emit(self._seconds(self.seek.sliderPosition()))
