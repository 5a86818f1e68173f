"""Where a portrait painted in tiles differs from it painted whole (tests/test_portrait.py's
case: the astronaut at 1001 px, tiles of at most 300,000 px): the counts, and the picture of
the difference (x8, white = 32 levels or more) beside both paintings, to $OUT or the
folder given. For the GPU kit's `tilediff` step: a GPU's arithmetic differs from llvmpipe's."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import skimage.data

from aquarelle.engine import Renderer, create_headless_context, renderer_string
from aquarelle.engine.tiles import TiledStill


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    ctx = create_headless_context()
    print("GL renderer:", renderer_string(ctx))
    portrait = cv2.resize(skimage.data.astronaut(), (384, 384), interpolation=cv2.INTER_AREA)
    big = cv2.resize(portrait, (1001, 1001), interpolation=cv2.INTER_CUBIC)
    with Renderer(ctx, "watercolor") as p:
        whole = p.render_array(big)
        tiles = TiledStill(p, (1001, 1001), max_tile_px=300_000)
        tiled = tiles.render(big)
    d = np.abs(tiled.astype(np.int16) - whole).max(axis=2)
    print(f"tiles {len(tiles.tiles)}: max {d.max()}, >2: {(d > 2).sum()}, >1: {(d > 1).sum()}, "
          f"mean {d.mean():.4f}")
    pic = cv2.cvtColor(np.clip(d * 8, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    cv2.imwrite(str(out / "tilediff.png"), np.hstack([pic, whole[:, :, ::-1], tiled[:, :, ::-1]]))


if __name__ == "__main__":
    main()
