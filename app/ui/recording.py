"""Start and stop recording the painted picture (the app's Record action).

The controller gets what it needs (the viewport, the settings, the status-bar labels, a way
to tell the user things, the current source and the default folder), never the window.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PyQt6.QtCore import QObject

from ..engine.errors import AquarelleError
from ..media.source import FrameSource
from .feedback import Feedback
from .recorder import Recorder, unused_name
from .settings import Settings
from .status_labels import StatusLabels
from .viewport import Viewport

# A video file is recorded in its own time, frame by frame as it plays or steps: paused, nothing.
PAUSED_HINT = (" The video stayed paused: a recording keeps the frames as the video plays or "
               "steps (Space plays, . steps).")


class RecordingController(QObject):
    """Owns the running `Recorder`, if any."""

    def __init__(self, viewport: Viewport, settings: Settings, labels: StatusLabels,
                 feedback: Feedback, source: Callable[[], FrameSource | None],
                 folder: Callable[[], Path], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.viewport = viewport
        self.settings = settings
        self.labels = labels
        self.feedback = feedback
        self._source = source
        self._folder = folder
        self.recorder: Recorder | None = None
        self.started = 0.0  # time.monotonic() when the recording began
        self.said: str | None = None  # what the last stop said of the file it finished
        self.saved: Path | None = None  # the file the last stop finished, if any

    def default_path(self) -> Path:
        """A new file name in the last recording folder (else the Videos folder): the time
        to the second, then -1, -2... when that name is taken (as snapshots')."""
        return unused_name(self._folder(), time.strftime("aquarelle-rec-%Y%m%d-%H%M%S"),
                           ".mp4")

    def toggle(self, path: Path | None = None) -> bool:
        """Start recording the painted output, or stop and finish the file; returns whether
        a recording runs now."""
        rec = self.recorder
        if rec is None:
            return self._start(path or self.default_path())
        self.viewport.drain_frame_sink()  # the last frame, still in the readback ring
        self.viewport.frame_sink = None
        self.viewport.frame_sink_packed = None
        self.recorder = None
        self.labels.show_recording(None)
        wanted = rec.path
        saved = self.saved = rec.stop()
        if saved is not None:
            self.settings.set_last_dir("record", str(saved.parent))
            extra = f", {rec.dropped} dropped" if rec.dropped else ""
            if saved != wanted:  # a file took the name meanwhile: never replaced
                extra += f" ({wanted.name} exists and was kept)"
            if rec.sound_error:
                extra += f"; {rec.sound_error}"
            elif rec.audio_source is not None:
                extra += ", with the file's sound"
            frames = f"{rec.frames} frame{'' if rec.frames == 1 else 's'}"
            # the name, not the path: a long path hid the rest behind the status bar's labels
            # (its folder is the "Show in folder" link)
            self.said = f"Recorded {rec.seconds:.1f} s ({frames}) to {saved.name}{extra}"
            self.feedback.status(self.said, 10000)
            self.feedback.show_folder_link(saved.parent)
        else:
            self.said = None
            self.feedback.error("Recording", rec.error or "No frame was recorded."
                                + (PAUSED_HINT if self._paused_file() else ""))
        return False

    def _paused_file(self) -> bool:
        """Whether the source is a video file, paused (it records nothing until it plays)."""
        src = self._source()
        return src is not None and not src.live and not src.still and self.viewport.paused

    def _start(self, target: Path) -> bool:
        src = self._source()
        if src is None:  # (Record is disabled then; this is for its callers)
            self.feedback.error("Recording", "Nothing is open to record: open a file, a "
                                "camera or the demo first.")
            return False
        fps = src.fps or 30.0
        audio = getattr(src, "path", None) if not src.live else None
        try:
            rec = Recorder(target, fps, audio_source=audio, sar=src.pixel_aspect,
                           full_range=src.full_range)
        except AquarelleError as e:
            self.feedback.error("Cannot record", str(e))
            return False
        self.recorder = rec
        self.started = time.monotonic()
        self.viewport.frame_sink = rec.push
        self.viewport.frame_sink_packed = rec.packed_format
        if src.still:
            # a still is painted once, before the recording began: it goes in now, and is
            # held until the recording stops
            self.viewport.rerender()
        self.labels.show_recording(0)
        self.said = None
        self.feedback.status(f"Recording to {target.name}"
                             + (": paused, the video is recorded as it plays (Space)"
                                if self._paused_file() else ""))
        return True
