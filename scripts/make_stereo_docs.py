"""The README's 3D pictures: a frame of the demo clip painted in watercolor, as a red-cyan
anaglyph and side by side (`--style watercolor+stereo`), with its depth.

Run: .venv/bin/python scripts/make_stereo_docs.py  (writes docs/stereo/demo_*.jpg)
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from aquarelle.engine import create_headless_context
from aquarelle.engine.renderer import Renderer
from aquarelle.media.video_reader import VideoReader
from aquarelle.resources import assets_dir

OUT = Path(__file__).resolve().parent.parent / "docs" / "stereo"
FRAMES = 45  # the depth learns from the motion of the first second and a half


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    ctx = create_headless_context()
    pipelines = {layout: Renderer(ctx, "watercolor+stereo") for layout in
                 ("anaglyph", "sbs", "depth")}
    for layout, p in pipelines.items():
        p.set_params({"stereo.output": layout})
    results = {}
    with VideoReader(assets_dir() / "demo" / "demo.mp4") as reader:
        for i, frame in enumerate(reader.frames()):
            small = cv2.resize(frame.image, (640, 360), interpolation=cv2.INTER_AREA)
            for layout, p in pipelines.items():
                results[layout] = p.render_array(small)
            if i + 1 >= FRAMES:
                break
    for layout in ("anaglyph", "sbs", "depth"):
        path = OUT / f"demo_{layout}.jpg"
        cv2.imwrite(str(path), np.ascontiguousarray(results[layout][:, :, ::-1]),
                    [cv2.IMWRITE_JPEG_QUALITY, 88])
        print(path)


if __name__ == "__main__":
    main()
