"""Timing for the benchmark scripts: the median of several runs after a warm-up."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median_ms(fn: Callable[[], Any], runs: int) -> float:
    """Median milliseconds of `fn()` over `runs` calls, after one warm-up call."""
    fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000
