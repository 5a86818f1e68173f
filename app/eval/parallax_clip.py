"""A synthetic 2D-to-3D test clip: textured layers at known depths, the camera trucking
sideways, so each layer moves across the picture in proportion to its nearness."""

from __future__ import annotations

import cv2
import numpy as np

# (depth, top, left, height, width, tint) of each layer; the first covers the frame. Like
# real things, the layers differ in colour (a sky-blue far wall, a green middle, a red
# near object), each with its own texture for the optical flow to follow.
LAYERS = ((10.0, 0, 0, 1.0, 3.0, (0.55, 0.7, 1.0)),
          (4.0, 0.22, 0.1, 0.45, 0.95, (0.5, 1.0, 0.55)),
          (2.0, 0.5, 0.34, 0.4, 0.38, (1.0, 0.55, 0.45)))


def _texture(h: int, w: int, seed: int, tint: tuple[float, float, float]) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t = cv2.GaussianBlur(rng.random((h, w, 3)).astype(np.float32), (0, 0), 2.0)
    t = (t - t.min()) / max(float(t.max() - t.min()), 1e-6)
    return np.clip((t * 160 + 40) * np.array(tint, np.float32), 0, 255).astype(np.uint8)


class ParallaxClip:
    """Frames (RGB uint8) and true nearness (1 / depth) of a sideways camera move."""

    def __init__(self, width: int = 320, height: int = 180, speed: float = 6.0,
                 seed: int = 1) -> None:
        self.size = (width, height)
        self.speed = speed  # px per frame of a layer at depth 1
        self.layers = []
        for i, (depth, top, left, h, w, tint) in enumerate(LAYERS):
            tex = _texture(max(1, round(h * height)), max(1, round(w * width)), seed + i,
                           tint)
            self.layers.append((depth, round(top * height), round(left * width), tex))

    def frame(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        """Frame t and its nearness map (float32, 1 / depth)."""
        w, h = self.size
        img = np.zeros((h, w, 3), np.uint8)
        near = np.zeros((h, w), np.float32)
        for depth, top, left, tex in self.layers:
            m = np.float32([[1, 0, left - self.speed * t / depth], [0, 1, top]])
            th, tw = tex.shape[:2]
            warped = cv2.warpAffine(tex, m, (w, h), flags=cv2.INTER_LINEAR)
            inside = cv2.warpAffine(np.ones((th, tw), np.float32), m, (w, h)) > 0.99
            img[inside] = warped[inside]
            near[inside] = 1.0 / depth
        return img, near
