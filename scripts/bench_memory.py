"""Memory of the frame plans: the watercolor's GL textures for a still and a video frame
with targets sharing textures by lifetime, against every target kept (`inspect`: what each
target had to itself before frame plans), in the same process; and the peak resident memory
of `aquarelle render` on a 3840x2160 photo.

Run: .venv/bin/python scripts/bench_memory.py [--write BENCHMARKS.md]
     .venv/bin/python scripts/bench_memory.py --cli-runs 3 [--photo PHOTO.jpg]
The photo: scikit-image's chelsea enlarged (bicubic) to each size. `--cli-runs N` runs only
the command N times, each beside cv2.stylization of the same photo (any photo with --photo).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import cv2
import numpy as np
import skimage.data

from aquarelle.engine.context import create_headless_context
from aquarelle.engine.renderer import Renderer
from aquarelle.eval.report import replace_section

SIZES = ((1920, 1080), (3840, 2160))
MB = 2**20


def photo(size: tuple[int, int]) -> np.ndarray:
    return cv2.resize(skimage.data.chelsea(), size, interpolation=cv2.INTER_CUBIC)


def texture_mb(size: tuple[int, int], *, video: bool, inspect: bool) -> tuple[float, int]:
    """The most MB of target textures held at once during a still (or the last of 3 video
    frames), and how many textures the frame used."""
    ctx = create_headless_context()
    try:
        with Renderer(ctx, "watercolor") as p:
            p.inspect = inspect
            p.keep_history = video
            frame = photo(size)
            pool = p.stages[0].graph.pool
            for k in range(3 if video else 1):
                pool.peak_bytes = pool.resident_bytes()
                made = pool.allocations
                p.render(np.roll(frame, 4 * k, axis=1))
            used = len(pool.textures()) if video else pool.allocations - made
            return pool.peak_bytes / MB, used
    finally:
        ctx.release()


def cli_peak_mb(size: tuple[int, int], given: Path | None = None
                ) -> tuple[float, float, float]:
    """Peak resident MB and seconds of `aquarelle render` on a photo of `size` (or the
    `given` photo), and seconds of cv2.stylization on it (in this process)."""
    with tempfile.TemporaryDirectory() as tmp:
        src, out = given or Path(tmp) / "photo.jpg", Path(tmp) / "out.png"
        if given is None:
            cv2.imwrite(str(src), photo(size)[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 92])
        # VmHWM: this process image's peak (ru_maxrss would start from the forking parent's)
        code = ("import sys\nfrom aquarelle.cli.main import main\nrc = main(sys.argv[1:])\n"
                "print(next(l.split()[1] for l in open('/proc/self/status') "
                "if l.startswith('VmHWM')))\nsys.exit(rc)")
        t = time.perf_counter()
        res = subprocess.run([sys.executable, "-c", code, "render", str(src), "-o", str(out),
                              "-y", "-q"], check=True, capture_output=True, text=True)
        seconds = time.perf_counter() - t
        bgr = cv2.imread(str(src))
        t = time.perf_counter()
        cv2.stylization(bgr, sigma_s=60, sigma_r=0.45)
        baseline = time.perf_counter() - t
        return int(res.stdout.split()[-1]) / 1024, seconds, baseline


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", metavar="MD", help="put the table into this Markdown file")
    ap.add_argument("--cli-runs", type=int, metavar="N",
                    help="only the command's time and peak, N times beside cv2.stylization")
    ap.add_argument("--photo", type=Path, help="the command's photo (default: chelsea at 4K)")
    args = ap.parse_args()
    if args.cli_runs:
        ratios = []
        for _ in range(args.cli_runs):
            peak, seconds, baseline = cli_peak_mb(SIZES[-1], args.photo)
            ratios.append(seconds / baseline)
            print(f"render {seconds:.2f} s, peak {peak:.0f} MB; cv2.stylization {baseline:.2f} s: "
                  f"x{ratios[-1]:.3f}", flush=True)
        print(f"median x{float(np.median(ratios)):.3f}")
        return
    rows = []
    for size in SIZES:
        for video in (False, True):
            before, n_before = texture_mb(size, video=video, inspect=True)
            after, n_after = texture_mb(size, video=video, inspect=False)
            rows.append(f"| {size[0]}x{size[1]} | {'video frame' if video else 'still'} | "
                        f"{before:.0f} ({n_before}) | {after:.0f} ({n_after}) | "
                        f"x{after / before:.2f} |")
            print(rows[-1], flush=True)
    peak, seconds, baseline = cli_peak_mb(SIZES[-1])
    md = "\n".join([
        f"Command: `.venv/bin/python scripts/bench_memory.py --write BENCHMARKS.md` "
        f"({date.today()}), watercolor default, llvmpipe.", "",
        "| frame | run | textures MB at the frame's peak (count), every target its own | "
        "shared by lifetime | ratio |", "|---|---|---:|---:|---:|", *rows, "",
        f"`aquarelle render` of the {SIZES[-1][0]}x{SIZES[-1][1]} photo (PNG out, the whole "
        f"command: start, decode, paint, encode): peak resident {peak:.0f} MB, {seconds:.1f} s; "
        f"cv2.stylization on the same photo {baseline:.1f} s: x{seconds / baseline:.2f} (the "
        "process alone, with its shaders built, holds about 220 MB of the peak)."])
    print(md)
    if args.write:
        replace_section(args.write, "memory", md, "## Memory: frame plans (issue 30)")


if __name__ == "__main__":
    main()
