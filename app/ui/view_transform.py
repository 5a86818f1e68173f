"""Zoom, pan and fit of an image in a viewport, in device pixels (no Qt, no GL)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum

# Zoomed out by hand to at most 1/20 of the fit (a picture shown 1:1, or kept at its size on
# screen, may be smaller: a 1x1 picture's 1:1); in to 64 times it
MIN_ZOOM, MAX_ZOOM = 0.05, 64.0


class CompareMode(Enum):
    """How the original is shown next to the stylized frame."""

    OFF = "off"
    SPLIT = "split"
    SIDE_BY_SIDE = "side by side"

    def next(self) -> CompareMode:
        """The next mode in the cycle off -> split -> side by side -> off."""
        modes = list(CompareMode)
        return modes[(modes.index(self) + 1) % len(modes)]


@dataclass
class Rect:
    """An axis-aligned rectangle in pixels, y down."""

    x: float
    y: float
    w: float
    h: float

    def to_ndc(self, view_w: float, view_h: float) -> tuple[float, float, float, float]:
        """(x0, y_top, x1, y_bottom) in normalized device coordinates of a view."""
        return (2.0 * self.x / view_w - 1.0, 1.0 - 2.0 * self.y / view_h,
                2.0 * (self.x + self.w) / view_w - 1.0, 1.0 - 2.0 * (self.y + self.h) / view_h)

    def on_whole_pixels(self) -> Rect:
        """The rectangle moved by at most half a pixel to start on whole pixels (the nearer
        one, up on a tie)."""
        return Rect(math.floor(self.x + 0.5), math.floor(self.y + 0.5), self.w, self.h)


def pixels_drawn(rect: Rect, k: float) -> tuple[Rect, bool]:
    """Where a picture drawn `k` screen px a pixel goes, and whether its pixels are drawn as
    blocks (nearest: from 200%, `k` rounded as a float's last bit made 200% 1.99...). Drawn
    nearest, a picture on a half pixel has its screen pixels' centres on texel edges (at 2x,
    4x), which each triangle of the quad rounds its own way: it starts on a whole pixel. So
    does one drawn 1:1 (sampled between two pixels it was a blend of both: a drag by one
    logical pixel at 150% screen scaling, or a wheel zoomed in and back, left it soft)."""
    pix = round(k, 6) >= 2.0
    return (rect.on_whole_pixels() if pix or round(k, 6) == 1.0 else rect), pix


def device_size(width: int, height: int, ratio: float) -> tuple[int, int]:
    """A widget's size in device pixels as Qt makes its framebuffer (QSize * qreal: qRound,
    halves up; Python's round took 838.5 to 838 where Qt's framebuffer had 839 lines, and
    the picture at 100% was drawn half a line off)."""
    return (max(1, math.floor(width * ratio + 0.5)), max(1, math.floor(height * ratio + 0.5)))


@dataclass
class ViewTransform:
    """Zoom relative to "fit" (1 = the whole image fits) and pan of the image centre (px)."""

    zoom: float = 1.0
    pan_x: float = 0.0
    pan_y: float = 0.0
    _basis: float | None = field(default=None, repr=False, compare=False)  # its fit scale

    def fit(self) -> None:
        """Show the whole image, centred."""
        self.zoom, self.pan_x, self.pan_y = 1.0, 0.0, 0.0

    @property
    def is_fit(self) -> bool:
        return self.zoom == 1.0 and self.pan_x == 0.0 and self.pan_y == 0.0

    @staticmethod
    def fit_scale(view: tuple[float, float], image: tuple[int, int]) -> float:
        """Image pixels to view pixels when the image fits the view, aspect kept."""
        if image[0] <= 0 or image[1] <= 0 or view[0] <= 0 or view[1] <= 0:
            return 1.0
        return min(view[0] / image[0], view[1] / image[1])

    def scale(self, view: tuple[float, float], image: tuple[int, int]) -> float:
        """View pixels an image pixel; a whole zoom (1:1, 200%) whole, not
        1.9999999999999998 (its picture was 399.99999999999994 px wide)."""
        s = self.fit_scale(view, image) * self.zoom
        return float(round(s)) if abs(s - round(s)) < 1e-9 else s

    def image_rect(self, view: tuple[float, float], image: tuple[int, int]) -> Rect:
        """Where the image lies in a view of size `view` (both in device pixels)."""
        s = self.scale(view, image)
        w, h = image[0] * s, image[1] * s
        cx, cy = view[0] / 2 + self.pan_x, view[1] / 2 + self.pan_y
        return Rect(cx - w / 2, cy - h / 2, w, h)

    def zoom_at(self, view: tuple[float, float], point: tuple[float, float],
                factor: float) -> None:
        """Zoom by `factor`, keeping the image point under `point` (view pixels) in place."""
        # (a tiny picture shown 1:1 is below MIN_ZOOM of its fit: zooming out keeps it there)
        new_zoom = min(MAX_ZOOM, max(min(MIN_ZOOM, self.zoom), self.zoom * factor))
        f = new_zoom / self.zoom
        cx, cy = view[0] / 2 + self.pan_x, view[1] / 2 + self.pan_y
        ncx, ncy = point[0] - (point[0] - cx) * f, point[1] - (point[1] - cy) * f
        self.pan_x, self.pan_y = ncx - view[0] / 2, ncy - view[1] / 2
        self.zoom = new_zoom

    def actual_pixels(self, view: tuple[float, float], image: tuple[int, int],
                      factor: float = 1.0) -> None:
        """One picture pixel per device pixel, centred on whole pixels (so nothing is
        resampled: the screen shows the picture's own pixels). `factor`: the picture's pixels
        per image pixel (an enlarged result)."""
        # (1:1 at any size: a 1x1 picture's is 1/900 of its fit in a 900 px view)
        self.zoom = min(MAX_ZOOM, factor / self.fit_scale(view, image))
        self.pan_x = self.pan_y = 0.0
        rect = self.image_rect(view, image)
        whole = rect.on_whole_pixels()  # (as it is drawn: Python's round(34.5) is 34)
        self.pan_x, self.pan_y = whole.x - rect.x, whole.y - rect.y

    def centre_point(self, view: tuple[float, float], image: tuple[int, int]
                     ) -> tuple[float, float]:
        """The image point at the view's centre (0..1 across and down the image)."""
        rect = self.image_rect(view, image)
        return ((view[0] / 2 - rect.x) / rect.w, (view[1] / 2 - rect.y) / rect.h)

    def show_at(self, view: tuple[float, float], image: tuple[int, int], k: float,
                centre: tuple[float, float]) -> None:
        """`k` view pixels an image pixel, the image point `centre` (as centre_point says
        it) at the view's centre, the image's origin on a whole pixel."""
        basis = self.fit_scale(view, image)
        self.zoom = min(MAX_ZOOM, k / basis)
        s = self.scale(view, image)
        self.pan_x = (0.5 - centre[0]) * image[0] * s
        self.pan_y = (0.5 - centre[1]) * image[1] * s
        self._on_whole_pixels(view, image)

    def hold_scale(self, view: tuple[float, float], image: tuple[int, int]) -> None:
        """Keep a zoomed image's size on screen where the view or the image changed size
        since the last call (100% stays 100% when the window is resized or split side by
        side, its origin on a whole pixel); a fitted one fits the new view."""
        basis = self.fit_scale(view, image)
        old, self._basis = self._basis, basis
        if old is None or old == basis or self.is_fit:
            return
        self.zoom = min(MAX_ZOOM, self.zoom * old / basis)
        self._on_whole_pixels(view, image)

    def _on_whole_pixels(self, view: tuple[float, float], image: tuple[int, int]) -> None:
        """The image's origin moved to the whole pixel it is drawn from (the nearer, up on
        a tie: a view kept at 34.5 came back at 34, a pixel off the picture left)."""
        rect = self.image_rect(view, image)
        whole = rect.on_whole_pixels()
        self.pan_x += whole.x - rect.x
        self.pan_y += whole.y - rect.y

    def pan(self, dx: float, dy: float) -> None:
        """Move the image by (dx, dy) view pixels."""
        self.pan_x += dx
        self.pan_y += dy


def pane_of(view: tuple[int, int], compare: CompareMode) -> tuple[int, int]:
    """The part of a view of size `view` that one picture is drawn in."""
    if compare is CompareMode.SIDE_BY_SIDE:
        return (max(1, view[0] // 2), view[1])
    return view


def shaped_like(frame: tuple[int, int], result: tuple[int, int]) -> tuple[int, int]:
    """The frame's size, reshaped to the result's proportions when they differ (a side by
    side pair is twice as wide, a top-bottom one twice as high)."""
    fw, fh = frame
    rw, rh = result
    if abs(rw * fh - rh * fw) <= 0.01 * fw * rh:
        return frame
    if rw * fh > rh * fw:
        return (round(fh * rw / rh), fh)
    return (fw, round(fw * rh / rw))
