"""Host work per frame: the Python that issues one frame of the watercolor (a 1920x1080 video
frame, temporal on) with its draws stubbed, so what is left is the engine's own per-frame
loop (plans, textures chosen, uniforms written, bindings), without a profiler; and what it
allocates (tracemalloc). Issue 30 asks for at most 0.2 ms and no allocations.

Run: .venv/bin/python scripts/bench_host.py [--runs 300] [--write BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from datetime import date
from typing import Any

import cv2
import numpy as np
import skimage.data

from aquarelle.engine.chain import build_pipeline
from aquarelle.engine.context import create_headless_context
from aquarelle.eval.report import replace_section


def measure(runs: int) -> tuple[float, float, int, int, int]:
    """(median ms, min ms, steps a frame, blocks and bytes allocated over 10 frames)."""
    ctx = create_headless_context()
    frame = cv2.resize(skimage.data.coffee(), (1920, 1080), interpolation=cv2.INTER_CUBIC)
    with build_pipeline(ctx, "watercolor") as p:
        graph = p.graph
        seen: dict[str, Any] = {}
        run = graph.run

        def capture(info: Any, values: Any) -> None:
            seen["frame"] = (info, dict(values))
            run(info, values)

        graph.run = capture  # type: ignore[method-assign]
        for k in range(2):
            p.render(np.roll(frame, 4 * k, axis=1))
        info, values = seen["frame"]
        graph._draw = lambda *a, **k: None  # type: ignore[method-assign]
        for _ in range(10):
            run(info, values)
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            run(info, values)
            times.append(time.perf_counter() - t)
        steps = len(graph._frame_plan(info, values, True).steps)
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for _ in range(10):
            run(info, values)
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        diff = after.compare_to(before, "lineno")
        blocks = sum(max(0, d.count_diff) for d in diff)
        size = sum(max(0, d.size_diff) for d in diff)
    ctx.release()
    return 1e3 * statistics.median(times), 1e3 * min(times), steps, blocks, size


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--write", metavar="MD", help="put the table into this Markdown file")
    args = ap.parse_args()
    median, best, steps, blocks, size = measure(args.runs)
    md = "\n".join([
        f"Command: `.venv/bin/python scripts/bench_host.py --write BENCHMARKS.md` "
        f"({date.today()}), {args.runs} frames, no profiler.", "",
        "| frame | steps | host ms a frame (median) | best | allocations over 10 frames |",
        "|---|---:|---:|---:|---|",
        f"| 1920x1080 video, draws stubbed | {steps} | {median:.3f} | {best:.3f} | "
        f"{blocks} blocks, {size} bytes |"])
    print(md)
    if args.write:
        replace_section(args.write, "host", md, "## Host work per frame (issue 30)")


if __name__ == "__main__":
    main()
