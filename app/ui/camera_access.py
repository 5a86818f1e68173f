"""Cameras as the desktop systems present them: names from Qt Multimedia where cameras are
not device files (Windows, macOS), and whether the system refused access (macOS privacy)."""

from __future__ import annotations

from collections.abc import Sequence

from PyQt6.QtCore import QCameraPermission, QCoreApplication, Qt


def qt_camera_names(descriptions: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """(OpenCV index, name) of the video inputs Qt lists, in the order the system's capture
    API enumerates them (the order OpenCV's MSMF / AVFoundation indices follow).
    `descriptions` replaces asking Qt (tests)."""
    if descriptions is None:
        from PyQt6.QtMultimedia import QMediaDevices  # not on a Linux without PulseAudio

        descriptions = [d.description() for d in QMediaDevices.videoInputs()]
    return [(str(i), name.strip() or f"Camera {i}") for i, name in enumerate(descriptions)]


def denied_by_system() -> bool:
    """Whether the system has refused this app the camera (Qt's permission API; macOS asks
    the user once and remembers; elsewhere Qt reports it granted)."""
    app = QCoreApplication.instance()
    if app is None:
        return False
    try:
        return app.checkPermission(QCameraPermission()) == Qt.PermissionStatus.Denied
    except Exception:  # an older Qt, or a platform plugin without permissions
        return False
