"""Portrait measurements (issue 28): on each photo of a folder, the share of the photo's
gradient energy the painting keeps in the eye regions and in the background, their ratio,
and the share of bare paper (within 12 levels of the paper colour: its tooth) in the outer
border (a tenth of the short side).

    python scripts/eval_portraits.py PHOTOS [--before PAINTINGS] [--save DIR]

The default look paints each photo here, with the paper's tooth off (its relief is the
paper's texture, not the photo's detail kept); --before names paintings of the same photos (same
file stems, .png) made by another version (`aquarelle render` of an older checkout) to
measure side by side. Faces (eyes from the face mesh) and the person mask come from the
engine's subject models, on the photo.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from aquarelle.engine import create_headless_context
from aquarelle.engine.faces import MESH_LEFT_EYE, MESH_RIGHT_EYE, FaceDetector
from aquarelle.engine.person_mask import PersonSegmenter
from aquarelle.engine.renderer import Renderer

PAPER = np.array([0xF7, 0xF2, 0xE6])


def energy(rgb: np.ndarray) -> np.ndarray:
    """Squared gradient of CIELAB lightness per pixel."""
    lum = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB)[..., 0].astype(np.float32)
    gx = cv2.Sobel(lum, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(lum, cv2.CV_32F, 0, 1)
    return gx * gx + gy * gy


def regions(photo: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Masks of the eye regions (boxes around each eye of each face) and the background."""
    h, w = photo.shape[:2]
    eyes = np.zeros((h, w), bool)
    head = np.zeros((h, w), np.uint8)
    for face in FaceDetector().detect(photo):
        x0, y0, x1, y1 = (int(v) for v in face.box)
        cv2.ellipse(head, ((x0 + x1) // 2, (y0 + y1) // 2), (int(0.8 * (x1 - x0)),
                    int(1.1 * (y1 - y0))), 0, 0, 360, 1, -1)
        if face.mesh is None:
            continue
        for eye in (MESH_RIGHT_EYE, MESH_LEFT_EYE):
            pts = face.mesh[list(eye), :2]
            cx, cy = pts.mean(axis=0)
            r = 0.75 * np.ptp(pts[:, 0])
            eyes[max(0, int(cy - 0.6 * r)):int(cy + 0.6 * r),
                 max(0, int(cx - r)):int(cx + r)] = True
    person = PersonSegmenter().mask(photo, (w, h))
    return eyes, (person < 0.2) & (head == 0)


def border_paper(painting: np.ndarray) -> float:
    h, w = painting.shape[:2]
    b = max(1, round(0.1 * min(w, h)))
    bare = np.abs(painting.astype(int) - PAPER).max(axis=2) <= 12  # the paper's tooth
    inner = np.zeros((h, w), bool)
    inner[b:h - b, b:w - b] = True
    return float(bare[~inner].mean())


def measure(photo: np.ndarray, painting: np.ndarray, eyes: np.ndarray,
            background: np.ndarray) -> tuple[float, float, float]:
    e0, e1 = energy(photo), energy(painting)
    eye = float(e1[eyes].sum() / max(e0[eyes].sum(), 1e-6)) if eyes.any() else float("nan")
    bg = float(e1[background].sum() / max(e0[background].sum(), 1e-6)) \
        if background.any() else float("nan")
    return eye, bg, border_paper(painting)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("photos", type=Path)
    ap.add_argument("--before", type=Path)
    ap.add_argument("--save", type=Path, help="write the paintings here")
    args = ap.parse_args(argv)
    ctx = create_headless_context()
    rows = []
    for path in sorted(args.photos.glob("*.png")):
        photo = cv2.imread(str(path))[:, :, ::-1].copy()
        p = Renderer(ctx, "watercolor")
        p.set_params({"paper_tooth": 0.0})
        painting = p.render_array(photo)
        p.release()
        if args.save is not None:
            args.save.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.save / path.name), painting[:, :, ::-1])
        eyes, background = regions(photo)
        row = [path.stem, *measure(photo, painting, eyes, background)]
        if args.before is not None:
            old = cv2.imread(str(args.before / path.name))
            if old is None:
                print(f"{path.stem}: no painting in {args.before}", file=sys.stderr)
                return 2
            row += measure(photo, old[:, :, ::-1].copy(), eyes, background)
        rows.append(row)
    cols = ["eyes", "background", "eyes/bg", "border paper"]
    head = "| photo | " + " | ".join(f"new {c}" for c in cols)
    if args.before is not None:
        head += " | " + " | ".join(f"before {c}" for c in cols)
    print(head + " |")
    print("|" + "---|" * (1 + len(cols) * (2 if args.before is not None else 1)))
    for row in rows:
        cells = []
        for eye, bg, paper in [row[1:4]] + ([row[4:7]] if args.before is not None else []):
            cells += [f"{eye:.2f}", f"{bg:.2f}", f"{eye / bg:.1f}" if bg > 0 else "-",
                      f"{100 * paper:.0f}%"]
        print(f"| {row[0]} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
