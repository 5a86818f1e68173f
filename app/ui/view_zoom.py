"""The view's zoom as the window speaks of it: a percentage of the picture drawn, 1:1, zoom
by a step, and a zoom kept for the next source; a zoomed picture keeps its size on screen
as its pane or its size changes (no Qt, no GL)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .view_draw import as_shown
from .view_transform import ViewTransform, shaped_like

# a zoom (as `ViewZoom.percent` says it) and the picture's point at the pane's centre
KeptView = tuple[float, tuple[float, float]]


@dataclass(frozen=True)
class Picture:
    """The picture drawn, as zoom measures it: the frame's size in the proportions of the
    picture drawn (`shaped`), the lines drawn (a style that enlarges: its result's, an
    upscaler's twice the frame's) and its size in square pixels as shown (`shown`)."""

    shaped: tuple[int, int]
    lines: int
    shown: tuple[int, int]


def picture_drawn(frame: tuple[int, int] | None, result: tuple[int, int] | None,
                  pixel_aspect: float) -> Picture | None:
    """The picture drawn for a `frame`-sized source: its painting of size `result` (None:
    the frame itself), its pixels `pixel_aspect` wide; None without a frame."""
    if not frame:
        return None
    # (a stereo pair side by side or top-bottom counts as the picture it is)
    shaped = frame if result is None else shaped_like(frame, result)
    lines = shaped[1] if result is None else result[1]
    return Picture(shaped, lines, as_shown(shaped, pixel_aspect))


class ViewZoom:
    """Zooms `transform` for the picture `picture()` says is drawn in a pane of
    `pane()` device pixels."""

    def __init__(self, transform: ViewTransform, pane: Callable[[], tuple[int, int]],
                 picture: Callable[[], Picture | None]) -> None:
        self.transform = transform
        self._pane = pane
        self._picture = picture
        self.due: KeptView | None = None  # (restore)

    def _held(self) -> tuple[tuple[int, int], Picture] | None:
        """The pane and the picture drawn, the picture's size on screen kept (hold_scale)."""
        picture = self._picture()
        if picture is None:
            return None
        pane = self._pane()
        self.transform.hold_scale(pane, picture.shown)
        return pane, picture

    def hold_scale(self) -> None:
        """A zoomed picture keeps its size on screen when its pane or its size changes
        (zoom is kept relative to "fit": 1:1 turned into 1.3:1 as the window grew)."""
        self._held()

    def percent(self) -> float | None:
        """Shown size relative to the picture drawn (100: one of its pixels per screen
        pixel, as "Actual pixels" shows it: an upscaler's result's, not the frame's, which
        read 200% there; a stereo pair side by side or top-bottom counts as the picture it
        is)."""
        held = self._held()
        if held is None:
            return None
        pane, picture = held
        return 100.0 * self.transform.image_rect(pane, picture.shown).h / picture.lines

    def actual_pixels(self) -> bool:
        """One pixel of the picture shown per screen pixel (of the result, where a style
        enlarges it; one line per screen line for non-square pixels); returns whether a
        picture is drawn to zoom."""
        held = self._held()
        if held is None:
            return False
        pane, picture = held
        # a stereo pair side by side is drawn as the wider picture it is
        self.transform.actual_pixels(pane, picture.shown, picture.lines / picture.shaped[1])
        return True

    def kept(self) -> KeptView | None:
        """A zoomed picture's zoom (as `percent` says it) and the point of it at the pane's
        centre (0..1 across and down): what `restore` takes back; None when the picture
        fits or none is shown."""
        percent = self.percent()
        picture = self._picture()
        if picture is None or percent is None or self.transform.is_fit:
            return None
        return percent, self.transform.centre_point(self._pane(), picture.shown)

    def restore(self, percent: float, centre: tuple[float, float]) -> None:
        """Zoom to `percent` with the picture's point `centre` at the pane's centre (from
        `kept`) once a picture is drawn (`apply_due`)."""
        self.due = (percent, centre)

    def apply_due(self) -> bool:
        """The zoom `restore` asked for, where a picture is drawn; returns whether."""
        if self.due is None:
            return False
        held = self._held()
        if held is None:
            return False
        (percent, centre), self.due = self.due, None
        pane, picture = held
        self.transform.show_at(pane, picture.shown,
                               percent / 100.0 * picture.lines / picture.shown[1], centre)
        return True

    def zoom_by(self, factor: float) -> None:
        """Zoom around the centre of the pane."""
        self.hold_scale()
        w, h = self._pane()
        self.transform.zoom_at((w, h), (w / 2, h / 2), factor)
