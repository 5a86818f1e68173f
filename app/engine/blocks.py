"""A compressed frame's block grid: JPEG, a webcam's MJPEG and a video call's codec code the
picture in 8x8 blocks (the chroma of 4:2:0 in 16x16), and at a low bitrate each block comes
back nearly flat, its neighbours a step of a few levels away. Enlarged (a small call shown
big, a degraded photo) the grid keeps its steps at a larger, often fractional period. A
painter paints the face the blocks imply, not the blocks; the painting kept them as tiles of
colour (trial F8, finding 7: f09's 40 px tiles kept 90-95% of their contrast through the
edge-preserving abstraction, 80-96% through the tones, and the composite's dried edges
brought the lightness's back to 92%). deblock.frag smooths a grid found here out of the
frame before anything else reads it.

Found on the CPU from the frame's steps: the mean step (capped: an edge counts as no more
than a block's step) across each column boundary, less its neighbourhood's, is a profile
whose peaks repeat at the grid's period. The period is one of the profile's spectrum's
strongest peaks or a fraction of it (the peak a harmonic of the grid), the one whose
boundaries fold into one phase most surely. Luma and chroma each; a grid is taken where
both axes find the luma's period (a grid is square; a fence's or a shirt's stripes are not)
and the chroma's, where found, is the luma's or twice it (4:2:0): an enlarged photo's
resampling repeats too, at periods of its own."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import cv2
import numpy as np

MIN_PERIOD, MAX_PERIOD = 4.5, 64.0  # px: a native 8x8 grid shrunk a little .. enlarged 4x
STEP_CAP = 10  # levels: a step counts up to this (an edge is no more than a block's step)
HIGH_PASS = 33  # px: the profile less its moving mean over this width
LINES = 480  # the profile along one axis is averaged over this many lines at most
# How surely the grid's boundaries fold into one phase (the fold's peak bin over its standard
# error, in the profile's standard deviations) for a grid to be taken: JPEG quality 20-90
# 10-30, an enlarged degraded photo (trial F8's f09) 13; photos without a grid 3-7 (a web
# photo's faint grid, resaved or resampled, up to 17: then too faint to smooth, STEP_RANGE)
MIN_SCORE = 8.0
# How strongly a grid is smoothed (0 .. 1), the more of the two: by the luma's mean step
# across its boundaries (levels) and by that step's contrast to the steps inside the blocks
# (a flat block's are none), each the mean of the two axes'. JPEG quality 20-30: steps
# 1.3-2.2, contrast 1.1-1.5; 50: 0.8-1.3, 1.05-1.2; 75: 0.6-0.9, 1.04-1.17; 90: 0.3-0.5,
# 1.02-1.12; a degraded webcam-like photo (f09) 2.3-2.5, 1.8-1.9; web photos with a faint
# grid 0.2-0.6, 1.01-1.11
STEP_RANGE = (0.8, 1.3)
CONTRAST_RANGE = (1.25, 1.5)
SAME_PERIOD = 0.03  # periods this close (a share of the larger) are one
FADED = 0.1  # a video's grid fading out is dropped below this strength
# px: a grid drawn finer than this (a frame painted well below its size) is left as it is:
# the shrinking smoothed it
MIN_DRAWN = 3.0
# The chroma is smoothed over this many of its periods: a low bitrate codes it in flat
# patches of a few blocks whose steps, each ramped over one period, still drew straight
# bands of colour across f09's face (a box of two periods is a ramp twice as long, which
# also nulls the grid's frequency)
CHROMA_BOX = 2.0


@dataclass(frozen=True)
class BlockGrid:
    """A frame's block grid: the periods (px along x and y) of its luma's and its chroma's
    blocks, and how strongly it is smoothed (0: not at all)."""

    luma: tuple[float, float] = (0.0, 0.0)
    chroma: tuple[float, float] = (0.0, 0.0)
    strength: float = 0.0


NO_GRID = BlockGrid()


def _profiles(rgb: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """The luma's and chroma's mean capped steps across each boundary along `axis` (1: the
    column boundaries), over up to LINES lines spread over the frame."""
    every = max(1, rgb.shape[1 - axis] // LINES)
    lines = rgb[::every] if axis == 1 else rgb[:, ::every]
    ycc = cv2.cvtColor(np.ascontiguousarray(lines), cv2.COLOR_RGB2YCrCb).astype(np.int16)
    d = np.minimum(np.abs(np.diff(ycc, axis=axis)), STEP_CAP)
    luma = d[..., 0].mean(axis=1 - axis, dtype=np.float64)
    chroma = np.minimum(d[..., 1] + d[..., 2], STEP_CAP).mean(axis=1 - axis, dtype=np.float64)
    return luma, chroma


def _high_pass(g: np.ndarray) -> np.ndarray:
    pad = np.pad(g, HIGH_PASS // 2, mode="reflect")
    return g - np.convolve(pad, np.full(HIGH_PASS, 1.0 / HIGH_PASS), mode="valid")


def _around(period: float, n: int) -> np.ndarray:
    """Periods round `period` over the width of its spectral peak in a profile of n px."""
    width = 0.5 * period / n  # the peak's half width, a share of its period
    return period * (1.0 + np.linspace(-width, width, 9))


def _candidates(h: np.ndarray) -> np.ndarray:
    """Periods to try: the profile's two strongest spectral peaks and the periods they are
    harmonics of, each over the peak's width."""
    size = 1 << math.ceil(math.log2(len(h) * 8))
    power = np.abs(np.fft.rfft(h, size))
    f = np.arange(len(power)) / size
    band = (f >= 1.0 / MAX_PERIOD) & (f <= 1.0 / 2.2)
    inner = power[1:-1]
    peaks = np.flatnonzero(band[1:-1] & (inner >= power[:-2]) & (inner >= power[2:])) + 1
    out = []
    for k in peaks[np.argsort(power[peaks])[::-1][:2]]:
        for m in range(1, 13):
            p0 = m / f[k]
            if MIN_PERIOD <= p0 <= MAX_PERIOD:
                out.append(_around(p0, len(h)))
    return np.concatenate(out) if out else np.zeros(0)


class _Fold(NamedTuple):
    period: float  # px; 0 where no grid stands out
    score: float  # how surely the boundaries fall into one phase (in standard errors)
    step: float  # levels: the mean step on the grid's boundaries, beyond the blocks' own
    contrast: float  # the mean step on the boundaries over the mean inside the blocks

    def __bool__(self) -> bool:  # a grid found
        return self.period > 0.0


NO_FOLD = _Fold(0.0, 0.0, 0.0, 0.0)


def _period(g: np.ndarray, near: float = 0.0) -> _Fold:
    """The profile's grid (near the period `near`, where given). Each candidate period folds
    the high-passed profile into 1 px phase bins: the strongest bin's score is its sum over
    its standard error. The step: the high-passed profile's mean over the bins round the
    strongest (the spread an enlarged grid's step has); the contrast: the profile's mean
    there over its mean in the bins a quarter period or more from it (inside the blocks)."""
    h = _high_pass(g)
    if len(h) < 4 * MIN_PERIOD:
        return NO_FOLD
    periods = _around(near, len(h)) if near else _candidates(h)
    if not len(periods):
        return NO_FOLD
    bins = np.maximum(4, np.round(periods)).astype(np.int64)
    stride = int(bins.max())
    x = np.arange(1, len(h) + 1, dtype=np.float64)
    b = np.minimum((np.mod(x[None, :], periods[:, None]) * (bins / periods)[:, None])
                   .astype(np.int64), bins[:, None] - 1)
    b += (np.arange(len(periods)) * stride)[:, None]
    size = len(periods) * stride
    s = np.bincount(b.ravel(), np.broadcast_to(h, b.shape).ravel(), size).reshape(-1, stride)
    n = np.maximum(np.bincount(b.ravel(), None, size), 1.0).reshape(-1, stride)
    score = s / np.sqrt(n)
    i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    best = float(score[i, j] / (h.std() + 1e-9))
    period, nb = float(periods[i]), int(bins[i])
    own = b[i] - i * stride
    count = np.maximum(np.bincount(own, None, nb), 1.0)
    away = np.abs((np.arange(nb) - j + nb / 2) % nb - nb / 2)  # bins from the boundary's
    on = away <= max(1.0, period / 16.0)  # an enlarged grid's step spreads over px
    step = float((np.maximum(s[i, :nb], 0.0) / count)[on].sum())
    mean = np.bincount(own, g, nb) / count
    contrast = float(mean[on].mean() / max(float(mean[away >= 0.25 * nb].mean()), 1e-3))
    return _Fold(period if best >= MIN_SCORE else 0.0, best, step, contrast)


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= SAME_PERIOD * max(a, b)


def _ramp(x: float, lo: float, hi: float) -> float:
    return float(np.clip((x - lo) / (hi - lo), 0.0, 1.0))


def block_grid(rgb: np.ndarray) -> BlockGrid:
    """The block grid of the frame `rgb` ((H, W, 3) uint8 RGB); NO_GRID where none is found
    or its steps are too faint to matter."""
    lx, cx = _profiles(rgb, 1)
    ly, cy = _profiles(rgb, 0)
    x, y = _period(lx), _period(ly)
    # a grid is square: one axis's period is looked for in the other's profile too (its
    # spectrum's strongest peaks may be something else's, a wall's, a collar's)
    if y.period and not _same(x.period, y.period):
        x = _period(lx, y.period) or x
    if x.period and not _same(x.period, y.period):
        y = _period(ly, x.period) or y
    if x.period == 0.0 or y.period == 0.0 or not _same(x.period, y.period):
        return NO_GRID
    strength = max(_ramp(0.5 * (x.step + y.step), *STEP_RANGE),
                   _ramp(0.5 * (x.contrast + y.contrast), *CONTRAST_RANGE))
    if strength == 0.0:
        return NO_GRID
    luma = chroma = (x.period, y.period)
    qx, qy = _period(cx).period, _period(cy).period
    if qx and qy and _same(qx, qy):
        if not any(_same(qx, k * x.period) and _same(qy, k * y.period) for k in (1.0, 2.0)):
            return NO_GRID  # the luma's period is something else's
        chroma = (qx, qy)
    return BlockGrid(luma, chroma, strength)


def steadied_grid(last: BlockGrid | None, now: BlockGrid) -> BlockGrid:
    """A video's grid after a search that found `now`: the same grid's strength half way
    from the last search's to this one's; a grid no longer found fades (half as strong each
    search); another grid is taken as found."""
    if last is None or last == NO_GRID:
        return now
    if now != NO_GRID and not all(_same(a, b) for a, b in zip(now.luma, last.luma, strict=True)):
        return now
    strength = 0.5 * (last.strength + now.strength)
    if strength < FADED:
        return NO_GRID
    grid = now if now != NO_GRID else last
    return BlockGrid(grid.luma, grid.chroma, strength)


def grid_uniforms(grid: BlockGrid, px: float = 1.0) -> dict[str, Any]:
    """The `blocky` flag and deblock.frag's uniforms for `grid`, the graph's source drawn at
    `px` of the frame's px (a draft's shrunk frame): its boxes, the luma's its period, the
    chroma's CHROMA_BOX periods; off where the grid is drawn finer than MIN_DRAWN."""
    boxes = tuple(float(v * px) for v in (*grid.luma, *(CHROMA_BOX * c for c in grid.chroma)))
    on = grid.strength > 0.0 and min(boxes[:2]) >= MIN_DRAWN
    return {"u_blocky": int(on), "u_blocks": boxes if on else (0.0,) * 4,
            "u_block_strength": grid.strength if on else 0.0,
            "u_block_reach": max(boxes) if on else 0.0}
