"""A TIFF's IFDs read and patched in the file's bytes: its pages counted, its Orientation
unset, its alpha marked, entries added to its first IFD."""

from __future__ import annotations

import struct

import numpy as np

from .image_metadata import EXIF_ORIENTATION

_NEW_SUBFILE_TYPE = 254
_REDUCED_IMAGE = 1  # (NewSubfileType's bit: a thumbnail or a pyramid's level, no page)


def _first_ifd(data: np.ndarray) -> tuple[str, str, str, int, int] | None:
    """A TIFF's byte order, its kind's count and offset formats and IFD entry size (classic
    TIFF's or BigTIFF's), and where its first IFD is; None where `data` is no TIFF."""
    order = {b"II": "<", b"MM": ">"}.get(bytes(data[:2]))
    if order is None or data.size < 16:
        return None
    (magic,) = struct.unpack_from(order + "H", data, 2)
    if magic not in (42, 43):
        return None
    count, offset, size = ("H", "I", 12) if magic == 42 else ("Q", "Q", 20)
    (first,) = struct.unpack_from(order + offset, data, 4 if magic == 42 else 8)
    return order, count, offset, size, first


def tiff_pages(data: np.ndarray) -> int:
    """How many pages a TIFF's chain of IFDs holds (its reduced-resolution copies, which
    are no pages, not counted); 1 where the chain cannot be followed."""
    layout = _first_ifd(data)
    if layout is None:
        return 1
    order, count, offset, size, at = layout
    pages, seen = 0, set()
    while at and at not in seen and len(seen) < 100_000:
        seen.add(at)
        if at + struct.calcsize(count) > data.size:
            break
        (n,) = struct.unpack_from(order + count, data, at)
        start = at + struct.calcsize(count)
        end = start + n * size
        if end + struct.calcsize(offset) > data.size:
            break
        reduced = False
        for entry in range(start, end, size):
            tag, kind = struct.unpack_from(order + "HH", data, entry)
            if tag == _NEW_SUBFILE_TYPE and kind in (3, 4, 16):
                value = struct.unpack_from(order + {3: "H", 4: "I", 16: "Q"}[kind], data,
                                           entry + 4 + struct.calcsize(offset))[0]
                reduced = bool(value & _REDUCED_IMAGE)
        pages += not reduced
        (at,) = struct.unpack_from(order + offset, data, end)
    return max(pages, 1)


def unturned_tiff(data: np.ndarray) -> int:
    """A TIFF's Orientation (1..8; 1 where it has none), set to 1 in its first IFD in place
    in the file's bytes `data`, so that no decoder turns the pixels itself."""
    layout = _first_ifd(data)
    if layout is None:
        return 1
    order, count, offset, size, first = layout
    if first + 8 > data.size:
        return 1
    (n,) = struct.unpack_from(order + count, data, first)
    start = first + struct.calcsize(count)
    if start + n * size > data.size:
        return 1
    for at in range(start, start + n * size, size):
        tag, kind = struct.unpack_from(order + "HH", data, at)
        if tag != EXIF_ORIENTATION:
            continue
        value = at + 4 + struct.calcsize(offset)  # (the count, then the value field)
        fmt = {3: "H", 4: "I"}.get(kind)
        if fmt is None:
            return 1
        (orientation,) = struct.unpack_from(order + fmt, data, value)
        struct.pack_into(order + fmt, data, value, 1)
        return orientation if 1 <= orientation <= 8 else 1
    return 1


_EXTRA_SAMPLES = 338  # TIFF tag: what the samples beyond the colour ones are
_UNASSOCIATED_ALPHA = 2


def tiff_alpha(data: bytes) -> bytes:
    """A TIFF whose fourth sample OpenCV wrote without saying what it is (no ExtraSamples:
    readers need not take it for transparency), with it marked unassociated alpha, as
    Pillow's are: its first IFD copied to the end with the tag added, and the header
    pointed there. The pixels stay as they are; a TIFF with the tag is returned as it is."""
    order = {b"II": "<", b"MM": ">"}.get(data[:2])
    if order is None or len(data) < 16:
        return data
    (magic,) = struct.unpack_from(order + "H", data, 2)
    if magic not in (42, 43):  # classic TIFF, or BigTIFF (8-byte counts and offsets)
        return data
    offset, size = ("I", 12) if magic == 42 else ("Q", 20)
    value = struct.pack(order + "H", _UNASSOCIATED_ALPHA).ljust(size - 4 - struct.calcsize(
        offset), b"\0")  # one SHORT, in the entry's value field
    return tiff_with_entries(data, [struct.pack(order + "HH", _EXTRA_SAMPLES, 3)
                                     + struct.pack(order + offset, 1) + value])


def tiff_with_entries(data: bytes, new: list[bytes]) -> bytes:
    """A TIFF with entries (as they are laid out in an IFD of its byte order and kind)
    added to its first IFD, which is copied to the end with them and the header pointed
    there; a tag it has already is left as it is (as is a TIFF whose IFD cannot be read)."""
    order = {b"II": "<", b"MM": ">"}.get(data[:2])
    if order is None or len(data) < 16:
        return data
    (magic,) = struct.unpack_from(order + "H", data, 2)
    if magic not in (42, 43):
        return data
    count, offset, size = ("H", "I", 12) if magic == 42 else ("Q", "Q", 20)
    head = 4 if magic == 42 else 8
    (first,) = struct.unpack_from(order + offset, data, head)
    (n,) = struct.unpack_from(order + count, data, first)
    start = first + struct.calcsize(count)
    end = start + n * size
    if end + struct.calcsize(offset) > len(data):
        return data
    entries = [data[start + k * size:start + (k + 1) * size] for k in range(n)]
    have = {struct.unpack_from(order + "H", e)[0] for e in entries}
    entries += [e for e in new if struct.unpack_from(order + "H", e)[0] not in have]
    if len(entries) == n:
        return data
    entries.sort(key=lambda e: struct.unpack_from(order + "H", e)[0])  # tags ascending
    at = len(data) + (-len(data)) % 4  # word-aligned
    ifd = struct.pack(order + count, len(entries)) + b"".join(entries) + \
        data[end:end + struct.calcsize(offset)]  # the next IFD's offset, as it was
    out = bytearray(data)
    out += bytes(at - len(data)) + ifd
    struct.pack_into(order + offset, out, head, at)
    return bytes(out)


_STRIPS = ((273, 279), (324, 325))  # (StripOffsets, StripByteCounts), (TileOffsets, ...)
_VALUE_FORMATS = {3: "H", 4: "I", 16: "Q"}


def tiff_ends_early(data: np.ndarray) -> bool:
    """Whether a TIFF's first IFD, or a strip or tile of its first page, lies past the end
    of the file (a download cut short); False where it is no TIFF or all of it is there."""
    layout = _first_ifd(data)
    if layout is None:
        return False
    order, count, offset, size, first = layout
    if first + struct.calcsize(count) > data.size:
        return True
    (n,) = struct.unpack_from(order + count, data, first)
    start = first + struct.calcsize(count)
    if start + n * size > data.size:
        return True
    entries: dict[int, list[int]] = {}
    inline = size - 4 - struct.calcsize(offset)  # (bytes of the value field)
    for at in range(start, start + n * size, size):
        tag, kind = struct.unpack_from(order + "HH", data, at)
        if tag not in (273, 279, 324, 325) or kind not in _VALUE_FORMATS:
            continue
        (values,) = struct.unpack_from(order + offset, data, at + 4)
        fmt = order + _VALUE_FORMATS[kind] * values
        where = at + 4 + struct.calcsize(offset)
        if struct.calcsize(fmt) > inline:
            (where,) = struct.unpack_from(order + offset, data, where)
            if where + struct.calcsize(fmt) > data.size:
                return True
        entries[tag] = list(struct.unpack_from(fmt, data, where))
    return any(o + c > data.size for starts, counts in _STRIPS
               for o, c in zip(entries.get(starts, []), entries.get(counts, []), strict=False))
