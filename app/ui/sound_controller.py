"""The file on screen's sound on the speakers: follows the source, the mute and the speed.

Played faster or slower, the sound is too, at its own pitch; where the machine has no
audio output the window says so once, for the first file with sound, and plays the
pictures.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PyQt6.QtCore import QObject
from PyQt6.QtGui import QActionGroup
from PyQt6.QtWidgets import QMenu

from ..media.sound_reader import SoundTrack, sound_tracks
from ..media.source import FrameSource
from . import playback
from .menus import fill_choices
from .settings import Settings
from .sound_output import SoundThread, why_no_output


class Output(Protocol):
    """What plays the sound (ui.sound_output.SoundThread)."""

    def follow(self, path: Path | None, origin: float = 0.0,
               clock: Callable[[float], tuple[float, float] | None] | None = None,
               track: int | None = None) -> None: ...

    def finish(self) -> None: ...


class SoundController(QObject):
    """Plays the sound of the file on screen where the machine can."""

    def __init__(self, settings: Settings, status: Callable[[str, int], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings, self._status = settings, status
        self.muted = settings.muted()
        self._output: Output | None = None
        self._said = False
        self._src: FrameSource | None = None
        self.tracks: list[SoundTrack] = []  # the file on screen's sound tracks
        self.track: int | None = None  # the one played (its stream index)
        # Playback > Sound track: the file's tracks by title and language, one checked
        self.menu = QMenu("Sound track")
        self._group = QActionGroup(self)
        self._fill_menu()

    def _thread(self) -> Output:
        thread = SoundThread(lambda text: self._status(text, 15000))
        thread.start()
        return thread

    def follow(self, src: FrameSource | None) -> None:
        """Play `src`'s sound, where it is a file with a clock (a video), else none: the
        track marked default."""
        clock = getattr(src, "clock", None)
        path = getattr(src, "path", None)
        self._src = src
        self.tracks = sound_tracks(path) if clock is not None and path is not None else []
        self.track = next((t.index for t in self.tracks if t.played), None)
        self._fill_menu()
        self._play()

    def choose_track(self, index: int) -> None:
        """Play the sound track of stream `index` of the file on screen."""
        if any(t.index == index for t in self.tracks):
            self.track = index
            self._play()

    def _play(self) -> None:
        src = self._src
        clock = getattr(src, "clock", None)
        path = getattr(src, "path", None)
        if src is None or clock is None or path is None or not self.tracks:
            if self._output is not None:
                self._output.follow(None)
            return
        why = why_no_output()
        if why is not None:
            if not self._said:
                self._said = True
                self._status(f"Playing without sound: {why}", 15000)
            return
        if self._output is None:
            self._output = self._thread()

        def heard(wall: float) -> tuple[float, float] | None:  # (on the sound's thread)
            if self.muted:
                return None
            value = clock(wall)
            return (value, playback.rate(src)) if isinstance(value, float) else None

        self._output.follow(Path(path), float(getattr(src, "origin", 0.0)), heard, self.track)

    def _fill_menu(self) -> None:
        # (a choice only with two tracks or more; a file without sound says so)
        fill_choices(self.menu, self._group, [(t.label, t.index) for t in self.tracks],
                     self.track, self.choose_track, enabled=len(self.tracks) > 1,
                     empty=None if self.tracks else "No sound")

    def set_muted(self, on: bool) -> None:
        """Mute or unmute (kept for the next session)."""
        self.muted = on
        self.settings.set_muted(on)

    def close(self) -> None:
        if self._output is not None:
            self._output.finish()
            self._output = None

