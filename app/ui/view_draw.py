"""How the view lays its pictures out: the painting alone, split against the original, or
side by side; zoom and pan, stereo pairs and non-square pixels included."""

from __future__ import annotations

import moderngl

from .display import DIVIDER_COLOR, DisplayMode, DisplayRenderer
from .view_transform import CompareMode, Rect, ViewTransform, pane_of, pixels_drawn, shaped_like


def as_shown(size: tuple[int, int], pixel_aspect: float) -> tuple[int, int]:
    """A picture's size in square pixels, as its source's pixels are shown."""
    if pixel_aspect == 1.0:
        return size
    return (max(1, round(size[0] * pixel_aspect)), size[1])


def draw_pictures(display: DisplayRenderer, original: moderngl.Texture,
                  main: moderngl.Texture, mode: DisplayMode, frame: tuple[int, int],
                  size: tuple[int, int], transform: ViewTransform, compare: CompareMode,
                  split: float, dpr: float, pixel_aspect: float,
                  views: tuple[int, int] | None = None) -> None:
    """Draw `main` (the painting, or what is shown in its place) for a `frame`-sized source
    into a view of `size` device pixels, with `original` beside or under it as `compare`
    asks. `views`: the views `main` holds across and down (a stereo pair's; None: as many as
    its shape holds frames)."""
    # A result of another shape (a stereo pair side by side or top-bottom) is shown in
    # its own proportions, at the frame's height (or width); non-square pixels widened.
    shown = as_shown(shaped_like(frame, main.size), pixel_aspect)
    image = as_shown(frame, pixel_aspect)
    if compare is CompareMode.SIDE_BY_SIDE:
        half = pane_of(size, compare)
        rect = transform.image_rect(half, shown)
        k = rect.h / shown[1]
        rect, pix = pixels_drawn(rect, k)
        # the original at the scale of the picture beside it (a view of a stereo pair
        # as big as the original: it was drawn fitted on its own, twice as big)
        w, h = image[0] * k, image[1] * k
        cx, cy = rect.x + rect.w / 2, rect.y + rect.h / 2
        beside = Rect(round(cx - w / 2), round(cy - h / 2), w, h) if shown != image else rect
        display.draw(original, beside, half, pixelated=pix)
        display.draw(main, rect, half, offset_x=size[0] - half[0], mode=mode, pixelated=pix)
        return
    rect = transform.image_rect(size, shown)
    rect, pix = pixels_drawn(rect, rect.w / shown[0])
    if compare is CompareMode.SPLIT:
        x = split * size[0]
        u = (x - rect.x) / rect.w if rect.w > 0 else 0.5
        # the original in each view's place: once, or in both views of a stereo pair (a
        # squeezed pair's too: the frame's size, two views)
        nx, ny = views or (max(1, round(shown[0] / image[0])), max(1, round(shown[1] / image[1])))
        for i in range(nx):
            for j in range(ny):
                view = Rect(rect.x + i * rect.w / nx, rect.y + j * rect.h / ny,
                            rect.w / nx, rect.h / ny)
                end = (x - view.x) / view.w if view.w > 0 else 0.5
                if end > 0.0:
                    display.draw(original, view, size, crop=(0.0, end), pixelated=pix)
        display.draw(main, rect, size, mode=mode, crop=(u, 1.0), pixelated=pix)
        line = max(1.0, round(dpr))
        display.fill(Rect(x - line, 0, 2 * line, size[1]), size, DIVIDER_COLOR)
        return
    display.draw(main, rect, size, mode=mode, pixelated=pix)
