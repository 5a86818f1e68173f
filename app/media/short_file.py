"""Whether a still's file stops before its container says it ends: a download or copy cut
short is called truncated, not just unreadable."""

from __future__ import annotations

import struct

import numpy as np

from .tiff_bytes import tiff_ends_early


def _riff_ends_early(data: np.ndarray) -> bool:
    """A WebP's RIFF size (the bytes after its first eight) beyond the file's end."""
    (size,) = struct.unpack_from("<I", data, 4)
    return 8 + size > data.size


def _boxes_end_early(data: np.ndarray) -> bool:
    """An AVIF's or HEIF's (ISO base media) top-level boxes running past the file's end."""
    at = 0
    while at + 8 <= data.size:
        (size,) = struct.unpack_from(">I", data, at)
        if size == 1:  # a 64-bit size follows the type
            if at + 16 > data.size:
                return True
            (size,) = struct.unpack_from(">Q", data, at + 8)
        elif size == 0:  # the last box, to the end of the file
            return False
        if size < 8:
            return False  # (damaged, not short)
        at += size
    return at > data.size


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
        return _boxes_end_early(data)
    return tiff_ends_early(data)
