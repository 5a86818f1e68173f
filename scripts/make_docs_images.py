"""Render the README's before/after pictures: scikit-image's public-domain photos, the default
and each preset.

Run: .venv/bin/python scripts/make_docs_images.py  (writes docs/before_after/*.jpg)
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import skimage.data

from aquarelle.engine import Renderer, create_headless_context, list_presets

OUT = Path(__file__).resolve().parent.parent / "docs" / "before_after"
PHOTOS = ("coffee", "astronaut", "chelsea")
TILE_HEIGHT = 300


def label(img: np.ndarray, text: str) -> np.ndarray:
    img = img.copy()
    cv2.rectangle(img, (0, 0), (8 + 9 * len(text), 22), (255, 255, 255), -1)
    cv2.putText(img, text, (4, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (20, 20, 20), 1, cv2.LINE_AA)
    return img


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    ctx = create_headless_context()
    presets = list_presets("watercolor")
    for name in PHOTOS:
        photo = getattr(skimage.data, name)()
        tiles = [label(photo, "original")]
        with Renderer(ctx) as pipeline:
            tiles.append(label(pipeline.render_array(photo), "default"))
        for preset in presets:
            with Renderer(ctx) as pipeline:
                pipeline.set_params(preset.values)
                tiles.append(label(pipeline.render_array(photo), preset.name))
        scale = TILE_HEIGHT / photo.shape[0]
        tiles = [cv2.resize(t, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
                 for t in tiles]
        rows = [np.hstack(tiles[i:i + 4]) for i in range(0, len(tiles), 4)]
        width = max(r.shape[1] for r in rows)
        grid = np.vstack([np.pad(r, ((0, 0), (0, width - r.shape[1]), (0, 0)),
                                 constant_values=255) for r in rows])
        path = OUT / f"{name}.jpg"
        cv2.imwrite(str(path), grid[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 88])
        print(path, grid.shape[1], "x", grid.shape[0])
    ctx.release()


if __name__ == "__main__":
    main()
