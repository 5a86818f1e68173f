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


def host_only_frame(graph: Any, render: Callable[[], Any]) -> Callable[[], None]:
    """A call that runs the pass graph's frame again with its draws stubbed: what is left is
    the engine's per-frame loop (plans, textures chosen, uniforms written, bindings).
    `render()` renders the frame to repeat through the graph's pipeline; the graph draws
    nothing afterwards."""
    seen: dict[str, Any] = {}
    run = graph.run

    def capture(info: Any, values: Any) -> None:
        seen["frame"] = (info, dict(values))
        run(info, values)

    graph.run = capture
    try:
        render()
    finally:
        del graph.run
    info, values = seen["frame"]
    graph._draw = lambda *a, **k: None
    return lambda: run(info, values)
