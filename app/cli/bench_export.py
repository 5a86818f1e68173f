"""`aquarelle bench-export`: video export throughput, pipelined vs sequential vs the style's
OpenCV equivalent per frame (`aquarelle bench`'s: cv2.stylization for the watercolor, a
chain's calls in turn), on a 720p clip made from the demo photo; prints a Markdown table."""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from collections.abc import Callable, Mapping
from datetime import date
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np

from ..engine.context import create_headless_context, renderer_string
from ..engine.errors import ParamError
from ..eval.report import replace_section
from ..media.export import ExportOptions, ExportResult, export_video
from ..media.hw_decoders import CHOICES as DECODER_CHOICES
from ..media.hw_encoders import CHOICES as ENCODER_CHOICES
from ..media.image_read import read_image
from ..media.video_reader import VideoReader
from ..media.video_writer import CODECS, VideoWriter
from ..resources import assets_dir
from .bench_baselines import as_rgb, baseline
from .common import (
    add_style_options,
    command_line,
    frame_rate,
    look_said,
    parse_frame_size,
    positive,
    report_target,
    resolve_look,
)


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench-export",
                       help="benchmark video export: pipelined vs sequential vs the style's OpenCV "
                            "equivalent (cv2.stylization for the watercolor)")
    add_style_options(p)
    p.add_argument("--seconds", type=float, default=2.0,
                   help="length of the test clip in seconds (default: %(default)g)")
    p.add_argument("--size", default="1280x720", metavar="WxH",
                   help="clip size (default: %(default)s)")
    p.add_argument("--fps", type=frame_rate, default=30,
                   help="clip frame rate (default: %(default)s)")
    p.add_argument("--no-cv2", action="store_true",
                   help="skip the OpenCV baseline (the style's equivalent, as aquarelle bench's)")
    p.add_argument("--photo", metavar="FILE",
                   help="the picture the test clip pans over (default: the bundled coffee "
                        "photo; a portrait puts the face models to work)")
    p.add_argument("--encoder", choices=ENCODER_CHOICES, default="auto",
                   help="the export's H.264 encoder: auto (a GPU's where one works), "
                        "software or hardware")
    p.add_argument("--decoder", choices=DECODER_CHOICES, default="auto",
                   help="the export's decoder: auto (the GPU's where it decodes the clip), "
                        "software or hardware")
    p.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="run the pipelined export and the baseline N times, alternately, "
                        "and report the medians (default 1)")
    p.add_argument("--write", metavar="FILE", help="replace the export table in this Markdown file")
    p.set_defaults(func=run)


def _photo(given: str | None = None) -> np.ndarray:
    if given is not None:
        return read_image(given).rgb
    path = assets_dir() / "demo" / "coffee.jpg"
    if path.is_file():
        return read_image(path).rgb
    rng = np.random.default_rng(1)  # without the demo assets: smooth colour noise
    small = rng.integers(0, 255, (48, 64, 3), dtype=np.uint8)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), 1), (640, 480),
                      interpolation=cv2.INTER_CUBIC)


def make_clip(path: Path, size: tuple[int, int], seconds: float, fps: Fraction | float,
              photo_path: str | None = None) -> int:
    """A slow push-in over the coffee photo (or `photo_path`) with a quiet tone (H.264 CRF
    18 + AAC)."""
    w, h = size
    photo = _photo(photo_path)
    ph, pw = photo.shape[:2]
    fps = Fraction(fps).limit_denominator(1001)  # 29.97 as 2997/100: timestamps are exact
    n = round(seconds * fps)
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=fps)
        vs.width, vs.height, vs.pix_fmt = w, h, "yuv420p"
        vs.codec_context.options = {"crf": "18", "preset": "veryfast"}
        aus = out.add_stream("aac", rate=48000, layout="stereo")
        for k in range(n):
            zoom = 1.0 + 0.15 * k / n
            win_w = min(pw, ph * w / h) / zoom
            s = w / win_w
            x0 = (pw - win_w) * (0.3 + 0.4 * k / n)
            y0 = (ph - win_w * h / w) * 0.5
            m = np.array([[s, 0, -x0 * s], [0, s, -y0 * s]])
            img = cv2.warpAffine(photo, m, (w, h), flags=cv2.INTER_CUBIC,
                                 borderMode=cv2.BORDER_REFLECT)
            frame = av.VideoFrame.from_ndarray(img, format="rgb24")
            frame.pts, frame.time_base = k, 1 / fps
            for p in vs.encode(frame):
                out.mux(p)
        for p in vs.encode(None):
            out.mux(p)
        t = np.arange(round(n / fps * 48000)) / 48000
        tone = np.repeat((0.1 * np.sin(2 * np.pi * 330 * t)).astype(np.float32)[None], 2, 0)
        af = av.AudioFrame.from_ndarray(tone, format="fltp", layout="stereo")
        af.sample_rate, af.pts, af.time_base = 48000, 0, Fraction(1, 48000)
        for p in [*aus.encode(af), *aus.encode(None)]:
            out.mux(p)
    return n


def cv2_export(src: Path, dst: Path, call: Callable[[np.ndarray], np.ndarray]
               ) -> tuple[int, float]:
    """The baseline: decode -> `call` (the style's OpenCV equivalent, RGB in) -> encode,
    frame by frame (video only)."""
    t0 = time.perf_counter()
    with VideoReader(src) as reader:
        writer = None
        n = 0
        for frame in reader.frames():
            out = as_rgb(call(frame.image))
            if writer is None:
                writer = VideoWriter(dst, fmt="mp4", codec=CODECS["h264"],
                                     size=(out.shape[1], out.shape[0]),
                                     time_base=reader.time_base, fps=reader.fps)
            writer.write_frame(np.ascontiguousarray(out), frame.pts, frame.duration)
            n += 1
        if writer is not None:
            writer.close()
    return n, time.perf_counter() - t0


def run(args: argparse.Namespace) -> int:
    look = resolve_look(args)
    report_target(args.write)
    style, values = look.style, look.values
    w, h = parse_frame_size(args.size, "--size")
    positive(args.fps, "--fps")
    positive(args.seconds, "--seconds")
    positive(args.repeat, "--repeat")
    if round(args.seconds * args.fps) < 2:
        raise ParamError(f"--seconds {args.seconds:g} at {args.fps} fps is under 2 frames: "
                         "nothing to measure")
    rows: list[tuple[str, int, float, dict[str, float]]] = []
    base = None if args.no_cv2 else baseline(look.name, values)
    with tempfile.TemporaryDirectory(prefix="aquarelle-bench-") as tmp:
        clip = Path(tmp) / "clip.mp4"
        n = make_clip(clip, (w, h), args.seconds, args.fps, args.photo)
        ctx = create_headless_context()
        renderer = renderer_string(ctx)
        try:
            runs: dict[str, list[tuple[int, float, dict[str, float]]]] = {}
            encoders: set[str] = set()
            decoders: set[str] = set()
            for i in range(max(1, args.repeat)):
                # Alternate ours and the baseline, so drift of the machine hits both alike.
                plan = [("pipelined", True)] + ([("sequential", False)] if i == 0 else [])
                for label, pipelined in plan:
                    opts = ExportOptions(pipelined=pipelined, seed=args.seed, scale=args.scale,
                                         encoder=args.encoder, decoder=args.decoder)
                    r: ExportResult = export_video(clip, Path(tmp) / f"{label}.mp4", style,
                                                   values, opts, ctx=ctx)
                    runs.setdefault(label, []).append((r.frames, r.elapsed, r.stage_seconds))
                    print(f"{label}: {r.frames} frames in {r.elapsed:.1f} s, {r.fps:.2f} fps, "
                          f"by {r.encoder}", flush=True)
                    encoders.add(r.encoder)
                    decoders.add(r.decoder)
                if base is not None:
                    frames, seconds = cv2_export(clip, Path(tmp) / "cv2.mp4", base[1])
                    runs.setdefault("cv2", []).append((frames, seconds, {}))
                    print(f"OpenCV ({base[0]}): {frames} frames in {seconds:.1f} s, "
                          f"{frames / seconds:.2f} fps", flush=True)
        finally:
            ctx.release()
        for label, results in runs.items():
            frames, seconds, stages = sorted(results, key=lambda x: x[1])[len(results) // 2]
            rows.append((label, frames, seconds, stages))
    md = _markdown(args, look.name, renderer, (w, h), n, rows, values)
    md += (f"\n\nVideo encoder: {', '.join(sorted(encoders))}; decoder: "
           f"{', '.join(sorted(decoders))}.")
    print(md)
    if args.write:
        replace_section(args.write, "export", md, "## Video export: `aquarelle bench-export`")
    return 0


TARGET_RATIO = 0.35  # the watercolor's pipelined export time over the cv2.stylization loop's

LABELS = {
    "pipelined": "aquarelle, pipelined (decode ∥ GL render + readback ∥ encode)",
    "sequential": "aquarelle, sequential (decode → render → read → encode)",
}


def _markdown(args, style: str, renderer: str, size: tuple[int, int], n: int, rows,
              values: Mapping[str, object] | None = None) -> str:
    """The report; `values`: the style's, which choose its OpenCV baseline as they did the
    one timed."""
    base = baseline(style, values)
    what = base[0] if base is not None else "none"
    labels = dict(LABELS, cv2=f"OpenCV per frame (decode → {what} → encode)")
    cmd = command_line("bench-export", args, {"seconds": 2.0, "size": "1280x720",
                                              "fps": 30, "repeat": 1, "no_cv2": False,
                                              "photo": None, "encoder": "auto",
                                              "decoder": "auto"})
    seq = next((r for r in rows if r[0] == "sequential"), None)
    lines = [
        f"Command: `{cmd}` ({date.today().isoformat()}, {platform.machine()}, "
        f"{os.cpu_count()} CPU cores, Python {platform.python_version()})  ",
        f"GL renderer: `{renderer}`  ",
        f"Clip: {size[0]}x{size[1]}, {n} frames at {args.fps} fps, H.264 + AAC, a pan over "
        f"{args.photo or 'assets/demo/coffee.jpg'}. Style `{style}`, {look_said(args)}, "
        f"scale {args.scale:g}. Output H.264 CRF 18 (preset "
        "medium), audio copied. Time from opening the input to the finished file, same process; "
        + (f"median of {args.repeat} alternating runs (sequential: one)."
           if args.repeat > 1 else "one run each."),
        "",
        "| export | frames | seconds | frames/s | vs sequential |",
        "|---|---:|---:|---:|---:|",
    ]
    for label, frames, seconds, _ in rows:
        ratio = f"x{seq[2] / seconds:.2f}" if seq else ""
        lines.append(f"| {labels[label]} | {frames} | {seconds:.1f} | {frames / seconds:.2f} "
                     f"| {ratio} |")
    ours = next((r for r in rows if r[0] == "pipelined"), None)
    cv = next((r for r in rows if r[0] == "cv2"), None)
    if ours and cv:
        ratio = ours[2] / cv[2]
        target = (f"target: at most {TARGET_RATIO:g}, the pipelined export at least "
                  f"{1 / TARGET_RATIO:.1f} times as fast as that per-frame loop: "
                  f"{'met' if ratio <= TARGET_RATIO else 'not met'}") \
            if style == "watercolor" else \
            f"no target: the {TARGET_RATIO:g} is the watercolor's against cv2.stylization"
        lines += ["", f"Export time relative to the OpenCV loop's (decode → {what} → encode): "
                  f"**{ratio:.3f}** ({target})."]
    elif base is None and not args.no_cv2:
        lines += ["", f"No OpenCV baseline: style `{style}` has no comparable OpenCV call, "
                  "so no comparison is made."]
    stages = [(label, frames, st) for label, frames, _, st in rows if st]
    if stages:
        lines += ["", "Busy time per frame by stage (ms; pipelined, the stages overlap and "
                  "throughput approaches the slowest one):", "",
                  "| export | decode | motion (analysis thread) | subject models (beside "
                  "it) | render + readback | encode |",
                  "|---|---:|---:|---:|---:|---:|"]
        for label, frames, st in stages:
            lines.append(f"| {label} | " + " | ".join(
                f"{st.get(k, 0) / frames * 1e3:.1f}"
                for k in ("decode", "motion", "subject", "render", "encode")) + " |")
    if "llvmpipe" in renderer:
        lines += ["", "llvmpipe renders on the CPU: the GL stage, the decoder and the encoder "
                  "share the same cores, so overlapping them mostly moves work around (the "
                  "render stage is slower when the encoder runs beside it). With a GPU the "
                  "render and readback leave the CPU to decoding and encoding."]
    return "\n".join(lines)
