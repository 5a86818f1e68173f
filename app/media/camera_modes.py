"""What a camera offers: its resolutions and frame rates (Linux: V4L2 ioctls; elsewhere
OpenCV cannot ask, and the app offers common modes instead)."""

from __future__ import annotations

import contextlib
import os
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..platforms import current_lists_cameras_from_devices

COMMON_SIZES = ((640, 480), (1280, 720), (1920, 1080))
COMMON_RATES = (15.0, 30.0, 60.0)

_BUF_TYPE_VIDEO_CAPTURE = 1
_FRMSIZE_DISCRETE = 1
_FRMIVAL_DISCRETE = 1
_FMTDESC = struct.Struct("=III32sII3I")  # index, type, flags, description, pixelformat, ...
_FRMSIZE = struct.Struct("=III6I2I")  # index, pixel_format, type, union (6 u32), reserved
_FRMIVAL = struct.Struct("=IIIII6I2I")  # index, fmt, width, height, type, union, reserved
MAX_ENTRIES = 64  # a guard against drivers that never say "no more"


def _iowr(nr: int, size: int) -> int:
    return (3 << 30) | (size << 16) | (ord("V") << 8) | nr


VIDIOC_ENUM_FMT = _iowr(2, _FMTDESC.size)
VIDIOC_ENUM_FRAMESIZES = _iowr(74, _FRMSIZE.size)
VIDIOC_ENUM_FRAMEINTERVALS = _iowr(75, _FRMIVAL.size)

Ioctl = Callable[[int, int, bytearray], Any]


@dataclass(frozen=True)
class CameraMode:
    """One resolution a camera delivers, with the frame rates it has at it."""

    width: int
    height: int
    rates: tuple[float, ...]

    @property
    def label(self) -> str:
        return f"{self.width}\u00d7{self.height}"


def camera_modes(device: str, ioctl: Ioctl | None = None,
                 opener: Callable[[str], int] | None = None) -> list[CameraMode]:
    """The discrete modes of a V4L2 device (largest first), merged over its pixel formats;
    [] where they cannot be listed (not Linux, no permission, a stepwise-only driver)."""
    if ioctl is None:
        if not current_lists_cameras_from_devices():  # V4L2 devices: Linux
            return []
        import fcntl

        ioctl = fcntl.ioctl
    open_fn = opener or (lambda path: os.open(path, os.O_RDWR | os.O_NONBLOCK))
    try:
        fd = open_fn(device)
    except OSError:
        return []
    try:
        return _modes(fd, ioctl)
    except OSError:
        return []
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)


def _modes(fd: int, ioctl: Ioctl) -> list[CameraMode]:
    rates: dict[tuple[int, int], set[float]] = {}
    for fmt in _enum(fd, ioctl, VIDIOC_ENUM_FMT, _FMTDESC,
                     lambda i: (i, _BUF_TYPE_VIDEO_CAPTURE, 0, b"", 0, 0, 0, 0, 0)):
        pixfmt = fmt[4]
        for size in _enum(fd, ioctl, VIDIOC_ENUM_FRAMESIZES, _FRMSIZE,
                          lambda i, p=pixfmt: (i, p, 0, 0, 0, 0, 0, 0, 0, 0, 0)):
            if size[2] != _FRMSIZE_DISCRETE:
                continue
            w, h = size[3], size[4]
            found = rates.setdefault((w, h), set())
            for ival in _enum(fd, ioctl, VIDIOC_ENUM_FRAMEINTERVALS, _FRMIVAL,
                              lambda i, p=pixfmt, w=w, h=h: (i, p, w, h, 0, 0, 0, 0, 0, 0, 0,
                                                             0, 0)):
                num, den = ival[5], ival[6]
                if ival[4] == _FRMIVAL_DISCRETE and num > 0:
                    found.add(round(den / num, 2))
    modes = [CameraMode(w, h, tuple(sorted(r, reverse=True))) for (w, h), r in rates.items()]
    return sorted(modes, key=lambda m: (m.width * m.height, m.width), reverse=True)


def _enum(fd: int, ioctl: Ioctl, request: int, layout: struct.Struct,
          query: Callable[[int], tuple]) -> list[tuple]:
    """The entries of an enumerating ioctl (index 0, 1, ... until the driver says EINVAL)."""
    out = []
    for i in range(MAX_ENTRIES):
        buf = bytearray(layout.pack(*query(i)))
        try:
            ioctl(fd, request, buf)
        except OSError:
            break
        out.append(layout.unpack(bytes(buf)))
    return out
