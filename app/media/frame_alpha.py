"""A decoded frame's transparency: whether it has any, and its pixels laid on white.

Animated GIFs, APNGs and WebPs decode with an alpha channel (often all opaque); an animated
AVIF keeps its alpha in a track of its own, and VP8/VP9 in Matroska beside the pictures.
A translucent frame is painted as a transparent still is: laid on white paper.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import av
import cv2
import numpy as np

from .image_pixels import on_paper


def translucent(frame: av.VideoFrame) -> bool:
    """Whether a decoded picture has a pixel less than opaque (False where its format has no
    alpha). A GIF decodes to bgra, a PNG to rgba, with their alpha often all opaque."""
    fmt = frame.format
    alpha = next((c for c in fmt.components if c.is_alpha), None)
    if alpha is None and fmt.name != "pal8":  # (a palette's colours may carry alpha)
        return False
    if alpha is None or sum(c.plane == alpha.plane for c in fmt.components) > 1:
        deep = alpha is not None and alpha.bits > 8  # packed (bgra, argb, ya8...): as RGBA
        a = frame.to_ndarray(format="rgba64le" if deep else "rgba")[:, :, 3]
        return bool(a.min() < (65535 if deep else 255))
    plane = frame.planes[alpha.plane]  # planar (yuva444p12le, gbrap...): the plane as it is
    dtype = np.dtype(np.uint8 if alpha.bits <= 8 else
                     ">u2" if fmt.name.endswith("be") else "<u2")
    rows = np.frombuffer(plane, dtype, count=plane.height * plane.line_size // dtype.itemsize)
    a = rows.reshape(plane.height, -1)[:, :plane.width]
    return bool(a.min() < (1 << alpha.bits) - 1)


def laid_on_white(f: av.VideoFrame, kwargs: dict[str, object], rgba: bool
                   ) -> tuple[np.ndarray, np.ndarray]:
    """An RGB-family or palette frame with transparent pixels (an animated GIF's, APNG's or
    WebP's) converted as `kwargs` say, laid on white by its alpha as a transparent still is
    (image_pixels.on_paper): a cut-out's hidden colours (an APNG's black) were painted as a
    dark ground round it; and its alpha. `rgba`: with an opaque fourth channel, as asked."""
    deep = str(kwargs["format"]).startswith(("rgb48", "rgba64"))
    pixels = f.to_ndarray(**{**kwargs, "format": "rgba64le" if deep else "rgba"})
    alpha = np.ascontiguousarray(pixels[:, :, 3])
    rgb = on_paper(np.ascontiguousarray(pixels[:, :, :3]), alpha)
    if rgba:
        rgb = np.dstack([rgb, np.full(rgb.shape[:2], 65535 if deep else 255, rgb.dtype)])
    return rgb, alpha


def laid_on_plane(image: np.ndarray, plane: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A frame converted (RGB, or RGBA with an opaque fourth channel) laid on white by an
    8-bit alpha `plane` from a track of its own (an animated AVIF's), fitted to its size;
    and that alpha at the frame's depth."""
    h, w = image.shape[:2]
    if plane.shape != (h, w):
        plane = cv2.resize(plane, (w, h), interpolation=cv2.INTER_AREA)
    alpha = plane.astype(np.uint16) * 257 if image.dtype == np.uint16 else plane
    rgb = on_paper(np.ascontiguousarray(image[:, :, :3]), alpha)
    if image.shape[2] == 4:
        rgb = np.dstack([rgb, image[:, :, 3]])
    return rgb, alpha


class AlphaTrack:
    """An animated AVIF's alpha track, read beside its colour track: the plane of the
    frame at a time (its own container, decoded from the top again for a time before the
    last one read: these are short animations). None where it has no frame there."""

    def __init__(self, path: Path, index: int) -> None:
        self.path, self.index = path, index
        self._container: av.container.InputContainer | None = None
        self._frames: Iterator[av.VideoFrame] = iter(())
        self._last: int | None = None
        self._held: dict[int, np.ndarray] = {}

    def plane(self, pts: int) -> np.ndarray | None:
        if self._last is not None and pts < self._last and pts not in self._held:
            self.close()  # (a seek back: from the top)
        if self._container is None:
            self._container = av.open(str(self.path))
            self._frames = self._container.decode(self._container.streams[self.index])
            self._held.clear()
            self._last = None
        while pts not in self._held and (self._last is None or self._last < pts):
            frame = next(self._frames, None)
            if frame is None or frame.pts is None:
                break
            self._last = frame.pts
            self._held = {k: v for k, v in self._held.items() if k >= pts}
            self._held[frame.pts] = frame.to_ndarray(format="gray")
        return self._held.get(pts)

    def close(self) -> None:
        if self._container is not None:
            with contextlib.suppress(Exception):
                self._container.close()
        self._container = None


def side_alpha(stream: av.video.stream.VideoStream) -> bool:
    """Whether a VP8/VP9 stream carries alpha beside its pictures (Matroska/WebM ALPHA_MODE 1:
    in BlockAdditional), which FFmpeg's own decoder leaves out of the frames."""
    name = stream.codec_context.name if stream.codec_context else ""
    tags = {k.lower(): v for k, v in stream.metadata.items()}
    return name in ("vp8", "vp9") and str(tags.get("alpha_mode", "")).strip() == "1"
