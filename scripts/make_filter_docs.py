"""The filter-chain picture for the README: a dark, noisy webcam-like frame (an underexposed
photo plus sensor-like noise) through `watercolor` alone and through
`denoise+enhance+watercolor`.

Run: .venv/bin/python scripts/make_filter_docs.py  (writes docs/filters/dark_noisy.jpg)
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import skimage.data
from make_docs_images import label  # scripts/ is on the path when run as a script

from aquarelle.engine import create_headless_context
from aquarelle.engine.renderer import Renderer

OUT = Path(__file__).resolve().parent.parent / "docs" / "filters"
SEED = 7


def webcam_like(rgb: np.ndarray, exposure: float = 0.07, read_noise: float = 0.006,
                gain: float = 0.008, seed: int = SEED) -> np.ndarray:
    """An underexposed capture: linear light scaled down, then shot noise (its variance grows
    with the signal) and read noise per channel, a slight blue cast of a cheap sensor, and
    back to sRGB 8 bits. Noise sigma ~6-12 of 255 in the shadows and midtones."""
    rng = np.random.default_rng(seed)
    lin = (rgb.astype(np.float64) / 255.0) ** 2.2 * exposure * np.array([0.9, 1.0, 1.1])
    noisy = lin + rng.normal(0.0, 1.0, lin.shape) * np.sqrt(gain * lin + read_noise ** 2)
    out = np.clip(noisy, 0.0, 1.0) ** (1 / 2.2)
    return np.clip(out * 255.0 + 0.5, 0, 255).astype(np.uint8)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    ctx = create_headless_context()
    photo = skimage.data.astronaut()
    dark = webcam_like(photo)
    tiles = [label(dark, "dark, noisy input")]
    for chain in ("watercolor", "denoise+enhance+watercolor"):
        with Renderer(ctx, chain) as p:
            tiles.append(label(p.render_array(dark), chain))
    top = np.hstack(tiles)
    h = 360
    top = cv2.resize(top, (round(top.shape[1] * h / top.shape[0]), h),
                     interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(OUT / "dark_noisy.jpg"), top[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 88])
    print(OUT / "dark_noisy.jpg")


if __name__ == "__main__":
    main()
