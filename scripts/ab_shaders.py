"""Two shader trees side by side: the CPU time of a watercolor still (default parameters,
every line) painted through each, interleaved in one process, on the GL renderer at hand.
Process CPU seconds (every thread's, llvmpipe's included) hold steadier than wall time on a
busy machine. A tree of another commit: `git archive REV shaders | tar -x -C /tmp/old`.

Run: .venv/bin/python scripts/ab_shaders.py PHOTO /tmp/old/shaders [shaders] [--rounds 4]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2

from aquarelle.engine import Renderer, create_headless_context, renderer_string


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("photo", type=Path)
    ap.add_argument("before", type=Path, help="shader folder A (the baseline)")
    ap.add_argument("after", type=Path, nargs="?", default=Path("shaders"),
                    help="shader folder B (default: this tree's)")
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args()
    img = cv2.imread(str(args.photo))
    if img is None:
        raise SystemExit(f"cannot read {args.photo}")
    img = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
    ctx = create_headless_context()
    print("GL renderer:", renderer_string(ctx))
    roots = (args.before.resolve(), args.after.resolve())
    renderers = []
    for root in roots:
        r = Renderer(ctx, "watercolor", shader_root=root)
        r.max_lines = 0  # a still keeps every line
        r.render_array(img)  # programs compiled, textures made
        renderers.append(r)
    cpu: tuple[list[float], list[float]] = ([], [])
    for _ in range(args.rounds):
        for times, r in zip(cpu, renderers, strict=True):
            r.reset_history()
            ctx.finish()
            t = time.process_time()
            r.render_array(img)
            ctx.finish()
            times.append(time.process_time() - t)
    for root, times in zip(roots, cpu, strict=True):
        print(f"{root}: CPU s per still, median {statistics.median(times):.3f} "
              f"({', '.join(f'{x:.3f}' for x in times)})")
    print(f"B / A: x{statistics.median(cpu[1]) / statistics.median(cpu[0]):.3f}")


if __name__ == "__main__":
    main()
