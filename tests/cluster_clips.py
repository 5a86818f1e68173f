"""Clips for the cluster tests: tests/videoclips.py's pattern and tone, with frequent
keyframes (x264's keyint), so that a short clip has several chunks."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from videoclips import Clip, pattern, tone


def panning(k: int, width: int, height: int) -> np.ndarray:
    """Frame k: the test pattern of a still scene seen by a camera panning right, so the
    paper's position accumulates over the whole clip."""
    big = pattern(0, width * 3, height)
    x = (2 * k) % (width * 2)
    return np.ascontiguousarray(big[:, x:x + width])


def keyframe_clip(path: str | Path, *, size: tuple[int, int] = (96, 64), frames: int = 60,
                  fps: int = 30, gop: int = 10, audio: bool = True, pan: bool = False,
                  pts: list[int] | None = None, time_base: Fraction | None = None) -> Clip:
    """An H.264 + AAC clip with a keyframe every `gop` frames (no scene-cut keyframes)."""
    path = Path(path)
    w, h = size
    tb = time_base or Fraction(1, fps * 512)
    pts = list(pts) if pts is not None else [round(Fraction(i, fps) / tb) for i in range(frames)]
    dur = round(Fraction(1, fps) / tb)
    drawn = [(panning if pan else pattern)(k, w, h) for k in range(len(pts))]
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=fps)
        vs.width, vs.height, vs.pix_fmt = w, h, "yuv420p"
        vs.codec_context.time_base = tb
        vs.time_base = tb
        vs.codec_context.options = {"crf": "12", "g": str(gop), "keyint_min": str(gop),
                                    "sc_threshold": "0"}
        a = out.add_stream("aac", rate=48000, layout="stereo") if audio else None
        for img, p in zip(drawn, pts, strict=True):
            f = av.VideoFrame.from_ndarray(img, format="rgb24")
            f.pts, f.time_base, f.duration = p, tb, dur
            for packet in vs.encode(f):
                out.mux(packet)
        for packet in vs.encode(None):
            out.mux(packet)
        seconds = 0.0
        if a is not None:
            seconds = float((pts[-1] + dur) * tb)
            af = av.AudioFrame.from_ndarray(tone(seconds), format="fltp", layout="stereo")
            af.sample_rate, af.pts, af.time_base = 48000, 0, Fraction(1, 48000)
            for packet in a.encode(af):
                out.mux(packet)
            for packet in a.encode(None):
                out.mux(packet)
    return Clip(path, drawn, pts, tb, seconds)
