"""The paper's tooth at several picture sizes (issue 29: the look the same at any size): a
white frame painted with the default (its grain and granulation off, so only the tooth's
relief is left), L* between the 5th and 95th percentiles at 100% and shrunk to 640 px.

    python scripts/eval_paper.py [--sizes 1280x720,2560x1440,3840x2160]
"""

from __future__ import annotations

import argparse

import cv2
import numpy as np

from aquarelle.engine import create_headless_context
from aquarelle.engine.renderer import Renderer


def relief(picture: np.ndarray) -> float:
    """L* between the 5th and 95th percentiles of an RGB picture."""
    lo, hi = np.percentile(cv2.cvtColor(picture, cv2.COLOR_RGB2LAB)[..., 0], (5, 95))
    return float(hi - lo) * 100 / 255


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1280x720,2560x1440,3840x2160")
    args = ap.parse_args()
    ctx = create_headless_context()
    print("| picture | tooth shrunk to 640 px | at 100% |\n|---|---:|---:|")
    for text in args.sizes.split(","):
        w, h = (int(v) for v in text.split("x"))
        with Renderer(ctx, "watercolor") as p:
            p.set_params({"paper_grain": 0.0, "granulation": 0.0})
            out = p.render_array(np.full((h, w, 3), 255, np.uint8))
        shrunk = cv2.resize(out, (640, round(640 * h / w)), interpolation=cv2.INTER_AREA)
        print(f"| {w}x{h} | {relief(shrunk):.2f} | {relief(out):.2f} |")


if __name__ == "__main__":
    main()
