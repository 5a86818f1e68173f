"""What each style is measured against in `aquarelle bench`: the OpenCV call that does the
same job on the CPU (for the watercolor, cv2.stylization), on RGB uint8 frames."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

Baseline = tuple[str, Callable[[np.ndarray], np.ndarray]]


def _clahe(f: np.ndarray) -> np.ndarray:
    ycc = cv2.cvtColor(f, cv2.COLOR_RGB2YCrCb)
    ycc[..., 0] = cv2.createCLAHE(2.5, (8, 8)).apply(np.ascontiguousarray(ycc[..., 0]))
    return cv2.cvtColor(ycc, cv2.COLOR_YCrCb2RGB)


def _adjust(f: np.ndarray) -> np.ndarray:
    hsv = cv2.cvtColor(cv2.convertScaleAbs(f, alpha=1.1, beta=5), cv2.COLOR_RGB2HSV)
    hsv[..., 1] = cv2.convertScaleAbs(hsv[..., 1], alpha=1.2)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)


def _unsharp(f: np.ndarray) -> np.ndarray:
    return cv2.addWeighted(f, 1.8, cv2.GaussianBlur(f, (0, 0), 1.5), -0.8, 0)


def _sobel(f: np.ndarray) -> np.ndarray:
    g = cv2.cvtColor(f, cv2.COLOR_RGB2GRAY)
    return cv2.magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))


def _line(f: np.ndarray) -> np.ndarray:
    k = np.zeros((1, 15), np.float32)
    k[:] = 1 / 15
    return cv2.filter2D(f, -1, k)


def _emboss(f: np.ndarray) -> np.ndarray:
    k = np.array([[-2, -1, 0], [-1, 1, 1], [0, 1, 2]], np.float32)
    return cv2.filter2D(f, -1, k)


def _shift_view(f: np.ndarray) -> np.ndarray:
    h, w = f.shape[:2]
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32) + 0.015 * w,
                         np.arange(h, dtype=np.float32))
    return cv2.remap(f, xs, ys, cv2.INTER_LINEAR)


BASELINES: dict[str, Baseline] = {
    "watercolor": ("cv2.stylization (sigma_s=60, sigma_r=0.45)",
                   lambda f: cv2.stylization(f[:, :, ::-1])),
    "denoise": ("cv2.bilateralFilter (d from sigma 2, sigma_color 40)",
                lambda f: cv2.bilateralFilter(f, -1, 40, 2)),
    "enhance": ("CLAHE on YCrCb luma (cv2.createCLAHE 2.5, 8x8)", _clahe),
    "adjust": ("cv2.convertScaleAbs + HSV saturation", _adjust),
    "blur": ("cv2.GaussianBlur (sigma 3)", lambda f: cv2.GaussianBlur(f, (0, 0), 3)),
    "sharpen": ("unsharp mask (cv2.GaussianBlur + addWeighted)", _unsharp),
    "edges": ("cv2.Sobel magnitude", _sobel),
    "motion_blur": ("cv2.filter2D, 15 px line kernel", _line),
    "relief": ("cv2.filter2D emboss kernel", _emboss),
    "stereo": ("cv2.remap by a constant shift (a one-tap view)", _shift_view),
    "upscale": ("cv2.resize x2 bicubic",
                lambda f: cv2.resize(f, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)),
}


def baseline(style_name: str) -> Baseline:
    """The OpenCV equivalent of a style (the last style of a chain); cv2.stylization when
    there is none."""
    return BASELINES.get(style_name.split("+")[-1], BASELINES["watercolor"])
