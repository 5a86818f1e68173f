"""The file on screen's subtitles over the picture: its text tracks and a subtitle file
beside it (media.text_cues), one chosen in Playback > Subtitles (or Off), its cues read on a
worker thread and the line of the frame on screen shown by the viewport's overlays.

Shown over the painting as a player shows them, not painted into it: an export keeps the
tracks as tracks (the export dialog's "Keep the subtitles")."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from pathlib import Path

import av.error
from PyQt6.QtCore import QObject, pyqtSignal
from PyQt6.QtGui import QActionGroup
from PyQt6.QtWidgets import QMenu

from ..media.source import FrameSource
from ..media.text_cues import TextCue, TextTrack, cue_text, read_cues, text_tracks
from .menus import fill_choices


class SubtitleController(QObject):
    """Which subtitles show over the file on screen, and what they say at a time."""

    _read = pyqtSignal(object, object)  # (the key read, its cues or the reason it failed)

    def __init__(self, show: Callable[[str], None], status: Callable[[str, int], None],
                 parent: QObject | None = None) -> None:
        """`show(text)`: put `text` over the picture ("" for none)."""
        super().__init__(parent)
        self._show, self._status = show, status
        self._path: Path | None = None
        self._origin = 0.0
        self.tracks: list[TextTrack] = []
        self.track: str | None = None  # the key of the track shown (None: Off)
        self._cues: list[TextCue] = []
        self._starts: list[float] = []
        self._shown = ""
        self.menu = QMenu("Subtitles")
        self._group = QActionGroup(self)
        self._read.connect(self._cues_read)
        self._fill_menu()

    def follow(self, src: FrameSource | None) -> None:
        """Offer the subtitles of `src` where it is a video file, showing its default ones."""
        path = getattr(src, "path", None)
        playing = getattr(src, "clock", None) is not None
        self._path = Path(path) if path is not None and playing else None
        self._origin = float(getattr(src, "origin", 0.0) or 0.0)
        self.tracks = text_tracks(self._path) if self._path is not None else []
        self.choose(next((t.key for t in self.tracks if t.default), None))

    def choose(self, key: str | None) -> None:
        """Show track `key` (None: none); its cues come from a worker thread."""
        self.track = key if any(t.key == key for t in self.tracks) else None
        self._cues, self._starts = [], []
        self._put("")
        self._fill_menu()
        if self.track is not None and self._path is not None:
            threading.Thread(target=self._read_cues, daemon=True, name="aquarelle-subtitles",
                             args=(self._path, self.track, self._origin)).start()

    def _read_cues(self, path: Path, key: str, origin: float) -> None:
        """(worker thread) A film's cues are spread through its whole file."""
        try:
            result: list[TextCue] | str = read_cues(path, key, origin)
        except (av.error.FFmpegError, OSError, ValueError) as e:
            result = str(e)
        with contextlib.suppress(RuntimeError):  # (the window closed meanwhile)
            self._read.emit(key, result)

    def _cues_read(self, key: str, result: list[TextCue] | str) -> None:
        if key != self.track:  # another track (or file) chosen since
            return
        if isinstance(result, str):
            label = next((t.label for t in self.tracks if t.key == key), key)
            self._status(f"The subtitles {label} could not be read: {result}", 10000)
            self.choose(None)
            return
        self._cues, self._starts = result, [cue.start for cue in result]

    def at(self, seconds: float | None) -> None:
        """The frame on screen is at `seconds` from the first frame (None: not a video's)."""
        self._put(cue_text(self._cues, self._starts, seconds)
                  if seconds is not None and self._cues else "")

    def _put(self, text: str) -> None:
        if text != self._shown:
            self._shown = text
            self._show(text)

    def _fill_menu(self) -> None:
        fill_choices(self.menu, self._group,
                     [("Off", None), *((t.label, t.key) for t in self.tracks)], self.track,
                     self.choose, enabled=bool(self.tracks),
                     empty=None if self.tracks else "No text subtitles")
