"""Reading a still: decoded by OpenCV (Pillow, FFmpeg for AVIF and HEIF), upright, as sRGB,
with its metadata; refused from its header where it is too big to decode."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .decoder_messages import broken, decoder_messages, quiet_pillow, quiet_png
from .heif_read import ffmpeg_picture, pillow_picture
from .image_formats import JPEG_EXTENSIONS
from .image_metadata import EXIF_ORIENTATION, read_metadata
from .image_pixels import orient
from .image_types import MAX_PIXELS, TRUNCATED, Image, ImageError, warn
from .short_file import ends_early
from .tiff_bytes import tiff_pages, unturned_tiff

_REDUCED = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
            8: cv2.IMREAD_REDUCED_COLOR_8}


def image_size(path: str | Path) -> tuple[int, int] | None:
    """An image file's upright size (w, h) from its header, without decoding it; None when
    Pillow cannot read the header (OpenCV may still decode the file)."""
    return _header_size(Path(path), None)


def _header_size(path: Path, said: list[str] | None) -> tuple[int, int] | None:
    """image_size, with what Pillow found wrong in the header added to `said`."""
    with quiet_pillow(header_only=True, said=said) as pil:
        try:
            with pil.open(path) as im:
                w, h = im.size
                if im.format == "TIFF":  # as stored (newer Pillows give it turned)
                    w, h = int(im.tag_v2.get(256, w)), int(im.tag_v2.get(257, h))
                try:
                    orientation = int(im.getexif().get(EXIF_ORIENTATION, 1))
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
        arr = pillow_picture(path, data)
        if arr is None:  # (an older Pillow: OpenCV may read AVIF, else FFmpeg does)
            try:
                arr = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
            except cv2.error:
                arr = None
        if arr is None:
            try:
                return ffmpeg_picture(path)
            except ImageError:
                if ends_early(data):
                    raise ImageError(f"not a readable image: {path} ({TRUNCATED})") from None
                raise
        return _finish(path, arr, None, said)
    if bytes(data[:4]) == b"GIF8" and (arr := _gif_picture(data)) is not None:
        return _finish(path, arr, None, said)
    tiff = path.suffix.lower() in (".tif", ".tiff")
    # a TIFF's decoders (OpenCV's, Pillow's) turn it by its Orientation tag themselves, some
    # kinds only: they are given it unturned, and it is turned below like any other picture
    tiff_orientation = unturned_tiff(data) if tiff else 1
    pages = tiff_pages(data) if tiff else 1
    if pages > 1:
        warn(f"{path.name} holds {pages} pages; only the first of {pages} pages is painted")
    png, jpeg = bytes(data[:4]) == b"\x89PNG", bytes(data[:3]) == b"\xff\xd8\xff"
    if png:
        quiet_png(data)
    with decoder_messages(png or jpeg) as printed:
        try:
            arr = cv2.imdecode(data, flags) if data.size else None
        except cv2.error:  # e.g. a header claiming more pixels than OpenCV decodes
            arr = None
    if arr is None and (png or jpeg):
        raise ImageError(f"not a readable image: {path} ({broken(data, png, printed)})")
    said += printed
    if arr is not None and arr.ndim == 3 and arr.shape[2] == 4 and arr.dtype == np.uint8 \
            and tiff:
        arr = _straight_tiff(data, arr)
    if arr is None:
        why = f" ({TRUNCATED})" if ends_early(data) else ""
        raise ImageError(f"not a readable image: {path}{why}")
    del data
    return _finish(path, arr, tiff_orientation if tiff else None, said)


def _gif_picture(data: np.ndarray) -> np.ndarray | None:
    """A GIF's (first) picture through Pillow, as BGRA where it has a transparent colour:
    OpenCV's GIF decoder gave its picture opaque, the transparent part the colour under it
    (a transparent still GIF painted to PNG came out opaque, unsaid; trial V4). None where
    Pillow cannot decode it (OpenCV then tries)."""
    import io

    try:
        with quiet_pillow() as pil, pil.open(io.BytesIO(memoryview(data))) as im:
            im.seek(0)
            see_through = "transparency" in im.info or im.mode in ("RGBA", "LA", "PA")
            rgb = np.asarray(im.convert("RGBA" if see_through else "RGB"))
    except Exception:  # (a damaged GIF: OpenCV's decoder, then the usual message)
        return None
    return cv2.cvtColor(rgb, cv2.COLOR_RGBA2BGRA if rgb.shape[2] == 4 else cv2.COLOR_RGB2BGR)


def _finish(path: Path, arr: np.ndarray, orientation: int | None, said: list[str]) -> Image:
    """A decoded picture (OpenCV's layout: grey, grey + alpha, BGR or BGRA) as an upright
    sRGB Image with the file's metadata; `orientation`: the file's own where it is known
    already (a TIFF's), else its EXIF's. What was found wrong with the file (`said`, the
    metadata's too) is one warning."""
    if arr.dtype not in (np.uint8, np.uint16):
        if arr.dtype == np.float32:
            arr = _float_to_16(path, arr)
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
    exif_orientation, icc, exif, dpi, unkept = read_metadata(path, said)
    if said:  # (Pillow's words are of the metadata: the decoder read the picture)
        what = "its metadata looks" if said[0].startswith("Pillow:") else "it looks"
        warn(f"{path.name}: {what} damaged ({said[0]}); the picture is painted as it decodes")
    # (Pillow's reading of a TIFF's tag, where it has one, is of the turned file)
    orientation = exif_orientation if orientation is None else orientation
    from .colour_profile import to_srgb  # (its own module: the engine paints sRGB)

    rgb, icc = to_srgb(rgb, icc, path.name)  # P3, Adobe RGB... converted, sRGB as it is
    rgb = orient(rgb, orientation)
    alpha = orient(alpha, orientation) if alpha is not None else None
    return Image(np.ascontiguousarray(rgb), None if alpha is None else np.ascontiguousarray(alpha),
                 icc, exif, dpi, unkept)


def _float_to_16(path: Path, arr: np.ndarray) -> np.ndarray:
    """A floating-point picture (a 32-bit TIFF) as 16-bit, 0.0..1.0 its range; what lies
    outside it (an HDR file's lights, a NaN) is said, not clipped unseen."""
    finite = np.isfinite(arr)
    nan = arr.size - int(np.count_nonzero(finite))
    top = float(arr.max(initial=0.0, where=finite))
    low = float(arr.min(initial=0.0, where=finite))
    out = (np.clip(np.nan_to_num(arr, nan=0.0, posinf=1.0, neginf=0.0), 0, 1) * 65535
           + 0.5).astype(np.uint16)
    parts = []
    slack = 0.5 / 65535  # (rounding noise past the range: the same 16-bit value)
    if top > 1.0 + slack:
        parts.append(f"values up to {top:.3g} painted as white (1.0)")
    if low < -slack:
        parts.append(f"values down to {low:.3g} as black (0.0)")
    if nan:
        parts.append(f"{nan} not-a-number values as black")
    if parts:
        warn(f"{path.name}: a floating-point picture is painted in its 0.0-1.0 range: "
             + "; ".join(parts))
    return out


def _straight_tiff(data: np.ndarray, bgra: np.ndarray) -> np.ndarray:
    """An 8-bit TIFF's BGRA (`data`: the file, unturned) with its colours as stored, not
    multiplied by the alpha: OpenCV (libtiff's RGBA reader) multiplies them where the alpha
    is marked unassociated, as most writers' (and ours) is, and a semi-transparent pixel
    came out darker. Pillow reads them as they are (and divides associated alpha out);
    OpenCV's pixels where it cannot."""
    import io

    try:
        with quiet_pillow() as pil, pil.open(io.BytesIO(memoryview(data))) as im:
            if im.mode not in ("RGBA", "RGBa") or im.size != (bgra.shape[1], bgra.shape[0]):
                return bgra
            rgba = np.asarray(im.convert("RGBA") if im.mode == "RGBa" else im)
    except Exception:  # a TIFF Pillow cannot decode: as OpenCV read it
        return bgra
    return cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA)


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
