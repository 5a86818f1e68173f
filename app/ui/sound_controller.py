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

from ..media.soundtrack import has_audio
from ..media.source import FrameSource
from . import playback
from .settings import Settings
from .sound_output import SoundThread, why_no_output


class Output(Protocol):
    """What plays the sound (ui.sound_output.SoundThread)."""

    def follow(self, path: Path | None, origin: float = 0.0,
               clock: Callable[[float], tuple[float, float] | None] | None = None
               ) -> None: ...

    def start(self) -> None: ...

    def finish(self) -> None: ...


class SoundController(QObject):
    """Plays the sound of the file on screen where the machine can."""

    def __init__(self, settings: Settings, status: Callable[[str, int], None],
                 parent: QObject | None = None, *,
                 output: Callable[[], Output] | None = None,
                 why_not: Callable[[], str | None] | None = None) -> None:
        """`output` and `why_not`: what plays the sound and says why it cannot (tests;
        by default a SoundThread, and why_no_output)."""
        super().__init__(parent)
        self.settings, self._status = settings, status
        self.muted = settings.muted()
        self._make = output or self._thread
        self._why_not = why_not
        self._output: Output | None = None
        self._said = False

    def _thread(self) -> Output:
        thread = SoundThread(lambda text: self._status(text, 15000))
        thread.start()
        return thread

    def follow(self, src: FrameSource | None) -> None:
        """Play `src`'s sound, where it is a file with a clock (a video), else none."""
        clock = getattr(src, "clock", None)
        path = getattr(src, "path", None)
        if src is None or clock is None or path is None:
            if self._output is not None:
                self._output.follow(None)
            return
        why = (self._why_not or why_no_output)()
        if why is not None:
            if not self._said and has_audio(path):
                self._said = True
                self._status(f"Playing without sound: {why}", 15000)
            return
        if self._output is None:
            self._output = self._make()

        def heard(wall: float) -> tuple[float, float] | None:  # (on the sound's thread)
            if self.muted:
                return None
            value = clock(wall)
            return (value, playback.rate(src)) if isinstance(value, float) else None

        self._output.follow(Path(path), float(getattr(src, "origin", 0.0)), heard)

    def set_muted(self, on: bool) -> None:
        """Mute or unmute (kept for the next session)."""
        self.muted = on
        self.settings.set_muted(on)

    def close(self) -> None:
        if self._output is not None:
            self._output.finish()
            self._output = None

