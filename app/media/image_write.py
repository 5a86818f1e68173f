"""Writing a still atomically in the format its name says, with the colour profile, EXIF and
resolution the format holds."""

from __future__ import annotations

import contextlib
import struct
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .atomic import OutputExists, atomic_output
from .image_formats import (
    DPI_KEPT,
    EIGHT_BIT_ONLY,
    JPEG_EXTENSIONS,
    NO_ALPHA,
    PIL_FORMATS,
    READ_ONLY,
    WRITE_EXTENSIONS,
)
from .image_pixels import off_paper, to_8bit
from .image_read import os_reason
from .image_types import ImageError
from .image_write_warnings import icc_fits
from .png_encode import encode_png
from .tiff_bytes import tiff_alpha, tiff_with_entries

DEFAULT_QUALITY = 95
# From this JPEG quality up, colour is kept at full resolution (4:4:4): at 4:2:0 a painting's
# saturated washes (reds on white) soften at their edges whatever the quality.
FULL_CHROMA_QUALITY = 90
# The longest side an encoder writes (libwebp's 16383, libjpeg's 65500); the other formats
# hold more than aquarelle paints.
MAX_SIDES = {".webp": ("WebP", 16383), **dict.fromkeys(JPEG_EXTENSIONS, ("JPEG", 65500))}


def painting_to_write(path: str | Path, rgb: np.ndarray,
                      alpha: np.ndarray | None) -> np.ndarray:
    """A painting of the picture laid on paper by `alpha` (on_paper), as written beside that
    alpha where `path`'s format keeps it: the colours that give the painting laid on white
    (off_paper; as painted, half-transparent pixels were laid on white twice: 50% black
    showed 191 where the source showed 127, trial V4); the painting itself where the format
    keeps no alpha (a JPEG's: the painting on its paper)."""
    if alpha is None or Path(path).suffix.lower() in NO_ALPHA:
        return rgb
    if alpha.dtype != rgb.dtype:
        alpha = to_8bit(alpha) if rgb.dtype == np.uint8 else alpha.astype(np.uint16) * 257
    return off_paper(rgb, alpha)


def side_limit(path: str | Path, size: tuple[int, int]) -> tuple[str, int] | None:
    """The format and its longest side, where a picture of `size` (w, h) is beyond what
    `path`'s format holds; None where it fits."""
    limit = MAX_SIDES.get(Path(path).suffix.lower())
    return limit if limit is not None and max(size) > limit[1] else None


def write_image(path: str | Path, rgb: np.ndarray, alpha: np.ndarray | None = None, *,
                quality: int | None = None, icc: bytes | None = None,
                exif: bytes | None = None, replace: bool = True,
                dpi: tuple[float, float] | None = None) -> None:
    """Encode RGB (+ alpha) to `path` atomically; the format follows the extension.
    `quality` (1..100) is JPEG's and WebP's; a colour profile and EXIF are embedded where the
    format takes them (PNG at either depth, JPEG, WebP and 8-bit TIFF; not BMP), the profile
    only where its colour space is the pixels' (RGB; not a CMYK source's); a 16-bit picture is
    rounded to 8 bits for a format that holds no more (see `write_warnings`); a resolution
    (`dpi`) is written in PNG, JPEG, TIFF and BMP.
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
    if (beyond := side_limit(path, (rgb.shape[1], rgb.shape[0]))) is not None:
        raise ImageError(f"{path}: {beyond[0]} holds at most {beyond[1]} px a side, the "
                         f"picture is {rgb.shape[1]}x{rgb.shape[0]}; write it smaller, or as "
                         ".png, .tif or .avif")
    if ext in EIGHT_BIT_ONLY:  # (OpenCV would clip 16-bit values to 255: a white picture)
        rgb = to_8bit(rgb)
    bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR) if rgb.flags.c_contiguous and \
        rgb.ndim == 3 and rgb.shape[2] == 3 else rgb[:, :, ::-1]
    if alpha is not None and ext not in NO_ALPHA:
        if alpha.dtype != bgr.dtype:
            alpha = to_8bit(alpha) if bgr.dtype == np.uint8 else alpha.astype(np.uint16) * 257
        bgr = np.dstack([bgr, alpha])
    q = int(quality) if quality is not None else DEFAULT_QUALITY
    if icc and not icc_fits(icc, rgb):  # a CMYK or grey source's (see `write_warnings`)
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
            data = tiff_alpha(data)
        if ext == ".bmp" and dpi:
            data = _bmp_with_resolution(data, dpi)
    try:
        with atomic_output(path, replace=replace) as tmp:
            tmp.write_bytes(data)
    except OutputExists as e:
        raise ImageError(str(e)) from None
    except OSError as e:
        raise ImageError(f"cannot write {path}: {os_reason(e)}") from None


def _png_with_phys(data: bytes, dpi: tuple[float, float]) -> bytes:
    """A PNG with a pHYs chunk (pixels a metre) for `dpi` after its IHDR."""
    import zlib

    body = b"pHYs" + struct.pack(">IIB", round(dpi[0] / 0.0254), round(dpi[1] / 0.0254), 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    at = 8 + 25  # (the signature, then IHDR: length, type, 13 bytes, CRC)
    return data[:at] + chunk + data[at:]


_BMP_INFO_AT, _BMP_PELS_AT = 14, 38  # (BITMAPINFOHEADER after the file header; its ppm)


def _bmp_with_resolution(data: bytes, dpi: tuple[float, float]) -> bytes:
    """A BMP with its pixels a metre set for `dpi` (OpenCV writes 0: none); one whose header
    has no room for them (an OS/2 one) as it is."""
    if struct.unpack_from("<I", data, _BMP_INFO_AT)[0] < 40:
        return data
    pels = struct.pack("<ii", round(dpi[0] / 0.0254), round(dpi[1] / 0.0254))
    return data[:_BMP_PELS_AT] + pels + data[_BMP_PELS_AT + 8:]


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
    return tiff_with_entries(data + bytes(at - len(data)) + block, entries)
