"""A still's embedded colour profile: pixels of another RGB space (Display P3, Adobe RGB,
ProPhoto) converted to sRGB when read, since the engine paints every pixel as sRGB.

Relative colorimetric intent: colours sRGB holds come out as the sRGB version of the photo
has them (perceptual tables, where a profile has them, would shift those too, and a
matrix-shaper profile has none); the rest are clipped to sRGB's gamut. 8-bit pictures go
through littlecms (Pillow's ImageCms); 16-bit ones, which ImageCms cannot transform, through
the profile's own curves and matrix in float (exact for a matrix-shaper profile, as P3,
Adobe RGB and ProPhoto are), or a table of littlecms' answers for a profile of tables.
"""

from __future__ import annotations

import hashlib
import io
import struct
import warnings
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

# Relative colorimetric (ImageCms.Intent.RELATIVE_COLORIMETRIC): see the module's note.
_INTENT = 1
# A profile whose conversion to sRGB moves no 8-bit colour by more than this is sRGB (the
# many sRGB profiles differ by a rounding: their pixels are left exactly as they are).
_SAME_LEVELS = 1
_ROWS = 1 << 20  # pixels converted at a time in float (a big photo's memory)
_TABLE_STEP = 3  # a 16-bit picture's table for a profile of tables: 86 nodes an axis


class ColourProfileWarning(UserWarning):
    """A still's colour profile that cannot be read: its pixels are painted as they are."""


_warned: set[str] = set()


def to_srgb(rgb: np.ndarray, icc: bytes | None, name: str) -> tuple[np.ndarray, bytes | None]:
    """A picture's RGB (uint8 or uint16, h x w x 3) in sRGB, and the profile its output is
    to carry: the pixels converted and no profile (sRGB, as untagged files are read) where
    `icc` describes another RGB space; the very same array and profile where it is sRGB,
    none, or not an RGB one (a CMYK or grey source's: the writer leaves it out). A profile
    that cannot be read keeps the pixels, with one ColourProfileWarning naming `name`."""
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        return rgb, icc
    convert = srgb_converter(icc, name)
    return (rgb, icc) if convert is None else (convert(rgb), None)


def srgb_converter(icc: bytes | None, name: str
                   ) -> Callable[[np.ndarray], np.ndarray] | None:
    """`to_srgb`'s conversion of the pixels `icc` describes, made once for many pictures of
    that profile (an image sequence's frames): RGB (uint8 or uint16, h x w x 3; or x 4, the
    fourth channel kept as it is) in, sRGB out. None where to_srgb keeps them as they are: a
    profile of sRGB, none, not an RGB one, or one that cannot be read (one
    ColourProfileWarning naming `name`)."""
    if not icc or _space(icc) != "RGB":
        return None
    try:
        transform = _transform(icc)
    except Exception:  # littlecms refused it (a cut or malformed profile)
        _warn_once(icc, f"{name}: its colour profile cannot be read; its colours are painted "
                        f"as if they were sRGB")
        return None
    if transform is None:
        return None
    made = {"RGB": transform}  # (RGBA's: a frame as it comes, its alpha copied by Pillow)
    shaper: list[tuple[list[np.ndarray], np.ndarray] | None] = []  # (16-bit: made once)

    def convert(rgb: np.ndarray) -> np.ndarray:
        if rgb.dtype == np.uint8:
            mode = "RGB" if rgb.shape[2] == 3 else "RGBA"
            if mode not in made:
                made[mode] = _build(icc, mode)
            return _apply_8bit(rgb, made[mode])
        if rgb.shape[2] == 4:
            out = rgb.copy()
            out[:, :, :3] = convert(np.ascontiguousarray(rgb[:, :, :3]))
            return out
        if not shaper:
            shaper.append(_matrix_shaper(icc))
        if shaper[0] is not None:
            return _apply_float(rgb, *shaper[0])
        return _apply_table(rgb, transform)

    return convert


def _space(icc: bytes) -> str | None:
    """The colour space in an ICC profile's header ("RGB", "CMYK", "GRAY"...)."""
    return icc[16:20].decode("latin-1").strip() if len(icc) >= 128 else None


def _warn_once(icc: bytes, message: str) -> None:
    """One warning per profile and file: a still is read more than once (the window's
    preview, then its export)."""
    key = hashlib.sha1(icc).hexdigest() + message
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, ColourProfileWarning, stacklevel=4)


def _transform(icc: bytes) -> Any | None:
    """littlecms' 8-bit RGB transform from `icc` to sRGB; None where the profile is sRGB
    (no colour of a 16-step grid moved by more than _SAME_LEVELS); raises where littlecms
    cannot read the profile or build the transform."""
    from PIL import Image as PILImage
    from PIL import ImageCms

    transform = _build(icc, "RGB")
    grid = _grid(17)
    out = np.asarray(ImageCms.applyTransform(PILImage.fromarray(grid), transform))
    if np.abs(out.astype(np.int16) - grid).max() <= _SAME_LEVELS:
        return None
    return transform


def _build(icc: bytes, mode: str) -> Any:
    """littlecms' transform from `icc` to sRGB of 8-bit pictures of Pillow's `mode`."""
    from PIL import ImageCms

    source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))
    return ImageCms.buildTransform(source, srgb, mode, mode,
                                   renderingIntent=ImageCms.Intent(_INTENT))


def _grid(step: int) -> np.ndarray:
    """Every 8-bit RGB colour whose channels are multiples of `step` (a divisor of 255),
    as one row of pixels."""
    v = np.arange(0, 256, step, dtype=np.uint8)
    r, g, b = np.meshgrid(v, v, v, indexing="ij")
    return np.stack([r, g, b], axis=-1).reshape(1, -1, 3)


def _apply_8bit(rgb: np.ndarray, transform: Any) -> np.ndarray:
    from PIL import Image as PILImage
    from PIL import ImageCms

    im = PILImage.fromarray(np.ascontiguousarray(rgb))
    if im.mode == "RGBA":  # (Pillow's RGBA shares the array's memory: left as it was)
        return np.array(ImageCms.applyTransform(im, transform))
    ImageCms.applyTransform(im, transform, inPlace=True)
    return np.array(im)  # (a copy: writable, as the decoder's arrays are)


def _apply_table(rgb: np.ndarray, transform: Any) -> np.ndarray:
    """A 16-bit picture through an 86-node table of littlecms' 8-bit answers, interpolated
    (a profile of tables: no curves and matrix to follow in float; smooth, not banded)."""
    from PIL import Image as PILImage
    from PIL import ImageCms

    grid = _grid(_TABLE_STEP)
    n = 255 // _TABLE_STEP + 1
    table = np.asarray(ImageCms.applyTransform(PILImage.fromarray(grid), transform))
    table = table.reshape(n, n, n, 3).astype(np.float32) / 255.0
    out = np.empty_like(rgb)
    flat, dst = rgb.reshape(-1, 3), out.reshape(-1, 3)
    for start in range(0, flat.shape[0], _ROWS):
        x = flat[start:start + _ROWS].astype(np.float32) * ((n - 1) / 65535.0)
        i = np.minimum(x.astype(np.int32), n - 2)
        f = x - i
        acc = np.zeros((x.shape[0], 3), np.float32)
        for corner in range(8):
            d = [(corner >> k) & 1 for k in (2, 1, 0)]
            w = np.ones(x.shape[0], np.float32)
            for c in range(3):
                w *= f[:, c] if d[c] else 1.0 - f[:, c]
            acc += w[:, None] * table[i[:, 0] + d[0], i[:, 1] + d[1], i[:, 2] + d[2]]
        dst[start:start + _ROWS] = np.round(np.clip(acc, 0, 1) * 65535.0).astype(np.uint16)
    return out


def _apply_float(rgb: np.ndarray, curves: list[np.ndarray], matrix: np.ndarray) -> np.ndarray:
    """A 16-bit picture through its profile's curves (as 65536-entry tables), the matrix to
    sRGB's linear RGB and sRGB's curve, in float32: 16-bit in, 16-bit out."""
    out, encode = np.empty_like(rgb), _srgb_encode_table()
    same = all(np.array_equal(curves[0], c) for c in curves[1:])  # (one table look-up)
    flat, dst = rgb.reshape(-1, 3), out.reshape(-1, 3)
    for start in range(0, flat.shape[0], _ROWS):
        part = flat[start:start + _ROWS]
        lin = curves[0][part] if same else \
            np.stack([curves[c][part[:, c]] for c in range(3)], axis=-1)
        lin = cv2.transform(lin[None], matrix)[0]
        np.clip(lin, 0.0, 1.0, out=lin)
        dst[start:start + _ROWS] = encode[(lin * (_ENCODE_STEPS - 1) + 0.5).astype(np.int32)]
    return out


_ENCODE_STEPS = 1 << 20  # linear light's steps in sRGB's curve as a table: 0.4 of a 16-bit
# level at most, where the curve is steepest (12.92 at black)


def _srgb_encode_table() -> np.ndarray:
    """sRGB's curve (IEC 61966-2-1) from linear light in [0, 1], as 16-bit values."""
    lin = np.linspace(0.0, 1.0, _ENCODE_STEPS)
    v = np.where(lin <= 0.0031308, lin * 12.92, 1.055 * np.power(lin, 1.0 / 2.4) - 0.055)
    return np.round(v * 65535.0).astype(np.uint16)


# --- a matrix-shaper profile's own tags (ICC.1 10.x): its curves and its colorants ---

def _tags(icc: bytes) -> dict[bytes, bytes]:
    (count,) = struct.unpack_from(">I", icc, 128)
    tags = {}
    for k in range(count):
        sig, offset, size = struct.unpack_from(">4sII", icc, 132 + 12 * k)
        if offset + size > len(icc):
            raise ValueError("a tag beyond the profile's end")
        tags[sig] = icc[offset:offset + size]
    return tags


def _s15(data: bytes, at: int, n: int) -> list[float]:
    return [v / 65536.0 for v in struct.unpack_from(f">{n}i", data, at)]


def _curve(tag: bytes) -> Callable[[np.ndarray], np.ndarray]:
    """An ICC `curv` or `para` tag as a function on [0, 1]."""
    kind = tag[:4]
    if kind == b"curv":
        (n,) = struct.unpack_from(">I", tag, 8)
        if n == 0:
            return lambda x: x
        if n == 1:
            gamma = struct.unpack_from(">H", tag, 12)[0] / 256.0
            return lambda x: np.power(x, gamma)
        table = np.array(struct.unpack_from(f">{n}H", tag, 12), np.float64) / 65535.0
        return lambda x: np.interp(x, np.linspace(0.0, 1.0, n), table)
    if kind == b"para":
        (fn,) = struct.unpack_from(">H", tag, 8)
        count = {0: 1, 1: 3, 2: 4, 3: 5, 4: 7}[fn]
        p = _s15(tag, 12, count) + [0.0] * (7 - count)
        g, a, b, c, d, e, f = p
        if fn == 0:
            return lambda x: np.power(x, g)
        if fn in (1, 2):
            d, c = (-b / a if a else 0.0), (c if fn == 2 else 0.0)
            return lambda x: np.where(x >= d, np.power(np.maximum(a * x + b, 0), g) + c, c)
        if fn == 3:
            return lambda x: np.where(x >= d, np.power(np.maximum(a * x + b, 0), g), c * x)
        return lambda x: np.where(x >= d, np.power(np.maximum(a * x + b, 0), g) + e,
                                  c * x + f)
    raise ValueError(f"curve type {kind!r}")


def _colorants(tags: dict[bytes, bytes]) -> np.ndarray:
    """The XYZ (D50) of the red, green and blue primaries, as a matrix's columns."""
    return np.array([_s15(tags[t], 8, 3) for t in (b"rXYZ", b"gXYZ", b"bXYZ")]).T


def _matrix_shaper(icc: bytes) -> tuple[list[np.ndarray], np.ndarray] | None:
    """A matrix-shaper profile's curves (as 65536-entry float32 tables) and its matrix to
    sRGB's linear RGB; None for a profile of tables (A2B*), which littlecms follows
    instead, or one whose tags this does not read."""
    try:
        tags = _tags(icc)
        if any(t in tags for t in (b"A2B0", b"A2B1", b"A2B2")):
            return None
        x = np.arange(65536, dtype=np.float64) / 65535.0
        curves = [np.clip(_curve(tags[t])(x), 0.0, 1.0).astype(np.float32)
                  for t in (b"rTRC", b"gTRC", b"bTRC")]
        to_xyz = _colorants(tags)
    except (KeyError, ValueError, ZeroDivisionError, struct.error):
        return None
    from PIL import ImageCms

    srgb = _tags(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    matrix = np.linalg.inv(_colorants(srgb)) @ to_xyz
    return curves, matrix.astype(np.float32)
