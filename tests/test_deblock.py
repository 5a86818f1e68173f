"""A compressed frame's blocks (trial F8, finding 7): a webcam's or a call's low bitrate, a
degraded photo, brings each 8x8 block back nearly flat, a few levels from its neighbours,
and the painting laid them as a patchwork of coloured tiles across the face (f09: the
photo's grid 20 px, enlarged 2.5x). engine/blocks.py finds the grid, deblock.frag smooths
it out of the frame before the painting reads it; a real edge is kept, a picture without a
grid is painted as before."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
import reference as ref
from test_hair_washes import lightness
from test_hairline import TEXTURES_OFF
from test_strands import given

from aquarelle.engine.blocks import NO_GRID, BlockGrid, block_grid, steadied_grid
from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject, SubjectTracker

N = 480
BAR = (slice(330, 346), slice(120, 360))  # a dark bar: an eyebrow's edge across the blocks


def smooth_field() -> np.ndarray:
    """float32 RGB 0..255: skin-like colour shading slowly over the picture (L* 54-84)."""
    y = np.arange(N, dtype=np.float32)[:, None]
    x = np.arange(N, dtype=np.float32)[None, :]
    lab = np.zeros((N, N, 3), np.float32)
    lab[..., 0] = 66.0 + 12.0 * np.sin(x / 67.0) * np.cos(y / 83.0) + 6.0 * y / N
    lab[..., 1] = 13.0 + 5.0 * np.cos(x / 53.0 + y / 71.0)
    lab[..., 2] = 17.0 + 5.0 * np.sin(y / 61.0 - x / 97.0)
    return np.clip(ref.lab_to_srgb(lab) * 255.0, 0.0, 255.0).astype(np.float32)


def blocky(enlarged: float = 1.0, blocks: bool = True) -> np.ndarray:
    """uint8 RGB: the smooth field coded in 8x8 blocks as a low bitrate does (each block its
    mean, its Y'CbCr in steps of 4 levels: runs of equal blocks, then a step), the coded
    picture `enlarged` (bilinear: a small call shown big), with a sharp dark bar."""
    small = round(N / enlarged) // 8 * 8
    img = cv2.resize(smooth_field(), (small, small), interpolation=cv2.INTER_AREA)
    if blocks:
        ycc = cv2.cvtColor(img, cv2.COLOR_RGB2YCrCb)
        k = small // 8
        means = ycc.reshape(k, 8, k, 8, 3).mean(axis=(1, 3), keepdims=True)
        ycc = np.broadcast_to(np.round(means / 4.0) * 4.0, (k, 8, k, 8, 3))
        img = cv2.cvtColor(np.ascontiguousarray(ycc.reshape(small, small, 3)),
                           cv2.COLOR_YCrCb2RGB)
    if small != N:
        img = cv2.resize(img, (N, N), interpolation=cv2.INTER_LINEAR)
    img = np.array(img)
    img[BAR] = (58.0, 40.0, 34.0)
    return np.clip(np.round(img), 0, 255).astype(np.uint8)


def grid_peak(lum: np.ndarray, period: float) -> float:
    """The grid's spectral peak (trial F8's test): the power of the mean |dL*| profile
    along x (and along y) at the grid's period over the median power of the frequencies
    round it (0.6-1.4x, the peak's bins left out); the mean of the two. 1: no grid."""
    peaks = []
    for axis in (0, 1):
        g = np.abs(np.diff(lum, axis=axis)).mean(axis=1 - axis)
        g = (g - g.mean()) * np.hanning(len(g))
        power = np.abs(np.fft.rfft(g)) ** 2
        k, ks = len(g) / period, np.arange(len(power))
        near = (ks >= 0.6 * k) & (ks <= 1.4 * k) & (np.abs(ks - k) > 2.0)
        peaks.append(power[np.abs(ks - k) <= 1.0].max() / np.median(power[near]))
    return float(np.mean(peaks))


@pytest.mark.parametrize("enlarged", [1.0, 2.5])
def test_a_grid_is_found_at_its_period_native_or_enlarged(enlarged):
    """The grid of 8x8 blocks, native or enlarged 2.5x (f09's 20 px), found in luma and
    chroma along both axes, to be smoothed fully."""
    grid = block_grid(blocky(enlarged))
    period = 8.0 * enlarged
    assert grid.luma == pytest.approx((period, period), abs=0.05 * enlarged), grid
    assert grid.chroma == pytest.approx((period, period), abs=0.05 * enlarged), grid
    assert grid.strength == 1.0, grid


def test_a_picture_without_a_grid_has_none():
    """The same field uncoded, and stripes every 8 px along one axis only (a shirt's, a
    fence's), hold no grid: they are painted as before (its passes never run)."""
    assert block_grid(blocky(blocks=False)) == NO_GRID
    stripes = blocky(blocks=False).astype(np.int16)
    stripes[:, ::8] += 6
    assert block_grid(np.clip(stripes, 0, 255).astype(np.uint8)) == NO_GRID


def test_a_videos_grid_is_kept_and_fades_after_a_cut_to_a_clean_source():
    """The grid is searched with the full face detections: steady along a blocky shot, half
    as strong at each search that no longer finds it, then gone."""
    tracker = SubjectTracker(people=False, detect_every=2)
    coded, clean = blocky(2.5), blocky(2.5, blocks=False)
    found = [tracker.update(coded, i / 30.0, i).blocks for i in range(4)]
    assert all(g == found[0] for g in found) and found[0].strength == 1.0, found
    after = [tracker.update(clean, i / 30.0, i).blocks.strength for i in range(4, 12)]
    assert after == [0.5, 0.5, 0.25, 0.25, 0.125, 0.125, 0.0, 0.0], after
    assert steadied_grid(found[0], BlockGrid((16.0, 16.0), (16.0, 16.0), 0.3)).luma == \
        (16.0, 16.0)  # another grid (the source changed) is taken as found


@pytest.mark.parametrize("enlarged", [1.0, 2.5])
def test_a_blocky_face_is_painted_without_its_grid_and_keeps_its_edge(pipeline, enlarged):
    """A face coded in blocks, the grid found: its painting holds no grid (the trial's
    spectral peak at most 2: now 1.1 native, 1.7 enlarged), where without smoothing it (as
    before) the tiles stood out (5.0, 19.6); the sharp bar is as dark and as sharp as
    before (its depth 33 L*, its edge's steepest step 19 L* a px, either way)."""
    img = blocky(enlarged)
    box = (0.2 * N, 0.15 * N, 0.8 * N, 0.85 * N)
    face = Subject((Face(box, np.zeros((6, 2)), 0.9),), np.ones((144, 256), np.float32))
    painted = {}
    for name, grid in (("old", NO_GRID), ("new", block_grid(img))):
        p = given(pipeline(TEXTURES_OFF), dataclasses.replace(face, blocks=grid))
        painted[name] = lightness(p.render_array(img))
    skin = (slice(40, 300), slice(60, 420))  # the shaded field above the bar
    old, new = (grid_peak(painted[k][skin], 8.0 * enlarged) for k in ("old", "new"))
    assert old > 4.0 and new <= 2.0, (old, new)
    # the bar: its depth under the skin above it and its top edge's steepest step
    for k in ("old", "new"):
        lum = painted[k][:, 150:330]
        depth = lum[318:326].mean() - lum[334:342].mean()
        steep = np.abs(np.diff(lum[322:338].mean(axis=1))).max()
        painted[k] = (depth, steep)
    (d_old, s_old), (d_new, s_new) = painted["old"], painted["new"]
    assert d_new > 0.95 * d_old and s_new > 0.9 * s_old, painted
