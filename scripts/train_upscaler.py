"""Learn the x2 upscaler's hashed filters (style `upscale`, method `learned`).

Trains on scikit-image's bundled photos (their 8 rotations and flips) plus any images
given, and writes assets/upscale/filters_x2.npy (float16, ~40 KB), the texture the shader
reads. Reproducible: the same images and seed give the same file. The photos used for the
benchmark (chelsea, astronaut, rocket, immunohistochemistry, hubble_deep_field) are never
used for training.

Run: .venv/bin/python scripts/train_upscaler.py [--extra IMAGE ...] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import skimage.data

from aquarelle.resources import assets_dir
from aquarelle.upscale.learned import luma, train

TRAINING = ("camera", "coffee", "brick", "grass", "gravel", "coins", "moon", "clock", "page",
            "text", "retina", "cell")
HELD_OUT = ("chelsea", "astronaut", "rocket", "immunohistochemistry", "hubble_deep_field")


def training_images(extra: list[Path]) -> list[np.ndarray]:
    """Luma in [0, 1] of the training photos."""
    out = []
    for name in TRAINING:
        img = getattr(skimage.data, name)().astype(np.float64) / 255.0
        out.append(luma(img) if img.ndim == 3 else img)
    for path in extra:
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is None:
            raise SystemExit(f"train_upscaler: cannot read {path}")
        out.append(luma(img[:, :, ::-1] / 255.0))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--extra", type=Path, nargs="*", default=[], help="more training images")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--samples", type=int, default=40000, help="output pixels per image view")
    ap.add_argument("--out", type=Path, default=assets_dir() / "upscale" / "filters_x2.npy")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    filters = train(training_images(args.extra), samples_per_image=args.samples,
                    seed=args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.save(args.out, filters.to_texture())
    print(f"{args.out}: {args.out.stat().st_size // 1024} KB, "
          f"{time.perf_counter() - t:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
