"""Where a watercolor frame's time goes at full scale and in its --scale 0.5 drafts, on this
machine: wall-clock ms of a video frame (the picture already uploaded; passes, glFinish),
and of it the CPU's share by kind (issuing draw calls, waiting in glFinish, the motion
estimate's OpenCV calls, the rest of Python), from cProfile. For the GPU kit's `draftprofile`
step and the "Drafts" table in BENCHMARKS.md (issue 12: a draft's time against the full
render's).

Run: python scripts/gpu-kit/profile_drafts.py [--runs 10] [--write BENCHMARKS.md]"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import time
from datetime import date

import cv2
import numpy as np
import skimage.data

from aquarelle.engine import Renderer, create_headless_context, renderer_string
from aquarelle.eval.report import replace_section

# cProfile's names of the C methods that stand for each kind of work (the frame is uploaded
# once: no motion estimate runs)
KINDS = {"draw calls": re.compile(r"<method '(render|clear|use)' of 'mgl\."),
         "glFinish": re.compile(r"<method 'finish' of 'mgl\.")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--write", help="replace the draft-profile table in this Markdown file")
    args = ap.parse_args(argv)
    runs = args.runs
    ctx = create_headless_context()
    lines = [
        f"Command: `python scripts/gpu-kit/profile_drafts.py --runs {runs}` ({date.today()})  ",
        f"GL renderer: `{renderer_string(ctx)}`  ",
        "The watercolor default on chelsea resized to each size, as a video frame already "
        "uploaded (passes and glFinish, median of runs): full scale, `--scale 0.5` (the "
        "style's draft: abstraction small, tones from its learned x2 sub-pixels, washes "
        "small, a clamped bicubic enlargement and the paper in the finish) and the draft "
        "painted wholly small (live adaptive quality's, with the same finish). CPU ms per "
        "frame by kind (cProfile): issuing draw calls (a CPU renderer draws in them), waiting in "
        "glFinish, the rest of Python.",
        "",
        "| size | render | ms per frame | x full | draw calls | glFinish | other |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    print("\n".join(lines), flush=True)
    for w, h in ((1280, 850), (1920, 1080), (3840, 2160)):
        img = np.ascontiguousarray(cv2.resize(skimage.data.chelsea(), (w, h)))
        full_ms = None
        for label, scale, borders in (("full", 1.0, True), ("draft", 0.5, True),
                                      ("cheap draft", 0.5, False)):
            with Renderer(ctx, "watercolor", scale=scale) as p:
                p.draft_borders = borders
                tex = p.upload(img, "rgb")
                for _ in range(3):
                    p.render(tex)
                ctx.finish()
                times = []
                prof = cProfile.Profile()
                for _ in range(runs):
                    t0 = time.perf_counter()
                    prof.enable()
                    p.render(tex)
                    ctx.finish()
                    prof.disable()
                    times.append(time.perf_counter() - t0)
                ms = 1000 * float(np.median(times))
                total = 1000 * sum(times) / runs
                st = pstats.Stats(prof).stats  # type: ignore[attr-defined]
                share = dict.fromkeys(KINDS, 0.0)
                for (_, _, fn), (_, _, tt, _, _) in st.items():
                    for kind, pattern in KINDS.items():
                        if pattern.match(fn):
                            share[kind] += 1000 * tt / runs
                other = total - sum(share.values())
                full_ms = full_ms or ms
                row = (f"| {w}x{h} | {label} | {ms:.1f} | {ms / full_ms:.2f} | "
                       + " | ".join(f"{v:.1f}" for v in share.values()) + f" | {other:.1f} |")
                lines.append(row)
                print(row, flush=True)
                tex.release()
    ctx.release()
    if args.write:
        replace_section(args.write, "draft-profile", "\n".join(lines),
                        "## Drafts: `scripts/gpu-kit/profile_drafts.py`")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
