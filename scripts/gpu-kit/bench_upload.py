"""What a frame's upload costs the render thread, by pixel layout (issue 30: "upload through a
PBO ring, RGBA/BGRA"): RGB8 (what the decoder hands over now), RGBA8 and BGRA8, each through
the engine's buffer ring and directly, at 1080p and 4K. Host ms: the calls' time; GPU ms: a
timer query around them, read after a finish. On NVIDIA a 3-byte layout may be repacked by
the driver on the CPU; whether it is decides if the decoder should hand over 4 bytes a pixel
(swscale writes them at no extra cost).

Run: python scripts/gpu-kit/bench_upload.py [--runs 20]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from aquarelle.engine import create_headless_context, renderer_string
from aquarelle.engine.upload_ring import UploadRing


def measure(ctx, size: tuple[int, int], layout: str, ring: bool, runs: int) -> tuple[float, float]:
    w, h = size
    comps = 3 if layout == "RGB" else 4
    rng = np.random.default_rng(0)
    frames = [rng.integers(0, 255, (h, w, comps), np.uint8) for _ in range(2)]
    tex = ctx.texture((w, h), comps, dtype="f1", alignment=1)
    if layout == "BGRA":
        tex.swizzle = "BGRA"
    uploads = UploadRing(ctx) if ring else None
    q = ctx.query(time=True)
    host, gpu = [], []
    for i in range(runs + 2):
        f = frames[i % 2]
        ctx.finish()
        t = time.perf_counter()
        with q:
            if uploads is not None:
                uploads.write(tex, f)
            else:
                tex.write(f, alignment=1)
        host.append(time.perf_counter() - t)
        ctx.finish()
        gpu.append(q.elapsed / 1e9)
    if uploads is not None:
        uploads.release()
    tex.release()
    return 1000 * statistics.median(host[2:]), 1000 * statistics.median(gpu[2:])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    ctx = create_headless_context()
    print("GL renderer:", renderer_string(ctx))
    print()
    print("| frame | layout | ring: host ms | ring: GPU ms | direct: host ms | direct: GPU ms |")
    print("|---|---|---:|---:|---:|---:|")
    for size in ((1920, 1080), (3840, 2160)):
        for layout in ("RGB", "RGBA", "BGRA"):
            rh, rg = measure(ctx, size, layout, True, args.runs)
            dh, dg = measure(ctx, size, layout, False, args.runs)
            print(f"| {size[0]}x{size[1]} | {layout} | {rh:.2f} | {rg:.2f} | {dh:.2f} | {dg:.2f} |",
                  flush=True)


if __name__ == "__main__":
    main()
