"""The default look's borders (issue 29): crispness, transition width and pooling
(aquarelle.eval.edges) of scikit-image's photos at 1280 px wide, and of the .png photos in
PHOTOS, in the photo and in the painting (docs/look/hard_edges.jpg: make_look_docs.py).

    python scripts/eval_edges.py [PHOTOS] [--width 1280] [--set NAME=VALUE ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np
import skimage.data

from aquarelle.engine import create_headless_context
from aquarelle.engine.renderer import Renderer
from aquarelle.eval.edges import crispness, pooling, transition

NAMES = ("chelsea", "coffee", "astronaut", "rocket", "stereo_motorcycle")


def pictures(folder: Path | None, width: int) -> dict[str, np.ndarray]:
    out = {}
    for n in NAMES:
        img = getattr(skimage.data, n)()
        out[n] = img[0] if isinstance(img, tuple) else img
    if folder is not None:
        for f in sorted(folder.glob("*.png")):
            out[f.stem] = cv2.imread(str(f))[:, :, ::-1].copy()
    for n, img in out.items():
        s = width / img.shape[1]
        out[n] = cv2.resize(img, None, fx=s, fy=s,
                            interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("photos", type=Path, nargs="?")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args(argv)
    values = dict(v.split("=", 1) for v in args.set)
    ctx = create_headless_context()
    print("| picture | crispness: photo | painting | transition px: photo | painting | "
          "pooling L*: photo | painting |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, rgb in pictures(args.photos, args.width).items():
        out = paint(ctx, rgb, values)
        print(f"| {name} | {crispness(rgb):.2f} | {crispness(out):.2f} | "
              f"{transition(rgb):.1f} | {transition(out):.1f} | "
              f"{pooling(rgb):+.1f} | {pooling(out):+.1f} |")
    return 0


def paint(ctx, rgb: np.ndarray, values: dict[str, str]) -> np.ndarray:
    """The watercolor with `values` set (a fresh pipeline: no history between pictures)."""
    p = Renderer(ctx, "watercolor")
    p.set_params(values)
    out = p.render_array(rgb)
    p.release()
    return out


if __name__ == "__main__":
    sys.exit(main())
