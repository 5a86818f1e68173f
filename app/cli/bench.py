"""`aquarelle bench`: per-pass GPU time and whole-frame time vs cv2.stylization, as Markdown."""

from __future__ import annotations

import argparse
import platform
import re
import statistics
import time
from datetime import date
from pathlib import Path

import cv2
import numpy as np

from ..engine.context import create_headless_context, renderer_string
from ..engine.pipeline import Pipeline
from ..media.image_io import read_image
from ..resources import assets_dir
from .common import add_style_options, resolve_style

SIZES = ((640, 360), (1280, 720), (1920, 1080))
BEGIN, END = "<!-- bench:frame:begin -->", "<!-- bench:frame:end -->"


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="benchmark the style against cv2.stylization")
    add_style_options(p)
    p.add_argument("--runs", type=int, default=5, help="timed frames per size (median reported)")
    p.add_argument("--sizes", default="640x360,1280x720,1920x1080", help="comma-separated WxH")
    p.add_argument("--write", metavar="FILE", help="replace the frame table in this Markdown file")
    p.set_defaults(func=run)


def _test_frame(w: int, h: int) -> np.ndarray:
    photo = assets_dir() / "demo" / "coffee.jpg"
    img = read_image(photo).rgb if photo.is_file() else _synthetic(512, 512)
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)


def _synthetic(w: int, h: int) -> np.ndarray:
    rng = np.random.default_rng(1)
    img = cv2.GaussianBlur(rng.integers(0, 255, (h // 8, w // 8, 3), dtype=np.uint8), (0, 0), 1)
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_CUBIC)


def _median_time(fn, runs: int) -> float:
    fn()  # warm-up: compiles, allocates
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def run(args: argparse.Namespace) -> int:
    style, values = resolve_style(args)
    sizes = [tuple(int(v) for v in s.lower().split("x")) for s in args.sizes.split(",")]
    ctx = create_headless_context()
    renderer = renderer_string(ctx)
    pipeline = Pipeline(ctx, style, seed=args.seed, scale=args.scale)
    pipeline.set_params(values)
    rows, pass_tables = [], []
    for w, h in sizes:
        frame = _test_frame(w, h)
        ours = _median_time(lambda f=frame: pipeline.render_array(f), args.runs)
        cv = _median_time(lambda f=frame: cv2.stylization(f[:, :, ::-1]),
                          max(1, args.runs // 2))
        pipeline.profile = True
        per_pass = [pipeline.render_array(frame) and pipeline.pass_times_ms()
                    for _ in range(3)]
        pipeline.profile = False
        passes = {k: statistics.median(p[k] for p in per_pass if k in p) for k in per_pass[0]}
        rows.append((w, h, ours, cv))
        pass_tables.append((w, h, passes))
        print(f"{w}x{h}: aquarelle {ours * 1e3:.1f} ms, cv2.stylization {cv * 1e3:.1f} ms, "
              f"speed-up x{cv / ours:.2f}", flush=True)
    pipeline.release()
    ctx.release()
    md = _markdown(args, renderer, rows, pass_tables)
    print(md)
    if args.write:
        _replace_section(Path(args.write), md)
    return 0


def _markdown(args, renderer, rows, pass_tables) -> str:
    cmd = "aquarelle bench" + (f" --preset {args.preset}" if args.preset else "") + \
          (f" --scale {args.scale:g}" if args.scale != 1 else "") + f" --runs {args.runs}"
    lines = [
        f"Command: `{cmd}` ({date.today().isoformat()}, {platform.machine()}, "
        f"{platform.python_version()})  ",
        f"GL renderer: `{renderer}`  ",
        f"Style `{args.style}`, preset `{args.preset or 'defaults'}`, scale {args.scale:g}. "
        "Whole frame = upload + all passes + readback to a numpy array, median of "
        f"{args.runs}. Baseline: `cv2.stylization` (default sigma_s=60, sigma_r=0.45) on the "
        "same frame in the same process.",
        "",
        "| size | aquarelle ms/frame | cv2.stylization ms/frame | speed-up (cv2 / ours) |",
        "|---|---:|---:|---:|",
    ]
    for w, h, ours, cv in rows:
        lines.append(f"| {w}x{h} | {ours * 1e3:.1f} | {cv * 1e3:.1f} | x{cv / ours:.2f} |")
    lines += ["", "GPU time per pass (ms, GL timer queries, median of 3; repeated passes "
              "summed over their iterations):", ""]
    names = list(pass_tables[0][2])
    lines.append("| pass | " + " | ".join(f"{w}x{h}" for w, h, _ in pass_tables) + " |")
    lines.append("|---|" + "---:|" * len(pass_tables))
    for n in names:
        lines.append(f"| {n} | " + " | ".join(f"{t.get(n, 0):.1f}" for _, _, t in pass_tables)
                     + " |")
    lines.append("| **sum** | " + " | ".join(f"{sum(t.values()):.1f}" for _, _, t in pass_tables)
                 + " |")
    return "\n".join(lines)


def _replace_section(path: Path, md: str) -> None:
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    block = f"{BEGIN}\n{md}\n{END}"
    if BEGIN in text and END in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text,
                      flags=re.S)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")
