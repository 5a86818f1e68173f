"""Errors of the media layer (files, devices, export); all are one-line user messages."""

from __future__ import annotations

from ..engine.errors import AquarelleError


class MediaError(AquarelleError):
    """A video, image or device that cannot be read, or an output that cannot be written."""


class ExportCancelled(AquarelleError):
    """An export stopped on request (cancel event or callback); nothing was written."""

    def __init__(self, message: str = "export cancelled") -> None:
        super().__init__(message)


def ffmpeg_reason(e: BaseException) -> str:
    """The short reason of a PyAV/FFmpeg or OS error, without errno numbers and paths."""
    reason = getattr(e, "strerror", None)
    if isinstance(reason, str) and reason:
        return reason
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
