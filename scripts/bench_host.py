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

import cv2
import numpy as np
import skimage.data

from aquarelle.engine.context import create_headless_context
from aquarelle.engine.renderer import Renderer
from aquarelle.eval.report import replace_section
from aquarelle.eval.timing import host_only_frame


def measure(runs: int) -> tuple[float, float, int, int, int]:
    """(median ms, min ms, steps a frame, blocks and bytes left allocated after 100 frames)."""
    ctx = create_headless_context()
    frame = cv2.resize(skimage.data.coffee(), (1920, 1080), interpolation=cv2.INTER_CUBIC)
    with Renderer(ctx, "watercolor") as p:
        p.render(frame)
        graph = p.stages[0].graph
        run = host_only_frame(graph, lambda: p.render(np.roll(frame, 4, axis=1)))
        for _ in range(10):
            run()
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            run()
            times.append(time.perf_counter() - t)
        steps = len(graph.plan.ops) if graph.plan is not None else 0
        # Traced from before the frames compared: what a frame frees was then allocated
        # under tracing too (else the last frame's live objects look like growth).
        tracemalloc.start()
        for _ in range(10):
            run()
        before = tracemalloc.take_snapshot()
        for _ in range(100):
            run()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        diff = [d for d in after.compare_to(before, "filename")
                if d.traceback[0].filename != tracemalloc.__file__]
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
        "| frame | steps | host ms a frame (median) | best | left allocated after 100 frames |",
        "|---|---:|---:|---:|---|",
        f"| 1920x1080 video, draws stubbed | {steps} | {median:.3f} | {best:.3f} | "
        f"{blocks} blocks, {size} bytes |"])
    print(md)
    if args.write:
        replace_section(args.write, "host", md, "## Host work per frame (issue 30)")


if __name__ == "__main__":
    main()
