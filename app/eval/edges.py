"""How hard a picture's borders are, and whether pigment pools inside them (issue 29).

Crispness: on the strongest 3% of borders, the gradient of CIELAB L* measured with a
Gaussian derivative at sigma 0.7 over the same at sigma 2.5. A step a pixel wide scores
about 2.8, a ramp 16 px wide about 1.

Pooling: at those borders, L* 2 px inside the darker side less L* 7 px inside it, along
the border's normal. Negative: the wash is darker at its border (pigment pooled there);
positive: it gets lighter toward its border (a halo).

Transition: the median width of those borders in px, their step over their steepest slope
(a step a pixel wide measures about 1, a linear ramp its length).
"""

from __future__ import annotations

import cv2
import numpy as np

FINE, COARSE = 0.7, 2.5
STRONGEST = 0.03
NEAR, FAR = 2.0, 7.0


def lightness(rgb: np.ndarray) -> np.ndarray:
    """CIELAB L* (0..100) of a uint8 RGB picture, float32."""
    return cv2.cvtColor(rgb.astype(np.float32) / 255, cv2.COLOR_RGB2LAB)[..., 0]


def _gradient(lum: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """The Gaussian derivative of `lum` at `sigma` (x, y)."""
    g = cv2.GaussianBlur(lum, (0, 0), sigma, borderType=cv2.BORDER_REFLECT)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=1, scale=0.5)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=1, scale=0.5)
    return gx, gy


def _sample(img: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Bilinear lookups of `img` at (x, y), clamped to the picture."""
    h, w = img.shape
    x, y = np.clip(x, 0, w - 1.001), np.clip(y, 0, h - 1.001)
    x0, y0 = x.astype(int), y.astype(int)
    fx, fy = x - x0, y - y0
    top = img[y0, x0] * (1 - fx) + img[y0, x0 + 1] * fx
    bottom = img[y0 + 1, x0] * (1 - fx) + img[y0 + 1, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy


def _borders(lum: np.ndarray):
    """The strongest borders' pixels: ridges of the coarse gradient (a maximum across the
    border) in its top 3%, away from the picture's own edge; with the gradient there."""
    gx, gy = _gradient(lum, COARSE)
    mag = np.hypot(gx, gy)
    inner = np.zeros_like(mag, dtype=bool)
    inner[8:-8, 8:-8] = True
    ys, xs = np.nonzero(inner & (mag >= np.percentile(mag[inner], 100 * (1 - STRONGEST))))
    m = mag[ys, xs]
    nx, ny = gx[ys, xs] / m, gy[ys, xs] / m
    ridge = (m >= _sample(mag, xs + nx, ys + ny)) & (m >= _sample(mag, xs - nx, ys - ny))
    return xs[ridge], ys[ridge], nx[ridge], ny[ridge], m[ridge]


def crispness(rgb: np.ndarray) -> float:
    """Mean over the strongest borders of the gradient at sigma 0.7 (the most within a
    pixel) over that at sigma 2.5."""
    lum = lightness(rgb)
    xs, ys, _nx, _ny, coarse = _borders(lum)
    fine = cv2.dilate(np.hypot(*_gradient(lum, FINE)), np.ones((3, 3), np.uint8))
    return float(np.mean(fine[ys, xs] / coarse))


def pooling(rgb: np.ndarray) -> float:
    """Mean L* 2 px inside the darker side of the strongest borders less 7 px inside."""
    lum = lightness(rgb)
    xs, ys, nx, ny, _m = _borders(lum)
    # toward the darker side: against the gradient
    return float(np.mean(_sample(lum, xs - NEAR * nx, ys - NEAR * ny)
                         - _sample(lum, xs - FAR * nx, ys - FAR * ny)))


def transition(rgb: np.ndarray) -> float:
    """Median width in px of the strongest borders: the step between the two sides (the
    median L* 4-8 px out on each) over the steepest slope within 3 px of the border. A step
    one pixel wide measures 1, a linear ramp its length; a pooled rim or paper tooth beside
    the border does not widen it."""
    lum = lightness(rgb)
    xs, ys, nx, ny, _m = _borders(lum)
    d = np.arange(-8.0, 8.25, 0.25)
    prof = np.stack([_sample(lum, xs + t * nx, ys + t * ny) for t in d], axis=1)
    step = (np.median(prof[:, d >= 4.0], axis=1) - np.median(prof[:, d <= -4.0], axis=1))
    near = np.abs(d[:-1] + 0.125) <= 3.0
    slope = np.max(np.abs(np.diff(prof, axis=1))[:, near], axis=1) / 0.25
    width = np.abs(step) / np.maximum(slope, 1e-6)
    return float(np.median(width))
