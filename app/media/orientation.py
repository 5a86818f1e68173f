"""A video frame's display orientation: the quarter turns and the mirroring its display matrix
asks for, applied as FFmpeg's own player and `ffmpeg` (autorotate) apply them, so a mirrored
selfie video comes out mirrored, not turned upside down."""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

import av
import numpy as np
from av.sidedata.sidedata import Type

from .side_data import frame_side_data

MATRIX = struct.Struct("=9i")  # FFmpeg's display matrix: 3x3 int32, 16.16 fixed point

# PyAV 18's side-data wrappers crash the interpreter (SIGSEGV at a later garbage collection)
# once a frame carrying an ICC profile has had its side data read: FFmpeg's PNG and APNG
# decoders attach one (a PNG sequence with an sRGB chunk killed the render, and the rest of
# a batch; trial V4). A still image codec's frames carry neither a display matrix nor HDR10
# metadata (a photo's orientation is in its EXIF), so their side data is never read.
IMAGE_CODECS = frozenset({"png", "apng", "mjpeg", "jpegls", "jpeg2000", "webp", "tiff", "bmp",
                          "gif", "qoi", "pam", "pbm", "pgm", "ppm", "pgmyuv", "sgi",
                          "targa", "dpx", "exr", "hdr", "photocd", "pcx", "xbm", "xwd",
                          "sunrast", "dds", "jpegxl", "psd"})


def reads_side_data(codec: str) -> bool:
    """Whether a frame decoded by `codec` may have its side data read (see IMAGE_CODECS)."""
    return codec not in IMAGE_CODECS


@dataclass(frozen=True)
class Orientation:
    """Shown upright: the stored picture turned `turns` quarter turns counter-clockwise,
    then mirrored left to right where `mirror`."""

    turns: int = 0
    mirror: bool = False

    @property
    def degrees(self) -> int:
        """The turn in degrees counter-clockwise (0, 90, 180 or 270)."""
        return self.turns * 90

    def apply(self, image: np.ndarray) -> np.ndarray:
        """The (H, W, ...) `image` as shown."""
        out = np.rot90(image, self.turns) if self.turns else image
        if self.mirror:
            out = out[:, ::-1]
        return np.ascontiguousarray(out) if out is not image else image


UPRIGHT = Orientation()
# FFmpeg's filters for a display matrix, as quarter turns then an optional mirror
_TRANSPOSE = Orientation(3, True)  # cclock_flip: rows become columns
_ANTI_TRANSPOSE = Orientation(1, True)  # clock_flip


def orientation_of(frame: av.VideoFrame, stream: av.video.stream.VideoStream) -> Orientation:
    """How a decoded frame is shown: from its display matrix (FFmpeg 7 puts it on every frame)
    by the rules of ffmpeg's autorotate, else from an older file's clockwise `rotate` tag on
    the stream. Angles between quarter turns go to the nearest one."""
    matrix = _display_matrix(frame) if reads_side_data(stream.codec_context.name) else None
    if matrix is None:
        tag = stream.metadata.get("rotate")
        try:
            degrees = -float(tag) if tag else 0.0
        except ValueError:
            degrees = 0.0
        return Orientation(round(degrees / 90.0) % 4)
    # ffmpeg's theta: clockwise degrees in [0, 360) (av_display_rotation_get, negated)
    theta = math.degrees(math.atan2(matrix[1], matrix[0]))
    theta -= 360 * math.floor(theta / 360 + 0.9 / 360)
    quarter = round(theta / 90.0) % 4
    if quarter == 1:  # a quarter turn clockwise, or a transpose
        return _TRANSPOSE if matrix[3] > 0 else Orientation(3)
    if quarter == 2:  # turned over: mirrored left to right, upside down, or both
        hflip, vflip = matrix[0] < 0, matrix[4] < 0
        if hflip and vflip:
            return Orientation(2)
        return Orientation(2 if vflip else 0, hflip or vflip)
    if quarter == 3:  # a quarter turn counter-clockwise, or the other transpose
        return _ANTI_TRANSPOSE if matrix[3] < 0 else Orientation(1)
    return Orientation(2, True) if matrix[4] < 0 else UPRIGHT  # upside down mirrored: a vflip


def _display_matrix(frame: av.VideoFrame) -> tuple[int, ...] | None:
    try:
        for side in frame_side_data(frame):
            if side.type == Type.DISPLAYMATRIX:
                data = bytes(side)
                if len(data) >= MATRIX.size:
                    m = MATRIX.unpack_from(data)
                    return m if any(m[:2]) or any(m[3:5]) else None
    except (AttributeError, TypeError, ValueError):
        return None
    return None
