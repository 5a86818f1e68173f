"""Where a watercolor frame's time goes at full scale and in its --scale 0.5 drafts, on this
machine: wall-clock ms of a video frame (the picture already uploaded; passes, glFinish),
and of it the CPU's share by kind (issuing draw calls, waiting in glFinish, the motion
estimate's OpenCV calls, the rest of Python), from cProfile. For the GPU kit's `draftprofile`
step (issue 12: whether a draft's GPU work is a third of the full render's)."""

from __future__ import annotations

import cProfile
import pstats
import sys
import time

import cv2
import numpy as np
import skimage.data

from aquarelle.engine import Pipeline, create_headless_context, renderer_string

KINDS = {"draw calls": ("render", "clear", "use"), "glFinish": ("finish",),
         "motion (OpenCV)": ("calc", "resize", "cvtColor", "estimateAffinePartial2D")}


def main(argv: list[str]) -> None:
    runs = int(argv[0]) if argv else 10
    ctx = create_headless_context()
    print("GL renderer:", renderer_string(ctx))
    print("| size | render | ms per frame | x full | draw calls | glFinish | motion | other |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for w, h in ((1280, 850), (1920, 1080), (3840, 2160)):
        img = np.ascontiguousarray(cv2.resize(skimage.data.chelsea(), (w, h)))
        full_ms = None
        for label, scale, borders in (("full", 1.0, True), ("draft", 0.5, True),
                                      ("cheap draft", 0.5, False)):
            with Pipeline(ctx, "watercolor", scale=scale) as p:
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
                    for kind, names in KINDS.items():
                        if any(fn == f"<method '{n}' of" or fn.endswith(f"'{n}' of") or
                               fn in (n, f"<built-in method {n}>") or
                               fn.startswith(f"<method '{n}' ") or
                               fn.startswith(f"<built-in method cv2.{n}") for n in names):
                            share[kind] += 1000 * tt / runs
                other = total - sum(share.values())
                full_ms = full_ms or ms
                print(f"| {w}x{h} | {label} | {ms:.1f} | {ms / full_ms:.2f} | "
                      + " | ".join(f"{v:.1f}" for v in share.values()) + f" | {other:.1f} |",
                      flush=True)
                tex.release()


if __name__ == "__main__":
    main(sys.argv[1:])
