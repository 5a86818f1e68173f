"""Frames as numpy arrays: the forms the engine takes, the picture the subject models see,
and whether a frame is the last picture again."""

from __future__ import annotations

import cv2
import numpy as np

from .errors import FrameError


def as_pixels(frame: np.ndarray) -> np.ndarray:
    """Normalize a frame to (H, W, 3 or 4) uint8, uint16 or float32 in [0,1]: a grey one to
    RGB; a fourth channel kept as it is (the engine ignores it: an upload maps it to 1, and
    a decoder's opaque RGBA is uploaded as it comes, with no repacking)."""
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"a frame must be a numpy array, not {type(frame).__name__}")
    if frame.ndim == 2:
        frame = frame[:, :, None]
    if frame.ndim != 3 or frame.shape[2] not in (1, 3, 4) or 0 in frame.shape[:2]:
        raise FrameError(f"a frame must be (H, W), (H, W, 3) or (H, W, 4), got {frame.shape}")
    if frame.shape[2] == 1:
        frame = np.repeat(frame, 3, axis=2)
    if frame.dtype in (np.uint8, np.uint16):
        return frame  # 16-bit is uploaded as 16-bit normalized: no float copy
    if frame.dtype in (np.float32, np.float64):
        return np.clip(frame, 0.0, 1.0).astype(np.float32)
    raise FrameError(f"unsupported frame type {frame.dtype}")


def as_rgb(frame: np.ndarray) -> np.ndarray:
    """Normalize a frame to (H, W, 3) uint8, uint16 or float32 in [0,1]."""
    arr = as_pixels(frame)
    return arr[:, :, :3] if arr.shape[2] == 4 else arr


def rgb8(frame: np.ndarray, order: str = "rgb") -> np.ndarray:
    """A frame as the subject models see it: (H, W, 3) uint8 RGB."""
    if frame.ndim == 3 and frame.shape[2] == 4 and frame.dtype == np.uint8 \
            and frame.flags.c_contiguous:  # a decoder's RGBA: OpenCV's SIMD, not a strided copy
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2RGB if order == "bgr" else cv2.COLOR_RGBA2RGB)
    arr = as_rgb(frame)
    if order == "bgr":
        arr = arr[..., ::-1]
    if arr.dtype == np.uint16:
        return (arr >> 8).astype(np.uint8)
    if arr.dtype != np.uint8:
        return (arr * 255.0 + 0.5).astype(np.uint8)
    return np.ascontiguousarray(arr)


class SamePicture:
    """Whether each frame is the last one's picture again (a still painted anew with other
    values, a video's frozen frame), from every fourth pixel of every fourth row."""

    def __init__(self) -> None:
        self._last: np.ndarray | None = None

    def __call__(self, frame: np.ndarray) -> bool:
        probe = frame[::4, ::4]
        last, self._last = self._last, probe.copy()
        return last is not None and last.shape == probe.shape and np.array_equal(last, probe)

    def reset(self) -> None:
        """Forget the last frame: the next is never a repeat."""
        self._last = None
