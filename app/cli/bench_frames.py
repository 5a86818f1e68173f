"""What the benchmarks render and how they time it: a short pan over the bundled photo at
the usual frame sizes, and the median time per frame after a warm-up."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import cv2
import numpy as np

from ..media.image_read import read_image
from ..resources import assets_dir

SIZES = ((640, 360), (1280, 720), (1920, 1080))
DEFAULT_SIZES = ",".join(f"{w}x{h}" for w, h in SIZES)


def pan_frames(w: int, h: int, n: int, img: np.ndarray | None = None) -> list[np.ndarray]:
    """A short pan (2 px a frame) over `img` (default: the bundled photo), at w x h."""
    if img is None:
        photo = assets_dir() / "demo" / "coffee.jpg"
        img = read_image(photo).rgb if photo.is_file() else _synthetic(512, 512)
    big = cv2.resize(img, (w + 2 * n, h), interpolation=cv2.INTER_AREA)
    return [np.ascontiguousarray(big[:, 2 * i:2 * i + w]) for i in range(n)]


def as_decoded(frames: list[np.ndarray]) -> list[np.ndarray]:
    """RGB frames as an export's decoder hands them to the renderer: RGBA, opaque."""
    return [cv2.cvtColor(f, cv2.COLOR_RGB2RGBA) for f in frames]


def _synthetic(w: int, h: int) -> np.ndarray:
    rng = np.random.default_rng(1)
    img = cv2.GaussianBlur(rng.integers(0, 255, (h // 8, w // 8, 3), dtype=np.uint8), (0, 0), 1)
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_CUBIC)


def median_time(fn: Callable[[np.ndarray], object], frames: list[np.ndarray]) -> float:
    """The median seconds `fn` takes per frame, after one warm-up frame."""
    fn(frames[0])  # warm-up: compiles, allocates
    times = []
    for f in frames[1:]:
        t = time.perf_counter()
        fn(f)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def format_ms(seconds: float | None) -> str:
    """Milliseconds to a tenth, two figures below one (an OpenCV call of 0.04 ms)."""
    if seconds is None:
        return "-"
    ms = seconds * 1e3
    return f"{ms:.1f}" if ms >= 1 else f"{ms:.2g}"


def speed_up(cv: float | None, ours: float) -> str:
    """OpenCV's time over ours, to two places, two figures below 0.1 (never 'x0.00')."""
    if cv is None:
        return "-"
    r = cv / ours
    return f"x{r:.2f}" if r >= 0.1 else f"x{r:.2g}"
