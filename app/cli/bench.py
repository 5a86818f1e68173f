"""`aquarelle bench`: per-pass GPU time and whole-frame time vs the style's OpenCV equivalent
(cv2.stylization for the watercolor), as Markdown."""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from datetime import date

import numpy as np

from ..engine.context import create_headless_context, renderer_string
from ..engine.renderer import MAX_VIDEO_LINES, MIN_VIDEO_LINES, VIDEO_LINES, Renderer
from ..eval.report import replace_section
from .bench_baselines import baseline
from .bench_frames import (
    DEFAULT_SIZES,
    as_decoded,
    format_ms,
    median_time,
    pan_frames,
    speed_up,
)
from .common import (
    add_style_options,
    command_line,
    counted,
    look_said,
    parse_frame_size,
    positive,
    report_target,
    resolve_look,
)
from .render_options import parse_video_lines

PASS_FRAMES = 3  # frames timed pass by pass (fewer when --runs leaves fewer)


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="benchmark a style against its OpenCV equivalent "
                                     "(cv2.stylization for the watercolor)")
    add_style_options(p)
    p.add_argument("--runs", type=int, default=5,
                   help="timed frames per size (median reported; default: %(default)s)")
    p.add_argument("--sizes", default=DEFAULT_SIZES,
                   help="comma-separated WxH (default: %(default)s)")
    p.add_argument("--write", metavar="FILE", help="replace the frame table in this Markdown file")
    p.add_argument("--video-lines", type=int, metavar="N",
                   help=f"video frames painted at most N lines, as exported (default "
                        f"{VIDEO_LINES}; 0: every line; else {MIN_VIDEO_LINES} to "
                        f"{MAX_VIDEO_LINES}); stills keep every line")
    p.add_argument("--filters", action="store_true",
                   help="instead: every style's GPU time next to its OpenCV equivalent, one "
                        "row each (default size 1280x720; --write replaces the filter table)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    report_target(args.write)
    if args.filters:
        from .bench_filters import run_filters

        return run_filters(args)
    look = resolve_look(args)
    style, values = look.style, look.values
    positive(args.runs, "--runs")
    sizes = [parse_frame_size(s, "--sizes") for s in args.sizes.split(",")]
    lines = parse_video_lines(args.video_lines)
    ctx = create_headless_context()
    renderer = renderer_string(ctx)
    pipeline = Renderer(ctx, style, seed=args.seed, scale=args.scale)
    pipeline.set_params(values)
    rows, pass_tables = [], []
    base = baseline(look.name, values)
    for w, h in sizes:
        frames = pan_frames(w, h, args.runs + 1)

        def still(f: np.ndarray) -> np.ndarray:
            pipeline.reset_history()  # each frame on its own, as a still image
            return pipeline.render_array(f)

        pipeline.max_lines = 0  # a still keeps every line
        warm_up(pipeline, frames)
        ours = median_time(still, frames)
        pipeline.reset_history()
        pipeline.max_lines = lines  # ... a video's frames are painted at most so many
        # temporal features at work, on frames as an export decodes them (RGBA)
        video = median_time(pipeline.render_array, as_decoded(frames))
        textures = video_textures_mb(pipeline, frames[0])
        cv_frames = frames[: max(2, args.runs // 2 + 1)]
        cv = median_time(base[1], cv_frames) if base is not None else None
        warm_up(pipeline, frames)
        pipeline.profile = True
        per_pass = []
        for f in frames[:PASS_FRAMES]:
            pipeline.render_array(f)
            per_pass.append(pipeline.pass_times_ms())
        pipeline.profile = False
        passes = {k: statistics.median(p.get(k, 0.0) for p in per_pass) for k in per_pass[-1]}
        rows.append((w, h, ours, video, cv, textures))
        pass_tables.append((w, h, passes))
        versus = f", OpenCV {format_ms(cv)} ms, speed-up {speed_up(cv, ours)} still, " \
            f"{speed_up(cv, video)} video" if cv is not None else ", no OpenCV equivalent"
        print(f"{w}x{h}: still {ours * 1e3:.1f} ms, video {video * 1e3:.1f} ms{versus}",
              flush=True)
    pipeline.release()
    ctx.release()
    md = _markdown(args, look.name, renderer, rows, pass_tables, base)
    print(md)
    if args.write:
        if look.name == "watercolor":
            replace_section(args.write, "frame", md, "## Still frames: `aquarelle bench`")
        else:
            replace_section(args.write, f"frame-{look.name}", md,
                            f"## Still frames, style {look.name}: `aquarelle bench --style "
                            f"{look.name}`")
    return 0


def warm_up(pipeline: Renderer, frames: list[np.ndarray], seconds: float = 1.0) -> None:
    """Frames rendered for about `seconds` (at least two) before a timing: a GPU left idle
    through the CPU baseline drops its clocks (an H200: 1980 to 345 MHz) and takes about a
    second of work to raise them; timed at once, its 1080p per-pass table summed to four
    times the frame."""
    start = time.perf_counter()
    for i in range(10 * len(frames)):
        pipeline.render_array(frames[i % len(frames)])
        if i >= 1 and time.perf_counter() - start > seconds:
            break


def video_textures_mb(pipeline: Renderer, frame: np.ndarray) -> float:
    """Texture memory over one more video frame, in MB: the most each pool (the style's
    graph, a draft's finish, the enlargement; each style of a chain) held at once, summed."""
    pools = pipeline.texture_pools()
    for pool in pools:
        pool.peak_bytes = pool.resident_bytes()
    pipeline.render_array(frame)
    return sum(pool.peak_bytes for pool in pipeline.texture_pools()) / 2 ** 20


def _markdown(args, style: str, renderer, rows, pass_tables, base) -> str:
    cmd = command_line("bench", args, {"sizes": DEFAULT_SIZES, "runs": None, "video_lines": None})
    versus = f"Baseline: {base[0]} on the same frames in the same process." \
        if base is not None else "Baseline: none (no OpenCV equivalent of a style here)."
    lines = [
        f"Command: `{cmd}` ({date.today().isoformat()}, {platform.machine()}, "
        f"{platform.python_version()})  ",
        f"GL renderer: `{renderer}`  ",
        f"Style `{style}`, {look_said(args)}, scale {args.scale:g}. "
        "Whole frame = upload + all passes + readback to a numpy array, median of "
        f"{counted(args.runs, 'frame')} of a 2 px/frame pan over the bundled photo. "
        "*Still*: history reset before each frame (as for an image); *video*: consecutive "
        "frames (RGBA, as an export decodes them) with the temporal features (optical flow "
        "on the CPU, advected canvas, temporal smoothing), painted "
        f"at most {parse_video_lines(args.video_lines) or 'every'} lines as an export paints "
        f"them (the paper at full size; stills keep every line). {versus}",
        "",
        "| size | still frame ms | video frame ms (temporal) | OpenCV ms | "
        "speed-up still (cv2 / ours) | speed-up video | textures of a video frame, MB |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for w, h, ours, video, cv, textures in rows:
        lines.append(f"| {w}x{h} | {ours * 1e3:.1f} | {video * 1e3:.1f} | {format_ms(cv)} | "
                     f"{speed_up(cv, ours)} | {speed_up(cv, video)} | {textures:.0f} |")
    lines += ["", "GPU time per pass of a video frame (ms, GL timer queries, median of "
              f"{counted(min(PASS_FRAMES, args.runs + 1), 'frame')}; "
              "repeated passes summed over their iterations; the steps around them, the "
              "upload, resizes and a draft finish's passes as finish.NAME, included; "
              "-: not run at that size):", ""]
    names = list(dict.fromkeys(n for _, _, t in pass_tables for n in t))  # every size's
    lines.append("| pass | " + " | ".join(f"{w}x{h}" for w, h, _ in pass_tables) + " |")
    lines.append("|---|" + "---:|" * len(pass_tables))
    for n in names:
        lines.append(f"| {n} | " + " | ".join(f"{t[n]:.1f}" if n in t else "-"
                                               for _, _, t in pass_tables)
                     + " |")
    lines.append("| **sum** | " + " | ".join(f"{sum(t.values()):.1f}" for _, _, t in pass_tables)
                 + " |")
    return "\n".join(lines)
