"""What writing a still in a format cannot keep of it (16 bits, transparency, resolution,
colour profile, EXIF), one line each, and whether a colour profile describes the pixels."""

from __future__ import annotations

import contextlib
from pathlib import Path

import numpy as np

from .image_formats import DPI_KEPT, EIGHT_BIT_ONLY, JPEG_EXTENSIONS, NO_ALPHA

# What writers put when nothing is meant (most cameras' 72, Windows' 96): kept, not warned
# about where a format drops it.
_WRITERS_DPI = frozenset({72, 96})


def write_warnings(path: str | Path, rgb: np.ndarray, icc: bytes | None = None,
                   exif: bytes | None = None, alpha: np.ndarray | None = None, *,
                   dpi: tuple[float, float] | None = None,
                   unkept: tuple[str, ...] = ()) -> list[str]:
    """What `write_image` cannot keep of a picture in `path`'s format, one line each
    (`unkept`: what the source holds that no output carries, Image.unkept)."""
    path = Path(path)
    ext, name = path.suffix.lower(), path.name
    deep = rgb.dtype == np.uint16
    notes = []
    if unkept:
        notes.append(f"{name}: written without the source's {' and '.join(unkept)} "
                     f"(aquarelle does not carry them)")
    if dpi and {round(dpi[0]), round(dpi[1])} - _WRITERS_DPI and ext not in DPI_KEPT \
            and not _exif_resolution(exif):
        notes.append(f"{name}: {ext[1:].upper()} holds no resolution here; written without "
                     f"the source's {dpi[0]:g} dpi (.png, .jpg or .tif keep it)")
    kind = "JPEG" if ext in JPEG_EXTENSIONS else \
        {".webp": "WebP", ".bmp": "BMP", ".avif": "AVIF"}.get(ext)
    if deep and ext in EIGHT_BIT_ONLY:
        notes.append(f"{name}: {kind} holds 8 bits a channel; the 16-bit picture is "
                     f"written at 8 (.png or .tif keep 16)")
    if alpha is not None and ext in NO_ALPHA and \
            (alpha < (65535 if alpha.dtype == np.uint16 else 255)).any():
        notes.append(f"{name}: {kind} is written without transparency here; the "
                     f"transparent parts are opaque paper (.png, .webp or .tif keep it)")
    if icc and not icc_fits(icc, rgb):
        notes.append(f"{name}: its colour profile ({_icc_space(icc) or 'unreadable'}) does "
                     f"not describe the painted {_pixel_space(rgb)} pixels; left out")
        icc = None
    kept = [what for what, has in (("colour profile", icc), ("EXIF", exif)) if has]
    if not kept:
        return notes
    which = "the " + " and ".join(kept)
    if ext == ".bmp":
        notes.append(f"{name}: BMP holds no colour profile or EXIF; written without {which} "
                     f"(.png, .jpg or .tif keep them)")
    elif ext in (".tif", ".tiff") and deep:
        notes.append(f"{name}: a 16-bit TIFF is written without {which} here (.png keeps "
                     f"them at 16 bits)")
    return notes


def _exif_resolution(exif: bytes | None) -> bool:
    """Whether an EXIF block holds an XResolution."""
    if not exif:
        return False
    from PIL import Image as PILImage

    tags = PILImage.Exif()
    with contextlib.suppress(Exception):
        tags.load(exif)
    return 282 in tags


def _icc_space(icc: bytes) -> str | None:
    """An ICC profile's colour space, from its header ("RGB", "GRAY", "CMYK", "Lab"...);
    None where it is too short to have one."""
    if len(icc) < 128:  # (the header alone is 128 bytes)
        return None
    return icc[16:20].decode("latin-1").strip() or None


def _pixel_space(a: np.ndarray) -> str:
    """The ICC colour space of pixels as `write_image` writes them: grey for one channel
    (and one with alpha), RGB otherwise (the painting's)."""
    return "GRAY" if a.ndim == 2 or a.shape[2] in (1, 2) else "RGB"


def icc_fits(icc: bytes, a: np.ndarray) -> bool:
    """Whether a colour profile describes pixels `a` (a CMYK or grey source's profile does
    not describe the painted RGB: a viewer would read its RGB as CMYK, or not show it)."""
    return _icc_space(icc) == _pixel_space(a)
