"""`aquarelle bench --filters`: every style's GPU time at one size next to the OpenCV call
that does the same job, on the same frames in the same process."""

from __future__ import annotations

import argparse
import platform
import statistics
from datetime import date

from ..engine.context import create_headless_context, renderer_string
from ..engine.renderer import Renderer
from ..engine.style import list_styles
from ..eval.report import replace_section
from .bench_baselines import baseline
from .bench_frames import DEFAULT_SIZES, format_ms, median_time, pan_frames, speed_up
from .common import counted, parse_frame_size, positive

FILTER_SIZE = "1280x720"
GPU_FRAMES = 3  # frames timed pass by pass (fewer when --runs leaves fewer)


def run_filters(args: argparse.Namespace) -> int:

    positive(args.runs, "--runs")
    sizes = FILTER_SIZE if args.sizes == DEFAULT_SIZES else args.sizes
    w, h = parse_frame_size(sizes.split(",")[0], "--sizes")
    ctx = create_headless_context()
    renderer = renderer_string(ctx)
    frames = pan_frames(w, h, args.runs + 1)
    rows = []
    for name in list_styles():
        pipeline = Renderer(ctx, name, seed=args.seed)
        whole = median_time(pipeline.render_array, frames)  # a video: temporal state works
        pipeline.profile = True
        gpu = []
        for f in frames[:GPU_FRAMES + 1]:  # the first one warms up
            pipeline.render_array(f)
            gpu.append(sum(pipeline.pass_times_ms().values()))
        pipeline.release()
        base = baseline(name)
        what, cv = ("none", None) if base is None else (base[0], median_time(base[1], frames))
        rows.append((name, statistics.median(gpu[1:]), whole, what, cv))
        print(f"{name}: GPU {rows[-1][1]:.1f} ms, frame {whole * 1e3:.1f} ms, "
              f"OpenCV {format_ms(cv)} ms", flush=True)
    ctx.release()
    lines = [
        f"Command: `aquarelle bench --filters --runs {args.runs}` ({date.today().isoformat()}, "
        f"{platform.machine()}, {platform.python_version()}), {w}x{h}, default parameters, "
        f"a 2 px/frame pan over the bundled photo  ",
        f"GL renderer: `{renderer}`  ",
        "GPU ms: the style's passes (GL timer queries, median of "
        f"{counted(min(GPU_FRAMES, args.runs), 'frame')}); frame ms: upload + "
        "passes + readback to numpy (median); OpenCV: the equivalent call on the same RGB "
        "frames in the same process (median)."
        + (" On llvmpipe (OpenGL on the CPU) timer queries miss the work the driver defers "
           "to the readback, so one-pass filters show about 0 GPU ms: the whole-frame column "
           "is the figure to read there, and OpenCV's SIMD code on the same CPU is the fair "
           "comparison." if "llvmpipe" in renderer else ""),
        "",
        "| style | GPU ms | whole frame ms | OpenCV equivalent | OpenCV ms | OpenCV / frame |",
        "|---|---:|---:|---|---:|---:|",
    ]
    for name, gpu_ms, whole, what, cv in rows:
        lines.append(f"| {name} | {gpu_ms:.1f} | {whole * 1e3:.1f} | {what} | {format_ms(cv)} | "
                     f"{speed_up(cv, whole)} |")
    md = "\n".join(lines)
    print(md)
    if args.write:
        replace_section(args.write, "filters", md,
                        "## Image filters: `aquarelle bench --filters`")
    return 0
