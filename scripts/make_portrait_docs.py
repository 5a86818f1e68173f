"""docs/look/portraits.jpg and the README's first picture: faces painted with the subject
models (issue 28), next to the photo and the previous look (the same default with the
subject models off, `subject_aware=false`: saliency alone, painted to the edges).

Only pictures whose licence allows shipping them: scikit-image's astronaut (NASA, public
domain), as it is and as a noisy 640x360 webcam frame, and the public-domain photographs in
docs/look/sources/ (SOURCES.md says where each comes from): glasses, ages, skin tones, grey
photos, a group and a crowd of small faces.

Run: .venv/bin/python scripts/make_portrait_docs.py
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import skimage.data
from make_look_docs import label  # scripts/: the same labels as the look's pictures

from aquarelle.engine import create_headless_context
from aquarelle.engine.faces import FaceDetector
from aquarelle.engine.renderer import Renderer

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "look" / "portraits.jpg"
README_PICTURE = ROOT / "docs" / "before_after" / "portrait.jpg"
ROW_HEIGHT = 300
CROP_WIDTH = 340  # a 100% crop's width at most


SOURCES = ROOT / "docs" / "look" / "sources"


def photo(name: str) -> np.ndarray:
    """A photograph of docs/look/sources/ as RGB (grey ones as three equal channels)."""
    img = cv2.imread(str(SOURCES / name), cv2.IMREAD_COLOR)
    if img is None:
        raise SystemExit(f"{SOURCES / name}: missing")
    return np.ascontiguousarray(img[:, :, ::-1])


def cases() -> list[tuple[str, np.ndarray]]:
    astronaut = skimage.data.astronaut()
    rng = np.random.default_rng(3)
    webcam = np.full((360, 640, 3), 120, np.uint8)
    webcam[:, 140:500] = cv2.resize(astronaut[0:512, 60:572], (360, 360),
                                    interpolation=cv2.INTER_AREA)
    webcam = np.clip(webcam + rng.normal(0, 7, webcam.shape), 0, 255).astype(np.uint8)
    return [("astronaut, 512 px", astronaut),
            ("glasses, age (Grace Hopper)", photo("grace_hopper.jpg")),
            ("dark skin (Mae Jemison)", photo("mae_jemison.jpg")),
            ("grey photo, glasses (Katherine Johnson)", photo("katherine_johnson_1966.jpg")),
            ("a group (Apollo 11 crew)", photo("apollo11_crew.jpg")),
            ("29 small faces, grey (Solvay 1927)", photo("solvay_1927.jpg")),
            ("a noisy 640x360 webcam frame", webcam)]


def face_crop(photo: np.ndarray) -> tuple[int, int, int, int]:
    """A ROW_HEIGHT-high window (x0, y0, x1, y1) at 100% round the biggest face found (the
    picture's upper middle if none)."""
    h, w = photo.shape[:2]
    faces = FaceDetector().detect(photo, thorough=True)
    if faces:
        x0, y0, x1, y1 = max(faces, key=lambda f: f.size).box
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + 0.1 * (y1 - y0)
    else:
        cx, cy = w / 2, h / 3
    side_h, side_w = min(h, ROW_HEIGHT), min(w, CROP_WIDTH)
    x = int(np.clip(cx - side_w / 2, 0, w - side_w))
    y = int(np.clip(cy - side_h / 2, 0, h - side_h))
    return x, y, x + side_w, y + side_h


def row(ctx, title: str, photo: np.ndarray) -> np.ndarray:
    """The photo small, then 100% crops round its face: photo, previous, new."""
    before = Renderer(ctx, "watercolor")
    before.set_params({"subject_aware": False})
    after = Renderer(ctx, "watercolor")
    painted = [before.render_array(photo), after.render_array(photo)]
    before.release()
    after.release()
    h, w = photo.shape[:2]
    k = ROW_HEIGHT / h
    x0, y0, x1, y1 = face_crop(photo)
    parts = [label(cv2.resize(photo, (round(w * k), ROW_HEIGHT), interpolation=cv2.INTER_AREA),
                   title)]
    for text, img in zip(("photo, 100%", "previous default", "with the subject"),
                         (photo, *painted), strict=True):
        crop = np.full((ROW_HEIGHT, x1 - x0, 3), 255, np.uint8)
        crop[:y1 - y0] = img[y0:y1, x0:x1]
        parts.append(label(crop, text))
    gap = np.full((ROW_HEIGHT, 6, 3), 255, np.uint8)
    out = [parts[0]]
    for p in parts[1:]:
        out += [gap, p]
    return np.hstack(out)


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
