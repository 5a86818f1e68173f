"""Making a pipeline (what a style change or a restart of the app's painting costs): a
Renderer of a style built with its shader files read and expanded every time, against
expanded once (engine/glsl.py keeps them until a file is edited), alternately, in the same
process, on this machine's GL renderer.

Run: .venv/bin/python scripts/bench_pipeline.py [--runs 15] [--style watercolor]
"""

from __future__ import annotations

import argparse
import statistics
import time

from aquarelle.engine import glsl
from aquarelle.engine.context import create_headless_context, renderer_string
from aquarelle.engine.renderer import Renderer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--style", default="watercolor")
    args = parser.parse_args()
    ctx = create_headless_context()
    Renderer(ctx, args.style).release()  # the driver's own first compiles out of the way
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.runs):
        for kept in (False, True):
            if not kept:
                glsl._expanded.clear()
            t = time.perf_counter()
            Renderer(ctx, args.style).release()
            times[kept].append(time.perf_counter() - t)
    read, kept = (statistics.median(times[k]) * 1e3 for k in (False, True))
    print(f"{renderer_string(ctx)}, {args.style}, median of {args.runs}: shader files read "
          f"every time {read:.1f} ms, expanded once {kept:.1f} ms, ratio {kept / read:.2f}")
    ctx.release()


if __name__ == "__main__":
    main()
