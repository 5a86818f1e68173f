"""How far an optimized pipeline's pictures are from a reference build's (issue 9).

Renders scikit-image's photos (chelsea, coffee, astronaut, rocket) at 1280 px wide and the
bundled coffee photo at its size, still frames with the default look, and either saves
them (--save DIR, lossless PNG) or compares them with a saved set (--against DIR): PSNR
and SSIM (scikit-image, on 8-bit RGB) per photo.

The reference set comes from the build before the optimization, installed apart:

    git worktree add /tmp/ref <commit>
    .venv/bin/pip install --no-deps --target /tmp/refsite /tmp/ref
    PYTHONPATH=/tmp/refsite .venv/bin/python scripts/speed_quality.py --save /tmp/before
    .venv/bin/python scripts/speed_quality.py --against /tmp/before [--write BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np
import skimage.data
from skimage.metrics import peak_signal_noise_ratio, structural_similarity

from aquarelle.engine import Renderer, create_headless_context
from aquarelle.eval.report import replace_section
from aquarelle.resources import assets_dir

PHOTOS = ("chelsea", "coffee", "astronaut", "rocket")
WIDE = 1280


def photos() -> dict[str, np.ndarray]:
    """The test photos, RGB uint8."""
    out = {}
    for name in PHOTOS:
        img = getattr(skimage.data, name)()
        s = WIDE / img.shape[1]
        out[name] = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_CUBIC)
    out["demo coffee.jpg"] = cv2.imread(str(assets_dir() / "demo" / "coffee.jpg"))[:, :, ::-1]
    return out


def render_all() -> dict[str, np.ndarray]:
    ctx = create_headless_context()
    try:
        result = {}
        for name, img in photos().items():
            with Renderer(ctx) as p:
                result[name] = p.render_array(img)
        return result
    finally:
        ctx.release()


def _file(folder: Path, name: str) -> Path:
    return folder / (name.replace(" ", "_").replace(".", "_") + ".png")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", type=Path, help="save this build's renders here")
    mode.add_argument("--against", type=Path, help="compare with renders saved here")
    ap.add_argument("--write", help="replace the quality table in this Markdown file")
    args = ap.parse_args(argv)
    renders = render_all()
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        for name, img in renders.items():
            cv2.imwrite(str(_file(args.save, name)), img[:, :, ::-1])
        print(f"saved {len(renders)} renders in {args.save}")
        return 0
    rows = []
    for name, img in renders.items():
        ref = cv2.imread(str(_file(args.against, name)))
        if ref is None:
            print(f"no reference render for {name} in {args.against}", file=sys.stderr)
            return 2
        ref = ref[:, :, ::-1]
        psnr = peak_signal_noise_ratio(ref, img, data_range=255)
        ssim = structural_similarity(ref, img, channel_axis=2, data_range=255)
        rows.append((name, img.shape[1], img.shape[0], psnr, ssim))
    md = "\n".join([
        "Command: `python scripts/speed_quality.py --against DIR` (DIR: the same renders from "
        "the build before the optimization; see the script)  ",
        "Default look, still frames; PSNR (dB) and SSIM of the optimized render against the "
        "unoptimized one.",
        "",
        "| photo | size | PSNR dB | SSIM |",
        "|---|---|---:|---:|",
        *[f"| {n} | {w}x{h} | {p:.1f} | {s:.3f} |" for n, w, h, p, s in rows],
        f"| **mean** | | **{np.mean([r[3] for r in rows]):.1f}** | "
        f"**{np.mean([r[4] for r in rows]):.3f}** |",
    ])
    print(md)
    if args.write:
        replace_section(args.write, "speed-quality", md, "## Speed: what the optimization "
                        "changed in the picture")
    return 0


if __name__ == "__main__":
    sys.exit(main())
