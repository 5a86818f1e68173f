"""Warping error E_warp (Lai et al. 2018, "Learning Blind Video Temporal Consistency").

E_warp = 1/(T-1) sum_t [ sum_i M_i ||O_t(i) - warp(O_t+1)(i)||^2 / sum_i M_i ], with O in RGB
[0,1], warp along the optical flow of the *input* video (t -> t+1), and M masking pixels that
are occluded (forward-backward check) or whose flow leaves the frame.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np


@dataclass
class PairFlow:
    """Flow from frame t to t+1 of the input, and the mask of pixels it is valid for."""

    map_x: np.ndarray  # float32 (H, W): x + F_fw(x), where to sample frame t+1
    map_y: np.ndarray
    mask: np.ndarray  # float32 (H, W): 1 where not occluded and inside the frame


@dataclass
class FlickerResult:
    """Per-pair warping errors of one or more videos against the same input flow."""

    errors: dict[str, list[float]] = field(default_factory=dict)

    def e_warp(self, name: str) -> float:
        """The mean warping error of video `name` over all frame pairs."""
        values = self.errors[name]
        return float(np.mean(values)) if values else float("nan")


def _grey(rgb: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2GRAY)


def _dis() -> cv2.DISOpticalFlow:
    return cv2.DISOpticalFlow_create(cv2.DISOPTICAL_FLOW_PRESET_MEDIUM)


def pair_flow(frame0: np.ndarray, frame1: np.ndarray, dis: cv2.DISOpticalFlow | None = None
              ) -> PairFlow:
    """Optical flow t -> t+1 of two input frames (DIS) and the occlusion mask."""
    dis = dis or _dis()
    g0, g1 = _grey(frame0), _grey(frame1)
    fw = dis.calc(g0, g1, None)
    bw = dis.calc(g1, g0, None)
    return flow_to_pair(fw, bw)


def flow_to_pair(fw: np.ndarray, bw: np.ndarray) -> PairFlow:
    """Sampling maps and mask from forward and backward flow fields (H, W, 2)."""
    h, w = fw.shape[:2]
    gx, gy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    map_x, map_y = gx + fw[..., 0], gy + fw[..., 1]
    bw_at = cv2.remap(bw, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # Forward-backward consistency: |F_fw + F_bw(x + F_fw)|^2 > 0.01 (|F_fw|^2 + |F_bw|^2) + 0.5
    err = np.sum((fw + bw_at) ** 2, axis=-1)
    bound = 0.01 * (np.sum(fw ** 2, axis=-1) + np.sum(bw_at ** 2, axis=-1)) + 0.5
    inside = (map_x >= 0) & (map_x <= w - 1) & (map_y >= 0) & (map_y <= h - 1)
    mask = ((err <= bound) & inside).astype(np.float32)
    return PairFlow(map_x, map_y, mask)


def pair_error(out0: np.ndarray, out1: np.ndarray, flow: PairFlow) -> float:
    """Masked mean squared RGB distance between O_t and O_t+1 warped back to t."""
    a = out0.astype(np.float32) / 255.0
    b = out1.astype(np.float32) / 255.0
    warped = cv2.remap(b, flow.map_x, flow.map_y, cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    dist = np.sum((a - warped) ** 2, axis=-1)
    total = float(flow.mask.sum())
    return float((dist * flow.mask).sum() / total) if total > 0 else 0.0


def warping_errors(inputs: Iterable[np.ndarray], **videos: Iterable[np.ndarray]
                   ) -> FlickerResult:
    """E_warp of each named video (and of the input itself, as "input") along the input's flow.

    All iterables yield (H, W, 3) uint8 RGB frames of the same size, in step; the shortest
    one ends the walk.
    """
    dis = _dis()
    result = FlickerResult({"input": [], **{k: [] for k in videos}})
    names = list(videos)
    prev: tuple[np.ndarray, ...] | None = None
    for frames in zip(inputs, *videos.values(), strict=False):
        _check_sizes(frames)
        if prev is not None:
            flow = pair_flow(prev[0], frames[0], dis)
            result.errors["input"].append(pair_error(prev[0], frames[0], flow))
            for k, name in enumerate(names, start=1):
                result.errors[name].append(pair_error(prev[k], frames[k], flow))
        prev = frames
    return result


def _check_sizes(frames: tuple[np.ndarray, ...]) -> None:
    shape = frames[0].shape
    for f in frames[1:]:
        if f.shape != shape:
            raise ValueError(f"frame sizes differ: {shape[1]}x{shape[0]} vs "
                             f"{f.shape[1]}x{f.shape[0]}")
