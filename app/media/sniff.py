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


def its_name(path: Path) -> str:
    """"its .mp4 name", for messages about what a file is despite its name."""
    return f"its {path.suffix} name" if path.suffix else "its name without an extension"


def misnamed(path: Path, kind: str) -> str:
    """"x.mp4 is a JPEG image despite its .mp4 name" (`kind`: sniff_image's format)."""
    return f"{path} is {_despite(path, kind)}"


def _despite(path: Path, kind: str) -> str:
    if path.suffix.lower() == ".apng":  # a PNG, as the name says, but not an animated one
        kind = f"still {kind}"
    return f"a {kind} image despite {its_name(path)}"


def misnamed_image(path: Path) -> str | None:
    """"a JPEG image despite its .mp4 name" for an image whose name says another kind of
    file; None where the name fits what it is (or it is no image we read)."""
    sniffed = sniff_image(path)
    if sniffed is None:
        return None
    same = {".jpg": (".jpg", ".jpeg", ".jpe", ".jfif"), ".tif": (".tif", ".tiff"),
            ".png": (".png", ".apng")}.get(sniffed[1], (sniffed[1],))
    return None if path.suffix.lower() in same else _despite(path, sniffed[0])
