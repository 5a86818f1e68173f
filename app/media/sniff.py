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
    return still_heif(path)


# ISOBMFF brands (ftyp) of one picture: AVIF's, HEIF's (HEVC-coded: Apple's HEIC), and the
# generic image brands, told apart by the coding brands listed with them. The sequence
# brands (avis, msf1, hevc...: an animation, played as a video) are no still.
_AVIF_BRANDS = frozenset({b"avif"})
_HEIF_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis"})
_GENERIC_BRANDS = frozenset({b"mif1", b"mif2"})
# Names whose files may hold a picture or a sequence of them (played as a video): no
# warning that such a file is "a video despite its name".
PICTURE_OR_SEQUENCE = frozenset({".avif", ".heic", ".heif"})


def still_heif(path: Path) -> tuple[str, str] | None:
    """("AVIF", ".avif") or ("HEIF", ".heic") for a still AVIF or HEIF photo, by its ftyp
    box (its major and compatible brands); None for anything else."""
    try:
        with path.open("rb") as f:
            head = f.read(64)
    except OSError:
        return None
    if len(head) < 16 or head[4:8] != b"ftyp":
        return None
    size = min(int.from_bytes(head[:4], "big"), len(head))
    major = head[8:12]
    compatible = {head[k:k + 4] for k in range(16, size - 3, 4)}
    if major in _AVIF_BRANDS or major in _GENERIC_BRANDS and compatible & _AVIF_BRANDS:
        return "AVIF", ".avif"
    if major in _HEIF_BRANDS or major in _GENERIC_BRANDS and compatible & _HEIF_BRANDS:
        return "HEIF", ".heic"
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
            ".png": (".png", ".apng"), ".heic": (".heic", ".heif"),
            ".avif": (".avif", ".heif")}.get(sniffed[1], (sniffed[1],))
    return None if path.suffix.lower() in same else _despite(path, sniffed[0])
