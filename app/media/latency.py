"""Per-frame latency figures (capture to display, capture to virtual camera)."""

from __future__ import annotations

import threading
from collections import deque

import numpy as np

WINDOW = 300  # the most recent frames the figures describe (10 s at 30 fps)


class LatencyMeter:
    """Latencies in seconds of the last `window` frames: median and 95th percentile.

    `add()` may be called from one thread while another reads the figures.
    """

    def __init__(self, window: int = WINDOW) -> None:
        self._values: deque[float] = deque(maxlen=window)
        self._lock = threading.Lock()
        self.count = 0  # frames measured in all

    def add(self, seconds: float) -> None:
        with self._lock:
            self._values.append(max(0.0, float(seconds)))
            self.count += 1

    def _snapshot(self) -> np.ndarray:
        with self._lock:
            return np.array(self._values, np.float64)

    def median(self) -> float | None:
        """Median latency in seconds, None before the first frame."""
        v = self._snapshot()
        return float(np.median(v)) if v.size else None

    def p95(self) -> float | None:
        """95th percentile in seconds, None before the first frame."""
        v = self._snapshot()
        return float(np.percentile(v, 95)) if v.size else None

    def text(self) -> str:
        """For a status bar: "latency 48 ms (p95 61)" or ""."""
        med, p95 = self.median(), self.p95()
        if med is None or p95 is None:
            return ""
        return f"latency {med * 1000:.0f} ms (p95 {p95 * 1000:.0f})"
