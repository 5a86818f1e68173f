"""What the decoders say while a still is read, kept from the terminal and gathered for
read_image's own one-line error or warning: libpng's and libjpeg's prints on file
descriptor 2, Pillow's warnings, OpenCV's log."""

from __future__ import annotations

import contextlib
import os
import re
import struct
import sys
import tempfile
import threading
import warnings
from collections.abc import Iterator
from typing import Any

import cv2
import numpy as np

from .image_types import MAX_PIXELS, TRUNCATED

# OpenCV logs its decoders' errors (libtiff's) on stderr; our own one-line error or warning
# says what went wrong. (libpng's and libjpeg's own prints: decoder_messages.)
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)

# PNG chunks OpenCV's decoder has no use for (it applies no colour management, and reads
# no orientation with IMREAD_UNCHANGED) on which libpng prints warnings straight to stderr
# (an ICC profile whose illuminant is not D50, a bad keyword...); Pillow reads the profile
# and EXIF from the file itself.
_PNG_UNREAD = frozenset({b"iCCP", b"sRGB", b"gAMA", b"cHRM", b"cICP", b"sBIT", b"pHYs",
                         b"tIME", b"tEXt", b"zTXt", b"iTXt", b"eXIf", b"sPLT", b"hIST"})


def quiet_png(data: np.ndarray) -> None:
    """A PNG's chunks in _PNG_UNREAD renamed, in place in the file's bytes `data`, to
    private ones (their CRC made again) that libpng skips without a word."""
    import zlib

    at = 8
    while at + 12 <= data.size:
        (length,) = struct.unpack_from(">I", data, at)
        kind = bytes(data[at + 4:at + 8])
        end = at + 12 + length
        if end > data.size or kind == b"IEND":
            return
        if kind in _PNG_UNREAD:
            data[at + 5] |= 0x20  # the second letter lower case: a private chunk
            crc = zlib.crc32(memoryview(data[at + 4:at + 8 + length]))
            struct.pack_into(">I", data, at + 8 + length, crc)
        at = end


@contextlib.contextmanager
def quiet_pillow(header_only: bool = False, said: list[str] | None = None) -> Iterator[Any]:
    """Pillow, its decompression-bomb guard at MAX_PIXELS and quiet: read_image refuses
    larger pictures itself, in one line (Pillow still refuses twice as many). `header_only`:
    no guard, for reading a size from the header (nothing is decoded). Pillow's warnings
    (a damaged TIFF's "Tag data larger than file") are not printed: added to `said`, for
    read_image's own warning, where it is given."""
    from PIL import Image as PILImage

    PILImage.MAX_IMAGE_PIXELS = None if header_only else MAX_PIXELS
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield PILImage
    finally:
        PILImage.MAX_IMAGE_PIXELS = MAX_PIXELS
        for w in caught:
            text = f"Pillow: {str(w.message).strip()}"
            if said is not None and not issubclass(w.category, PILImage.DecompressionBombWarning) \
                    and text not in said:
                said.append(text)


# What libpng and libjpeg print on the C stderr themselves (OpenCV leaves their printing
# on): their lines start so. Anything else written meanwhile is passed on.
_DECODER_LINE = re.compile(r"^(libpng (error|warning)|Corrupt JPEG data|Premature end of JPEG|"
                           r"Invalid (JPEG|SOS)|Unsupported marker|Bogus|Inconsistent progr|"
                           r"Warning: unknown JFIF|JFIF)")
_STDERR = threading.Lock()  # one decode at a time has file descriptor 2


@contextlib.contextmanager
def decoder_messages(catch: bool) -> Iterator[list[str]]:
    """The lines libpng and libjpeg print while inside (list filled on the way out; "libpng
    error: ..."), caught from file descriptor 2 so that they are not printed: read_image
    says them in its own words. Descriptor 2 is the process's: anything another thread
    writes there meanwhile is caught too, and written on once out (only later, never lost);
    decodes that catch take turns. `catch` False: nothing is caught."""
    lines: list[str] = []
    if not catch:
        yield lines
        return
    with _STDERR, tempfile.TemporaryFile() as tmp:
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(tmp.fileno(), 2)
        try:
            yield lines
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            others = []
            for line in tmp.read().decode("utf-8", "replace").splitlines(keepends=True):
                if _DECODER_LINE.match(line):
                    lines.append(line.strip() if line.startswith("libpng") else
                                 f"libjpeg: {line.strip()}")
                else:
                    others.append(line)
            if others:
                with contextlib.suppress(OSError):
                    os.write(2, "".join(others).encode())


def broken(data: np.ndarray, png: bool, printed: list[str]) -> str:
    """Why a PNG or JPEG did not decode, in a few words: truncated (it stops before its
    end: no IEND chunk, no end-of-image marker; or its decoder said so), else damaged and
    what its decoder said."""
    tail = bytes(data[-4096:])
    ended = b"IEND" in tail if png else b"\xff\xd9" in tail
    said = " ".join(printed)
    if not ended or "input buffer is incomplete" in said or "Premature end" in said:
        return TRUNCATED
    return f"damaged: {printed[0]}" if printed else "damaged"
