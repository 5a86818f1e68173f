"""Camera hot-plug: a signal when cameras may have come or gone (Linux: /dev changes)."""

from __future__ import annotations

from pathlib import Path

from PyQt6.QtCore import QFileSystemWatcher, QObject, QTimer, pyqtSignal

from ..platforms import current_lists_cameras_from_devices

SETTLE_MS = 700  # a camera's device nodes appear over a few hundred ms: look once, after


class CameraWatcher(QObject):
    """Emits `changed` shortly after device nodes appear or disappear. Elsewhere than on
    Linux OpenCV cannot list cameras, so there is nothing to watch."""

    changed = pyqtSignal()

    def __init__(self, parent: QObject | None = None, dev: str | Path = "/dev") -> None:
        super().__init__(parent)
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.timeout.connect(self.changed.emit)
        self._watcher = QFileSystemWatcher(self)
        if current_lists_cameras_from_devices() and Path(dev).is_dir():
            self._watcher.addPath(str(dev))
        self._watcher.directoryChanged.connect(lambda _path: self._settle.start(SETTLE_MS))

    @property
    def watching(self) -> bool:
        return bool(self._watcher.directories())
