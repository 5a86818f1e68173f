"""The open file watched on disk: one moved or deleted while open is said at once, not found
out at the export (trial W5: the window played on from the open file, unsaid, and the
export's dialog was the first word of it)."""

from __future__ import annotations

from pathlib import Path

from PyQt6.QtCore import QFileSystemWatcher, QObject, pyqtSignal


class SourceWatch(QObject):
    """Follows one file; `gone` (its path) once it is no longer there."""

    gone = pyqtSignal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._changed)
        self._path: str | None = None

    def follow(self, path: Path | None) -> None:
        """Watch `path` (None: nothing) instead of the file before."""
        if files := self._watcher.files():
            self._watcher.removePaths(files)
        self._path = str(path) if path is not None and path.is_file() else None
        if self._path is not None:
            self._watcher.addPath(self._path)

    def _changed(self, path: str) -> None:
        if path == self._path and not Path(path).exists():
            self._path = None  # (said once; a file put back is opened anew by the user)
            self.gone.emit(path)
