"""Whether a still's file stops before its container says it ends: a download or copy cut
short is called truncated, not just unreadable."""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .tiff_bytes import tiff_ends_early

# why frames are missing from a video or animation that `file_ends_early`
TRUNCATED_FRAMES = "truncated: the file ends before its frames do"


def _riff_ends_early(data: np.ndarray) -> bool:
    """A WebP's RIFF size (the bytes after its first eight) beyond the file's end."""
    (size,) = struct.unpack_from("<I", data, 4)
    return 8 + size > data.size


def _boxes_end_early(read: Callable[[int, int], bytes], length: int) -> bool:
    """An AVIF's or HEIF's (ISO base media: an MP4's, a MOV's too) top-level boxes running
    past the end of its `length` bytes (`read(at, n)`: n of them from `at`)."""
    at = 0
    while at + 8 <= length:
        (size,) = struct.unpack(">I", read(at, 4))
        if size == 1:  # a 64-bit size follows the type
            if at + 16 > length:
                return True
            (size,) = struct.unpack(">Q", read(at + 8, 8))
        elif size == 0:  # the last box, to the end of the file
            return False
        if size < 8:
            return False  # (damaged, not short)
        at += size
    return at != length  # (past the end, or a box's header cut)


def file_ends_early(path: str | Path) -> bool:
    """Whether a video file in boxes (MP4, MOV, an animated AVIF) or an animated WebP stops
    before its own structure says it ends; only its box headers are read. False for other
    kinds and for a file that cannot be read."""
    try:
        with Path(path).open("rb") as f:
            length = f.seek(0, 2)
            f.seek(0)
            head = f.read(12)
            if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
                return 8 + struct.unpack_from("<I", head, 4)[0] > length
            if head[4:8] != b"ftyp":
                return False

            def read(at: int, n: int) -> bytes:
                f.seek(at)
                return f.read(n)

            return _boxes_end_early(read, length)
    except (OSError, struct.error):
        return False


def ends_early(data: np.ndarray) -> bool:
    """Whether `data` (a WebP, AVIF/HEIF or TIFF file's bytes) is shorter than its own
    structure says; False for other kinds (PNG's and JPEG's ends are judged by their
    decoders' words: decoder_messages.broken)."""
    if data.size < 16:
        return False
    head = bytes(data[:12])
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return _riff_ends_early(data)
    if head[4:8] == b"ftyp":
        return _boxes_end_early(lambda at, n: bytes(data[at:at + n]), data.size)
    return tiff_ends_early(data)
