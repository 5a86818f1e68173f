"""The look at any size (issue 29): sizes are declared for a reference frame (720 lines);
checked with the real style (its reference frame), not the unit one. The paper's grain grows
with the square root of the picture's size above the reference frame (blind pairs: at the
reference frame's size it reads as soft stucco at 100% on a 4K photo, at the pixel's it
vanishes when the photo is shrunk), with part of it kept at the pixel's size."""

from __future__ import annotations

import cv2
import numpy as np


def grain_length(height: np.ndarray) -> float:
    """Px along x at which the height's autocorrelation falls to 0.5 (interpolated)."""
    h = height - height.mean()
    var = float((h * h).mean())
    prev = 1.0
    for d in range(1, 32):
        r = float((h[:, d:] * h[:, :-d]).mean()) / var
        if r < 0.5:
            return d - 1 + (prev - 0.5) / (prev - r)
        prev = r
    return 32.0


def test_the_paper_grain_follows_the_picture_size(pipeline):
    lengths, relief = {}, {}
    for w, h in ((640, 360), (1280, 720), (2560, 1440)):
        p = pipeline({"paper_grain": 0.0, "granulation": 0.0})
        out = p.render_array(np.full((h, w, 3), 255, np.uint8))
        paper = p.read_target("paper")[..., 0].astype(np.float64)
        lengths[w] = grain_length(paper)
        shrunk = cv2.resize(out, (640, 360), interpolation=cv2.INTER_AREA)
        lo, hi = np.percentile(cv2.cvtColor(shrunk, cv2.COLOR_RGB2LAB)[..., 0], (5, 95))
        relief[w] = (hi - lo) * 100 / 255
    # below the reference frame the grain is not finer; above, sqrt(2) larger at twice it
    # (its pixel-size part makes it a little less)
    assert abs(lengths[640] - lengths[1280]) < 0.05 * lengths[1280], lengths
    assert 1.15 < lengths[2560] / lengths[1280] < 1.45, lengths
    # bare paper's tooth shows when the big picture is shrunk, as much as it did at the
    # pixel's size (measured 2.75 L* against 4.31 at the reference size; 4K: 2.75 against
    # 1.96 at the pixel's size)
    assert relief[2560] > 0.6 * relief[1280], relief
