"""Where a watercolor frame's time goes on this machine: upload, motion, the passes, the
finish and readback, timed apart (glFinish between), at 1920x1080 and 3840x2160, plus the
Python functions that took the most time (cProfile). For the GPU kit's `profile` step."""

from __future__ import annotations

import cProfile
import io
import pstats
import time

import cv2
import numpy as np
import skimage.data

from aquarelle.engine import Renderer, create_headless_context, renderer_string


def main() -> None:
    ctx = create_headless_context()
    print("GL renderer:", renderer_string(ctx))
    for w, h in ((1920, 1080), (3840, 2160)):
        img = np.ascontiguousarray(cv2.resize(skimage.data.chelsea(), (w, h)))
        with Renderer(ctx, "watercolor") as p:
            for _ in range(3):
                p.render_array(img)
            parts: dict[str, list[float]] = {k: [] for k in ("upload", "render", "read")}
            for _ in range(10):
                ctx.finish()
                t0 = time.perf_counter()
                tex = p.upload(img, "rgb")
                ctx.finish()
                t1 = time.perf_counter()
                out = p.render(tex)
                ctx.finish()
                t2 = time.perf_counter()
                out.read()
                t3 = time.perf_counter()
                parts["upload"].append(t1 - t0)
                parts["render"].append(t2 - t1)
                parts["read"].append(t3 - t2)
            print(f"{w}x{h}: " + ", ".join(f"{k} {1000 * float(np.median(v)):.1f} ms"
                                         for k, v in parts.items()))
            prof = cProfile.Profile()
            prof.enable()
            for _ in range(5):
                p.render_array(img)
            prof.disable()
            s = io.StringIO()
            pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(8)
            print("\n".join(s.getvalue().splitlines()[:24]))


if __name__ == "__main__":
    main()
