"""`aquarelle bench-live`: the live path measured with a synthetic camera: delivered frame
rate, the processing scale adaptation chose, capture-to-virtual-camera latency, drops."""

from __future__ import annotations

import argparse
import platform
import statistics
from datetime import date

import numpy as np

from ..engine.context import create_headless_context, renderer_string
from ..engine.renderer import Renderer
from ..eval.report import replace_section
from ..media.live import LIVE_FPS_RANGE, LiveOptions, LiveSession, LiveStats
from ..media.sources import SyntheticSource
from ..media.virtual_camera import NullCamera, VirtualCameraSink
from .bench_frames import pan_frames
from .common import (
    add_style_options,
    command_line,
    float_rate,
    in_range,
    parse_frame_size,
    positive,
    report_target,
    resolve_look,
)

DEFAULT_SIZES = "640x360,1280x720"
PAN_FRAMES = 40  # the camera pans back and forth over these


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench-live", help="benchmark live painting into a virtual camera "
                                          "(synthetic camera, adaptive quality on and off)")
    add_style_options(p)
    p.add_argument("--seconds", type=float, default=60.0,
                   help="length of each run (default: %(default)g); each size runs twice, "
                        "adaptive quality on and off, so the bench lasts --seconds x 2 x "
                        "the number of sizes")
    p.add_argument("--fps", type=float_rate, default=30.0,
                   help="the synthetic camera's rate (default: %(default)g)")
    p.add_argument("--sizes", default=DEFAULT_SIZES,
                   help="comma-separated WxH (default: %(default)s)")
    p.add_argument("--write", metavar="FILE", help="replace the live table in this Markdown file")
    p.set_defaults(func=run)


def pan_camera(size: tuple[int, int], fps: float) -> SyntheticSource:
    """A live synthetic camera at `fps`: a slow pan back and forth over the bundled photo."""
    frames = pan_frames(size[0], size[1], PAN_FRAMES)

    def pattern(k: int, w: int, h: int) -> np.ndarray:
        i = k % (2 * PAN_FRAMES - 2)
        return frames[i if i < PAN_FRAMES else 2 * PAN_FRAMES - 2 - i]

    return SyntheticSource(size, fps, live=True, pattern=pattern)


def measure(pipeline: Renderer, size: tuple[int, int], fps: float, seconds: float,
            adaptive: bool, scale: float = 1.0) -> LiveStats:
    """One run: the synthetic camera painted live into a null virtual camera."""
    opts = LiveOptions(fps=fps, adaptive=adaptive, scale=scale)
    session = LiveSession(pan_camera(size, fps), pipeline, opts,
                          sink_factory=lambda s, f: VirtualCameraSink(
                              s, f, backend_factory=lambda w, h, r: NullCamera()))
    return session.run(seconds=seconds)


def run(args: argparse.Namespace) -> int:
    look = resolve_look(args)
    report_target(args.write)
    style, values = look.style, look.values
    positive(args.seconds, "--seconds")
    in_range(args.fps, *LIVE_FPS_RANGE, "--fps", " for a live picture")
    sizes = [parse_frame_size(s, "--sizes") for s in args.sizes.split(",") if s.strip()]
    ctx = create_headless_context()
    rows = []
    try:
        renderer = renderer_string(ctx)
        for size in sizes:
            for adaptive in (True, False):
                with Renderer(ctx, style, seed=args.seed, scale=args.scale) as p:
                    p.set_params(values)
                    stats = measure(p, size, args.fps, args.seconds, adaptive, args.scale)
                print(f"{size[0]}x{size[1]} adaptive {'on' if adaptive else 'off'}: "
                      f"{stats.line()}", flush=True)
                rows.append((size, adaptive, stats))
    finally:
        ctx.release()
    md = _markdown(args, look.name, renderer, rows)
    print(md)
    if args.write:
        replace_section(args.write, "live", md, "## Live: `aquarelle bench-live`")
    return 0


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x * 1000:.0f}"


def _markdown(args: argparse.Namespace, style: str, renderer: str, rows) -> str:
    cmd = command_line("bench-live", args, {"seconds": None, "fps": 30.0,
                                            "sizes": DEFAULT_SIZES})
    lines = [
        f"Command: `{cmd}` ({date.today()}, "
        f"{platform.machine()}, Python {platform.python_version()})  ",
        f"GL renderer: `{renderer}`  ",
        f"A synthetic camera at {args.fps:g} fps (a slow pan back and forth over the bundled "
        f"photo), style `{style}`, preset `{args.preset or 'defaults'}`, painted live "
        "and sent to a virtual camera backend that discards the frames, for "
        f"{args.seconds:g} s a run. *Delivered*: new painted frames per second. *Scale*: "
        "the processing scale (median over the frames, and at the end). *Latency*: camera "
        "capture to the virtual camera's send. *Dropped*: camera frames replaced before "
        "they could be painted (stale frames are never queued). *Repeated*: sends of the "
        "previous frame when no new one was ready (the output rate stays steady).",
        "",
        "| camera | adaptive | delivered fps | scale median / end | latency median ms | "
        "latency p95 ms | dropped | sent (repeated) |",
        "|---|---|---:|---|---:|---:|---:|---:|",
    ]
    for (w, h), adaptive, s in rows:
        med_scale = statistics.median(s.scales) if s.scales else s.scale
        lines.append(
            f"| {w}x{h} | {'on' if adaptive else 'off'} | {s.fps:.1f} | {med_scale:.2f} / "
            f"{s.scale:.2f} | {_ms(s.latency_median)} | {_ms(s.latency_p95)} | "
            f"{s.source_dropped} | {s.sent} ({s.repeated}) |")
    return "\n".join(lines)
