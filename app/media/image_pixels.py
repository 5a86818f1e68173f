"""A still's pixels changed as a whole: laid on paper where transparent, rounded to 8 bits,
turned by an EXIF orientation."""

from __future__ import annotations

import numpy as np


def on_paper(rgb: np.ndarray, alpha: np.ndarray | None) -> np.ndarray:
    """The picture laid on white where it is transparent (by alpha's share): a painting
    shows paper there, not the colours hidden under alpha 0 (a cut-out's black painted as
    dark washes round it). In place where it can be; opaque pixels are untouched."""
    if alpha is None:
        return rgb
    top = 65535 if rgb.dtype == np.uint16 else 255
    seen = alpha < top
    if not seen.any():
        return rgb
    a = alpha[seen].astype(np.float32)[:, None] / top
    out = rgb if rgb.flags.writeable else rgb.copy()
    out[seen] = np.round(out[seen].astype(np.float32) * a + top * (1.0 - a)).astype(rgb.dtype)
    return out


def off_paper(rgb: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """The colours that, laid on white by `alpha` (same depth as `rgb`), give `rgb`: what is
    written beside the alpha of a painting made of the picture on paper (on_paper), which a
    viewer lays on its own background by that alpha again (written as painted, half-
    transparent black showed 191 on white where the source showed 127). Opaque and fully
    transparent pixels are as they are; the rest within the depth's range."""
    top = 65535 if rgb.dtype == np.uint16 else 255
    part = (alpha > 0) & (alpha < top)
    if not part.any():
        return rgb
    a = alpha[part].astype(np.float32)[:, None] / top
    out = rgb.copy()
    under = (out[part].astype(np.float32) - top * (1.0 - a)) / a
    out[part] = np.clip(np.round(under), 0, top).astype(rgb.dtype)
    return out


def to_8bit(a: np.ndarray) -> np.ndarray:
    """A 16-bit picture at 8 bits, rounded (65535 -> 255); 8-bit pictures as they are."""
    if a.dtype != np.uint16:
        return a
    return ((a.astype(np.uint32) * 255 + 32767) // 65535).astype(np.uint8)


def orient(a: np.ndarray, orientation: int) -> np.ndarray:
    """Apply an EXIF orientation (1..8) to an image array."""
    ops = {
        2: lambda x: x[:, ::-1],
        3: lambda x: x[::-1, ::-1],
        4: lambda x: x[::-1],
        5: lambda x: np.swapaxes(x, 0, 1),
        6: lambda x: np.swapaxes(x, 0, 1)[:, ::-1],
        7: lambda x: np.swapaxes(x, 0, 1)[::-1, ::-1],
        8: lambda x: np.swapaxes(x, 0, 1)[::-1],
    }
    return ops[orientation](a) if orientation in ops else a
