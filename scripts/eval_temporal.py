"""Temporal coherence table: E_warp of input, per-frame and coherent stylization on three clips.

Run: .venv/bin/python scripts/eval_temporal.py [--frames 30] [--write BENCHMARKS.md] [--gif]
     .venv/bin/python scripts/eval_temporal.py --steadiness [--write BENCHMARKS.md]
Clips are made in memory from scikit-image's public-domain photos (camera pan, zoom, a
moving object over a still background) and never encoded, so compression does not blur the
comparison. E_warp follows app/eval/flicker.py (Lai et al. 2018, DIS flow of the input).
"""

from __future__ import annotations

import argparse
import time
from datetime import date
from pathlib import Path

import cv2
import numpy as np
import skimage.data

from aquarelle.engine import Renderer, create_headless_context, renderer_string
from aquarelle.eval.flicker import warping_errors
from aquarelle.eval.report import replace_section

W, H = 384, 256
ROOT = Path(__file__).resolve().parent.parent


def pan_clip(n: int) -> list[np.ndarray]:
    """The camera pans right and a little down over the astronaut photo (2.5 px, 1 px)."""
    big = cv2.resize(skimage.data.astronaut(), (900, 900), interpolation=cv2.INTER_CUBIC)
    out = []
    for t in range(n):
        m = np.float32([[1, 0, -(150 + 2.5 * t)], [0, 1, -(200 + 1.0 * t)]])
        out.append(cv2.warpAffine(big, m, (W, H), flags=cv2.INTER_LINEAR))
    return out


def zoom_clip(n: int) -> list[np.ndarray]:
    """The camera zooms into the coffee photo by 1.5% a frame."""
    photo = skimage.data.coffee()
    ph, pw = photo.shape[:2]
    out = []
    for t in range(n):
        s = 1.0 * (1.015 ** t) * W / pw * 1.2
        m = np.float32([[s, 0, W / 2 - s * pw / 2], [0, s, H / 2 - s * ph / 2]])
        out.append(cv2.warpAffine(photo, m, (W, H), flags=cv2.INTER_LINEAR))
    return out


def object_clip(n: int) -> list[np.ndarray]:
    """Chelsea's face in a soft disc slides over the still coffee photo (3 px a frame)."""
    bg = cv2.resize(skimage.data.coffee(), (W, H), interpolation=cv2.INTER_AREA)
    cat = cv2.resize(skimage.data.chelsea()[20:260, 90:330], (120, 120),
                     interpolation=cv2.INTER_AREA)
    yy, xx = np.mgrid[:120, :120]
    alpha = np.clip((58 - np.hypot(xx - 60, yy - 60)) / 4, 0, 1)[..., None]
    out = []
    for t in range(n):
        frame = bg.astype(np.float32)
        x, y = 30 + 3 * t, 70
        region = frame[y:y + 120, x:x + 120]
        frame[y:y + 120, x:x + 120] = region * (1 - alpha) + cat * alpha
        out.append(frame.astype(np.uint8))
    return out


CLIPS = {"camera pan": pan_clip, "zoom": zoom_clip, "moving object": object_clip}


# The paper margins off: a border of bare paper fixed to the frame, which E_warp (along the
# content's flow) counts as error wherever the picture moves under it, in every mode alike;
# what is measured is the painting's coherence inside it.
MEASURED = {"margins": 0.0}


def stylize(ctx, frames: list[np.ndarray], temporal: bool, **params: object
            ) -> tuple[list[np.ndarray], float]:
    """Stylized frames and the median wall time per frame (upload, passes, readback)."""
    with Renderer(ctx) as pipeline:
        pipeline.set_params({"temporal": temporal, **MEASURED, **params})
        pipeline.render_array(frames[0])  # warm-up (compile, allocate)
        pipeline.reset_history()
        out, times = [], []
        for f in frames:
            t = time.perf_counter()
            out.append(pipeline.render_array(f))
            times.append(time.perf_counter() - t)
    return out, float(np.median(times[1:] if len(times) > 1 else times))


def gif(frames_a: list[np.ndarray], frames_b: list[np.ndarray], path: Path) -> None:
    from PIL import Image

    tiles = []
    for a, b in zip(frames_a, frames_b, strict=True):
        a = cv2.resize(a, (W // 2, H // 2), interpolation=cv2.INTER_AREA)
        b = cv2.resize(b, (W // 2, H // 2), interpolation=cv2.INTER_AREA)
        for img, text in ((a, "per-frame"), (b, "coherent")):
            cv2.rectangle(img, (0, 0), (92, 20), (255, 255, 255), -1)
            cv2.putText(img, text, (4, 15), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1,
                        cv2.LINE_AA)
        tiles.append(Image.fromarray(np.hstack([a, np.full((a.shape[0], 6, 3), 255, np.uint8), b])))
    tiles[0].save(path, save_all=True, append_images=tiles[1:], duration=66, loop=0,
                  optimize=True)


STEADINESS = (0.0, 0.25, 0.5, 0.75, 1.0)


def steadiness_table(ctx, n: int) -> str:
    """E_warp of each clip at each steadiness (0: a boil; 0.5: the default; 1: held)."""
    md = [
        f"Command: `python scripts/eval_temporal.py --steadiness --frames {n}` "
        f"({date.today().isoformat()}), {W}x{H}, default parameters but `steadiness` "
        "(and `margins` 0: see the script).  ",
        f"GL renderer: `{renderer_string(ctx)}`",
        "",
        "| clip | E_warp input | " + " | ".join(f"steadiness {s:g}" for s in STEADINESS)
        + " | 0 / 1 | ms/frame at 1 vs 0.5 |",
        "|---|" + "---:|" * (len(STEADINESS) + 3),
    ]
    for name, make in CLIPS.items():
        frames = make(n)
        runs = {f"s{s:g}": stylize(ctx, frames, True, steadiness=s) for s in STEADINESS}
        res = warping_errors(frames, **{k: v[0] for k, v in runs.items()})
        e = [res.e_warp(f"s{s:g}") for s in STEADINESS]
        extra = (runs["s1"][1] - runs["s0.5"][1]) * 1e3
        md.append(f"| {name} | {res.e_warp('input'):.5f} | "
                  + " | ".join(f"{v:.5f}" for v in e) + f" | {e[0] / e[-1]:.1f}x | "
                  f"{extra:+.1f} ms |")
        print(md[-1], flush=True)
    return "\n".join(md)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--write", type=Path, help="replace the temporal table in this Markdown file")
    ap.add_argument("--gif", action="store_true", help="write docs/temporal_pan.gif")
    ap.add_argument("--steadiness", action="store_true",
                    help="the steadiness control's table instead (E_warp from 0 to 1)")
    args = ap.parse_args()
    ctx = create_headless_context()
    if args.steadiness:
        text = steadiness_table(ctx, args.frames)
        print(text)
        if args.write:
            replace_section(args.write, "steadiness", text,
                            "### Steadiness: `scripts/eval_temporal.py --steadiness`")
        ctx.release()
        return
    rows = []
    for name, make in CLIPS.items():
        frames = make(args.frames)
        per_frame, t_pf = stylize(ctx, frames, temporal=False)
        coherent, t_co = stylize(ctx, frames, temporal=True)
        res = warping_errors(frames, per_frame=per_frame, coherent=coherent)
        e_in, e_pf, e_co = (res.e_warp(k) for k in ("input", "per_frame", "coherent"))
        rows.append((name, e_in, e_pf, e_co, t_pf, t_co))
        print(f"{name}: input {e_in:.5f}, per-frame {e_pf:.5f}, coherent {e_co:.5f} "
              f"({e_co / e_in:.2f}x input, {e_co / e_pf:.2f}x per-frame); "
              f"{t_pf * 1e3:.0f} -> {t_co * 1e3:.0f} ms/frame", flush=True)
        if args.gif and name == "camera pan":
            gif(per_frame[:20], coherent[:20], ROOT / "docs" / "temporal_pan.gif")
    md = [
        f"Command: `python scripts/eval_temporal.py --frames {args.frames}` "
        f"({date.today().isoformat()}), {W}x{H}, default parameters (per-frame = "
        "`temporal=false`) but `margins` 0 (a border fixed to the frame: see the script).  ",
        f"GL renderer: `{renderer_string(ctx)}`",
        "",
        "| clip | E_warp input | E_warp per-frame | E_warp coherent | coherent / input | "
        "coherent / per-frame | ms/frame per-frame | ms/frame coherent | extra |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, e_in, e_pf, e_co, t_pf, t_co in rows:
        md.append(f"| {name} | {e_in:.5f} | {e_pf:.5f} | {e_co:.5f} | {e_co / e_in:.2f} | "
                  f"{e_co / e_pf:.2f} | {t_pf * 1e3:.0f} | {t_co * 1e3:.0f} | "
                  f"{(t_co - t_pf) * 1e3:+.0f} ms ({t_co / t_pf:.2f}x) |")
    text = "\n".join(md)
    print(text)
    if args.write:
        replace_section(args.write, "temporal", text,
                        "## Temporal coherence: `scripts/eval_temporal.py`")
    ctx.release()


if __name__ == "__main__":
    main()
