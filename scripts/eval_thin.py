"""Thin, high-contrast structure kept by the watercolor (the rigger's measure).

`python scripts/eval_thin.py PHOTOS [--set rigger=0] [--stages]`: for each photo, painted at
its own size, the photo's thin dark lines and small bright points (a line detector at 1-2 px,
their contrast over 0.1 of luma) and how much of that contrast the painting keeps there
(`kept`: the painting's detector response over the photo's, on those pixels; dark and light
apart), and the painting's own thin darks and lights in the photo's flat regions (`dots`,
`flecks`: connected specks and hairlines of contrast over 0.1 where the photo has no edge
within 3 px), and per mille of the pixels a thin dark or light the photo has not within a
px (`stray`: invented lines, the paper's tooth among them), which a rigger must not add.
`--stages`: the dark lines' retention along the passes too.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from aquarelle.engine import create_headless_context
from aquarelle.engine.renderer import Renderer

STAGES = ("image", "abstract_rgb", "smooth", "painted")
THRESHOLD = 0.1  # of luma: a thin structure's contrast worth keeping


def luma(rgb: np.ndarray) -> np.ndarray:
    """Rec. 709 luma of sRGB values in [0, 1] (or uint8)."""
    x = rgb[..., :3].astype(np.float32)
    if rgb.dtype == np.uint8:
        x /= 255.0
    return x @ np.float32([0.2126, 0.7152, 0.0722])


def ridges(lum: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Thin dark lines and thin light lines or points: for 4 directions and radii 1, 2 px,
    how much darker (lighter) a pixel is than both its neighbours across; dark: the most
    across less the least (a line, not a dot), light: the most."""
    dark, light = [], []
    for r in (1, 2):
        for dx, dy in ((r, 0), (0, r), (r, r), (r, -r)):
            a = np.roll(lum, (dy, dx), (0, 1))
            b = np.roll(lum, (-dy, -dx), (0, 1))
            dark.append(np.minimum(a, b) - lum)
            light.append(lum - np.maximum(a, b))
    d = np.stack(dark).reshape(2, 4, *lum.shape)
    d_line = np.clip((d.max(1) - np.clip(d.min(1), 0, None)).max(0), 0, None)
    l_pt = np.clip(np.stack(light).max(0), 0, None)
    return d_line, l_pt


def measure(photo: np.ndarray, out: np.ndarray) -> dict[str, float]:
    """Kept contrast of the photo's thin darks and lights, and the painting's specks."""
    pl, ol = luma(photo), luma(out)
    pd, pb = ridges(pl)
    od, ob = ridges(ol)
    m_d, m_b = pd > THRESHOLD, pb > THRESHOLD
    kept_d = float(np.minimum(od[m_d], pd[m_d]).sum() / max(pd[m_d].sum(), 1e-6))
    kept_b = float(np.minimum(ob[m_b], pb[m_b]).sum() / max(pb[m_b].sum(), 1e-6))
    edges = cv2.Canny((pl * 255).astype(np.uint8), 20, 50) > 0
    near = cv2.dilate(edges.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    specks = ((od > THRESHOLD) & ~near).astype(np.uint8)
    n, _ = cv2.connectedComponents(specks, connectivity=8)
    flecks = ((ob > THRESHOLD) & ~near).astype(np.uint8)
    n_b, _ = cv2.connectedComponents(flecks, connectivity=8)
    # thin structure the photo does not have there (within a px): invented lines
    pd_near = cv2.dilate(pd, np.ones((3, 3), np.uint8))
    pb_near = cv2.dilate(pb, np.ones((3, 3), np.uint8))
    stray = float(((od > THRESHOLD) & (pd_near < 0.5 * THRESHOLD)).mean() * 1000
                  + ((ob > THRESHOLD) & (pb_near < 0.5 * THRESHOLD)).mean() * 1000)
    return {"dark_px": int(m_d.sum()), "kept_dark": kept_d, "light_px": int(m_b.sum()),
            "kept_light": kept_b, "dots": n - 1, "flecks": n_b - 1, "stray": stray}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("photos", nargs="+", type=Path)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--stages", action="store_true")
    ap.add_argument("--save", type=Path, help="folder for the paintings")
    args = ap.parse_args()
    values = dict(s.split("=", 1) for s in args.set)
    ctx = create_headless_context()
    print("| picture | thin dark px | kept | bright px | kept | dark dots | light flecks "
          "| stray per mille |"
          + (" " + " | ".join(STAGES) + " |" if args.stages else ""))
    for path in args.photos:
        photo = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB)
        p = Renderer(ctx, "watercolor")
        p.set_params(values)
        p.inspect = args.stages
        out = p.render_array(photo)
        row = measure(photo, out)
        line = (f"| {path.stem} | {row['dark_px']} | {row['kept_dark']:.2f} | "
                f"{row['light_px']} | {row['kept_light']:.2f} | {row['dots']} | {row['flecks']} | "
                f"{row['stray']:.1f} |")
        if args.stages:
            pd, _ = ridges(luma(photo))
            m = pd > THRESHOLD
            for s in STAGES:
                t = p.read_target(s)[..., :3].astype(np.float32)
                t = cv2.resize(t, photo.shape[1::-1], interpolation=cv2.INTER_LINEAR)
                sd, _ = ridges(luma(np.clip(t, 0, 1)))
                line += f" {np.minimum(sd[m], pd[m]).sum() / max(pd[m].sum(), 1e-6):.2f} |"
        print(line, flush=True)
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.save / f"{path.stem}.png"), cv2.cvtColor(out, cv2.COLOR_RGB2BGR))
        p.release()
    return 0


if __name__ == "__main__":
    sys.exit(main())
