"""Hashed filters for x2 upscaling of luminance, learned by least squares.

Each output pixel of a 2x enlargement has one of four phases (its position mod 2). It is a
linear filter over the 6x6 low-resolution neighbourhood around it, chosen by the phase and
a hash of the local structure: the angle, strength and coherence of the gradient tensor of
the central 4x4 (Gaussian-weighted towards the output pixel). Training solves one
regularized least-squares problem per (hash bucket, phase) on pairs of photos and their
INTER_AREA halves (RAISR, Romano et al. 2016; RAVU).

The weights file (assets/upscale/filters_x2.npy, float16) is what the shader reads as a
texture: row 0 holds the hash thresholds, row 1 + bucket * 4 + phase the 36 weights of a
filter (9 RGBA texels per row).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

WINDOW = 6  # low-resolution taps per side
TAPS = WINDOW * WINDOW
ANGLES = 16
STRENGTHS = 3
COHERENCES = 3
BUCKETS = ANGLES * STRENGTHS * COHERENCES
PHASES = 4
ROW_TEXELS = TAPS // 4  # RGBA texels per filter row
GRAD_SIGMA = 1.0  # of the Gaussian weighting the tensor (LR px), centred on the output px


def luma(rgb: np.ndarray) -> np.ndarray:
    """BT.601 luma of sRGB values (float, same range as the input)."""
    rgb = np.asarray(rgb, np.float64)
    return rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114


def halve(img: np.ndarray) -> np.ndarray:
    """The degradation the filters learn to undo: INTER_AREA to half size (even crop)."""
    h, w = img.shape[:2]
    img = img[: h - h % 2, : w - w % 2]
    return cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)


def _offsets(phase: int) -> float:
    """The output pixel's position inside the window's central cell: the window's texel
    (2, 2) is the low-resolution pixel at or left of/above it; 0.75 or 0.25 beyond."""
    return 0.75 if phase == 0 else 0.25


def windows(lr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every output pixel of the x2 enlargement of `lr` (H, W): its 6x6 window of
    low-resolution values (2H, 2W, 36) and its phase (2H, 2W), replicated borders."""
    h, w = lr.shape
    pad = np.pad(lr, 3, mode="edge")
    ys, xs = np.mgrid[0: 2 * h, 0: 2 * w]
    py, px = ys & 1, xs & 1
    by = (ys >> 1) - 1 + py  # the window's texel (2, 2) in lr coordinates
    bx = (xs >> 1) - 1 + px
    taps = np.empty((2 * h, 2 * w, TAPS), lr.dtype)
    for k in range(TAPS):
        dy, dx = divmod(k, WINDOW)
        taps[..., k] = pad[by + dy - 2 + 3, bx + dx - 2 + 3]
    return taps, py * 2 + px


def _tensor_weights() -> np.ndarray:
    """Gaussian weights of the central 4x4 gradients for each phase: (4, 4, 4)."""
    out = np.zeros((PHASES, 4, 4))
    for phase in range(PHASES):
        fy, fx = _offsets(phase >> 1), _offsets(phase & 1)
        for j in range(4):
            for i in range(4):
                d2 = (i - 1 - fx) ** 2 + (j - 1 - fy) ** 2
                out[phase, j, i] = math.exp(-d2 / (2 * GRAD_SIGMA ** 2))
    return out


TENSOR_WEIGHTS = _tensor_weights()


def hash_features(taps: np.ndarray, phase: np.ndarray) -> tuple[np.ndarray, ...]:
    """Angle in [0, pi), strength sqrt(l1) and coherence of the weighted gradient tensor
    of each window's central 4x4 (central differences inside the window)."""
    t = taps.reshape(*taps.shape[:-1], WINDOW, WINDOW)
    gx = (t[..., 1:5, 2:6] - t[..., 1:5, 0:4]) * 0.5
    gy = (t[..., 2:6, 1:5] - t[..., 0:4, 1:5]) * 0.5
    wts = TENSOR_WEIGHTS[phase]
    a = (wts * gx * gx).sum((-1, -2))
    b = (wts * gx * gy).sum((-1, -2))
    c = (wts * gy * gy).sum((-1, -2))
    root = np.sqrt((a - c) ** 2 + 4 * b * b)
    l1 = 0.5 * (a + c + root)
    l2 = np.maximum(0.5 * (a + c - root), 0.0)
    angle = np.mod(0.5 * np.arctan2(2 * b, a - c), math.pi)  # the gradient's direction
    s1, s2 = np.sqrt(l1), np.sqrt(l2)
    coherence = np.where(s1 + s2 > 1e-12, (s1 - s2) / np.maximum(s1 + s2, 1e-12), 0.0)
    return angle, s1, coherence


def buckets(angle: np.ndarray, strength: np.ndarray, coherence: np.ndarray,
            thresholds: np.ndarray) -> np.ndarray:
    """Bucket index from the features and the (s1, s2, c1, c2) thresholds."""
    ai = np.minimum((angle / math.pi * ANGLES).astype(np.int64), ANGLES - 1)
    si = (strength >= thresholds[0]).astype(np.int64) + (strength >= thresholds[1])
    ci = (coherence >= thresholds[2]).astype(np.int64) + (coherence >= thresholds[3])
    return (ai * STRENGTHS + si) * COHERENCES + ci


@dataclass
class Filters:
    """Learned filters: weights (BUCKETS, PHASES, TAPS) and the hash thresholds."""

    weights: np.ndarray
    thresholds: np.ndarray  # strength s1 < s2, coherence c1 < c2

    def to_texture(self) -> np.ndarray:
        """The float16 (1 + BUCKETS * PHASES, ROW_TEXELS, 4) array the shader reads."""
        rows = self.weights.reshape(BUCKETS * PHASES, ROW_TEXELS, 4)
        head = np.zeros((1, ROW_TEXELS, 4))
        head[0, 0] = self.thresholds
        head[0, 1] = (ANGLES, STRENGTHS, COHERENCES, WINDOW)
        return np.concatenate([head, rows]).astype(np.float16)

    @classmethod
    def from_texture(cls, tex: np.ndarray) -> Filters:
        tex = np.asarray(tex, np.float64)
        if tex.shape != (1 + BUCKETS * PHASES, ROW_TEXELS, 4) or \
                tuple(tex[0, 1]) != (ANGLES, STRENGTHS, COHERENCES, WINDOW):
            raise ValueError("not an x2 filter file of this layout")
        return cls(tex[1:].reshape(BUCKETS, PHASES, TAPS), tex[0, 0].copy())


def upscale_luma(lr: np.ndarray, filters: Filters) -> np.ndarray:
    """The numpy reference of the shader: x2 of a luma image (H, W) in [0, 1]."""
    taps, phase = windows(np.asarray(lr, np.float64))
    b = buckets(*hash_features(taps, phase), filters.thresholds)
    w = filters.weights[b, phase]
    return (w * taps).sum(-1)


def bilinear_filters() -> np.ndarray:
    """Per phase, the taps of plain bilinear x2 (the prior the regularization pulls to)."""
    out = np.zeros((PHASES, TAPS))
    for phase in range(PHASES):
        fy, fx = _offsets(phase >> 1), _offsets(phase & 1)
        for (dy, wy) in ((0, 1 - fy), (1, fy)):
            for (dx, wx) in ((0, 1 - fx), (1, fx)):
                out[phase, (2 + dy) * WINDOW + (2 + dx)] += wy * wx
    return out


def augment(img: np.ndarray) -> Iterable[np.ndarray]:
    """The 8 rotations and flips of an image (so every angle bucket sees examples)."""
    for k in range(4):
        r = np.rot90(img, k)
        yield r
        yield r[:, ::-1]


def _samples(lr: np.ndarray, hr: np.ndarray, rng: np.random.Generator, count: int
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random output pixels of the x2 problem lr -> hr: windows, phases, targets."""
    # Pictures arrive in 8 bits: learn from rounded inputs, or the filters amplify rounding.
    taps, phase = windows(np.round(lr * 255.0) / 255.0)
    n = taps.shape[0] * taps.shape[1]
    pick = rng.choice(n, size=min(n, count), replace=False)
    return taps.reshape(n, TAPS)[pick], phase.reshape(n)[pick], hr.reshape(n)[pick]


def photo_pairs(images: Iterable[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
    """(low, high) training pairs from luma photos: the photo and its INTER_AREA half."""
    out = []
    for img in images:
        img = np.asarray(img, np.float64)
        h, w = img.shape
        hr = img[: h - h % 2, : w - w % 2]
        out.append((halve(hr), hr))
    return out


def train(images: Iterable[np.ndarray], samples_per_image: int = 40000, seed: int = 0,
          ridge: float = 0.02) -> Filters:
    """Learn the filters from luma photos in [0, 1] (see `train_pairs`)."""
    return train_pairs(photo_pairs(images), samples_per_image, seed, ridge)


def train_pairs(pairs: Iterable[tuple[np.ndarray, np.ndarray]], samples_per_image: int = 40000,
                seed: int = 0, ridge: float = 0.02) -> Filters:
    """Learn the filters from (low, high) luma pairs in [0, 1], high exactly twice the size
    of low, each used with its 8 symmetries. Deterministic for a seed. The hash thresholds
    are quantiles of the features; buckets with few examples are pulled towards the
    phase's filter learned over all of them."""
    rng = np.random.default_rng(seed)
    pairs = [(np.asarray(lo, np.float64), np.asarray(hi, np.float64)) for lo, hi in pairs]
    for lo, hi in pairs:
        if hi.shape != (2 * lo.shape[0], 2 * lo.shape[1]):
            raise ValueError(f"a pair of {lo.shape} and {hi.shape} is not an x2 pair")
    strength, coherence = [], []
    for lo, hi in pairs:
        taps, phase, _ = _samples(lo, hi, rng, samples_per_image // 4)
        _, s, c = hash_features(taps, phase)
        strength.append(s)
        coherence.append(c)
    st, co = np.concatenate(strength), np.concatenate(coherence)
    thresholds = np.array([*np.quantile(st, [0.5, 0.85]), *np.quantile(co, [0.35, 0.7])])
    groups = BUCKETS * PHASES
    q = np.zeros((groups, TAPS, TAPS))
    v = np.zeros((groups, TAPS))
    for lo, hi in pairs:
        for lo_v, hi_v in zip(augment(lo), augment(hi), strict=True):
            taps, phase, target = _samples(np.ascontiguousarray(lo_v),
                                           np.ascontiguousarray(hi_v), rng, samples_per_image)
            key = buckets(*hash_features(taps, phase), thresholds) * PHASES + phase
            order = np.argsort(key, kind="stable")
            key, taps, target = key[order], taps[order], target[order]
            starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
            for start, end in zip(starts, np.r_[starts[1:], len(key)], strict=True):
                a = taps[start:end]
                q[key[start]] += a.T @ a
                v[key[start]] += a.T @ target[start:end]
    prior = bilinear_filters()
    eye = np.eye(TAPS)
    weights = np.zeros((BUCKETS, PHASES, TAPS))
    for p in range(PHASES):
        q_all = q[p::PHASES].sum(0)
        v_all = v[p::PHASES].sum(0)
        lam = 1e-6 * np.trace(q_all)
        base = np.linalg.solve(q_all + lam * eye, v_all + lam * prior[p])
        for k in range(BUCKETS):
            g = k * PHASES + p
            lam_k = ridge * np.trace(q[g]) / TAPS + 1e-4
            weights[k, p] = np.linalg.solve(q[g] + lam_k * eye, v[g] + lam_k * base)
    return Filters(weights, thresholds)


def psnr_y(ref: np.ndarray, out: np.ndarray, border: int = 4) -> float:
    """PSNR in dB of luma images in [0, 1], `border` pixels cropped."""
    r = ref[border:-border, border:-border]
    o = np.clip(out, 0.0, 1.0)[border:-border, border:-border]
    mse = float(np.mean((r - o) ** 2))
    return 10 * math.log10(1.0 / max(mse, 1e-12))
