"""Candidate speed-ups of a video frame, each beside the default in one process: the GPU's
time for the frame (one timer query, motion given ahead as an export's render stage has it),
the passes that moved most, and how far the picture moved (PSNR of the frames against the
default's). For issue 30's 1080p target on a lent GPU, where each candidate needs measuring
before it can be chosen (a datacentre card's graphics runs on a small part of its chip).

Variants (`--variants`, comma-separated):
  default            the watercolor as it ships
  f16:T1+T2...       the named targets stored as half floats (rgba16f; fp32 RGBA is filtered
                     at a quarter of the rate on NVIDIA's chips)
  lines:N            the video painted at most N lines (default VIDEO_LINES)
  set:NAME=VALUE     a parameter changed
  const:FILE:NAME=V  a shader constant changed (`const ... NAME = V;` in FILE under shaders/,
                     in a copy of the tree), e.g. const:watercolor/bilateral.frag:STRIDE_SIGMA=1.5
Parts join with ";" (e.g. "lines:720;set:abstraction_iterations=1").

For the GPU kit's `ab` step; prints a Markdown table."""

from __future__ import annotations

import argparse
import dataclasses
import re
import shutil
import statistics
import tempfile
from pathlib import Path

import numpy as np
import skimage.data

from aquarelle.cli.bench_frames import as_decoded, pan_frames
from aquarelle.engine import Renderer, create_headless_context, renderer_string
from aquarelle.engine.motion import MotionAhead
from aquarelle.engine.renderer import VIDEO_LINES
from aquarelle.engine.style import load_style
from aquarelle.resources import shaders_dir

# (the advected canvas holds paper positions: half floats would lose them on a long pan)
DEFAULT_VARIANTS = ("default,f16:abstract+abstract_t,lines:720,set:abstraction_iterations=1,"
                    "const:watercolor/bilateral.frag:STRIDE_SIGMA=1.5")


def shader_tree(changes: list[tuple[str, str, str]]) -> Path | None:
    """A copy of the shader tree with each (file, constant, value) changed; None: none."""
    if not changes:
        return None
    root = Path(tempfile.mkdtemp(prefix="ab-shaders-")) / "shaders"
    shutil.copytree(shaders_dir(), root)
    for file, name, value in changes:
        path = root / file
        text, n = re.subn(rf"(const\s+\w+\s+{name}\s*=\s*)[^;]+;", rf"\g<1>{value};",
                          path.read_text())
        if n != 1:
            raise SystemExit(f"no single constant {name} in {file}")
        path.write_text(text)
    return root


def styled(variant: str):
    """The style and renderer settings of a variant: (style, max_lines, params, shader
    tree or None)."""
    style = load_style("watercolor")
    lines, params = VIDEO_LINES, {}
    changes: list[tuple[str, str, str]] = []
    for part in variant.split(";"):
        kind, _, arg = part.partition(":")
        if kind == "f16":
            targets = dict(style.targets)
            for name in arg.split("+"):
                targets[name] = dataclasses.replace(targets[name], format="rgba16f")
            style = dataclasses.replace(style, targets=targets)
        elif kind == "lines":
            lines = int(arg)
        elif kind == "set":
            name, _, value = arg.partition("=")
            params[name] = float(value)
        elif kind == "const":
            file, _, assignment = arg.rpartition(":")
            name, _, value = assignment.partition("=")
            changes.append((file, name, value))
        elif kind != "default":
            raise SystemExit(f"unknown variant {part!r}")
    return style, lines, params, shader_tree(changes)


def run(ctx, variant: str, frames: list[np.ndarray], runs: int
        ) -> tuple[float, dict[str, float], list[np.ndarray]]:
    style, lines, params, shaders = styled(variant)
    with Renderer(ctx, style, **({"shader_root": shaders} if shaders else {})) as p:
        p.max_lines = lines
        p.set_params(params)
        ahead = MotionAhead(p.motion_widths())
        motions = [ahead.estimate(f) for f in frames]
        p.subject_feed = "given"
        q = ctx.query(time=True)
        gpu, out = [], []
        for i, (f, m) in enumerate(zip(frames, motions, strict=True)):
            with q:
                tex = p.render(f, motion=m)
            out.append(p.read(tex)[..., :3].copy())
            if i:
                gpu.append(q.elapsed / 1e6)
        p.profile = True
        p.reset_history()
        tables = []
        for f, m in zip(frames[:4], motions[:4], strict=True):
            p.read(p.render(f, motion=m))
            tables.append(p.pass_times_ms())
        p.profile = False
    passes = {k: statistics.median(t.get(k, 0.0) for t in tables[1:]) for k in tables[-1]}
    return statistics.median(gpu), passes, out


def psnr(a: list[np.ndarray], b: list[np.ndarray]) -> float:
    mse = np.mean([np.mean((x.astype(np.float64) - y) ** 2) for x, y in zip(a, b, strict=True)])
    return float("inf") if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--variants", default=DEFAULT_VARIANTS)
    args = ap.parse_args()
    ctx = create_headless_context()
    w, h = (int(v) for v in args.size.split("x"))
    frames = as_decoded(pan_frames(w, h, args.runs + 1, skimage.data.coffee()))
    print("GL renderer:", renderer_string(ctx), f"| {w}x{h} pan over coffee, "
          f"{args.runs} frames timed")
    print()
    print("| variant | GPU ms (one query) | vs default | PSNR vs default, dB | "
          "passes that moved most (ms, default -> variant) |")
    print("|---|---:|---:|---:|---|")
    base = None
    for variant in args.variants.split(","):
        ms, passes, out = run(ctx, variant, frames, args.runs)
        if base is None:
            base = (ms, passes, out)
        moved = sorted(set(passes) | set(base[1]),
                       key=lambda k: -abs(passes.get(k, 0.0) - base[1].get(k, 0.0)))[:4]
        what = ", ".join(f"{k} {base[1].get(k, 0.0):.2f} -> {passes.get(k, 0.0):.2f}"
                         for k in moved) if variant != "default" else ""
        print(f"| {variant} | {ms:.2f} | x{ms / base[0]:.2f} | {psnr(base[2], out):.1f} | "
              f"{what} |", flush=True)


if __name__ == "__main__":
    main()
