"""Reading and writing still images: EXIF orientation, grayscale, alpha, 16-bit."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..engine.errors import AquarelleError
from .atomic import OutputExists, atomic_output

# OpenCV's decoders print warnings (e.g. on a truncated PNG) straight to stderr; our own
# one-line error says what went wrong.
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)

IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".webp", ".tif", ".tiff", ".bmp"}
_EXIF_ORIENTATION = 0x0112


class ImageError(AquarelleError):
    """An image that cannot be read or written."""


@dataclass
class Image:
    """A decoded image: RGB pixels (uint8 or uint16), optional alpha of the same depth."""

    rgb: np.ndarray
    alpha: np.ndarray | None = None
    icc: bytes | None = None  # the colour profile, kept for the output
    exif: bytes | None = None  # EXIF with the orientation reset (the pixels are upright)

    @property
    def size(self) -> tuple[int, int]:
        return self.rgb.shape[1], self.rgb.shape[0]


def is_image_path(path: str | Path) -> bool:
    """Whether the file name has an image extension we read and write."""
    return Path(path).suffix.lower() in IMAGE_EXTENSIONS


def read_image(path: str | Path) -> Image:
    """Decode an image file upright (EXIF orientation applied) as RGB (+ alpha)."""
    path = Path(path)
    if not path.exists():
        raise ImageError(f"no such file: {path}")
    if not path.is_file():
        raise ImageError(f"not a file: {path}")
    data = np.fromfile(path, dtype=np.uint8)
    arr = cv2.imdecode(data, cv2.IMREAD_UNCHANGED) if data.size else None
    if arr is None:
        raise ImageError(f"not a readable image: {path}")
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
        rgb = cv2.cvtColor(arr, cv2.COLOR_BGR2RGB)
    orientation, icc, exif = _metadata(path)
    rgb = _orient(rgb, orientation)
    alpha = _orient(alpha, orientation) if alpha is not None else None
    return Image(np.ascontiguousarray(rgb), None if alpha is None else np.ascontiguousarray(alpha),
                 icc, exif)


def _metadata(path: Path) -> tuple[int, bytes | None, bytes | None]:
    """EXIF orientation, ICC profile and EXIF block (orientation reset to 1: the pixels are
    turned upright) of an image file; nothing when Pillow cannot open it."""
    try:
        from PIL import Image as PILImage

        with PILImage.open(path) as im:
            exif = im.getexif()
            orientation = int(exif.get(_EXIF_ORIENTATION, 1))
            icc = im.info.get("icc_profile") or None
            if len(exif):
                exif[_EXIF_ORIENTATION] = 1
                return orientation, icc, exif.tobytes()
            return orientation, icc, None
    except Exception:  # no metadata, or a format Pillow cannot open: upright as decoded
        return 1, None, None


def _encode_with_metadata(bgr: np.ndarray, fmt: str, quality: int, icc: bytes | None,
                          exif: bytes | None) -> bytes:
    import io

    from PIL import Image as PILImage

    arr = bgr[:, :, 2::-1] if bgr.shape[2] == 3 else bgr[:, :, [2, 1, 0, 3]]
    im = PILImage.fromarray(np.ascontiguousarray(arr))
    kw: dict[str, object] = {}
    if icc:
        kw["icc_profile"] = icc
    if exif:
        kw["exif"] = exif
    if fmt in ("JPEG", "WEBP"):
        kw["quality"] = quality
    buf = io.BytesIO()
    im.save(buf, format=fmt, **kw)
    return buf.getvalue()


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
PIL_FORMATS = {".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP", ".png": "PNG",
               ".tif": "TIFF", ".tiff": "TIFF"}


def write_image(path: str | Path, rgb: np.ndarray, alpha: np.ndarray | None = None, *,
                quality: int | None = None, icc: bytes | None = None,
                exif: bytes | None = None, replace: bool = True) -> None:
    """Encode RGB (+ alpha) to `path` atomically; the format follows the extension.
    `quality` (1..100) is JPEG's and WebP's; a colour profile and EXIF are embedded where the
    format takes them (8-bit output). replace=False (-n) never replaces an existing file,
    even one that appears meanwhile; a symlink is written through (atomic_output)."""
    path = Path(path)
    ext = path.suffix.lower()
    if ext not in IMAGE_EXTENSIONS:
        raise ImageError(f"unsupported image format {ext or '(none)'} for {path}; "
                         f"use one of {', '.join(sorted(IMAGE_EXTENSIONS))}")
    if not path.parent.is_dir() if str(path.parent) else False:
        raise ImageError(f"output folder does not exist: {path.parent}")
    bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR) if rgb.flags.c_contiguous and \
        rgb.ndim == 3 and rgb.shape[2] == 3 else rgb[:, :, ::-1]
    if alpha is not None and ext in (".png", ".webp", ".tif", ".tiff"):
        if alpha.dtype != bgr.dtype:
            alpha = (alpha >> 8).astype(np.uint8) if alpha.dtype == np.uint16 else alpha
        bgr = np.dstack([bgr, alpha])
    q = int(quality) if quality is not None else DEFAULT_QUALITY
    if (icc or exif) and bgr.dtype == np.uint8 and ext in PIL_FORMATS:
        data = _encode_with_metadata(bgr, PIL_FORMATS[ext], q, icc, exif)
    else:
        params: list[int] = []
        if ext in (".jpg", ".jpeg"):
            params = [cv2.IMWRITE_JPEG_QUALITY, q]
        elif ext == ".webp":
            params = [cv2.IMWRITE_WEBP_QUALITY, q]
        ok, buf = cv2.imencode(ext, np.ascontiguousarray(bgr), params)
        if not ok:
            raise ImageError(f"could not encode {path}")
        data = buf.tobytes()
    try:
        with atomic_output(path, replace=replace) as tmp:
            tmp.write_bytes(data)
    except OutputExists as e:
        raise ImageError(str(e)) from None
    except OSError as e:
        raise ImageError(f"cannot write {path}: {e.strerror or e}") from None
