"""A frame's letterbox (or pillarbox) bars: black bands a film laid into a wider or taller
frame, found on the CPU at a small size. They are not part of the picture: the figure (a
group's busts run down to the frame's bottom) stops at them, or a bar is painted as a dark
slab under the people (trial F9, g21)."""

from __future__ import annotations

import cv2
import numpy as np

Content = tuple[float, float, float, float]  # x0, y0, x1, y1: the picture between the bars

LOOK_SIDE = 256  # px: the long side the frame is looked at
# A bar's line: every pixel of it at most this dark (0..255; a video's bars carry a few
# levels of noise, a photo's dark ground is rarely that even across the whole frame)
BLACK = 24
# Bars come in pairs of about one height (a film centred in the frame): each at least this
# share of the frame's side, the two within BAR_MATCH of each other (a dark sky and a dark
# ground are seldom both black edge to edge, and seldom of one height)
BAR_MIN = 0.02
BAR_MATCH = 0.25
CONTENT_MIN = 0.4  # of the frame's side: less between the bars is a dark frame, not a film


def letterbox(rgb: np.ndarray) -> Content | None:
    """The picture between the bars of `rgb` (H, W, 3 uint8), px: a pair top and bottom,
    or left and right (None where there is no such pair)."""
    h, w = rgb.shape[:2]
    k = min(1.0, LOOK_SIDE / max(h, w))
    small = cv2.resize(rgb, (max(1, round(w * k)), max(1, round(h * k))),
                       interpolation=cv2.INTER_AREA) if k < 1.0 else rgb
    grey = small.max(axis=2)  # the brightest channel: a dark red is no bar
    top, bottom = _pair(grey.max(axis=1))
    left, right = _pair(grey.max(axis=0))
    if not (top or left):
        return None
    sy, sx = h / grey.shape[0], w / grey.shape[1]
    return (left * sx, top * sy, w - right * sx, h - bottom * sy)


def _pair(lines: np.ndarray) -> tuple[int, int]:
    """The black lines at each end of `lines` (each line's brightest value), where they make
    a pair of bars; else (0, 0)."""
    n = len(lines)
    dark = lines <= BLACK
    first = int(np.argmin(dark)) if not dark.all() else n
    last = int(np.argmin(dark[::-1])) if not dark.all() else n
    if min(first, last) < BAR_MIN * n or n - first - last < CONTENT_MIN * n:
        return 0, 0
    if abs(first - last) > BAR_MATCH * max(first, last) + 1:
        return 0, 0
    return first, last
