"""Short words for an OS error in the window's messages ("permission denied"), never
Python's own ("PermissionError: [Errno 13] Permission denied: '/a/b.jpg'")."""

from __future__ import annotations

from ..media.errors import ffmpeg_reason


def short_reason(e: BaseException) -> str:
    """The reason of an OS (or FFmpeg) error in a few lower-case words, without errno
    numbers and paths: "permission denied", "read-only file system"."""
    reason = ffmpeg_reason(e)
    return reason[:1].lower() + reason[1:]
