"""Where the tiles of a big still go: the cores they deliver and the boxes they render (core
and overlap), all one size, their corners on the coarsest target's grid (see tiles.py)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import AquarelleError

# A still is rendered in tiles above this many pixels (a 16 MP picture takes about 1.2 GB
# whole), and always when a side exceeds the GPU's texture limit.
TILE_ABOVE_PX = 16_000_000
MIN_TILE_PX = 1 << 20
MAX_TILES_ACROSS = 96
TILE_PENALTY_PX = 250_000  # a tile's fixed cost (uploads, per-pass overhead) in pixels
# A tile is large enough for a core this many times its overlap a side (where the picture is
# that large): its box then renders about (2 + 2) ** 2 / 2 ** 2 = 4x its core at most. The
# overlap is what the passes read around a pixel, and the style's kernels are sized in px of
# a reference frame (720 lines for the watercolor): they grow with the picture, the overlap
# with them (16000x10667: 1596 px a side), so the tiles must grow too. Tiles sized by
# memory alone had cores of a few hundred px there, then none.
MIN_CORE_PER_OVERLAP = 2

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1


class TileError(AquarelleError):
    """A style (or picture) that cannot be rendered in tiles."""


@dataclass(frozen=True)
class Tile:
    """One tile: the core it delivers and the box it renders (core and overlap, inside the
    picture), in the whole picture's pixels; `pad`: edge pixels repeated right of and below
    the box, so that its size stays a multiple of the alignment."""

    core: Rect
    box: Rect
    pad: tuple[int, int] = (0, 0)

    @property
    def origin(self) -> tuple[int, int]:
        return self.box[0], self.box[1]

    @property
    def size(self) -> tuple[int, int]:
        """The rendered size, padding included."""
        return self.box[2] - self.box[0] + self.pad[0], self.box[3] - self.box[1] + self.pad[1]


def needs_tiles(size: tuple[int, int], max_side: int, *, above_px: int = TILE_ABOVE_PX) -> bool:
    """Whether a still of `size` is rendered in tiles."""
    return size[0] * size[1] > above_px or max(size) > max_side


def overlap_floor_px(size: tuple[int, int], margin: tuple[int, int], align: int,
                     max_side: int) -> int:
    """The fewest pixels a tile must have for cores of MIN_CORE_PER_OVERLAP times the
    overlap `margin` (and the grid's rounding) a side, no larger than the picture of `size`
    nor `max_side` a side."""
    def side(length: int, m: int) -> int:
        want = (MIN_CORE_PER_OVERLAP + 2) * m + 2 * align
        return min(-(-length // align) * align, want, max_side)
    return side(size[0], margin[0]) * side(size[1], margin[1])


def plan_tiles(size: tuple[int, int], margin: tuple[int, int], align: int, max_px: int,
               max_side: int) -> list[Tile]:
    """Tiles covering a picture of `size`: cores on a grid (corners on multiples of `align`),
    each box its core and `margin` around it, at most `max_px` pixels and `max_side` a side;
    the grid that renders the fewest pixels (counting a fixed cost a tile). The boxes all have
    the size of the largest, moved inside the picture (padded beyond it to the alignment):
    the textures are made once."""
    w, h = size
    best: tuple[float, list[_Span], list[_Span]] | None = None
    across = [_axis(w, n, margin[0], align) for n in range(1, _most(w, align) + 1)]
    down = [_axis(h, n, margin[1], align) for n in range(1, _most(h, align) + 1)]
    for xs in (x for x in across if x and max(s.rendered for s in x) <= max_side):
        wmax, wsum = max(s.rendered for s in xs), sum(s.rendered for s in xs)
        for ys in (y for y in down if y and max(s.rendered for s in y) <= max_side):
            hmax, hsum = max(s.rendered for s in ys), sum(s.rendered for s in ys)
            if wmax * hmax > max_px:
                continue
            cost = wsum * hsum + TILE_PENALTY_PX * len(xs) * len(ys)
            if best is None or cost < best[0]:
                best = (cost, xs, ys)
    if best is None:
        raise TileError(f"no tiles of at most {max_px / 1e6:.1f} MP fit a {w}x{h} picture with "
                        f"an overlap of {margin[0]}x{margin[1]} px")
    xs = _uniform(best[1], w, align)
    ys = _uniform(best[2], h, align)
    return [Tile((x.c0, y.c0, x.c1, y.c1), (x.b0, y.b0, x.b1, y.b1), (x.pad, y.pad))
            for y in ys for x in xs]


def _uniform(spans: list[_Span], length: int, align: int) -> list[_Span]:
    """The spans with boxes as long as the longest, inside the picture padded to `align`."""
    size = max(s.rendered for s in spans)
    padded = -(-length // align) * align
    out = []
    for s in spans:
        b0 = min(s.b0, max(0, padded - size))
        b1 = min(length, b0 + size)
        out.append(_Span(s.c0, s.c1, b0, b1, b0 + size - b1))
    return out


@dataclass(frozen=True)
class _Span:
    """A tile along one side: its core, its box and the box's padding."""

    c0: int
    c1: int
    b0: int
    b1: int
    pad: int

    @property
    def rendered(self) -> int:
        return self.b1 - self.b0 + self.pad


def _most(length: int, align: int) -> int:
    return max(1, min(MAX_TILES_ACROSS, length // align))


def _axis(length: int, n: int, margin: int, align: int) -> list[_Span] | None:
    """n cores along one side (multiples of `align` long, the last one shorter) and their
    boxes (core and margin, inside the picture, padded to a multiple of `align`); None when
    cores of that length leave the last one empty."""
    step = -(-length // n)
    step = -(-step // align) * align
    if step * (n - 1) >= length:
        return None
    spans = []
    for i in range(n):
        c0, c1 = i * step, min(length, (i + 1) * step)
        b0, b1 = max(0, c0 - margin), min(length, c1 + margin)
        spans.append(_Span(c0, c1, b0, b1, -(b1 - b0) % align))
    return spans
