"""Reading and writing still images: EXIF orientation, grayscale, alpha, 16-bit."""

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..engine.errors import AquarelleError
from .atomic import OutputExists, atomic_output
from .png_encode import encode_png

# OpenCV logs its decoders' errors (libtiff's) on stderr; our own one-line error or warning
# says what went wrong. (libpng's and libjpeg's own prints: _decoder_messages.)
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)

# What is read as a still by its name (and what by its first bytes: sniff.py); all are
# written but HEIF, which nothing here encodes (WRITE_EXTENSIONS).
IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".jpe", ".jfif", ".webp", ".tif", ".tiff", ".bmp",
                    ".avif", ".heic", ".heif"}
READ_ONLY = frozenset({".heic", ".heif"})
WRITE_EXTENSIONS = frozenset(IMAGE_EXTENSIONS - READ_ONLY)
JPEG_EXTENSIONS = frozenset({".jpg", ".jpeg", ".jpe", ".jfif"})
LOSSY = frozenset({*JPEG_EXTENSIONS, ".webp", ".avif"})  # what --quality applies to
_EXIF_ORIENTATION = 0x0112
# The most pixels a picture is decoded with (3 GB as 8-bit RGB; OpenCV's own limit is 2^30):
# larger ones are refused from their header, before decoding, unless a JPEG is asked for at
# half its size or less (decoded reduced).
MAX_PIXELS = 1_000_000_000
_REDUCED = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
            8: cv2.IMREAD_REDUCED_COLOR_8}


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


def is_image_path(path: str | Path) -> bool:
    """Whether the file name has an image extension we read (all are written but HEIF's:
    `is_writable_image_path`)."""
    return Path(path).suffix.lower() in IMAGE_EXTENSIONS


def is_writable_image_path(path: str | Path) -> bool:
    """Whether the file name has an image extension we write."""
    return Path(path).suffix.lower() in WRITE_EXTENSIONS


def written_suffix(src: str | Path) -> str:
    """The extension a still read from `src` is written with by default: its own, but a
    HEIF photo's (.heic, .heif: read, never written here), which is written as JPEG."""
    ext = Path(src).suffix
    return ".jpg" if ext.lower() in READ_ONLY else ext


def image_size(path: str | Path) -> tuple[int, int] | None:
    """An image file's upright size (w, h) from its header, without decoding it; None when
    Pillow cannot read the header (OpenCV may still decode the file)."""
    return _header_size(Path(path), None)


def _header_size(path: Path, said: list[str] | None) -> tuple[int, int] | None:
    """image_size, with what Pillow found wrong in the header added to `said`."""
    with _pillow(header_only=True, said=said) as pil:
        try:
            with pil.open(path) as im:
                w, h = im.size
                if im.format == "TIFF":  # as stored (newer Pillows give it turned)
                    w, h = int(im.tag_v2.get(256, w)), int(im.tag_v2.get(257, h))
                try:
                    orientation = int(im.getexif().get(_EXIF_ORIENTATION, 1))
                except Exception:  # a broken EXIF block (or a cut file): the size stands
                    orientation = 1
        except Exception:  # not an image Pillow knows (or not a file): the decoder will say
            return None
    return (h, w) if orientation in (5, 6, 7, 8) else (w, h)


def os_reason(e: OSError) -> str:
    """An OSError in a few lower-case words ("permission denied", "is a directory")."""
    words = e.strerror or str(e) or type(e).__name__
    return words[:1].lower() + words[1:]


def read_image(path: str | Path, *, fit: tuple[int, int] | None = None) -> Image:
    """Decode an image file upright (EXIF orientation applied) as RGB (+ alpha). A picture of
    more than MAX_PIXELS is refused before decoding, unless `fit` (the size it is going to
    be shrunk to) lets a JPEG be decoded at 1/2, 1/4 or 1/8 of its size (8-bit RGB then).
    Every failure is an ImageError in one line: a file that cannot be opened ("cannot read
    x.jpg: permission denied") as much as one that does not decode."""
    path = Path(path)
    try:
        return _read_image(path, fit)
    except OSError as e:
        raise ImageError(f"cannot read {path}: {os_reason(e)}") from None
    except cv2.error:  # (a decoder's refusal the steps below do not catch themselves)
        raise ImageError(f"not a readable image: {path}") from None


def _read_image(path: Path, fit: tuple[int, int] | None) -> Image:
    if not path.exists():
        raise ImageError(f"no such file: {path}")
    if not path.is_file():
        raise ImageError(f"not a file: {path}")
    said: list[str] = []  # what Pillow finds wrong in the file, for one warning
    flags = _decode_flags(path, _header_size(path, said), fit, said)
    data = np.fromfile(path, dtype=np.uint8)
    if not data.size:
        raise ImageError(f"{path} is empty (0 bytes)")
    if bytes(data[4:8]) == b"ftyp":  # an AVIF or HEIF photo (ISOBMFF)
        arr = _pillow_picture(path, data)
        if arr is None:  # (an older Pillow: OpenCV may read AVIF, else FFmpeg does)
            try:
                arr = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
            except cv2.error:
                arr = None
        if arr is None:
            return _ffmpeg_picture(path)
        return _finish(path, arr, None, said)
    tiff = path.suffix.lower() in (".tif", ".tiff")
    # a TIFF's decoders (OpenCV's, Pillow's) turn it by its Orientation tag themselves, some
    # kinds only: they are given it unturned, and it is turned below like any other picture
    tiff_orientation = _unturned_tiff(data) if tiff else 1
    pages = _tiff_pages(data) if tiff else 1
    if pages > 1:
        warn(f"{path.name} holds {pages} pages; only the first of {pages} pages is painted")
    png, jpeg = bytes(data[:4]) == b"\x89PNG", bytes(data[:3]) == b"\xff\xd8\xff"
    if png:
        _quiet_png(data)
    with _decoder_messages(png or jpeg) as printed:
        try:
            arr = cv2.imdecode(data, flags) if data.size else None
        except cv2.error:  # e.g. a header claiming more pixels than OpenCV decodes
            arr = None
    if arr is None and (png or jpeg):
        raise ImageError(f"not a readable image: {path} ({_broken(data, png, printed)})")
    said += printed
    if arr is not None and arr.ndim == 3 and arr.shape[2] == 4 and arr.dtype == np.uint8 \
            and tiff:
        arr = _straight_tiff(data, arr)
    del data
    if arr is None:
        raise ImageError(f"not a readable image: {path}")
    return _finish(path, arr, tiff_orientation if tiff else None, said)


def _finish(path: Path, arr: np.ndarray, orientation: int | None, said: list[str]) -> Image:
    """A decoded picture (OpenCV's layout: grey, grey + alpha, BGR or BGRA) as an upright
    sRGB Image with the file's metadata; `orientation`: the file's own where it is known
    already (a TIFF's), else its EXIF's. What was found wrong with the file (`said`, the
    metadata's too) is one warning."""
    if arr.dtype not in (np.uint8, np.uint16):
        if arr.dtype == np.float32:
            arr = (np.clip(arr, 0, 1) * 65535).astype(np.uint16)
        else:
            raise ImageError(f"unsupported pixel type {arr.dtype} in {path}")
    alpha = None
    if arr.ndim == 2:
        rgb = np.repeat(arr[:, :, None], 3, axis=2)
    elif arr.shape[2] == 4:  # OpenCV's SIMD swaps (numpy's strided copies are 20x slower)
        rgb, alpha = cv2.cvtColor(arr, cv2.COLOR_BGRA2RGB), cv2.extractChannel(arr, 3)
    elif arr.shape[2] == 2:  # grey + alpha
        rgb, alpha = np.repeat(arr[:, :, :1], 3, axis=2), arr[:, :, 1]
    else:
        rgb = cv2.cvtColor(arr, cv2.COLOR_BGR2RGB, dst=arr)  # in place: a big photo's copy
    exif_orientation, icc, exif, dpi, unkept = _metadata(path, said)
    if said:  # (Pillow's words are of the metadata: the decoder read the picture)
        what = "its metadata looks" if said[0].startswith("Pillow:") else "it looks"
        warn(f"{path.name}: {what} damaged ({said[0]}); the picture is painted as it decodes")
    # (Pillow's reading of a TIFF's tag, where it has one, is of the turned file)
    orientation = exif_orientation if orientation is None else orientation
    from .colour_profile import to_srgb  # (its own module: the engine paints sRGB)

    rgb, icc = to_srgb(rgb, icc, path.name)  # P3, Adobe RGB... converted, sRGB as it is
    rgb = _orient(rgb, orientation)
    alpha = _orient(alpha, orientation) if alpha is not None else None
    return Image(np.ascontiguousarray(rgb), None if alpha is None else np.ascontiguousarray(alpha),
                 icc, exif, dpi, unkept)


def _pillow_picture(path: Path, data: np.ndarray) -> np.ndarray | None:
    """An AVIF photo (a HEIF one where Pillow has a plugin for it) decoded by Pillow, as
    8-bit BGR or BGRA; its profile and EXIF are read with the rest (`_metadata`). None
    where Pillow cannot decode it. Its other frames, if any, are said to be left out."""
    import io

    try:
        with _pillow() as pil, pil.open(io.BytesIO(memoryview(data))) as im:
            frames = int(getattr(im, "n_frames", 1))
            im.load()
            if im.mode not in ("RGB", "RGBA"):
                im = im.convert("RGBA" if "A" in im.getbands() else "RGB")
            rgb = np.asarray(im)
            depth = _heif_depth(data)
    except Exception:  # not a format Pillow decodes here (HEIF without a plugin)
        return None
    if frames > 1:
        warn(f"{path.name} holds {frames} frames; only the first is painted")
    if depth > 8:
        warn(f"{path.name} has {depth} bits a channel; Pillow's AVIF reader gives 8, so it "
             f"is painted at 8")
    return cv2.cvtColor(rgb, cv2.COLOR_RGBA2BGRA if rgb.shape[2] == 4 else cv2.COLOR_RGB2BGR)


def _heif_depth(data: np.ndarray) -> int:
    """The bits a channel an AVIF or HEIF file's first pixel information box ('pixi')
    gives; 8 where it has none in its first 64 KB."""
    head = bytes(data[:65536])
    at = head.find(b"pixi")
    if at < 0 or at + 10 > len(head):
        return 8
    channels = head[at + 8]  # (after the box's version and flags)
    bits = head[at + 9:at + 9 + channels]
    return max(bits, default=8)


def _ffmpeg_picture(path: Path) -> Image:
    """A HEIF photo (an AVIF one where neither Pillow nor OpenCV decode it here) as FFmpeg
    reads it, one frame: its colour profile, EXIF and transparency are not read, which a
    warning says."""
    from .sniff import still_heif
    from .video_reader import only_picture

    kind = still_heif(path)
    picture = only_picture(path) if kind is not None else None
    if picture is None:
        raise ImageError(f"not a readable image: {path}")
    warn(f"{path.name}: a {kind[0]} photo, read through FFmpeg here (Pillow reads no "
         f"{kind[0]} without a plugin), which reads no colour profile, EXIF or "
         f"transparency: painted as sRGB, written without its EXIF")
    return Image(picture)


def _straight_tiff(data: np.ndarray, bgra: np.ndarray) -> np.ndarray:
    """An 8-bit TIFF's BGRA (`data`: the file, unturned) with its colours as stored, not
    multiplied by the alpha: OpenCV (libtiff's RGBA reader) multiplies them where the alpha
    is marked unassociated, as most writers' (and ours) is, and a semi-transparent pixel
    came out darker. Pillow reads them as they are (and divides associated alpha out);
    OpenCV's pixels where it cannot."""
    import io

    try:
        with _pillow() as pil, pil.open(io.BytesIO(memoryview(data))) as im:
            if im.mode not in ("RGBA", "RGBa") or im.size != (bgra.shape[1], bgra.shape[0]):
                return bgra
            rgba = np.asarray(im.convert("RGBA") if im.mode == "RGBa" else im)
    except Exception:  # a TIFF Pillow cannot decode: as OpenCV read it
        return bgra
    return cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA)


_NEW_SUBFILE_TYPE = 254
_REDUCED_IMAGE = 1  # (NewSubfileType's bit: a thumbnail or a pyramid's level, no page)


def _tiff_pages(data: np.ndarray) -> int:
    """How many pages a TIFF's chain of IFDs holds (its reduced-resolution copies, which
    are no pages, not counted); 1 where the chain cannot be followed."""
    order = {b"II": "<", b"MM": ">"}.get(bytes(data[:2]))
    if order is None or data.size < 16:
        return 1
    (magic,) = struct.unpack_from(order + "H", data, 2)
    if magic not in (42, 43):
        return 1
    count, offset, size = ("H", "I", 12) if magic == 42 else ("Q", "Q", 20)
    (at,) = struct.unpack_from(order + offset, data, 4 if magic == 42 else 8)
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


def _unturned_tiff(data: np.ndarray) -> int:
    """A TIFF's Orientation (1..8; 1 where it has none), set to 1 in its first IFD in place
    in the file's bytes `data`, so that no decoder turns the pixels itself."""
    order = {b"II": "<", b"MM": ">"}.get(bytes(data[:2]))
    if order is None or data.size < 16:
        return 1
    (magic,) = struct.unpack_from(order + "H", data, 2)
    if magic not in (42, 43):
        return 1
    count, offset, size = ("H", "I", 12) if magic == 42 else ("Q", "Q", 20)
    (first,) = struct.unpack_from(order + offset, data, 4 if magic == 42 else 8)
    if first + 8 > data.size:
        return 1
    (n,) = struct.unpack_from(order + count, data, first)
    start = first + struct.calcsize(count)
    if start + n * size > data.size:
        return 1
    for at in range(start, start + n * size, size):
        tag, kind = struct.unpack_from(order + "HH", data, at)
        if tag != _EXIF_ORIENTATION:
            continue
        value = at + 4 + struct.calcsize(offset)  # (the count, then the value field)
        fmt = {3: "H", 4: "I"}.get(kind)
        if fmt is None:
            return 1
        (orientation,) = struct.unpack_from(order + fmt, data, value)
        struct.pack_into(order + fmt, data, value, 1)
        return orientation if 1 <= orientation <= 8 else 1
    return 1


# PNG chunks OpenCV's decoder has no use for (it applies no colour management, and reads
# no orientation with IMREAD_UNCHANGED) on which libpng prints warnings straight to stderr
# (an ICC profile whose illuminant is not D50, a bad keyword...); Pillow reads the profile
# and EXIF from the file itself.
_PNG_UNREAD = frozenset({b"iCCP", b"sRGB", b"gAMA", b"cHRM", b"cICP", b"sBIT", b"pHYs",
                         b"tIME", b"tEXt", b"zTXt", b"iTXt", b"eXIf", b"sPLT", b"hIST"})


def _quiet_png(data: np.ndarray) -> None:
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


# A header whose size is more than this many pixels a byte of the file is damaged: deflate
# (PNG, TIFF) packs at most 1032 bytes into one, 8 one-bit pixels a byte; JPEG needs bits
# for each 8x8 block. (Only a fax-coded blank page packs more.)
_MAX_PIXELS_A_BYTE = 1 << 16


def _decode_flags(path: Path, size: tuple[int, int] | None,
                  fit: tuple[int, int] | None, said: list[str] | None = None) -> int:
    """cv2.imdecode's flags: as the file is, or reduced for a picture beyond MAX_PIXELS. A
    header too big for the file (or one Pillow found wrong: `said`) is a damaged file."""
    if size is None or size[0] * size[1] <= MAX_PIXELS:
        return cv2.IMREAD_UNCHANGED
    w, h = size
    try:
        small = w * h > path.stat().st_size * _MAX_PIXELS_A_BYTE
    except OSError:
        small = False
    if said or small:
        why = said[0] if said else f"more than its {path.stat().st_size:,} bytes can hold"
        raise ImageError(f"{path.name} is damaged: its header says {w}x{h} pixels ({why})")
    jpeg = path.suffix.lower() in JPEG_EXTENSIONS
    for k, flag in _REDUCED.items():
        if (w // k) * (h // k) <= MAX_PIXELS and fit is not None and jpeg \
                and fit[0] <= w // k and fit[1] <= h // k:
            return flag | cv2.IMREAD_IGNORE_ORIENTATION  # turned upright below, like the rest
    mp = w * h / 1e6
    if not jpeg:
        raise ImageError(f"{path.name} is {w}x{h} ({mp:.0f} MP), more than the "
                         f"{MAX_PIXELS // 1_000_000} MP aquarelle decodes; resize it first")
    k = next((k for k in _REDUCED if (w // k) * (h // k) <= MAX_PIXELS), None)
    hint = f"; render it smaller, e.g. --size {w // k}x-1" if k else ""
    raise ImageError(f"{path.name} is {w}x{h} ({mp:.0f} MP), more than the "
                     f"{MAX_PIXELS // 1_000_000} MP aquarelle decodes{hint}")


@contextlib.contextmanager
def _pillow(header_only: bool = False, said: list[str] | None = None) -> Iterator[Any]:
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
def _decoder_messages(catch: bool) -> Iterator[list[str]]:
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


def _broken(data: np.ndarray, png: bool, printed: list[str]) -> str:
    """Why a PNG or JPEG did not decode, in a few words: truncated (it stops before its
    end: no IEND chunk, no end-of-image marker; or its decoder said so), else damaged and
    what its decoder said."""
    tail = bytes(data[-4096:])
    ended = b"IEND" in tail if png else b"\xff\xd9" in tail
    said = " ".join(printed)
    if not ended or "input buffer is incomplete" in said or "Premature end" in said:
        return "truncated: the file ends before its picture does"
    return f"damaged: {printed[0]}" if printed else "damaged"


def _metadata(path: Path, said: list[str] | None = None
              ) -> tuple[int, bytes | None, bytes | None, tuple[float, float] | None,
                         tuple[str, ...]]:
    """EXIF orientation, ICC profile and EXIF block (orientation reset to 1: the pixels are
    turned upright) of an image file, its resolution (dpi) and what it holds that is not
    carried (XMP, a comment); nothing when Pillow cannot open it. A TIFF's EXIF is its first
    IFD, the file's own layout too: only what describes the picture is kept. What Pillow
    finds wrong is added to `said`."""
    try:
        with _pillow(said=said) as pil, pil.open(path) as im:
            exif = im.getexif()
            orientation = int(exif.get(_EXIF_ORIENTATION, 1))
            icc = im.info.get("icc_profile") or None
            dpi = _dpi(im.info.get("dpi"))
            if im.format == "JPEG" and im.info.get("jfif_unit") not in (1, 2) \
                    and 282 not in exif:
                dpi = None  # (Pillow's 72 for a JPEG whose EXIF says none: not the file's)
            unkept = _unkept(im)
            if im.format == "TIFF":
                _tiff_descriptive(exif)
            _no_pixel_dimensions(exif)
            if len(exif):
                exif[_EXIF_ORIENTATION] = 1
                return orientation, icc, exif.tobytes(), dpi, unkept
            return orientation, icc, None, dpi, unkept
    except Exception:  # no metadata, or a format Pillow cannot open: upright as decoded
        return 1, None, None, None, ()


def _dpi(value: object) -> tuple[float, float] | None:
    """A resolution Pillow read ((x, y) dots an inch), where it is a real one."""
    try:
        x, y = (float(v) for v in value)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        return None
    # (rounded: a PNG's 300 dpi comes back 299.9994 from its pixels a metre)
    return (round(x, 2), round(y, 2)) if 0 < x < 1e6 and 0 < y < 1e6 else None


_XMP_TIFF_TAG = 700


def _unkept(im: Any) -> tuple[str, ...]:
    """What a picture Pillow opened holds that no output carries: its XMP packet, its
    comment (JPEG's COM, a PNG's Comment text)."""
    info = im.info
    xmp = info.get("xmp") or info.get("XML:com.adobe.xmp") or \
        (im.format == "TIFF" and im.tag_v2.get(_XMP_TIFF_TAG))
    comment = info.get("comment") or info.get("Comment")
    return tuple(what for what, has in (("XMP", xmp), ("comment", comment)) if has)


# The tags of a TIFF's first IFD that describe the picture (EXIF's 0th IFD: who made it,
# when, with what; its resolution and colorimetry; the Exif and GPS IFDs), not how the file
# lays out its pixels (ImageWidth, BitsPerSample, Compression, StripOffsets, ...: the source
# file's, false in another file at another size), nor what is carried otherwise (the colour
# profile, 34675) or not at all (XMP, IPTC, Photoshop's resources, GeoTIFF's tags).
_TIFF_DESCRIPTIVE = frozenset({
    269, 270, 271, 272, 274, 282, 283, 285, 296, 305, 306, 315, 316, 318, 319,
    18246, 18249, 33432, 34665, 34853, 40091, 40092, 40093, 40094, 40095,
})
# Of those, what any TIFF writer sets by itself (its name, a resolution, the orientation):
# a TIFF with nothing else has no EXIF to carry (or to warn about losing).
_TIFF_INCIDENTAL = frozenset({274, 282, 283, 296, 305})
_EXIF_IFD = 0x8769
_PIXEL_DIMENSIONS = (0xA002, 0xA003)


def _tiff_descriptive(exif: Any) -> None:
    """A TIFF's first IFD (a Pillow Exif) cut, in place, to the tags that describe the
    picture; emptied where only what a writer sets by itself is left."""
    for tag in [t for t in exif if t not in _TIFF_DESCRIPTIVE]:
        del exif[tag]
    if _layout_description(exif.get(270)):
        del exif[270]
    if all(t in _TIFF_INCIDENTAL for t in exif):
        exif.clear()


def _no_pixel_dimensions(exif: Any) -> None:
    """The Exif IFD's PixelXDimension and PixelYDimension (the source's size, not the
    painting's) taken out of a Pillow Exif, in place; its other tags stay. A broken Exif
    IFD is left as it is (its IFD0, and the orientation, are still good)."""
    if _EXIF_IFD not in exif:
        return
    with contextlib.suppress(Exception):
        sub = exif.get_ifd(_EXIF_IFD)
        for tag in _PIXEL_DIMENSIONS:
            sub.pop(tag, None)


def _layout_description(text: object) -> bool:
    """Whether a TIFF's ImageDescription is its writer's note of the array's layout, not a
    caption: tifffile's JSON ({"shape": [213, 320, 3]}), ImageJ's "ImageJ=...\nimages=..."."""
    if not isinstance(text, str):
        return False
    text = text.strip()
    if text.startswith("ImageJ="):
        return True
    if not text.startswith("{"):
        return False
    import json

    try:
        note = json.loads(text)
    except ValueError:
        return False
    return isinstance(note, dict) and "shape" in note


def _png_with_phys(data: bytes, dpi: tuple[float, float]) -> bytes:
    """A PNG with a pHYs chunk (pixels a metre) for `dpi` after its IHDR."""
    import zlib

    body = b"pHYs" + struct.pack(">IIB", round(dpi[0] / 0.0254), round(dpi[1] / 0.0254), 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    at = 8 + 25  # (the signature, then IHDR: length, type, 13 bytes, CRC)
    return data[:at] + chunk + data[at:]


def _encode_with_metadata(bgr: np.ndarray, fmt: str, quality: int, icc: bytes | None,
                          exif: bytes | None, dpi: tuple[float, float] | None = None) -> bytes:
    import io

    from PIL import Image as PILImage

    arr = bgr[:, :, 2::-1] if bgr.shape[2] == 3 else bgr[:, :, [2, 1, 0, 3]]
    im = PILImage.fromarray(np.ascontiguousarray(arr))
    kw: dict[str, object] = {}
    if icc:
        kw["icc_profile"] = icc
    if exif:
        kw["exif"] = exif
    if fmt in ("JPEG", "WEBP", "AVIF"):
        kw["quality"] = quality
    if fmt == "JPEG":  # (0: 4:4:4, 2: 4:2:0)
        kw["subsampling"] = 0 if quality >= FULL_CHROMA_QUALITY else 2
    if fmt == "TIFF":
        return _compressed_tiff(im, icc, exif, dpi)
    if dpi and fmt == "JPEG":
        kw["dpi"] = dpi
    buf = io.BytesIO()
    im.save(buf, format=fmt, **kw)
    return buf.getvalue()


_SUB_IFDS = (0x8769, 0x8825)  # EXIF's Exif and GPS IFDs (pointers in the first IFD)
_PREDICTOR, _HORIZONTAL = 317, 2


def _compressed_tiff(im: Any, icc: bytes | None, exif: bytes | None,
                     dpi: tuple[float, float] | None = None) -> bytes:
    """An 8-bit TIFF with a profile and EXIF, LZW-compressed with the horizontal predictor
    as OpenCV writes one without them. Pillow compresses through libtiff, which takes the
    first IFD's tags but not the Exif and GPS IFDs: those are added to the file after."""
    import io

    from PIL import Image as PILImage
    from PIL import TiffImagePlugin

    info = TiffImagePlugin.ImageFileDirectory_v2()
    subs = TiffImagePlugin.ImageFileDirectory_v2(prefix=b"II")
    if exif:
        tags = PILImage.Exif()
        tags.load(exif)
        for tag, value in tags.items():
            if tag in _SUB_IFDS:
                with contextlib.suppress(Exception):  # (a broken one is left out)
                    if ifd := tags.get_ifd(tag):
                        subs[tag] = ifd
            else:
                info[tag] = value
    info[_PREDICTOR] = _HORIZONTAL
    buf = io.BytesIO()
    im.save(buf, format="TIFF", compression="tiff_lzw", tiffinfo=info,
            **({"icc_profile": icc} if icc else {}), **({"dpi": dpi} if dpi else {}))
    data = buf.getvalue()
    if not len(subs) or data[:2] != b"II":
        return data
    at = len(data) + (-len(data)) % 4
    block = subs.tobytes(offset=at)  # a small IFD of the two pointers, then the IFDs
    n = int.from_bytes(block[:2], "little")
    entries = [block[2 + 12 * k:14 + 12 * k] for k in range(n)]
    return _tiff_with_entries(data + bytes(at - len(data)) + block, entries)


def _orient(a: np.ndarray, orientation: int) -> np.ndarray:
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


DEFAULT_QUALITY = 95
# From this JPEG quality up, colour is kept at full resolution (4:4:4): at 4:2:0 a painting's
# saturated washes (reds on white) soften at their edges whatever the quality.
FULL_CHROMA_QUALITY = 90
PIL_FORMATS = {".jpg": "JPEG", ".jpeg": "JPEG", ".jpe": "JPEG", ".jfif": "JPEG",
               ".webp": "WEBP", ".png": "PNG", ".tif": "TIFF", ".tiff": "TIFF", ".avif": "AVIF"}
# (PNG and TIFF hold 16; Pillow's AVIF encoder takes 8)
EIGHT_BIT_ONLY = frozenset({*JPEG_EXTENSIONS, ".webp", ".bmp", ".avif"})
# Where write_image writes a resolution (pHYs, JFIF's density, TIFF's tags); elsewhere only
# an EXIF's XResolution, where the source's EXIF has one, says it.
DPI_KEPT = frozenset({".png", *JPEG_EXTENSIONS, ".tif", ".tiff"})
# What writers put when nothing is meant (most cameras' 72, Windows' 96): kept, not warned
# about where a format drops it.
_WRITERS_DPI = frozenset({72, 96})
# (a 32-bit BMP's fourth channel is not written: what OpenCV writes there, and whether a
# viewer takes it for alpha, differ from version to version)
NO_ALPHA = frozenset({*JPEG_EXTENSIONS, ".bmp"})


def write_warnings(path: str | Path, rgb: np.ndarray, icc: bytes | None = None,
                   exif: bytes | None = None, alpha: np.ndarray | None = None, *,
                   dpi: tuple[float, float] | None = None,
                   unkept: tuple[str, ...] = ()) -> list[str]:
    """What `write_image` cannot keep of a picture in `path`'s format, one line each
    (`unkept`: what the source holds that no output carries, Image.unkept)."""
    path = Path(path)
    ext, name = path.suffix.lower(), path.name
    deep = rgb.dtype == np.uint16
    notes = []
    if unkept:
        notes.append(f"{name}: written without the source's {' and '.join(unkept)} "
                     f"(aquarelle does not carry them)")
    if dpi and {round(dpi[0]), round(dpi[1])} - _WRITERS_DPI and ext not in DPI_KEPT \
            and not _exif_resolution(exif):
        notes.append(f"{name}: {ext[1:].upper()} holds no resolution here; written without "
                     f"the source's {dpi[0]:g} dpi (.png, .jpg or .tif keep it)")
    kind = "JPEG" if ext in JPEG_EXTENSIONS else \
        {".webp": "WebP", ".bmp": "BMP", ".avif": "AVIF"}.get(ext)
    if deep and ext in EIGHT_BIT_ONLY:
        notes.append(f"{name}: {kind} holds 8 bits a channel; the 16-bit picture is "
                     f"written at 8 (.png or .tif keep 16)")
    if alpha is not None and ext in NO_ALPHA and \
            (alpha < (65535 if alpha.dtype == np.uint16 else 255)).any():
        notes.append(f"{name}: {kind} is written without transparency here; the "
                     f"transparent parts are opaque paper (.png, .webp or .tif keep it)")
    if icc and not _icc_fits(icc, rgb):
        notes.append(f"{name}: its colour profile ({_icc_space(icc) or 'unreadable'}) does "
                     f"not describe the painted {_pixel_space(rgb)} pixels; left out")
        icc = None
    kept = [what for what, has in (("colour profile", icc), ("EXIF", exif)) if has]
    if not kept:
        return notes
    which = "the " + " and ".join(kept)
    if ext == ".bmp":
        notes.append(f"{name}: BMP holds no colour profile or EXIF; written without {which} "
                     f"(.png, .jpg or .tif keep them)")
    elif ext in (".tif", ".tiff") and deep:
        notes.append(f"{name}: a 16-bit TIFF is written without {which} here (.png keeps "
                     f"them at 16 bits)")
    return notes


def _exif_resolution(exif: bytes | None) -> bool:
    """Whether an EXIF block holds an XResolution."""
    if not exif:
        return False
    from PIL import Image as PILImage

    tags = PILImage.Exif()
    with contextlib.suppress(Exception):
        tags.load(exif)
    return 282 in tags


def _icc_space(icc: bytes) -> str | None:
    """An ICC profile's colour space, from its header ("RGB", "GRAY", "CMYK", "Lab"...);
    None where it is too short to have one."""
    if len(icc) < 128:  # (the header alone is 128 bytes)
        return None
    return icc[16:20].decode("latin-1").strip() or None


def _pixel_space(a: np.ndarray) -> str:
    """The ICC colour space of pixels as `write_image` writes them: grey for one channel
    (and one with alpha), RGB otherwise (the painting's)."""
    return "GRAY" if a.ndim == 2 or a.shape[2] in (1, 2) else "RGB"


def _icc_fits(icc: bytes, a: np.ndarray) -> bool:
    """Whether a colour profile describes pixels `a` (a CMYK or grey source's profile does
    not describe the painted RGB: a viewer would read its RGB as CMYK, or not show it)."""
    return _icc_space(icc) == _pixel_space(a)


_EXTRA_SAMPLES = 338  # TIFF tag: what the samples beyond the colour ones are
_UNASSOCIATED_ALPHA = 2


def _tiff_alpha(data: bytes) -> bytes:
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
    return _tiff_with_entries(data, [struct.pack(order + "HH", _EXTRA_SAMPLES, 3)
                                     + struct.pack(order + offset, 1) + value])


def _tiff_with_entries(data: bytes, new: list[bytes]) -> bytes:
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


def to_8bit(a: np.ndarray) -> np.ndarray:
    """A 16-bit picture at 8 bits, rounded (65535 -> 255); 8-bit pictures as they are."""
    if a.dtype != np.uint16:
        return a
    return ((a.astype(np.uint32) * 255 + 32767) // 65535).astype(np.uint8)


def write_image(path: str | Path, rgb: np.ndarray, alpha: np.ndarray | None = None, *,
                quality: int | None = None, icc: bytes | None = None,
                exif: bytes | None = None, replace: bool = True,
                dpi: tuple[float, float] | None = None) -> None:
    """Encode RGB (+ alpha) to `path` atomically; the format follows the extension.
    `quality` (1..100) is JPEG's and WebP's; a colour profile and EXIF are embedded where the
    format takes them (PNG at either depth, JPEG, WebP and 8-bit TIFF; not BMP), the profile
    only where its colour space is the pixels' (RGB; not a CMYK source's); a 16-bit picture is
    rounded to 8 bits for a format that holds no more (see `write_warnings`); a resolution
    (`dpi`) is written in PNG, JPEG and TIFF.
    replace=False (-n) never replaces an existing file, even one that appears meanwhile; a
    symlink is written through (atomic_output)."""
    path = Path(path)
    ext = path.suffix.lower()
    if ext not in WRITE_EXTENSIONS:
        what = "HEIF, which aquarelle reads but does not write" if ext in READ_ONLY else \
            f"unsupported image format {ext or '(none)'}"
        raise ImageError(f"{what}, for {path}; use one of {', '.join(sorted(WRITE_EXTENSIONS))}")
    if not path.parent.is_dir() if str(path.parent) else False:
        raise ImageError(f"output folder does not exist: {path.parent}")
    if ext in EIGHT_BIT_ONLY:  # (OpenCV would clip 16-bit values to 255: a white picture)
        rgb = to_8bit(rgb)
    bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR) if rgb.flags.c_contiguous and \
        rgb.ndim == 3 and rgb.shape[2] == 3 else rgb[:, :, ::-1]
    if alpha is not None and ext not in NO_ALPHA:
        if alpha.dtype != bgr.dtype:
            alpha = to_8bit(alpha) if bgr.dtype == np.uint8 else alpha.astype(np.uint16) * 257
        bgr = np.dstack([bgr, alpha])
    q = int(quality) if quality is not None else DEFAULT_QUALITY
    if icc and not _icc_fits(icc, rgb):  # a CMYK or grey source's (see `write_warnings`)
        icc = None
    if ext == ".png":
        data = encode_png(bgr, icc=icc, exif=exif)  # deflated on every core
        if dpi:
            data = _png_with_phys(data, dpi)
    elif (icc or exif or ext == ".avif" or dpi and ext in DPI_KEPT) and bgr.dtype == np.uint8 \
            and ext in PIL_FORMATS:
        data = _encode_with_metadata(bgr, PIL_FORMATS[ext], q, icc, exif, dpi)
    else:
        params: list[int] = []
        if ext in JPEG_EXTENSIONS:
            ext = ".jpg"  # (OpenCV's name for JPEG; .jfif it does not know)
            params = [cv2.IMWRITE_JPEG_QUALITY, q]
            if q >= FULL_CHROMA_QUALITY:
                params += [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444]
        elif ext == ".webp":
            params = [cv2.IMWRITE_WEBP_QUALITY, q]
        elif ext in (".tif", ".tiff") and dpi:  # (16 bits: OpenCV writes it)
            params = [cv2.IMWRITE_TIFF_RESUNIT, 2, cv2.IMWRITE_TIFF_XDPI, round(dpi[0]),
                      cv2.IMWRITE_TIFF_YDPI, round(dpi[1])]
        ok, buf = cv2.imencode(ext, np.ascontiguousarray(bgr), params)
        if not ok:
            raise ImageError(f"could not encode {path}")
        data = buf.tobytes()
        if ext in (".tif", ".tiff") and bgr.shape[2] == 4:
            data = _tiff_alpha(data)
    try:
        with atomic_output(path, replace=replace) as tmp:
            tmp.write_bytes(data)
    except OutputExists as e:
        raise ImageError(str(e)) from None
    except OSError as e:
        raise ImageError(f"cannot write {path}: {e.strerror or e}") from None
