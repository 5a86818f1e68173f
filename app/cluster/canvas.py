"""The paper's position at each chunk's start: a cheap motion-only first phase.

The paper sheet follows the camera since the last cut (`StyleStage.canvas`: c = c @
motion.to_previous, the identity where there is no motion), so its memory is unbounded and a
chunk's warm-up cannot rebuild it. Each piece of the video between two warm-up starts is
decoded and its motion estimated exactly as `StyleStage._track_motion` does (MotionEstimator at
the style's flow width on the frames the pipeline gets); the pieces' products are composed in
order on the driver. No GL here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from ..engine.chain_spec import AnyStyle, ChainSpec, specs_of
from ..engine.motion import MotionEstimator
from ..media.video_reader import VideoReader

Matrix = list[list[float]]  # 3x3, plain lists: what travels between machines


@dataclass
class MotionSummary:
    """The camera's motion over a piece of video, per flow width: the product of the frames'
    `to_previous` since the piece's last reset, and whether a reset (cut) happened in it."""

    product: dict[int, Matrix] = field(default_factory=dict)
    reset: dict[int, bool] = field(default_factory=dict)
    frames: int = 0


def motion_widths(style: AnyStyle, values: Mapping[str, Any]) -> list[int]:
    """The flow widths of the styles whose paper follows the camera (motion on)."""
    styles = specs_of(style)
    out: set[int] = set()
    for s in styles:
        if s.motion is None:
            continue
        key = f"{s.name}.{s.motion.enable}" if isinstance(style, ChainSpec) else s.motion.enable
        if bool(values.get(key, True)):
            out.add(s.motion.max_width)
    return sorted(out)


def fit(image: np.ndarray, size: tuple[int, int] | None) -> np.ndarray:
    """The frame as the export hands it to the pipeline (area-resized to the output size)."""
    if size is None or (image.shape[1], image.shape[0]) == tuple(size):
        return image
    return cv2.resize(image, tuple(size), interpolation=cv2.INTER_AREA)


def summarize(frames: Iterable[np.ndarray], widths: list[int]) -> MotionSummary:
    """The motion of frames[1:] (frames[0] is only compared with)."""
    estimators = {w: MotionEstimator(w) for w in widths}
    products = {w: np.eye(3) for w in widths}
    out = MotionSummary(reset=dict.fromkeys(widths, False))
    for n, frame in enumerate(frames):
        for w, est in estimators.items():
            motion = est.update(frame)
            if n == 0:
                continue
            if motion is None:
                products[w] = np.eye(3)
                out.reset[w] = True
            else:
                products[w] = products[w] @ motion.to_previous
        out.frames = n
    out.product = {w: p.tolist() for w, p in products.items()}
    return out


def motion_summary(path: str, start: float, end: float | None, size: tuple[int, int] | None,
                   widths: list[int]) -> MotionSummary:
    """Decode [start, end) seconds of `path` and summarize its motion (a worker's job)."""
    with VideoReader(path) as reader:
        return summarize((fit(f.image, size) for f in reader.frames(start, end)), widths)


def compose(pieces: list[MotionSummary], widths: list[int]) -> list[dict[int, Matrix]]:
    """The paper's position at the start of every piece and after the last: the identity at
    the first frame (no motion there), then c = c @ product, or the product after a reset."""
    c = {w: np.eye(3) for w in widths}
    out = [{w: m.tolist() for w, m in c.items()}]
    for piece in pieces:
        for w in widths:
            p = np.asarray(piece.product[w], np.float64)
            c[w] = p if piece.reset[w] else c[w] @ p
        out.append({w: m.tolist() for w, m in c.items()})
    return out
