"""Where a video frame of the default watercolor goes on this machine (issue 30's 1080p and
4K targets), on a pan over a photo without a face (coffee) and one with a face (astronaut):

- *serial*: `render_array` frame after frame, as `aquarelle bench`'s video column (motion and
  the subject models found on the render thread);
- *motion* and *subject*: what the decoder's thread (MotionAhead) and the subject models
  cost a frame when run apart;
- *render thread*: the frame with its motion and subject given ahead (what an export's
  render stage or the live preview is left with): host time issuing it, then with the
  readback; the GPU's time for it from one timer query; the per-pass timers' sum.

Video frames are painted at most `--video-lines` lines, as an export paints them (default
VIDEO_LINES: a 4K frame at 1080 lines, its paper at 4K; 0: every line).

For the GPU kit's `videoprofile` step; prints a Markdown table."""

from __future__ import annotations

import argparse
import statistics
import time

import cv2
import numpy as np
import skimage.data

from aquarelle.cli.bench_frames import as_decoded, pan_frames
from aquarelle.engine import Renderer, create_headless_context, renderer_string
from aquarelle.engine.motion import MotionAhead
from aquarelle.engine.renderer import VIDEO_LINES

TOPS: list[str] = []  # the passes that take most, per row


def med(xs: list[float]) -> float:
    return 1000 * statistics.median(xs)


def profile(ctx, name: str, img: np.ndarray, w: int, h: int, runs: int, lines: int) -> str:
    frames = as_decoded(pan_frames(w, h, runs + 2, img))  # RGBA, as an export decodes them
    with Renderer(ctx, "watercolor") as p:
        p.max_lines = lines
        serial = []
        for i, f in enumerate(frames):
            t = time.perf_counter()
            p.render_array(f)
            if i:
                serial.append(time.perf_counter() - t)
        ahead = MotionAhead(p.motion_widths())
        motions, motion_t = [], []
        for f in frames:
            t = time.perf_counter()
            motions.append(ahead.estimate(f))
            motion_t.append(time.perf_counter() - t)
        stage = p._subject_stage
        subjects, subject_t = [], []
        for f in frames:
            t = time.perf_counter()
            subjects.append(stage.find_subject(f, "rgb", False) if stage is not None else None)
            subject_t.append(time.perf_counter() - t)
        faces = sum(1 for s in subjects if s is not None and s.faces)
        p.reset_history()
        p.subject_feed = "given"
        host, whole, gpu = [], [], []
        q = ctx.query(time=True)
        for i, (f, m, s) in enumerate(zip(frames, motions, subjects, strict=True)):
            p.set_subject(s)
            ctx.finish()
            t0 = time.perf_counter()
            with q:
                tex = p.render(f, motion=m)
            t1 = time.perf_counter()
            p.read(tex)
            t2 = time.perf_counter()
            if i:
                host.append(t1 - t0)
                whole.append(t2 - t0)
                gpu.append(q.elapsed / 1e9)
        p.profile = True
        sums, tables = [], []
        for f, m, s in zip(frames[:4], motions[:4], subjects[:4], strict=True):
            p.set_subject(s)
            p.read(p.render(f, motion=m))
            tables.append(p.pass_times_ms())
            sums.append(sum(tables[-1].values()) / 1000)
        p.profile = False
    top = sorted(((statistics.median(t.get(k, 0.0) for t in tables[1:]), k) for k in tables[-1]),
                 reverse=True)
    TOPS.append(f"{w}x{h} {name}: " + ", ".join(f"{k} {v:.2f}" for v, k in top if v >= 0.01))
    return (f"| {w}x{h} | {name} ({faces}/{len(frames)} with a face) | {med(serial):.1f} | "
            f"{med(motion_t[1:]):.1f} | {med(subject_t[1:]):.1f} | {med(host):.1f} | "
            f"{med(gpu):.1f} | {med(sums[1:]):.1f} | {med(whole):.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--sizes", default="1920x1080,3840x2160")
    ap.add_argument("--video-lines", type=int, default=VIDEO_LINES)
    args = ap.parse_args()
    ctx = create_headless_context()
    print("GL renderer:", renderer_string(ctx), "| cv2 threads:", cv2.getNumThreads(),
          "| video painted at most", args.video_lines or "every", "lines")
    print()
    print("| size | pan | serial frame ms | motion ms | subject models ms | render thread: "
          "host ms | GPU ms (one query) | per-pass sum ms | render thread with readback ms |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    photos = {"coffee": skimage.data.coffee(), "astronaut": skimage.data.astronaut()}
    for size in args.sizes.split(","):
        w, h = (int(v) for v in size.split("x"))
        for name, img in photos.items():
            print(profile(ctx, name, img, w, h, args.runs, args.video_lines), flush=True)
    print()
    print("GPU ms of every pass and step over 0.01 ms, most first (median of 3 profiled frames):")
    print()
    for line in TOPS:
        print("- " + line)


if __name__ == "__main__":
    main()
