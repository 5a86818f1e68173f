"""A decoded still (Image), the most pixels one is decoded with, and the error and warning
that reading and writing stills raise."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from ..engine.errors import AquarelleError

# The most pixels a picture is decoded with (3 GB as 8-bit RGB; OpenCV's own limit is 2^30):
# larger ones are refused from their header, before decoding, unless a JPEG is asked for at
# half its size or less (decoded reduced).
MAX_PIXELS = 1_000_000_000
# why a file that stops before its container (or decoder) says it ends does not decode
TRUNCATED = "truncated: the file ends before its picture does"


class ImageError(AquarelleError):
    """An image that cannot be read or written."""


class ImageWarning(UserWarning):
    """What reading a still leaves out or finds wrong (its other pages, a damaged part):
    one line naming the file (the CLI prints it as its own warning)."""


def warn(message: str) -> None:
    """An ImageWarning, said where the picture is read."""
    warnings.warn(message, ImageWarning, stacklevel=3)


@dataclass
class Image:
    """A decoded image: RGB pixels (uint8 or uint16), optional alpha of the same depth."""

    rgb: np.ndarray
    alpha: np.ndarray | None = None
    icc: bytes | None = None  # the colour profile, kept for the output
    exif: bytes | None = None  # EXIF with the orientation reset (the pixels are upright)
    dpi: tuple[float, float] | None = None  # the resolution it says (JFIF, pHYs, TIFF's)
    unkept: tuple[str, ...] = ()  # what it holds that no output carries ("XMP")

    @property
    def size(self) -> tuple[int, int]:
        return self.rgb.shape[1], self.rgb.shape[0]
