"""Split passes (PassSpec.split): a portrait painted with the watercolor's split passes drawn in
one part and in two (the composite's feature accents only on the tiles where a face's features
are, face_lines' search only on the face's tiles), in
turns, in the same process, on this machine's GL renderer (the split is what a CPU renderer
does; a GPU draws one part). Medians of the whole frame (wall ms) and of the composite's GPU
and face_lines' GPU times; the pictures compared byte for byte.

Run: .venv/bin/python scripts/bench_split.py [--runs 5] [--size 640]
"""

from __future__ import annotations

import argparse
import statistics
import time

import cv2
import numpy as np
import skimage.data

from aquarelle.engine.context import create_headless_context, renderer_string
from aquarelle.engine.renderer import Renderer


def pictures(size: int) -> dict[str, np.ndarray]:
    """A portrait (a face and a flag) and a faceless photo at `size` px wide."""
    out = {}
    for name, img in (("astronaut", skimage.data.astronaut()[:, 16:496]),
                      ("coffee", skimage.data.coffee())):
        h = round(img.shape[0] * size / img.shape[1])
        out[name] = cv2.resize(img, (size, h), interpolation=cv2.INTER_AREA)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", type=int, default=640)
    args = parser.parse_args()
    ctx = create_headless_context()
    print(f"GL renderer: `{renderer_string(ctx)}`\n")
    print("| picture | composite, one part | two parts | face lines, one part | two parts "
          "| frame, one part | two parts | same bytes |")
    print("|---|---|---|---|---|---|---|---|")
    for name, img in pictures(args.size).items():
        renderers = {}
        for split in (False, True):
            p = renderers[split] = Renderer(ctx, "watercolor")
            p.stages[0].graph.split = split
            p.render_array(img)  # its programs compiled, its plan built
            p.profile = True
        frame: dict[bool, list[float]] = {False: [], True: []}
        comp: dict[bool, list[float]] = {False: [], True: []}
        lines: dict[bool, list[float]] = {False: [], True: []}
        out = {}
        for _ in range(args.runs):
            for split, p in renderers.items():
                t = time.perf_counter()
                out[split] = p.render_array(img)
                frame[split].append((time.perf_counter() - t) * 1e3)
                times = p.pass_times_ms()
                comp[split].append(times.get("composite", 0.0))
                lines[split].append(times.get("face_lines", 0.0))
        for p in renderers.values():
            p.release()
        same = np.array_equal(out[False], out[True])
        h, w = img.shape[:2]
        cells = [f"{statistics.median(v[k]):.0f} ms" for v in (comp, lines, frame)
                 for k in (False, True)]
        print(f"| {name} {w}x{h} | {' | '.join(cells)} | {'yes' if same else 'NO'} |")


if __name__ == "__main__":
    main()
