"""An image sequence's frames read as its photos are one by one (media/image_read.py).

FFmpeg's image2 demuxer decodes the files fast, but knows nothing of a photo's EXIF
orientation or colour profile: the first file's are read with Pillow and applied to every
frame (a phone's time-lapse turns every frame the same way, with one profile). A sequence
is painted at one size, as a video is: a frame of another size than the first is fitted to
it, keeping its shape, and named (`SequencePhotos.resized`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import cv2
import numpy as np

from .colour_profile import srgb_converter
from .image_metadata import read_metadata
from .orientation import UPRIGHT, Orientation
from .paths import sequence_files

# EXIF orientations (1..8) as the quarter turns counter-clockwise and the mirroring that
# show the stored picture upright (image_pixels.orient's, as an Orientation)
EXIF_ORIENTATIONS = {1: UPRIGHT, 2: Orientation(0, True), 3: Orientation(2),
                     4: Orientation(2, True), 5: Orientation(3, True), 6: Orientation(3),
                     7: Orientation(1, True), 8: Orientation(1)}


class SequencePhotos:
    """What the first file of an image sequence says of its frames (its EXIF orientation,
    its colour profile's conversion to sRGB), and the frames found of another size."""

    def __init__(self, pattern: Path, stored: tuple[int, int], rate: Fraction | int) -> None:
        """`stored`: the first file's size (W, H) as decoded; `rate`: the frames a second
        its numbers are timed at."""
        self.pattern = pattern
        files = sequence_files(pattern)
        self.files = dict(files)
        self.first_number = files[0][0] if files else 0
        self.rate = rate
        self.stored = stored
        exif_orientation, icc, *_ = read_metadata(files[0][1]) if files else (1, None)
        self.orientation = EXIF_ORIENTATIONS.get(exif_orientation, UPRIGHT)
        first = files[0][1].name if files else pattern.name
        self.convert: Callable[[np.ndarray], np.ndarray] | None = srgb_converter(icc, first)
        # frames of another size than the first: file name -> upright size (W, H)
        self.odd: dict[str, tuple[int, int]] = {}

    @property
    def upright(self) -> tuple[int, int]:
        """The first frame's size (W, H) as shown: the size every frame is painted at."""
        w, h = self.stored
        return (h, w) if self.orientation.turns % 2 else (w, h)

    def file(self, seconds: float | Fraction) -> Path | None:
        """The file on screen `seconds` after the sequence's start (None: no file there)."""
        return self.files.get(self.first_number + math.floor(seconds * self.rate + 1e-6))

    def metadata(self, seconds: float | Fraction
                 ) -> tuple[bytes | None, tuple[float, float] | None]:
        """The EXIF (its orientation reset: the frames are upright) and resolution (dpi) of
        the file on screen `seconds` after the start, for the frame painted from it."""
        path = self.file(seconds)
        if path is None:
            return None, None
        _, _, exif, dpi, _ = read_metadata(path)
        return exif, dpi

    def colour(self, image: np.ndarray) -> np.ndarray:
        """A frame (RGB, or RGB + an opaque fourth channel) in sRGB, as its file's colour
        profile says: unchanged where that is sRGB or none."""
        return image if self.convert is None else self.convert(image)

    def turn(self, image: np.ndarray) -> np.ndarray:
        """A decoded frame (H, W, channels) turned upright as its file's EXIF says."""
        return turned(image, self.orientation)

    def fit(self, image: np.ndarray, size: tuple[int, int], seconds: float | Fraction | None
            ) -> np.ndarray:
        """A frame of another size than the first (upright `image`) at `size` (W, H): scaled
        to cover it, keeping its shape, and cut about its centre; the frame's file (at
        `seconds`) is noted for `resized`."""
        ih, iw = image.shape[:2]
        path = self.file(seconds) if seconds is not None else None
        self.odd.setdefault(path.name if path else f"a frame at {float(seconds or 0):.2f} s",
                            (iw, ih))
        return cover(image, size)

    def resized(self) -> str | None:
        """One line naming the frames fitted to the first frame's size (None: none were)."""
        if not self.odd:
            return None
        w, h = self.upright
        name, (iw, ih) = next(iter(self.odd.items()))
        if len(self.odd) == 1:
            return (f"{self.pattern}: {name} is {iw}x{ih}, not {w}x{h} as the first frame "
                    f"is; a sequence is painted at one size, so it was {_how(iw, ih, w, h)}")
        return (f"{self.pattern}: {len(self.odd)} frames are not {w}x{h} as the first "
                f"frame is ({name}: {iw}x{ih}, the first of them); a sequence is painted at one "
                f"size, so each was scaled to cover {w}x{h}, keeping its shape, and cut about its "
                "centre")


def _how(iw: int, ih: int, w: int, h: int) -> str:
    """What `cover` does to a picture of iw x ih for w x h, in words."""
    k = max(w / iw, h / ih)
    if k == 1:
        return f"cut to {w}x{h} about its centre"
    if (max(w, round(iw * k)), max(h, round(ih * k))) == (w, h):
        return f"scaled to {w}x{h}"
    return f"scaled to cover {w}x{h}, keeping its shape, and cut about its centre"


_ROTATE = {1: cv2.ROTATE_90_COUNTERCLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_CLOCKWISE}


def turned(image: np.ndarray, orientation: Orientation) -> np.ndarray:
    """`Orientation.apply` by OpenCV (a quarter turn of a 1080p frame by numpy's strided copy
    took 14 times as long)."""
    if orientation.turns:
        image = cv2.rotate(image, _ROTATE[orientation.turns])
    return cv2.flip(image, 1) if orientation.mirror else image


def cover(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """`image` scaled to cover `size` (W, H), keeping its shape, and cut about its centre."""
    w, h = size
    ih, iw = image.shape[:2]
    k = max(w / iw, h / ih)
    sw, sh = max(w, round(iw * k)), max(h, round(ih * k))
    if (sw, sh) != (iw, ih):
        image = cv2.resize(image, (sw, sh),
                           interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    x, y = (sw - w) // 2, (sh - h) // 2
    return np.ascontiguousarray(image[y:y + h, x:x + w])
