"""The background kept round a portrait's head wraps it on every side, not stuck to one side
of it as a cut-out island (trial F10, finding 1: vignette.frag WIDE, head_wash), and is
laid in the photo's own colour (a greyed, cooled backdrop lost to the photo's blue, warm
sepia, red, khaki: trial F10's judges, round 1)."""
# ruff: noqa: F811 - pytest fixtures imported from another test module

from __future__ import annotations

import cv2
import numpy as np
import pytest
from test_vignette_holes import bare, pipeline, portrait  # noqa: F401 - fixtures


def lab(rgb: np.ndarray) -> np.ndarray:
    """CIELAB, L* 0..100, a* b* centred."""
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float64) * [100 / 255, 1, 1] \
        - [0, 128, 128]


@pytest.fixture(scope="module")
def blue_studio(portrait) -> np.ndarray:
    """The astronaut before a saturated blue studio wall (c2's backdrop: C* about 40), the
    wall laid where the person segmenter sees no one."""
    from aquarelle.engine.person_mask import PersonSegmenter

    person = PersonSegmenter().mask(portrait, portrait.shape[1::-1])
    person = cv2.GaussianBlur(person.astype(np.float32), (0, 0), 1.5)[..., None]
    wall = np.empty_like(portrait)
    wall[:] = (40, 150, 205)
    return (portrait * person + wall * (1.0 - person)).round().astype(np.uint8)


@pytest.fixture
def painted(pipeline, blue_studio):
    """The default painting, and where it keeps the background: painted, off the figure
    (figure_t .x under 0.05, at least 6 px from it)."""
    p = pipeline({"paper_tooth": 0.0})
    out = p.render_array(blue_studio)
    h, w = out.shape[:2]
    fig = cv2.resize(p.read_target("figure_t")[..., 0], (w, h))
    off = cv2.erode((fig < 0.05).astype(np.uint8), np.ones((13, 13), np.uint8)) > 0
    return out, ~bare(out) & off


def beside_head(kept: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The kept background's width in each of the head's rows, left and right of the face's
    centre (384 px picture; her face's centre at x 165, the head's rows 20-130)."""
    rows = kept[20:130]
    return rows[:, :165].sum(1), rows[:, 165:].sum(1)


def test_the_wash_reaches_round_both_sides_of_the_head(painted):
    """The astronaut is lit from the left (the counterchange lays the wash broad behind her
    lit side): on her shadow side too a wash lies beside the head, where it stopped against
    the hair (kept background right of the face's centre over the head's rows: before none,
    after 0.52 of the left's), and not as a strip hugging the hair: where it lies it reaches
    more than 4 px past these 6 px off the figure in nearly all rows (measured 96%, median
    14 px; a wash laid at round 1's narrower 0.5 was a few px wide)."""
    _, kept = painted
    left, right = beside_head(kept)
    assert left.sum() > right.sum() > 0.3 * left.sum(), (left.sum(), right.sum())
    assert (right[right > 0] > 4).mean() > 0.9 and np.median(right[right > 0]) > 10, right


def test_the_backdrop_keeps_its_own_colour(painted, blue_studio):
    """The blue wall round the head is painted in its own hue at about its chroma, not greyed
    or cooled (round 1 laid it at 0.31x the photo's chroma: the judges preferred the photo's
    blue, warm sepia, red, khaki): measured 0.94x its chroma, its hue 12 degrees off (the
    palette's; before, 0.94x and 10)."""
    out, kept = painted
    ours, photo = lab(out)[kept], lab(blue_studio)[kept]
    chroma = np.hypot(ours[:, 1], ours[:, 2]).mean() / np.hypot(photo[:, 1], photo[:, 2]).mean()
    hue = np.degrees(np.arctan2(ours[:, 2].mean(), ours[:, 1].mean())
                     - np.arctan2(photo[:, 2].mean(), photo[:, 1].mean()))
    assert chroma > 0.8, chroma
    assert abs(hue) < 15.0, hue
