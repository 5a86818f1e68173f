"""AVIF and HEIF photos decoded by Pillow, or read through FFmpeg where nothing else here
decodes them."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .decoder_messages import quiet_pillow
from .image_types import Image, ImageError, warn


def pillow_picture(path: Path, data: np.ndarray) -> np.ndarray | None:
    """An AVIF photo (a HEIF one where Pillow has a plugin for it) decoded by Pillow, as
    8-bit BGR or BGRA; its profile and EXIF are read with the rest (`read_metadata`). None
    where Pillow cannot decode it. Its other frames, if any, are said to be left out."""
    import io

    try:
        with quiet_pillow() as pil, pil.open(io.BytesIO(memoryview(data))) as im:
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


def ffmpeg_picture(path: Path) -> Image:
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
