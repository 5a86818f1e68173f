"""The shader warm-up's effect: the first paint of a preset whose programs a warm-up process
compiled ahead (engine/shader_warmup.py, as the window runs it) against the first paint of a
preset nobody compiled, both in this process, with an empty shader cache to begin with.

The watercolor's presets are split in two halves (every other one); a child warms the first
half (and the default look) as the window's warm-up does; then this process paints the
default and every preset once, in the list's order, each the first time its programs are
needed. The driver's disk cache is pointed at a new folder (Mesa: MESA_SHADER_CACHE_DIR;
NVIDIA: __GL_SHADER_DISK_CACHE_PATH) so that nothing is warm from before.

Run: .venv/bin/python scripts/bench_warmup.py [--write BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from datetime import date


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", metavar="MD", help="put the table into this Markdown file")
    args = ap.parse_args()
    cache = tempfile.mkdtemp(prefix="aquarelle-shader-cache-")
    os.environ["MESA_SHADER_CACHE_DIR"] = cache  # (before any GL, the child's too)
    os.environ["__GL_SHADER_DISK_CACHE_PATH"] = cache
    os.environ.pop("MESA_SHADER_CACHE_DISABLE", None)

    import cv2
    import skimage.data

    from aquarelle.engine.context import create_headless_context, renderer_string
    from aquarelle.engine.presets import list_presets
    from aquarelle.engine.renderer import Renderer
    from aquarelle.engine.shader_warmup import warm_looks
    from aquarelle.eval.report import replace_section
    from aquarelle.media.still_process import ChildJob
    from aquarelle.ui.render_state import RenderState

    picture = cv2.resize(skimage.data.astronaut(), (512, 512), interpolation=cv2.INTER_AREA)
    state = RenderState("watercolor")
    presets = list_presets("watercolor")
    looks = [(p.name, state.preset_look(p.values)) for p in presets]
    warmed = [look for i, look in enumerate(looks) if i % 2 == 0]
    t0 = time.perf_counter()
    job = ChildJob(warm_looks, "watercolor", [state.params.values()] + [v for _, v in warmed],
                   picture, False, None, what="shader warm-up")
    job.start()
    job.wait()
    if job.error is not None:
        raise SystemExit(f"bench_warmup: the warm-up failed: {job.error}")
    warm_s = time.perf_counter() - t0

    ctx = create_headless_context()
    gl = renderer_string(ctx)
    times: dict[str, tuple[bool, float]] = {}
    with Renderer(ctx, "watercolor") as p:
        t = time.perf_counter()
        p.render_array(picture)
        times["(default)"] = (True, time.perf_counter() - t)
        warm_names = {name for name, _ in warmed}
        for name, values in looks:
            p.set_params(values)
            t = time.perf_counter()
            p.render_array(picture)
            times[name] = (name in warm_names, time.perf_counter() - t)
    ctx.release()
    hot = statistics.median(s for w, s in times.values() if w)
    cold = statistics.median(s for w, s in times.values() if not w)
    rows = [f"| {name} | {'yes' if w else 'no'} | {s:.2f} |" for name, (w, s) in times.items()]
    md = "\n".join([
        f"Command: `.venv/bin/python scripts/bench_warmup.py --write BENCHMARKS.md` "
        f"({date.today()}), {gl}, a 512x512 still, an empty shader cache at the start; the "
        f"warm-up process took {warm_s:.0f} s for {len(warmed) + 1} looks.", "",
        "| look, in the order painted | warmed ahead | first paint, s |",
        "|---|---|---:|", *rows, "",
        f"First paint of a look, median: warmed {hot:.2f} s, not warmed {cold:.2f} s "
        f"(x{hot / cold:.2f})."])
    print(md)
    if args.write:
        replace_section(args.write, "warmup", md, "## Shader warm-up (a preset's first paint)")


if __name__ == "__main__":
    main()
