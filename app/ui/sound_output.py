"""The speakers: a file's sound played on a thread of its own, following its pictures' clock.

Qt Multimedia's QAudioSink is fed by a media.SoundPlayer every TICK_MS from a QThread with
its own event loop, not from the GUI thread, whose paints (long on a software renderer)
would starve it. Where Qt Multimedia cannot load (Linux without libpulse) or the machine has
no audio output, `why_not` says so and nothing plays.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PyQt6.QtCore import QLoggingCategory, QThread, QTimer, pyqtSignal

from ..media.pcm_format import BYTES_PER_SECOND, CHANNELS, FRAME_BYTES, RATE
from ..media.sound_player import SoundPlayer
from ..media.sound_reader import SoundReader

TICK_MS = 10
# queued ahead: a stall of the thread this long is not heard (the paints of a software
# renderer hold Python's lock for a few hundred ms); a pause or seek clears it at once
BUFFER_SECONDS = 1.0

# the pictures' time at a time.monotonic() and their speed (None: they stand still)
Clock = Callable[[float], tuple[float, float] | None]


def why_no_output() -> str | None:
    """Why this machine cannot play sound (None: it can)."""
    # Qt Multimedia's notes on loading (no PipeWire here, its FFmpeg's version) are no
    # user's business on the terminal
    QLoggingCategory.setFilterRules("qt.multimedia.symbolsresolver=false\n"
                                    "qt.multimedia.ffmpeg.info=false")
    try:
        from PyQt6.QtMultimedia import QMediaDevices
    except ImportError as e:  # Qt Multimedia needs libpulse on Linux
        missing = str(e).split(":")[0]
        return f"Qt Multimedia cannot load ({missing}; on Debian: apt install libpulse0)"
    if not QMediaDevices.audioOutputs():
        return "this machine has no audio output"
    return None


class QtSink:
    """A QAudioSink in push mode as a media.sound_player.Sink (used on its own thread)."""

    def __init__(self) -> None:
        from PyQt6.QtMultimedia import QAudioFormat, QAudioSink, QMediaDevices

        fmt = QAudioFormat()
        fmt.setSampleRate(RATE)
        fmt.setChannelCount(CHANNELS)
        fmt.setSampleFormat(QAudioFormat.SampleFormat.Int16)
        self._sink = QAudioSink(QMediaDevices.defaultAudioOutput(), fmt)
        self._sink.setBufferSize(int(BUFFER_SECONDS * BYTES_PER_SECOND))
        self._io: Any = None
        self._written = 0

    def _device(self) -> Any:
        if self._io is None:
            self._io = self._sink.start()
        return self._io

    def free(self) -> int:
        return self._sink.bytesFree() if self._device() is not None else 0

    def played(self) -> int:
        if self._io is None:
            return 0
        heard = self._sink.processedUSecs() * BYTES_PER_SECOND // 1_000_000
        return min(self._written, heard // FRAME_BYTES * FRAME_BYTES)

    def write(self, data: bytes) -> int:
        io = self._device()
        taken = max(0, int(io.write(data))) if io is not None else 0
        self._written += taken
        return taken

    def clear(self) -> None:
        if self._io is not None:
            self._sink.reset()  # (drops what is queued; start() opens the output again)
            self._io = None
        self._written = 0

    def close(self) -> None:
        self.clear()
        self._sink.stop()


class SoundThread(QThread):
    """Plays the sound of the file `follow` names, at the times its clock gives."""

    failed = pyqtSignal(str)  # why a file's sound cannot play (said once a file)

    def __init__(self, report: Callable[[str], None] | None = None) -> None:
        """`report`: told (on the GUI thread) why a file's sound stopped or cannot play."""
        super().__init__()
        self.setObjectName("aquarelle-sound")
        if report is not None:
            self.failed.connect(report)
        self._lock = threading.Lock()
        self._wanted: tuple[Path, float, Clock, int | None] | None = None
        self._changed = False

    def follow(self, path: Path | None, origin: float = 0.0,
               clock: Clock | None = None, track: int | None = None) -> None:
        """Play `path`'s sound (None: none) at `clock()` seconds after the video's first
        frame (`origin` in the file's own time); silent while the clock gives None.
        `track`: the sound track's stream index (None: the one marked default)."""
        with self._lock:
            self._wanted = None if path is None or clock is None else \
                (path, origin, clock, track)
            self._changed = True

    def finish(self) -> None:
        """Stop playing and end the thread."""
        self.follow(None)
        self.quit()
        self.wait()

    def run(self) -> None:
        sink = QtSink()
        player: SoundPlayer | None = None
        clock: Clock | None = None
        timer = QTimer()
        timer.setInterval(TICK_MS)

        def tick() -> None:
            nonlocal player, clock
            with self._lock:
                wanted, changed, self._changed = self._wanted, self._changed, False
            if changed:
                if player is not None:
                    player.close()
                player, clock = None, None
                if wanted is not None:
                    path, origin, clock, track = wanted
                    try:
                        player = SoundPlayer(SoundReader(path, origin, track), sink)
                    except ValueError:
                        clock = None  # no sound in the file: nothing to say
                    except Exception as e:  # a file whose sound will not open
                        self.failed.emit(f"{path.name}: its sound cannot play ({e})")
                        clock = None
            if player is not None and clock is not None:
                try:
                    wall = time.monotonic()  # (the clock read for the same instant)
                    now = clock(wall)
                    player.tick(None if now is None else now[0], wall,
                                1.0 if now is None else now[1])
                except Exception as e:  # never raise on the sound thread
                    self.failed.emit(f"{player.reader.path.name}: its sound stopped ({e})")
                    player.close()
                    player = None

        timer.timeout.connect(tick)
        timer.start()
        self.exec()
        timer.stop()
        if player is not None:
            player.close()
        sink.close()
