"""An export running in a child process (media/still_process.py's ChildJob), followed from
the GUI thread: the part a video's and a still's export jobs share."""

from __future__ import annotations

from pathlib import Path

from ..media.still_process import ChildJob

# An export's process runs this much nicer than the window (POSIX): on a machine with few
# cores the preview, which the user watches, keeps its frame rate while an export runs; the
# export takes whatever the window leaves, all of it when the window is idle.
EXPORT_NICE = 5


class ChildExport:
    """`start()`, then poll `running` (or `wait()`); `error` and `cancelled` once it has
    ended. Subclasses take what the child sent in `_poll`."""

    def __init__(self, src: Path, dst: Path, child: ChildJob) -> None:
        self.src, self.dst = src, dst
        self._child = child
        self.error: str | None = None
        self.cancelled = False  # stopped by cancel() before it ended

    def start(self) -> None:
        self._child.start()

    @property
    def pid(self) -> int | None:
        """The export's process, once started."""
        return self._child.pid

    @property
    def running(self) -> bool:
        return not self._poll()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the end; True when it has ended."""
        self._child.wait(timeout)
        return self._poll()

    def _poll(self) -> bool:
        """Take what the child sent; True once it has ended."""
        raise NotImplementedError
