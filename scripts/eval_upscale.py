"""Super-resolution quality and speed (issue 12): the table in BENCHMARKS.md and the crop
comparison in docs/upscale/.

x2 on photos never used for training (scikit-image: chelsea, astronaut, rocket,
immunohistochemistry and a crop of hubble_deep_field), each halved with cv2.INTER_AREA and enlarged
again; PSNR and SSIM on BT.601 luma with a 4-pixel border cropped. Methods: cv2 bicubic and
Lanczos4, and the upscale style's clamped bicubic, EASU, EASU + RCAS and learned filters on
the GPU. Speed: ms per 1920x1080 output frame (upload, passes, glFinish; no readback), median
of runs, next to cv2.resize bicubic. Then the watercolor default at --scale 0.5 against the
full-scale render, with their times (the renders taken in turn, so that a drift of the
machine's speed touches all alike): the draft paints its abstraction at half size, lays its
tones from its x2 sub-pixels (learned filters, or bilinear for comparison) and the washes
from them at half size; the picture is enlarged by the clamped bicubic (the style's draft),
EASU, the learned filters or bilinear; the full-size paper finish on all. Last, the draft
painted wholly small (live adaptive quality's).

Run: .venv/bin/python scripts/eval_upscale.py [--write BENCHMARKS.md] [--runs 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import date
from pathlib import Path

import cv2
import numpy as np
import skimage.data
from skimage.metrics import structural_similarity

from aquarelle.engine import Renderer, create_headless_context, renderer_string
from aquarelle.eval.report import replace_section
from aquarelle.eval.timing import median_ms
from aquarelle.upscale.learned import halve, luma, psnr_y

ROOT = Path(__file__).resolve().parent.parent
PHOTOS = {  # name -> crop (y, x, h, w) or None (see scripts/train_upscaler.py HELD_OUT)
    "chelsea": None,
    "astronaut": None,
    "rocket": None,
    "immunohistochemistry": None,
    "hubble_deep_field": (0, 0, 512, 640),
}
GPU = {"bicubic, clamped (GPU)": {"method": "bicubic"}, "EASU": {"method": "easu"},
       "EASU + RCAS": {"method": "easu", "sharpen": 0.8}, "learned": {"method": "learned"}}
METHODS = ("bicubic", "Lanczos4", *GPU)


def photo(name: str) -> np.ndarray:
    img = getattr(skimage.data, name)()
    if img.ndim == 2:
        img = np.repeat(img[:, :, None], 3, axis=2)
    crop = PHOTOS[name]
    if crop is not None:
        y, x, h, w = crop
        img = img[y:y + h, x:x + w]
    h, w = img.shape[:2]
    return np.ascontiguousarray(img[: h - h % 2, : w - w % 2])


def enlarge(ctx, method: str, lr: np.ndarray) -> np.ndarray:
    size = (lr.shape[1] * 2, lr.shape[0] * 2)
    if method == "bicubic":
        return cv2.resize(lr, size, interpolation=cv2.INTER_CUBIC)
    if method == "Lanczos4":
        return cv2.resize(lr, size, interpolation=cv2.INTER_LANCZOS4)
    with Renderer(ctx, "upscale") as p:
        p.set_params(GPU[method])
        return p.render_array(lr)


def scores(hr: np.ndarray, out: np.ndarray) -> tuple[float, float]:
    y, yo = luma(hr / 255.0), luma(out / 255.0)
    b = 4
    ssim = structural_similarity(y[b:-b, b:-b], np.clip(yo, 0, 1)[b:-b, b:-b],
                                 data_range=1.0)
    return psnr_y(y, yo), ssim


def gpu_ms(ctx, values: dict, lr: np.ndarray, runs: int) -> float:
    with Renderer(ctx, "upscale") as p:
        p.set_params(values)
        return median_ms(lambda: (p.render(lr), ctx.finish()), runs)


def cpu_ms(lr: np.ndarray, runs: int) -> float:
    return median_ms(lambda: cv2.resize(lr, (1920, 1080), interpolation=cv2.INTER_CUBIC), runs)


WATER_PHOTOS = ("chelsea", "astronaut", "rocket", "immunohistochemistry")


WATER_VARIANTS = [
    ("full scale (reference)", 1.0, "bicubic", True),
    ("--scale 0.5, the style's draft: learned tones, bicubic picture", 0.5, "bicubic", True),
    ("--scale 0.5, learned tones, EASU picture", 0.5, "easu", True),
    ("--scale 0.5, learned tones and picture", 0.5, "learned", True),
    ("--scale 0.5, bilinear tones and picture", 0.5, "bilinear", True),
    ("--scale 0.5 painted wholly small, bicubic (live adaptive quality's draft)", 0.5,
     "bicubic", False)]


def _watercolors(ctx) -> list[Renderer]:
    pipes = []
    for _, scale, method, borders in WATER_VARIANTS:
        p = Renderer(ctx, "watercolor", scale=scale)
        p.draft_borders = borders
        p.upscale_method = method
        pipes.append(p)
    return pipes


def water_times(ctx, img: np.ndarray, runs: int) -> list[float]:
    """Median ms per frame of each variant on `img`, the variants rendered in turn (a drift
    of the machine's speed touches all alike)."""
    pipes = _watercolors(ctx)
    times: list[list[float]] = [[] for _ in pipes]
    try:
        for p in pipes:
            p.render(img)
            ctx.finish()
        for _ in range(runs):
            for i, p in enumerate(pipes):
                t0 = time.perf_counter()
                p.render(img)
                ctx.finish()
                times[i].append(1000 * (time.perf_counter() - t0))
    finally:
        for p in pipes:
            p.release()
    return [float(np.median(t)) for t in times]


def watercolor_rows(ctx, runs: int) -> tuple[list[tuple[str, float, float, float, float]],
                                             list[tuple[int, int]]]:
    """(variant, mean PSNR, mean SSIM against full scale, ms per frame at 1280 px wide and
    at 1920x1080) over WATER_PHOTOS at 1280 px wide (time: chelsea), and the two sizes."""
    sums = [[0.0, 0.0] for _ in WATER_VARIANTS]
    for name in WATER_PHOTOS:
        src = getattr(skimage.data, name)()
        h, w = src.shape[:2]
        img = cv2.resize(src, (1280, round(h * 1280 / w)), interpolation=cv2.INTER_CUBIC)
        pipes = _watercolors(ctx)
        try:
            outs = [p.render_array(img) for p in pipes]
        finally:
            for p in pipes:
                p.release()
        ref = outs[0]
        for i, out in enumerate(outs[1:], 1):
            mse = np.mean((out.astype(float) - ref.astype(float)) ** 2)
            sums[i][0] += 10 * np.log10(255 ** 2 / mse)
            sums[i][1] += structural_similarity(luma(ref / 255.0), luma(out / 255.0),
                                                data_range=1.0)
    chelsea = skimage.data.chelsea()
    sizes = [(1280, round(chelsea.shape[0] * 1280 / chelsea.shape[1])), (1920, 1080)]
    ms = [water_times(ctx, cv2.resize(chelsea, size, interpolation=cv2.INTER_CUBIC), runs)
          for size in sizes]
    n = len(WATER_PHOTOS)
    return [(label, float("inf") if i == 0 else sums[i][0] / n,
             1.0 if i == 0 else sums[i][1] / n, ms[0][i], ms[1][i])
            for i, (label, *_) in enumerate(WATER_VARIANTS)], sizes


def crops(ctx, out_dir: Path) -> Path:
    """Source | bicubic | EASU + RCAS | learned, a 2x-enlarged crop of chelsea."""
    hr = photo("chelsea")
    lr = halve(hr)
    y, x, s = 60, 130, 120
    tiles = [hr] + [enlarge(ctx, m, lr) for m in ("bicubic", "EASU + RCAS", "learned")]
    labels = ["original", "bicubic", "EASU + RCAS", "learned (ours)"]
    row = []
    for img, text in zip(tiles, labels, strict=True):
        tile = cv2.resize(img[y:y + s, x:x + s], (3 * s, 3 * s),
                          interpolation=cv2.INTER_NEAREST)
        cv2.putText(tile, text, (8, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 255, 255), 2)
        row.append(tile)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "x2_crops.jpg"
    cv2.imwrite(str(path), np.hstack(row)[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def draft_crops(ctx, out_dir: Path) -> Path:
    """The watercolor at full scale | --scale 0.5 (the style's draft) | --scale 0.5 enlarged
    plainly | painted wholly small: a 2x-enlarged crop of astronaut at 1280 px wide."""
    src = skimage.data.astronaut()
    img = cv2.resize(src, (1280, 1280), interpolation=cv2.INTER_CUBIC)
    variants = [("full scale", 1.0, "bicubic", True), ("--scale 0.5", 0.5, "bicubic", True),
                ("--scale 0.5, bilinear", 0.5, "bilinear", True),
                ("--scale 0.5 wholly small", 0.5, "bicubic", False)]
    y, x, s = 150, 380, 300
    row = []
    for text, scale, method, borders in variants:
        with Renderer(ctx, "watercolor", scale=scale) as p:
            p.upscale_method = method
            p.draft_borders = borders
            out = p.render_array(img)
        tile = cv2.resize(out[y:y + s, x:x + s], (2 * s, 2 * s), interpolation=cv2.INTER_NEAREST)
        cv2.putText(tile, text, (8, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 20), 2)
        row.append(tile)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "draft_crops.jpg"
    cv2.imwrite(str(path), cv2.cvtColor(np.hstack(row), cv2.COLOR_RGB2BGR),
                [cv2.IMWRITE_JPEG_QUALITY, 88])
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", help="replace the upscale table in this Markdown file")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    ctx = create_headless_context()
    try:
        renderer = renderer_string(ctx)
        table: dict[str, list[tuple[float, float]]] = {m: [] for m in METHODS}
        names = list(PHOTOS)
        for name in names:
            hr = photo(name)
            lr = halve(hr)
            for m in METHODS:
                table[m].append(scores(hr, enlarge(ctx, m, lr)))
            print(name, {m: round(table[m][-1][0], 2) for m in METHODS}, flush=True)
        lr_hd = cv2.resize(photo("chelsea"), (960, 540), interpolation=cv2.INTER_AREA)
        speed = {"bicubic": cpu_ms(lr_hd, args.runs), "Lanczos4": float("nan")}
        for m, values in GPU.items():
            speed[m] = gpu_ms(ctx, values, lr_hd, args.runs)
        water, (small, hd) = watercolor_rows(ctx, args.runs)
        picture = crops(ctx, ROOT / "docs" / "upscale")
        drafts = draft_crops(ctx, ROOT / "docs" / "upscale")
    finally:
        ctx.release()
    base = np.mean([p for p, _ in table["bicubic"]])
    lines = [
        f"Command: `python scripts/eval_upscale.py --runs {args.runs}` ({date.today()})  ",
        f"GL renderer: `{renderer}`  ",
        "x2 of held-out photos (never used for training), halved with `cv2.INTER_AREA`; "
        "PSNR (dB) / SSIM on BT.601 luma, 4-pixel border cropped. Speed: ms per 1920x1080 "
        "output frame from a 960x540 input (GPU: upload, passes, glFinish; cv2: "
        "`cv2.resize`), median of runs.",
        "",
        "| method | " + " | ".join(names) + " | mean PSNR | vs bicubic | mean SSIM | "
        "ms per 1080p frame |",
        "|---|" + "---:|" * (len(names) + 4),
    ]
    for m in METHODS:
        ps = [p for p, _ in table[m]]
        ss = [s for _, s in table[m]]
        ms = speed.get(m, float("nan"))
        lines.append(f"| {m} | " + " | ".join(f"{p:.2f} / {s:.3f}" for p, s in table[m])
                     + f" | **{np.mean(ps):.2f}** | {np.mean(ps) - base:+.2f} | "
                     f"{np.mean(ss):.4f} | {'-' if ms != ms else f'{ms:.1f}'} |")
    lines += [
        "",
        f"The watercolor default at 1280 px wide with `--scale 0.5` (abstraction at half "
        f"size; tones from its x2 sub-pixels, washes laid at half size; picture enlarged; "
        f"full-size paper), against the full-scale render, mean over "
        f"{', '.join(WATER_PHOTOS)}. Time: ms per video frame of chelsea at 1280 px wide and "
        "at 1920x1080 (upload, motion estimate, passes, glFinish; the renders in turn, "
        "median of runs) and its share of the full render's.",
        "",
        f"| render | PSNR vs full scale | SSIM vs full scale | ms at {small[0]}x{small[1]} | "
        f"x full | ms at {hd[0]}x{hd[1]} | x full |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *[f"| {label} | {'-' if p == float('inf') else f'{p:.2f}'} | {s:.4f} | {ms:.0f} | "
          f"{ms / water[0][3]:.2f} | {hd:.0f} | {hd / water[0][4]:.2f} |"
          for label, p, s, ms, hd in water],
        "",
        f"Crops (3x nearest): [{picture.relative_to(ROOT)}]({picture.relative_to(ROOT)}); "
        f"the watercolor's drafts (2x nearest): "
        f"[{drafts.relative_to(ROOT)}]({drafts.relative_to(ROOT)}).",
    ]
    md = "\n".join(lines)
    print(md)
    if args.write:
        replace_section(args.write, "upscale", md, "## Super-resolution: "
                        "`scripts/eval_upscale.py`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
