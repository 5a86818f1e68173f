"""Optical flow between consecutive frames, shared by every temporal feature of a style.

DIS optical flow (OpenCV) on a downscaled grey frame is cheap on the CPU and uploaded as a
small float texture; shaders sample it linearly. The flow is *backward*: a pixel at uv in the
current frame came from uv + flow(uv) in the previous one, which is what warping the previous
frame's state into the current frame needs.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import cv2
import numpy as np

CUT_THRESHOLD = 0.18  # mean absolute grey difference (0..1) beyond which a frame is a new shot
# What the flow cannot explain: the previous frame warped along it still differs from this one
# by a mean grey difference (0..1) above WARP_CUT (a jump the estimate cannot follow: a seek,
# skipped frames, a loop), and history is not carried at all. Consecutive frames of a busy
# handheld clip stay under 0.03, a jump of 30 frames is above 0.1. Per pixel, the history
# counts fully up to CONFIDENT and not at all from DOUBTFUL on (a moving arm, a turned head).
WARP_CUT = 0.05
CONFIDENT, DOUBTFUL = 0.04, 0.12


@dataclass
class Motion:
    """The motion from the previous frame to the current one."""

    flow_uv: np.ndarray  # (h, w, 2) float32, backward flow in UV units
    # (h, w) float32 in [0, 1]: how far the warped previous frame can be trusted at each
    # pixel (1 where it matches this frame, 0 where the flow missed)
    confidence: np.ndarray
    # Global camera motion: the similarity (3x3, source pixels) that maps a pixel of the
    # current frame to where that content was in the previous frame.
    to_previous: np.ndarray


@dataclass(frozen=True)
class Past:
    """A frame as a motion estimate remembers it: its small grey picture and its size."""

    grey: np.ndarray
    size: tuple[int, int]  # (w, h) of the frame it was made from


class MotionEstimator:
    """Keeps the previous frame and estimates motion to each new one."""

    def __init__(self, max_width: int = 320) -> None:
        self.max_width = max_width
        self._dis = cv2.DISOpticalFlow_create(cv2.DISOPTICAL_FLOW_PRESET_FAST)
        self._past: Past | None = None

    def reset(self) -> None:
        """Forget the previous frame (new source, seek)."""
        self._past = None

    def remember(self, past: Past) -> None:
        """Take `past` as the previous frame (estimated elsewhere: MotionFeed)."""
        self._past = past

    def update(self, frame: np.ndarray) -> Motion | None:
        """Feed the next frame (RGB/BGR (H, W, 3) or grey); returns None at a cut or start."""
        motion, self._past = self.compare(self._past, frame)
        return motion

    def compare(self, past: Past | None, frame: np.ndarray) -> tuple[Motion | None, Past]:
        """The motion from `past` to `frame` (None at a cut, or with nothing to compare
        with), and `frame` as the next estimate's past; keeps nothing itself."""
        grey = _small_grey(frame, self.max_width)
        now = Past(grey, (frame.shape[1], frame.shape[0]))
        if past is None or past.grey.shape != grey.shape or past.size != now.size \
                or min(grey.shape) < 16:
            return None, now  # nothing to compare with, or too small for DIS
        prev = past.grey
        if float(np.mean(cv2.absdiff(prev, grey))) / 255.0 > CUT_THRESHOLD:
            return None, now
        flow = self._dis.calc(grey, prev, None)  # current -> previous, in small pixels
        h, w = grey.shape
        residual = warp_residual(prev, grey, flow)
        if float(residual.mean()) > WARP_CUT:
            return None, now  # the flow does not explain the change: treat it as a cut
        flow_uv = flow / np.array([w, h], np.float32)
        return Motion(np.ascontiguousarray(flow_uv, np.float32), confidence(residual),
                      global_similarity(flow, (w, h), now.size)), now


# The paper sheet follows the camera, not its estimation noise: the sheet shown moves once the
# camera's accumulated motion has moved a corner of the frame this far (in the motion
# estimate's pixels), so a still camera keeps a still sheet (its paper is then reused as
# drawn) and a slow pan still moves it, in steps, without losing any motion.
STILL_PX = 0.02


def corner_shift(a: np.ndarray, b: np.ndarray, size: tuple[int, int]) -> float:
    """How far apart (px) two 3x3 transforms put the corners of a frame of `size` (w, h)."""
    w, h = size
    corners = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], float)
    return float(np.abs((corners @ (a - b).T)[:, :2]).max())


def warp_residual(prev: np.ndarray, grey: np.ndarray, flow: np.ndarray) -> np.ndarray:
    """|previous frame warped along the backward flow - this frame| per pixel, 0..1 (grey
    uint8 frames of one size; `flow` in their pixels)."""
    xs, ys = _pixel_grid(grey.shape)
    warped = cv2.remap(prev, xs + flow[..., 0], ys + flow[..., 1], cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    return cv2.absdiff(warped, grey).astype(np.float32) / 255.0


@functools.lru_cache(maxsize=4)
def _pixel_grid(shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """x and y of every pixel of a frame of `shape` (h, w), made once per size."""
    ys, xs = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32)
    return xs, ys


def confidence(residual: np.ndarray) -> np.ndarray:
    """Per-pixel trust in the warped history from the warp residual (smoothed a little, so
    one noisy pixel does not punch a hole)."""
    r = cv2.blur(residual, (3, 3))
    return np.ascontiguousarray(np.clip((DOUBTFUL - r) / (DOUBTFUL - CONFIDENT), 0.0, 1.0),
                                np.float32)


def global_similarity(flow: np.ndarray, small: tuple[int, int], size: tuple[int, int]
                      ) -> np.ndarray:
    """The camera's motion as a similarity (pan, zoom, roll) fitted robustly (LMedS, so
    moving objects do not count) to a backward flow field; 3x3, in source pixels."""
    (w, h), (sw, sh) = small, size
    step = max(1, min(w, h) // 24)
    ys, xs = np.mgrid[step // 2:h:step, step // 2:w:step]
    cur = np.stack([xs.ravel() + 0.5, ys.ravel() + 0.5], axis=1).astype(np.float32)
    prev = cur + flow[ys.ravel(), xs.ravel()]
    scale = np.array([sw / w, sh / h], np.float32)
    m, _ = cv2.estimateAffinePartial2D(cur * scale, prev * scale, method=cv2.LMEDS)
    out = np.eye(3)
    if m is not None and np.all(np.isfinite(m)):
        out[:2] = m
    else:  # degenerate field: fall back to the median translation
        out[:2, 2] = np.median(flow.reshape(-1, 2), axis=0) * scale
    return out


def _small_grey(frame: np.ndarray, max_width: int) -> np.ndarray:
    if frame.ndim == 3 and frame.shape[2] == 4 and frame.dtype == np.uint8 \
            and frame.flags.c_contiguous:  # a decoder's RGBA: the grey in one SIMD pass
        grey = cv2.cvtColor(frame, cv2.COLOR_RGBA2GRAY)
    else:
        if frame.ndim == 3:  # (H, W, 1) is grey; (H, W, 4) drops alpha
            frame = frame[:, :, :3] if frame.shape[2] >= 3 else frame[:, :, 0]
        if frame.dtype != np.uint8:  # the engine's value ranges: uint16, or floats in [0,1]
            frame = (np.clip(frame.astype(np.float32) / (65535.0 if frame.dtype == np.uint16
                                                          else 1.0), 0, 1) * 255
                     ).astype(np.uint8)
        grey = cv2.cvtColor(np.ascontiguousarray(frame), cv2.COLOR_RGB2GRAY) \
            if frame.ndim == 3 else frame
    h, w = grey.shape
    if w > max_width:
        nh = max(8, round(h * max_width / w))
        grey = cv2.resize(grey, (max_width, nh), interpolation=cv2.INTER_AREA)
    return grey


class MotionTracker:
    """The frames of one source, for every style that needs motion: each asks at its own
    flow width, and each width is estimated once per frame (a chain's styles share it)."""

    def __init__(self) -> None:
        self._estimators: dict[int, tuple[MotionEstimator, int]] = {}  # width -> (est, frame)
        self._frame: np.ndarray | None = None
        self._index = 0
        self._cache: dict[int, Motion | None] = {}
        self._again = False  # the current frame painted again: its motion as found then

    @property
    def frame_size(self) -> tuple[int, int] | None:
        """(w, h) of the current frame, or None when there is none (a texture was given)."""
        return None if self._frame is None else (self._frame.shape[1], self._frame.shape[0])

    def next_frame(self, rgb: np.ndarray | None, ahead: FrameMotion | None = None) -> None:
        """The next frame as an RGB or grey array, or None when motion cannot be known (a texture
        without its array, a re-render of the same frame with new settings). `ahead`: its
        motion, already estimated (MotionAhead, on another thread)."""
        self._frame = rgb
        self._index += 1
        self._cache.clear()
        self._again = False
        if rgb is None:
            self.reset()
        elif ahead is not None and ahead.size == self.frame_size:
            self._cache.update(ahead.by_width)
            for width, past in ahead.pasts.items():
                if width not in ahead.by_width:
                    continue  # estimated here, from the past it holds
                est, _ = self._estimators.get(width, (None, -1))
                est = est or MotionEstimator(width)
                est.remember(past)
                self._estimators[width] = (est, self._index)

    def same_frame(self) -> None:
        """The current frame painted again (new settings, its subject found): its motion is
        the one found for it (it reads again the history it read then), and the next frame's
        is still found from it (forgetting it would paint the next frame as a cut)."""
        self._again = True

    def motion(self, max_width: int) -> Motion | None:
        """The motion from the previous frame to this one, at `max_width` flow pixels."""
        if self._frame is None:
            return None
        if self._again:
            return self._cache.get(max_width)
        if max_width in self._cache:
            return self._cache[max_width]
        est, last = self._estimators.get(max_width, (None, -1))
        if est is None:
            est = MotionEstimator(max_width)
        if last != self._index - 1:
            est.reset()  # it missed frames: its previous frame is not this one's
        m = est.update(self._frame)
        self._estimators[max_width] = (est, self._index)
        self._cache[max_width] = m
        return m

    def reset(self) -> None:
        """Forget every previous frame (seek, cut, new source)."""
        for est, _ in self._estimators.values():
            est.reset()
        self._cache.clear()


@dataclass(frozen=True)
class FrameMotion:
    """A frame's motion estimated ahead of its render, at each flow width asked for."""

    size: tuple[int, int]  # (w, h) of the frame it was estimated on
    by_width: dict[int, Motion | None]
    # the frame as each width's estimate remembers it (MotionFeed): the render's own tracker
    # takes it as its past, so a next frame without motion ahead is estimated from it
    pasts: dict[int, Past] = field(default_factory=dict)


class MotionAhead:
    """Estimates each frame's motion before the render thread gets the frame (a decoder's
    thread feeds it, in frame order): what `MotionTracker` would find for that frame, at the
    flow widths the pipeline's styles ask for, so that the render only uploads the flow."""

    def __init__(self, widths: set[int] | frozenset[int]) -> None:
        self.widths = tuple(sorted(widths))
        self._tracker = MotionTracker()

    def estimate(self, rgb: np.ndarray) -> FrameMotion:
        """The motion from the previous frame fed to this one (None at a cut or start)."""
        self._tracker.next_frame(rgb)
        return FrameMotion((rgb.shape[1], rgb.shape[0]),
                           {w: self._tracker.motion(w) for w in self.widths})
