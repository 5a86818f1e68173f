"""The darks of the default look (issue 29): the darkest 5% of each picture's pixels, their
mean CIELAB L* and chroma, in the photo and in the painting.

    python scripts/eval_darks.py [PHOTOS] [--set NAME=VALUE ...]

scikit-image's coffee, chelsea, rocket and astronaut, and the .png photos of PHOTOS.
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


def darks(rgb: np.ndarray) -> tuple[float, float]:
    """Mean L* and chroma of the darkest 5% of a uint8 RGB picture."""
    lab = cv2.cvtColor(rgb.astype(np.float32) / 255, cv2.COLOR_RGB2LAB)
    lum, chroma = lab[..., 0], np.hypot(lab[..., 1], lab[..., 2])
    dark = lum <= np.percentile(lum, 5)
    return float(lum[dark].mean()), float(chroma[dark].mean())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("photos", type=Path, nargs="?")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args(argv)
    pictures = {n: getattr(skimage.data, n)() for n in ("astronaut", "coffee", "chelsea",
                                                         "rocket")}
    if args.photos is not None:
        for f in sorted(args.photos.glob("*.png")):
            pictures[f.stem] = cv2.imread(str(f))[:, :, ::-1].copy()
    values = dict(v.split("=", 1) for v in args.set)
    ctx = create_headless_context()
    print("| picture | photo L* | photo chroma | painting L* | painting chroma |")
    print("|---|---:|---:|---:|---:|")
    for name, rgb in pictures.items():
        p = Renderer(ctx, "watercolor")
        p.set_params(values)
        (l0, c0), (l1, c1) = darks(rgb), darks(p.render_array(rgb))
        p.release()
        print(f"| {name} | {l0:.1f} | {c0:.1f} | {l1:.1f} | {c1:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
