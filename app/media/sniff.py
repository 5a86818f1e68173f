"""What a file is by its contents, whatever its name says: an image format's first bytes, or
media FFmpeg opens."""

from __future__ import annotations

from pathlib import Path

# The first bytes of the image formats read (name, extension to write it as).
IMAGE_SIGNATURES = ((b"\xff\xd8\xff", "JPEG", ".jpg"), (b"\x89PNG\r\n\x1a\n", "PNG", ".png"),
                    (b"II*\x00", "TIFF", ".tif"), (b"MM\x00*", "TIFF", ".tif"))


def sniff_image(path: Path) -> tuple[str, str] | None:
    """(format, extension) when the file's first bytes are those of an image we read
    (whatever its name says), else None."""
    try:
        with path.open("rb") as f:
            head = f.read(16)
    except OSError:
        return None  # missing or unreadable: the reader's own error says so
    for signature, name, ext in IMAGE_SIGNATURES:
        if head.startswith(signature):
            return name, ext
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WebP", ".webp"
    if head[:2] == b"BM" and head[6:10] == bytes(4):  # BMP: its reserved fields are zero
        return "BMP", ".bmp"
    return None


def ffmpeg_opens(path: Path) -> bool:
    """Whether FFmpeg reads the file as media (for names without a video extension); the
    export then says what is wrong with it (no video stream, say). A missing file counts as
    media too, so that its own error is the one given."""
    if not path.is_file():
        return True
    import av  # (only when a name does not tell: imported lazily, as elsewhere)

    try:
        with av.open(str(path)):
            return True
    except (av.FFmpegError, OSError, UnicodeDecodeError):
        return False
