"""Wall time of a 720p export in one process vs `--cluster` (a local Ray on this machine),
the overhead each chunk adds, and what N GPU nodes would take.

    python scripts/bench_cluster.py [--seconds 10] [--chunk 2] [--workers 2]
                                    [--frame-ms 20] [--write BENCHMARKS.md]

On a machine without a GPU the workers share the same cores as the single process (Mesa
llvmpipe renders on them), so no gain is expected: the point is the overhead per chunk
(warm-up frames, pipeline set-up, the seek, a fresh encoder) and the driver's fixed costs
(Ray, the packet scan, the motion phase, the join), from which the projection follows:
T(N) = fixed + ceil(chunks / N) * (frames per chunk * frame time + overhead per chunk).
"""

from __future__ import annotations

import argparse
import math
import platform
import statistics
import tempfile
import time
from datetime import date
from pathlib import Path

from aquarelle.cli.bench_export import make_clip
from aquarelle.cluster.driver import ClusterOptions, Driver, FileJob
from aquarelle.cluster.plan import WARMUP_FRAMES
from aquarelle.engine.chain_spec import load_chain, param_set
from aquarelle.engine.context import create_headless_context, renderer_string
from aquarelle.eval.report import replace_section
from aquarelle.media.export import ExportOptions, export_video


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="clip length (default 10)")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--chunk", type=float, default=2.0, help="chunk length, s (default 2)")
    ap.add_argument("--workers", type=int, default=2, help="Ray workers (default 2)")
    ap.add_argument("--frame-ms", type=float, default=20.0,
                    help="assumed time per 720p frame on a GPU node (decode, render, encode; "
                         "x264 bound), for the projection (default 20)")
    ap.add_argument("--project-minutes", type=float, default=120.0,
                    help="video length of the projection (default 120)")
    ap.add_argument("--project-chunk", type=float, default=30.0)
    ap.add_argument("--write", metavar="FILE", help="replace the 'cluster' section of FILE")
    args = ap.parse_args()
    import ray

    from aquarelle.cluster.ray_backend import RayBackend

    w, h = (int(v) for v in args.size.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        clip = d / "clip.mp4"
        n = make_clip(clip, (w, h), args.seconds, 30)
        ctx = create_headless_context()
        renderer = renderer_string(ctx)
        t = time.perf_counter()
        single = export_video(clip, d / "single.mp4", "watercolor", None, ExportOptions(),
                              ctx=ctx)
        t_single = time.perf_counter() - t
        ctx.release()
        frame_s = t_single / single.frames

        t = time.perf_counter()
        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False,
                 logging_level="ERROR")
        t_ray = time.perf_counter() - t
        spec = load_chain("watercolor")
        runs = {}
        for workers in dict.fromkeys((args.workers, 1)):
            t = time.perf_counter()
            backend = RayBackend(workers=workers)
            driver = Driver(backend, "watercolor", spec, param_set(spec).values(),
                            ClusterOptions(chunk_seconds=args.chunk))
            (out,) = driver.run([FileJob(clip, d / f"cluster{workers}.mp4", "mp4", "h264",
                                         ExportOptions())])
            runs[workers] = (time.perf_counter() - t, out)
            backend.close()
            if out.error:
                raise SystemExit(out.error)
        ray.shutdown()
    # The overhead comes from the one-worker run: it has the cores to itself, as the
    # single process had (two workers on two cores each render at about half speed).
    t_one, one = runs[1]
    t_cluster, out = runs[args.workers]
    chunks = one.chunks
    busy = sum(one.chunk_seconds)
    per_chunk = (busy - n * frame_s) / chunks  # what a chunk costs beyond its frames
    fixed = t_one - busy  # driver: scan, motion phase, join, scheduling
    setup = max(0.0, per_chunk - WARMUP_FRAMES * frame_s)  # beyond the warm-up frames
    rows = [("single process (export_video)", t_single, single.frames / t_single),
            (f"--cluster, {args.workers} local workers, {chunks} chunks of ~{args.chunk:g} s",
             t_cluster, n / t_cluster)]
    if args.workers != 1:
        rows.append((f"--cluster, 1 local worker, {chunks} chunks", t_one, n / t_one))
    md = [f"Command: `python scripts/bench_cluster.py --seconds {args.seconds:g} --chunk "
          f"{args.chunk:g} --workers {args.workers}` ({date.today().isoformat()})  ",
          f"Clip: {w}x{h}, {n} frames ({args.seconds:g} s at 30 fps), H.264 + AAC (the export "
          f"benchmark's push-in). Style `watercolor`, defaults, H.264 CRF 18. {renderer}, "
          f"{platform.processor() or platform.machine()}; Ray {ray.__version__}. Ray's start "
          f"({t_ray:.1f} s) not counted.",
          "", "| run | wall s | fps |", "| --- | ---: | ---: |"]
    md += [f"| {name} | {s:.1f} | {fps:.2f} |" for name, s, fps in rows]
    md += ["", f"- per frame (single process): {frame_s * 1000:.0f} ms",
           f"- overhead per chunk: {per_chunk:.2f} s ({WARMUP_FRAMES} warm-up frames = "
           f"{WARMUP_FRAMES * frame_s:.2f} s, the rest {setup:.2f} s: worker start-up, seek, "
           f"encoder; one worker alone); chunk worker time median "
           f"{statistics.median(one.chunk_seconds):.1f} s",
           f"- driver's fixed cost (scan, motion phase, join, scheduling): {fixed:.1f} s",
           "- on this 2-core machine the workers share the cores the single process uses "
           "(llvmpipe renders on the CPU): no gain is expected, and there is none."]
    total = round(args.project_minutes * 60 * 30)
    pc = math.ceil(args.project_minutes * 60 / args.project_chunk)
    per = total / pc
    f = args.frame_ms / 1000
    md += ["", f"Projection: {args.project_minutes:g} min of 720p30 ({total} frames) in {pc} "
           f"chunks of {args.project_chunk:g} s, {args.frame_ms:g} ms per frame on a GPU node "
           f"(an assumption: x264 medium bound; no GPU figures yet), overhead per chunk "
           f"{setup:.2f} s + {WARMUP_FRAMES} warm-up frames, fixed {fixed:.1f} s:", "",
           "| GPU nodes | wall | speed-up |", "| ---: | ---: | ---: |"]
    t1 = total * f
    for nodes in (1, 2, 4, 8, 16, 32):
        tn = fixed + math.ceil(pc / nodes) * (per * f + setup + WARMUP_FRAMES * f)
        md.append(f"| {nodes} | {tn / 60:.1f} min | x{t1 / tn:.1f} |")
    text = "\n".join(md)
    print(text)
    if args.write:
        replace_section(args.write, "cluster", text, "## Cluster: `scripts/bench_cluster.py`")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
