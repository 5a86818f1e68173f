"""The portrait fades into the paper (trial F3, finding 7): the background's wash is graded
lighter before it stops, a dark one the most (composite.frag graded_out), and with bare paper
round the figure the body thins down into the paper at the frame's bottom, in flicks, where
it was cut across at full strength (vignette.frag)."""
# ruff: noqa: F811 - pytest fixtures imported from another test module

from __future__ import annotations

import cv2
import numpy as np
import skimage.data
from test_vignette_holes import bare, pipeline, portrait  # noqa: F401 - fixtures


def painted_with(pipeline, portrait: np.ndarray, background: str):
    """The painting (no paper tooth), its L* (0..100), its bare paper and its figure."""
    p = pipeline({"background": background, "paper_tooth": 0.0})
    out = p.render_array(portrait)
    h, w = out.shape[:2]
    fig = cv2.resize(p.read_target("figure_t")[..., 0], (w, h))
    lum = cv2.cvtColor(out, cv2.COLOR_RGB2LAB)[..., 0].astype(np.float64) * 100 / 255
    return lum, bare(out), fig


def test_a_dark_background_wash_arrives_light_at_its_edge(pipeline, portrait):
    """Off the figure, the darkest of the wash 4-8 px from the paper is light: a dark wash
    is thinned before it stops (its L*'s 10th percentile measured 29 before, the wash dense
    to its edge; 45 after)."""
    lum, bare, fig = painted_with(pipeline, portrait, "painted")
    dist = cv2.distanceTransform(1 - bare.astype(np.uint8), cv2.DIST_L2, 3)
    near = (fig < 0.1) & (dist >= 4) & (dist <= 8)
    assert near.sum() > 1000
    assert np.percentile(lum[near], 10) > 38, np.percentile(lum[near], 10)


def test_with_bare_paper_the_body_thins_down_into_the_paper(pipeline, portrait):
    """Where the frame's bottom cuts the body (columns solid figure at 3/4 of the height),
    the painting's last px before the paper are lighter than the body 30-40 px above it
    (measured: before, a pooled rim 3 L* darker; after, 6 L* lighter)."""
    lum, bare, fig = painted_with(pipeline, portrait, "bare paper")
    h = lum.shape[0]
    top = int(0.75 * h)
    near, far = [], []
    for x in np.flatnonzero(fig[top] > 0.95):
        painted = np.flatnonzero(~bare[top:, x])
        stop = top + painted[-1] if len(painted) else top
        if stop < h - 2:  # cut above the frame's bottom
            near.append(lum[stop - 6:stop - 1, x].mean())
            far.append(lum[stop - 40:stop - 30, x].mean())
    assert len(near) > 150
    assert np.mean(near) - np.mean(far) > 3.0, (np.mean(near), np.mean(far))


def test_a_face_the_frame_cuts_is_painted_to_the_border(pipeline):
    """A close face whose chin and forehead the frame cuts (a webcam's, a call's): with bare
    paper round the figure, the fade at the frame's borders and the flicks at its bottom
    stop at the face (they tore through mouths and chins: trial F4, finding 1)."""
    close = cv2.resize(skimage.data.astronaut()[85:175, 150:300], (400, 240),
                       interpolation=cv2.INTER_AREA)
    p = pipeline({"background": "bare paper", "paper_tooth": 0.0})
    out = p.render_array(close)
    h, w = out.shape[:2]
    face = cv2.resize(p.read_target("figure_t")[..., 2], (w, h)) > 0.6
    rim = np.zeros((h, w), bool)
    k = int(0.1 * min(h, w))
    rim[:k], rim[-k:], rim[:, :k], rim[:, -k:] = True, True, True, True
    assert (face & rim).sum() > 2000
    assert bare(out)[face & rim].mean() < 0.01, bare(out)[face & rim].mean()
