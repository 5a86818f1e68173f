"""docs/look/portraits.jpg and the README's first picture: faces painted with the subject
models (issue 28), next to the photo and the previous look (the same default with the
subject models off, `subject_aware=false`: saliency alone, painted to the edges).

Only pictures whose licence allows shipping them: scikit-image's astronaut (NASA, public
domain) and camera (CC0), as they are and as a noisy 640x360 webcam frame.

Run: .venv/bin/python scripts/make_portrait_docs.py
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import skimage.data
from make_look_docs import label  # scripts/: the same labels as the look's pictures

from aquarelle.engine import create_headless_context
from aquarelle.engine.chain import build_pipeline

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "look" / "portraits.jpg"
README_PICTURE = ROOT / "docs" / "before_after" / "portrait.jpg"
ROW_HEIGHT = 300


def cases() -> list[tuple[str, np.ndarray]]:
    astronaut = skimage.data.astronaut()
    grey = cv2.cvtColor(skimage.data.camera(), cv2.COLOR_GRAY2RGB)
    rng = np.random.default_rng(3)
    webcam = np.full((360, 640, 3), 120, np.uint8)
    webcam[:, 140:500] = cv2.resize(astronaut[0:512, 60:572], (360, 360),
                                    interpolation=cv2.INTER_AREA)
    webcam = np.clip(webcam + rng.normal(0, 7, webcam.shape), 0, 255).astype(np.uint8)
    return [("astronaut, 512 px", astronaut), ("a grey photo (camera)", grey),
            ("a noisy 640x360 webcam frame", webcam)]


def row(ctx, title: str, photo: np.ndarray) -> np.ndarray:
    before = build_pipeline(ctx, "watercolor")
    before.set_params({"subject_aware": False})
    after = build_pipeline(ctx, "watercolor")
    parts = [(title, photo), ("previous default", before.render_array(photo)),
             ("with the subject", after.render_array(photo))]
    before.release()
    after.release()
    h, w = photo.shape[:2]
    k = ROW_HEIGHT / h
    tiles = [label(cv2.resize(img, (round(w * k), ROW_HEIGHT), interpolation=cv2.INTER_AREA),
                   text) for text, img in parts]
    gap = np.full((ROW_HEIGHT, 6, 3), 255, np.uint8)
    return np.hstack([tiles[0], gap, tiles[1], gap, tiles[2]])


def main() -> None:
    ctx = create_headless_context()
    rows = [row(ctx, t, p) for t, p in cases()]
    width = max(r.shape[1] for r in rows)
    rows = [np.pad(r, ((0, 6), (0, width - r.shape[1]), (0, 0)), constant_values=255)
            for r in rows]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(OUT), np.vstack(rows)[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 88])
    cv2.imwrite(str(README_PICTURE), rows[0][:-6][:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 88])
    print(f"wrote {OUT} and {README_PICTURE}")


if __name__ == "__main__":
    main()
