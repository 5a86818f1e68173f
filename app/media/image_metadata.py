"""A still's metadata as Pillow reads it: EXIF orientation, colour profile, EXIF (what
describes the picture), resolution, and what no output carries (XMP, a comment)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from .decoder_messages import quiet_pillow

EXIF_ORIENTATION = 0x0112
_X_RESOLUTION = 282


def read_metadata(path: Path, said: list[str] | None = None
              ) -> tuple[int, bytes | None, bytes | None, tuple[float, float] | None,
                         tuple[str, ...]]:
    """EXIF orientation, ICC profile and EXIF block (orientation reset to 1: the pixels are
    turned upright) of an image file, its resolution (dpi) and what it holds that is not
    carried (XMP, a comment); nothing when Pillow cannot open it. A TIFF's EXIF is its first
    IFD, the file's own layout too: only what describes the picture is kept. What Pillow
    finds wrong is added to `said`."""
    try:
        with quiet_pillow(said=said) as pil, pil.open(path) as im:
            exif = im.getexif()
            orientation = int(exif.get(EXIF_ORIENTATION, 1))
            icc = im.info.get("icc_profile") or None
            dpi = _dpi(im.info.get("dpi"))
            if im.format == "JPEG" and im.info.get("jfif_unit") not in (1, 2) \
                    and _X_RESOLUTION not in exif:
                dpi = None  # (Pillow's 72 for a JPEG whose EXIF says none: not the file's)
            if im.format == "TIFF" and _X_RESOLUTION not in im.tag_v2:
                dpi = None  # (Pillow's 1 for a TIFF without resolution tags: not the file's)
            unkept = _unkept(im)
            if im.format == "TIFF":
                _tiff_descriptive(exif)
            _no_pixel_dimensions(exif)
            if len(exif):
                exif[EXIF_ORIENTATION] = 1
                return orientation, icc, exif.tobytes(), dpi, unkept
            return orientation, icc, None, dpi, unkept
    except Exception:  # no metadata, or a format Pillow cannot open: upright as decoded
        return 1, None, None, None, ()


def _dpi(value: object) -> tuple[float, float] | None:
    """A resolution Pillow read ((x, y) dots an inch), where it is a real one."""
    try:
        x, y = (float(v) for v in value)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        return None
    # (rounded: a PNG's 300 dpi comes back 299.9994 from its pixels a metre)
    return (round(x, 2), round(y, 2)) if 0 < x < 1e6 and 0 < y < 1e6 else None


_XMP_TIFF_TAG = 700


_IPTC_TIFF_TAGS = (33723, 34377)  # IPTC-NAA, Photoshop's resources (which hold IPTC)
_IPTC_RESOURCE = 1028  # Photoshop's resource holding IPTC (a JPEG's APP13)
# A PNG's info entries that are no text chunk (Pillow puts tEXt/iTXt/zTXt there too)
_PNG_NOT_TEXT = frozenset({"dpi", "gamma", "icc_profile", "exif", "transparency", "srgb",
                           "chromaticity", "aspect", "interlace", "bbox", "Comment",
                           "XML:com.adobe.xmp", "default_image", "loop", "duration"})
_SRGB_GAMMA = 1 / 2.2  # a PNG gamma chunk of about this says what sRGB does anyway


def _unkept(im: Any) -> tuple[str, ...]:
    """What a picture Pillow opened holds that no output carries: its XMP packet, its
    comment (JPEG's COM, a PNG's Comment text), IPTC (caption, keywords, copyright), a
    PNG's other text chunks (Title, Author...) and a gamma chunk other than sRGB's (viewers
    that honour it show the source lighter or darker than the output)."""
    info = im.info
    xmp = info.get("xmp") or info.get("XML:com.adobe.xmp") or \
        (im.format == "TIFF" and im.tag_v2.get(_XMP_TIFF_TAG))
    comment = info.get("comment") or info.get("Comment")
    photoshop = info.get("photoshop")
    iptc = (isinstance(photoshop, dict) and _IPTC_RESOURCE in photoshop) or \
        (im.format == "TIFF" and any(im.tag_v2.get(t) for t in _IPTC_TIFF_TAGS))
    texts = sorted(k for k, v in info.items() if isinstance(v, str) and k not in _PNG_NOT_TEXT) \
        if im.format == "PNG" else []
    gamma = info.get("gamma") if im.format == "PNG" else None
    odd_gamma = isinstance(gamma, float) and abs(gamma - _SRGB_GAMMA) > 0.01
    return tuple(what for what, has in (
        ("XMP", xmp), ("comment", comment), ("IPTC (caption, keywords, copyright)", iptc),
        (f"text ({', '.join(texts)})", texts),
        (f"gamma chunk ({gamma:g}: where a viewer honours it the output looks otherwise)"
         if odd_gamma else "", odd_gamma)) if has)


# The tags of a TIFF's first IFD that describe the picture (EXIF's 0th IFD: who made it,
# when, with what; its resolution and colorimetry; the Exif and GPS IFDs), not how the file
# lays out its pixels (ImageWidth, BitsPerSample, Compression, StripOffsets, ...: the source
# file's, false in another file at another size), nor what is carried otherwise (the colour
# profile, 34675) or not at all (XMP, IPTC, Photoshop's resources, GeoTIFF's tags).
_TIFF_DESCRIPTIVE = frozenset({
    269, 270, 271, 272, 274, 282, 283, 285, 296, 305, 306, 315, 316, 318, 319,
    18246, 18249, 33432, 34665, 34853, 40091, 40092, 40093, 40094, 40095,
})
# Of those, what any TIFF writer sets by itself (its name, a resolution, the orientation):
# a TIFF with nothing else has no EXIF to carry (or to warn about losing).
_TIFF_INCIDENTAL = frozenset({274, 282, 283, 296, 305})
_EXIF_IFD = 0x8769
_PIXEL_DIMENSIONS = (0xA002, 0xA003)


def _tiff_descriptive(exif: Any) -> None:
    """A TIFF's first IFD (a Pillow Exif) cut, in place, to the tags that describe the
    picture; emptied where only what a writer sets by itself is left."""
    for tag in [t for t in exif if t not in _TIFF_DESCRIPTIVE]:
        del exif[tag]
    if _layout_description(exif.get(270)):
        del exif[270]
    if all(t in _TIFF_INCIDENTAL for t in exif):
        exif.clear()


def _no_pixel_dimensions(exif: Any) -> None:
    """The Exif IFD's PixelXDimension and PixelYDimension (the source's size, not the
    painting's) taken out of a Pillow Exif, in place; its other tags stay. A broken Exif
    IFD is left as it is (its IFD0, and the orientation, are still good)."""
    if _EXIF_IFD not in exif:
        return
    with contextlib.suppress(Exception):
        sub = exif.get_ifd(_EXIF_IFD)
        for tag in _PIXEL_DIMENSIONS:
            sub.pop(tag, None)


def _layout_description(text: object) -> bool:
    """Whether a TIFF's ImageDescription is its writer's note of the array's layout, not a
    caption: tifffile's JSON ({"shape": [213, 320, 3]}), ImageJ's "ImageJ=...\nimages=..."."""
    if not isinstance(text, str):
        return False
    text = text.strip()
    if text.startswith("ImageJ="):
        return True
    if not text.startswith("{"):
        return False
    import json

    try:
        note = json.loads(text)
    except ValueError:
        return False
    return isinstance(note, dict) and "shape" in note
