"""Stereo matching on the GPU (the stereo style, `input=sbs`) against cv2.StereoSGBM: the
table in BENCHMARKS.md and the picture docs/stereo/motorcycle_depth.jpg.

scikit-image's Middlebury 2014 Motorcycle pair (741x500, ground-truth disparity of the left
view, NaN/inf where unknown), given to the style as one side-by-side frame (1482x500),
matched at full size with disparities 0..63. Errors on the pixels with ground truth:
bad-2.0 and bad-1.0 (share of pixels more than 2 / 1 px off; a pixel without a disparity
counts as bad) and the mean absolute error over the pixels that have one. SGBM: numDisparities
64, blockSize 5, P1 8*3*25, P2 32*3*25, uniquenessRatio 10, speckleWindowSize 100,
speckleRange 2, MODE_SGBM_3WAY (its invalid pixels count as bad, as our disparity_raw's).
Speed: ms per frame, median of runs, in one process: ours upload + passes + glFinish (no
readback), SGBM's compute() on the two BGR views.

Run: .venv/bin/python scripts/eval_stereo_match.py [--write BENCHMARKS.md] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date
from pathlib import Path

import cv2
import numpy as np
import skimage.data

from aquarelle.engine import Renderer, create_headless_context, renderer_string
from aquarelle.engine.style import load_style
from aquarelle.eval.report import replace_section

ROOT = Path(__file__).resolve().parent.parent
PICTURE = ROOT / "docs" / "stereo" / "motorcycle_depth.jpg"
LEVELS = 64  # disparities 0..63, ours (max_disparity "64") and SGBM's numDisparities


def motorcycle() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Left and right views (uint8 RGB) and the left view's disparity (NaN where unknown)."""
    left, right, gt = skimage.data.stereo_motorcycle()
    gt = np.where(np.isfinite(gt), gt, np.nan).astype(np.float32)
    return left, right, gt


def side_by_side(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(np.hstack([left, right]))


def errors(d: np.ndarray, gt: np.ndarray) -> dict[str, float]:
    """bad-2.0, bad-1.0 (invalid = d < 0 or not finite counts as bad), the mean absolute
    error over valid pixels and the share of invalid pixels, on pixels with ground truth."""
    known = np.isfinite(gt)
    valid = np.isfinite(d) & (d >= 0)
    err = np.abs(np.where(valid, d, 0.0) - np.nan_to_num(gt))
    return {
        "bad2": float((~valid | (err > 2.0))[known].mean()),
        "bad1": float((~valid | (err > 1.0))[known].mean()),
        "mae": float(err[known & valid].mean()),
        "invalid": float((~valid)[known].mean()),
    }


def sgbm() -> cv2.StereoSGBM:
    return cv2.StereoSGBM_create(
        minDisparity=0, numDisparities=LEVELS, blockSize=5, P1=8 * 3 * 25, P2=32 * 3 * 25,
        uniquenessRatio=10, speckleWindowSize=100, speckleRange=2,
        mode=cv2.STEREO_SGBM_MODE_SGBM_3WAY)


def run_sgbm(left: np.ndarray, right: np.ndarray, runs: int) -> tuple[np.ndarray, float]:
    """SGBM's disparity (invalid: -1) and its median ms per frame."""
    matcher = sgbm()
    lb, rb = (cv2.cvtColor(a, cv2.COLOR_RGB2BGR) for a in (left, right))
    times, raw = [], None
    for _ in range(runs + 1):  # the first run warms up
        t = time.perf_counter()
        raw = matcher.compute(lb, rb)
        times.append(time.perf_counter() - t)
    assert raw is not None
    d = raw.astype(np.float32) / 16.0
    return np.where(raw < 0, -1.0, d).astype(np.float32), 1000 * statistics.median(times[1:])


def run_ours(ctx, frame: np.ndarray, runs: int,
             params: dict | None = None) -> tuple[np.ndarray, np.ndarray, float]:
    """Our disparity and disparity_raw, and the median ms per frame."""
    style = load_style("stereo")
    with Renderer(ctx, style) as p:
        p.set_params({"input": "sbs", "output": "depth", "max_disparity": str(LEVELS),
                      **(params or {})})
        p.render(frame)  # compiles, allocates
        ctx.finish()
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            p.render(frame)
            ctx.finish()
            times.append(time.perf_counter() - t)
        return (p.read_target("disparity")[..., 0], p.read_target("disparity_raw")[..., 0],
                1000 * statistics.median(times))


def colour(d: np.ndarray) -> np.ndarray:
    """A disparity as BGR (turbo, 0 .. LEVELS - 1); black where there is none."""
    valid = np.isfinite(d) & (d >= 0)
    v = np.clip(np.where(valid, d, 0.0) / (LEVELS - 1) * 255.0, 0, 255).astype(np.uint8)
    out = cv2.applyColorMap(v, cv2.COLORMAP_TURBO)
    out[~valid] = 0
    return out


def picture(left: np.ndarray, panels: dict[str, np.ndarray], path: Path) -> Path:
    """left | disparities side by side at half size, labelled, one colour range."""
    tiles = [cv2.cvtColor(left, cv2.COLOR_RGB2BGR)] + [colour(d) for d in panels.values()]
    labels = ["left view", *panels]
    h, w = left.shape[:2]
    size = (w // 2, h // 2)
    row = []
    for tile, label in zip(tiles, labels, strict=True):
        small = cv2.resize(tile, size, interpolation=cv2.INTER_AREA)
        cv2.putText(small, label, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3,
                    cv2.LINE_AA)
        cv2.putText(small, label, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1,
                    cv2.LINE_AA)
        row.append(small)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.hstack(row), [cv2.IMWRITE_JPEG_QUALITY, 88])
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", help="replace the stereo-match section in this Markdown file")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    left, right, gt = motorcycle()
    frame = side_by_side(left, right)
    ctx = create_headless_context()
    try:
        renderer = renderer_string(ctx)
        ours, raw, ours_ms = run_ours(ctx, frame, args.runs)
        half, _, half_ms = run_ours(ctx, frame, args.runs, {"match_scale": 0.5,
                                                             "max_disparity": "32"})
    finally:
        ctx.release()
    ref, ref_ms = run_sgbm(left, right, args.runs)
    # at match_scale 0.5 the disparity is in half-size pixels: compared at full size
    half_full = cv2.resize(half, (left.shape[1], left.shape[0]),
                           interpolation=cv2.INTER_NEAREST) * 2.0
    rows = [
        ("Aquarelle GPU `disparity` (every pixel filled)", errors(ours, gt), ours_ms),
        ("Aquarelle GPU `disparity_raw` (after the left-right check)", errors(raw, gt),
         ours_ms),
        ("Aquarelle GPU `disparity`, match_scale 0.5, max_disparity 32 (x2, nearest)",
         errors(half_full, gt), half_ms),
        ("cv2.StereoSGBM 3-way (its invalid pixels count as bad)", errors(ref, gt), ref_ms),
    ]
    path = picture(left, {"ours (disparity)": ours, "ground truth": gt,
                          "cv2.StereoSGBM": ref}, PICTURE)
    lines = [
        f"Command: `python scripts/eval_stereo_match.py --runs {args.runs}` ({date.today()})  ",
        f"GL renderer: `{renderer}`; OpenCV {cv2.__version__} with "
        f"{cv2.getNumThreads()} threads  ",
        "scikit-image's Middlebury 2014 Motorcycle (741x500 views, ground truth of the left "
        "view) as one 1482x500 side-by-side frame; disparities 0..63, errors on the pixels "
        "with ground truth (a pixel without a disparity counts as bad; mean error over the "
        "pixels with one). ms per frame: median of runs in one process; ours: upload, "
        "passes, glFinish (no readback).",
        "",
        "| method | bad-2.0 | bad-1.0 | mean abs. error (px) | no disparity | ms per frame |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, e, ms in rows:
        lines.append(f"| {label} | **{100 * e['bad2']:.1f}%** | {100 * e['bad1']:.1f}% | "
                     f"{e['mae']:.2f} | {100 * e['invalid']:.1f}% | {ms:.0f} |")
    lines += [
        "",
        f"Left view | ours | ground truth | SGBM, one colour range (black: none): "
        f"[{path.relative_to(ROOT)}]({path.relative_to(ROOT)}).",
    ]
    md = "\n".join(lines)
    print(md)
    if args.write:
        replace_section(args.write, "stereo-match", md,
                        "## Stereo matching: `scripts/eval_stereo_match.py`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
