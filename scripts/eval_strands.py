"""Hair along its flow (issue 28): on each photo of a folder, how much the painting's tones
change across the photo's flow against along it, in a found figure's hair and clothes (the
figure beyond the face and its features, from the painting's own focus map), with
`hair_flow` off (the figure laid as shapes) and on. Strokes that follow the strands change
little along them; blobs change as much either way.

    python scripts/eval_strands.py PHOTOS

The ratio is mean |dL/dn| over mean |dL/dt| of the painting's CIELAB lightness, t the
photo's tangent (the minor eigenvector of its structure tensor, smoothed over 3 px), n the
normal, where that tangent is well defined (anisotropy above 0.3); the photo's own ratio is
given for scale.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from aquarelle.engine import create_headless_context
from aquarelle.engine.renderer import Renderer

SUFFIXES = {".png", ".jpg", ".jpeg"}


def lightness(rgb: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB)[..., 0].astype(np.float32) * (100 / 255)


def tangent(lum: np.ndarray, sigma: float = 3.0) -> tuple[np.ndarray, np.ndarray]:
    """Unit tangent (tx, ty) along the edges of `lum`, and the anisotropy."""
    gx = cv2.Sobel(lum, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(lum, cv2.CV_32F, 0, 1)
    e, f, g = (cv2.GaussianBlur(a, (0, 0), sigma) for a in (gx * gx, gx * gy, gy * gy))
    root = np.sqrt((e - g) ** 2 + 4 * f * f)
    l1, l2 = 0.5 * (e + g + root), 0.5 * (e + g - root)
    tx, ty = l1 - e, -f
    n = np.maximum(np.hypot(tx, ty), 1e-9)
    return np.stack([tx / n, ty / n]), (l1 - l2) / np.maximum(l1 + l2, 1e-9)


def across_along(lum: np.ndarray, t: np.ndarray, mask: np.ndarray) -> float:
    gx = cv2.Sobel(lum, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(lum, cv2.CV_32F, 0, 1)
    along = np.abs(gx * t[0] + gy * t[1])
    across = np.abs(-gx * t[1] + gy * t[0])
    return float(across[mask].mean() / max(along[mask].mean(), 1e-6))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("photos", type=Path)
    args = ap.parse_args(argv)
    ctx = create_headless_context()
    print("| photo | hair px | photo across/along | hair_flow 0 | hair_flow 1 |")
    print("|---|---:|---:|---:|---:|")
    for path in sorted(p for p in args.photos.iterdir() if p.suffix.lower() in SUFFIXES):
        photo = cv2.imread(str(path))[:, :, ::-1].copy()
        h, w = photo.shape[:2]
        ratios = []
        mask = None
        for k in (0.0, 1.0):
            p = Renderer(ctx, "watercolor")
            p.set_params({"hair_flow": k, "paper_tooth": 0.0})
            p.keep_targets(["focus_t"])
            painting = p.render_array(photo)
            if p.last_subject is None:
                p.release()
                break
            if mask is None:  # the figure with its face and features out (near figure_rest)
                focus = cv2.resize(p.read_target("focus_t"), (w, h))
                rest = focus[..., 3] * (1 - focus[..., 2]) * (1 - focus[..., 1])
                t, aniso = tangent(lightness(photo))
                mask = (rest > 0.5) & (aniso > 0.3)
            p.release()
            ratios.append(across_along(lightness(painting), t, mask))
        if len(ratios) < 2 or mask is None or mask.sum() < 100:
            print(f"| {path.stem} | - | - | - | - |")
            continue
        own = across_along(lightness(photo), t, mask)
        print(f"| {path.stem} | {100 * mask.mean():.0f}% | {own:.2f} | {ratios[0]:.2f} | "
              f"{ratios[1]:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
