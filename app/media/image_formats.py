"""Which stills are read and written by their names, and what each format holds (depth,
transparency, resolution; Pillow's name for it)."""

from __future__ import annotations

from pathlib import Path

# What is read as a still by its name (and what by its first bytes: sniff.py); all are
# written but HEIF, which nothing here encodes (WRITE_EXTENSIONS).
IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".jpe", ".jfif", ".webp", ".tif", ".tiff", ".bmp",
                    ".avif", ".heic", ".heif"}
READ_ONLY = frozenset({".heic", ".heif"})
WRITE_EXTENSIONS = frozenset(IMAGE_EXTENSIONS - READ_ONLY)
JPEG_EXTENSIONS = frozenset({".jpg", ".jpeg", ".jpe", ".jfif"})
LOSSY = frozenset({*JPEG_EXTENSIONS, ".webp", ".avif"})  # what --quality applies to
LOSSY_SAID = "JPEG, WebP and AVIF"

PIL_FORMATS = {".jpg": "JPEG", ".jpeg": "JPEG", ".jpe": "JPEG", ".jfif": "JPEG",
               ".webp": "WEBP", ".png": "PNG", ".tif": "TIFF", ".tiff": "TIFF", ".avif": "AVIF"}
# (PNG and TIFF hold 16; Pillow's AVIF encoder takes 8)
EIGHT_BIT_ONLY = frozenset({*JPEG_EXTENSIONS, ".webp", ".bmp", ".avif"})
# Where write_image writes a resolution (pHYs, JFIF's density, TIFF's tags, BMP's pixels a
# metre); elsewhere only an EXIF's XResolution, where the source's EXIF has one, says it.
DPI_KEPT = frozenset({".png", *JPEG_EXTENSIONS, ".tif", ".tiff", ".bmp"})
# (a 32-bit BMP's fourth channel is not written: what OpenCV writes there, and whether a
# viewer takes it for alpha, differ from version to version)
NO_ALPHA = frozenset({*JPEG_EXTENSIONS, ".bmp"})


def is_image_path(path: str | Path) -> bool:
    """Whether the file name has an image extension we read (all are written but HEIF's:
    `is_writable_image_path`)."""
    return Path(path).suffix.lower() in IMAGE_EXTENSIONS


def is_writable_image_path(path: str | Path) -> bool:
    """Whether the file name has an image extension we write."""
    return Path(path).suffix.lower() in WRITE_EXTENSIONS


def written_suffix(src: str | Path) -> str:
    """The extension a still read from `src` is written with by default: its own, but a
    HEIF photo's (.heic, .heif: read, never written here), which is written as JPEG."""
    ext = Path(src).suffix
    return ".jpg" if ext.lower() in READ_ONLY else ext
