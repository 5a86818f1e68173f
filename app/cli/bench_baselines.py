"""What each style is measured against in `aquarelle bench`: the OpenCV call that does the
same job on the CPU (for the watercolor, cv2.stylization), on RGB uint8 frames, with the
values the style is painted with where they choose the job (edges' Canny mode, upscale's
factor); a chain's are its styles' calls in turn."""

from __future__ import annotations

from collections.abc import Callable, Mapping

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


def _canny(low: float, high: float) -> Callable[[np.ndarray], np.ndarray]:
    def canny(f: np.ndarray) -> np.ndarray:
        return cv2.Canny(cv2.cvtColor(f, cv2.COLOR_RGB2GRAY), low, high, L2gradient=True)
    return canny


def _resize(factor: float) -> Callable[[np.ndarray], np.ndarray]:
    def resize(f: np.ndarray) -> np.ndarray:
        return cv2.resize(f, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
    return resize


def _style_baseline(name: str, values: Mapping[str, object]) -> Baseline | None:
    """One style's equivalent for its values (`values`: its own, unqualified)."""
    if name == "edges" and values.get("mode") in (1, "canny"):
        low, high = float(values.get("canny_low", 50)), float(values.get("canny_high", 150))
        return (f"cv2.Canny (L2 gradient, thresholds {low:g}/{high:g})", _canny(low, high))
    if name == "upscale":
        k = float(values.get("factor", 2.0))  # type: ignore[arg-type]
        return f"cv2.resize x{k:g} bicubic", _resize(k)
    return BASELINES.get(name)


def as_rgb(f: np.ndarray) -> np.ndarray:
    """A call's result as the next one in a chain takes it, or an encoder (an edge map:
    grey, 8-bit)."""
    if f.dtype != np.uint8:
        f = cv2.convertScaleAbs(f)
    return cv2.cvtColor(f, cv2.COLOR_GRAY2RGB) if f.ndim == 2 else f


def baseline(style: str, values: Mapping[str, object] | None = None) -> Baseline | None:
    """The OpenCV equivalent of a style painted with `values` (a chain's: qualified,
    `edges.mode`), or of a chain: its styles' (not bypassed) in turn; None where a style
    has none (no comparison is made: a chain was timed against its last style's alone, an
    upscale's cv2.resize, 'x0.00')."""
    values = values or {}
    names = style.split("+")
    if len(names) == 1:
        return _style_baseline(style, values)
    parts = []
    for name in names:
        own = {k.partition(".")[2]: v for k, v in values.items()
               if k.startswith(f"{name}.")}
        if own.get("bypass"):
            continue
        part = _style_baseline(name, own)
        if part is None:
            return None
        parts.append(part)
    if not parts:
        return None
    calls = [fn for _, fn in parts]

    def chain(f: np.ndarray) -> np.ndarray:
        for fn in calls:
            f = as_rgb(fn(f))
        return f
    return " then ".join(what for what, _ in parts), chain
