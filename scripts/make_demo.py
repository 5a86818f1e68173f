"""Make the bundled demo media from scikit-image's public-domain photos.

Writes assets/demo/demo.mp4 (6 s, 640x360, 30 fps, H.264 CRF 24, a slow pan and zoom over
the coffee, astronaut and cat photos with cross-fades, and a quiet generated A-major chord
as AAC so that audio passthrough can be shown) and assets/demo/coffee.jpg (the coffee
photo, JPEG quality 85, used by the benchmarks). Deterministic; needs scikit-image.

    python scripts/make_demo.py [--out assets/demo]
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np

WIDTH, HEIGHT, FPS = 640, 360, 30
SEGMENT_S, FADE_S = 2.25, 0.375  # three segments overlapping by the fade: 6 s in all
AUDIO_RATE = 48000
CHORD_HZ = (220.0, 277.18, 329.63, 440.0)  # A major


def photos() -> list[np.ndarray]:
    from skimage import data

    return [data.coffee(), data.astronaut(), data.chelsea()]


# (x, y, width) of the 16:9 window at the start and end of each segment, as fractions of
# the photo's width/height: a slow push-in or pan.
MOVES = [((0.0, 0.06, 1.0), (0.08, 0.12, 0.88)),
         ((0.02, 0.0, 0.98), (0.12, 0.04, 0.85)),
         ((0.1, 0.1, 0.88), (0.0, 0.05, 1.0))]


def window_frame(photo: np.ndarray, start: tuple[float, float, float],
                 end: tuple[float, float, float], t: float) -> np.ndarray:
    """The photo seen through a moving 16:9 window at time fraction t (eased)."""
    h, w = photo.shape[:2]
    e = t * t * (3 - 2 * t)
    x, y, ww = (a + (b - a) * e for a, b in zip(start, end, strict=True))
    win_w = ww * w
    win_h = win_w * HEIGHT / WIDTH
    if win_h > h:  # a tall window on a wide photo: fit the height instead
        win_h = h
        win_w = win_h * WIDTH / HEIGHT
    x0 = min(max(0.0, x * w), w - win_w)
    y0 = min(max(0.0, y * h), h - win_h)
    s = WIDTH / win_w
    m = np.array([[s, 0, -x0 * s], [0, s, -y0 * s]], np.float64)
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC
    return cv2.warpAffine(photo, m, (WIDTH, HEIGHT), flags=interp,
                          borderMode=cv2.BORDER_REFLECT)


def frames(images: list[np.ndarray]) -> list[np.ndarray]:
    total = round((len(images) * SEGMENT_S - (len(images) - 1) * FADE_S) * FPS)
    out = []
    for k in range(total):
        t = k / FPS
        layers = []
        for i, (img, (a, b)) in enumerate(zip(images, MOVES, strict=True)):
            t0 = i * (SEGMENT_S - FADE_S)
            if t0 - 1e-9 <= t < t0 + SEGMENT_S:
                weight = 1.0
                if i > 0 and t < t0 + FADE_S:
                    weight = (t - t0) / FADE_S
                if i < len(images) - 1 and t >= t0 + SEGMENT_S - FADE_S:
                    weight = min(weight, (t0 + SEGMENT_S - t) / FADE_S)
                layers.append((weight, window_frame(img, a, b, (t - t0) / SEGMENT_S)))
        total_w = sum(w for w, _ in layers)
        mix = sum(w * f.astype(np.float32) for w, f in layers) / total_w
        out.append(np.clip(mix + 0.5, 0, 255).astype(np.uint8))
    return out


def chord(seconds: float) -> np.ndarray:
    """A soft stereo chord with slow fades, (2, samples) float32, peak about -14 dBFS."""
    t = np.arange(round(seconds * AUDIO_RATE)) / AUDIO_RATE
    left = sum(np.sin(2 * np.pi * f * t + i) / (i + 1) for i, f in enumerate(CHORD_HZ))
    right = sum(np.sin(2 * np.pi * f * 1.002 * t + 2 * i) / (i + 1)
                for i, f in enumerate(CHORD_HZ))
    env = np.minimum(1.0, np.minimum(t / 0.8, (seconds - t) / 1.2)).clip(0, 1)
    wave = np.stack([left, right]) * env
    return (0.2 * wave / np.abs(wave).max()).astype(np.float32)


def write_clip(path: Path, images: list[np.ndarray]) -> None:
    video = frames(images)
    seconds = len(video) / FPS
    with av.open(str(path), "w", container_options={"movflags": "+faststart"}) as out:
        vs = out.add_stream("libx264", rate=FPS)
        vs.width, vs.height, vs.pix_fmt = WIDTH, HEIGHT, "yuv420p"
        vs.codec_context.options = {"crf": "24", "preset": "slow"}
        vs.codec_context.colorspace = vs.codec_context.color_primaries = 1  # BT.709
        vs.codec_context.color_trc = 1
        vs.codec_context.color_range = 1  # limited
        aus = out.add_stream("aac", rate=AUDIO_RATE, layout="stereo")
        aus.bit_rate = 64000
        for k, img in enumerate(video):
            f = av.VideoFrame.from_ndarray(img, format="rgb24")
            f = f.reformat(format="yuv420p", dst_colorspace="itu709", dst_color_range=1)
            f.pts = k
            f.time_base = Fraction(1, FPS)
            for p in vs.encode(f):
                out.mux(p)
        for p in vs.encode(None):
            out.mux(p)
        samples = chord(seconds)
        af = av.AudioFrame.from_ndarray(samples, format="fltp", layout="stereo")
        af.sample_rate = AUDIO_RATE
        af.pts = 0
        af.time_base = Fraction(1, AUDIO_RATE)
        for p in aus.encode(af):
            out.mux(p)
        for p in aus.encode(None):
            out.mux(p)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent.parent / "assets" / "demo")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    images = photos()
    write_clip(args.out / "demo.mp4", images)
    ok, jpg = cv2.imencode(".jpg", images[0][:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    (args.out / "coffee.jpg").write_bytes(jpg.tobytes())
    for name in ("demo.mp4", "coffee.jpg"):
        print(f"{args.out / name}: {(args.out / name).stat().st_size / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
