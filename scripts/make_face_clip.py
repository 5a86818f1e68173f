"""A test clip with a moving face (issue 28): a portrait photo moved, zoomed and rotated
slowly, with sensor noise, as a webcam would see a person shifting in a chair.

    python scripts/make_face_clip.py PORTRAIT OUT.mkv [--frames 48] [--size 640x360]

Lossless (FFV1), so `aquarelle eval flicker` sees the frames as made.
"""

from __future__ import annotations

import argparse
import math
import sys
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np

FPS = 24


def frames(photo: np.ndarray, n: int, size: tuple[int, int], seed: int = 1):
    """The clip's frames (RGB uint8): 6% zoom, 3 degrees of roll and a sideways drift of a
    twentieth of the width over the clip, eased; Gaussian noise of 4 levels."""
    w, h = size
    ph, pw = photo.shape[:2]
    base = max(w / pw, h / ph) * 1.1  # a margin for the motion
    rng = np.random.default_rng(seed)
    for k in range(n):
        t = 0.5 - 0.5 * math.cos(math.pi * k / max(1, n - 1))
        zoom = base * (1.0 + 0.06 * t)
        m = cv2.getRotationMatrix2D((pw / 2, ph / 2), 3.0 * t, zoom)
        m[0, 2] += w / 2 - pw / 2 + 0.05 * w * (t - 0.5)
        m[1, 2] += h / 2 - ph / 2
        frame = cv2.warpAffine(photo, m, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)
        noisy = frame.astype(np.float32) + rng.normal(0.0, 4.0, frame.shape)
        yield np.clip(noisy, 0, 255).astype(np.uint8)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("portrait", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--frames", type=int, default=48)
    ap.add_argument("--size", default="640x360")
    args = ap.parse_args(argv)
    photo = cv2.imread(str(args.portrait))
    if photo is None:
        print(f"{args.portrait}: not a picture", file=sys.stderr)
        return 2
    w, h = (int(v) for v in args.size.split("x"))
    with av.open(str(args.out), "w") as out:
        stream = out.add_stream("ffv1", rate=FPS)
        stream.width, stream.height, stream.pix_fmt = w, h, "bgr0"
        stream.time_base = Fraction(1, FPS)
        for i, rgb in enumerate(frames(photo[:, :, ::-1], args.frames, (w, h))):
            frame = av.VideoFrame.from_ndarray(rgb, format="rgb24")
            frame.pts = i
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
