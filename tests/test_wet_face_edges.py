"""A very wet look keeps a face's shape (trial F4, finding 2, left after the blooms' fix): the
bleeding's wide blur, scattered up to half its distance, laid the hair's and the background's
grey over the skin and melted the face's edge and a beard into the background. A face, and
the figure right next to it, take little of the bleeding and from a short reach; the rest of
the sheet is as wet as before, and the default look's face hardly changes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import skimage.data

from aquarelle.engine.subject_map import MESH_OVAL

# wet_in_wet's values (blooms off: only the bleeding is measured)
WET = {"dilution": 0.15, "darks": 1.0, "saturation": 1.3, "highlights": 0.1, "bleeding": 1.0,
       "bleed_width": 40.0, "wash_size": 30.0, "blooms": 0.0, "hard_edges": 0.0,
       "quantize_sharpness": 1.0, "edge_darkening": 2.0, "edge_width": 6.0,
       "turbulence": 0.9, "granulation": 0.5, "gaps": 0.0, "overlaps": 0.2, "detail": 0.9,
       "sigma_r": 16.0, "lic_sigma": 3.0, "vignette": 0.0, "margins": 0.0}
LUM = np.array([0.2126, 0.7152, 0.0722])


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest)."""
    return reused_pipeline


@pytest.fixture(scope="module")
def portrait() -> np.ndarray:
    """The astronaut (public domain, scikit-image), 384 px: a head and shoulders."""
    return cv2.resize(skimage.data.astronaut(), (384, 384), interpolation=cv2.INTER_AREA)


def bleeding_change(pipeline, picture: np.ndarray, values: dict):
    """|luma change| the bleeding makes under `values` (against none), and the renderer."""
    p = pipeline(values)
    wet = p.render_array(picture).astype(float) @ LUM
    dry = pipeline({**values, "bleeding": 0.0}).render_array(picture).astype(float) @ LUM
    return np.abs(wet - dry), p


def regions(p, picture: np.ndarray) -> dict[str, np.ndarray]:
    """The skin inside the first face's oval (eroded), its edge (a band either side of the
    oval), the figure just outside it (hair; up to 15 px), and the picture well away."""
    face = p.last_subject.faces[0]
    oval = np.zeros(picture.shape[:2], np.uint8)
    cv2.fillPoly(oval, [face.mesh[list(MESH_OVAL), :2].astype(np.int32)], 1)
    inner = cv2.erode(oval, np.ones((9, 9), np.uint8)) == 1
    edge = (cv2.dilate(oval, np.ones((9, 9), np.uint8)) == 1) & ~inner
    figure = cv2.resize(p.read_target("focus_t")[..., 3], picture.shape[1::-1]) > 0.5
    beside = (cv2.dilate(oval, np.ones((31, 31), np.uint8)) == 1) & (oval == 0) & figure
    away = ~cv2.dilate(oval, np.ones((61, 61), np.uint8)).astype(bool)
    return {"inner": inner, "edge": edge, "beside": beside, "away": away}


def test_a_wet_look_keeps_the_face_and_its_edge(pipeline, portrait):
    """With wet_in_wet's bleeding (40 px) a face's skin, its edge and the hair beside it change
    little (they changed by a third to three quarters of the rest's bleeding); away from it the
    sheet bleeds as much as ever."""
    d, p = bleeding_change(pipeline, portrait, WET)
    r = regions(p, portrait)
    assert r["inner"].mean() > 0.02 and r["beside"].mean() > 0.005
    away = d[r["away"]].mean()
    assert away > 6.0  # the rest of the sheet runs
    assert d[r["inner"]].mean() < 0.15 * away
    assert d[r["edge"]].mean() < 0.2 * away
    assert d[r["beside"]].mean() < 0.25 * away


def test_the_default_look_bleeds_a_face_as_before(pipeline, portrait):
    """The default look's bleeding (12 px, half as wet) is within what a face keeps: its skin
    takes as much of it as it did (about 0.9 levels of luma)."""
    d, p = bleeding_change(pipeline, portrait, {})
    r = regions(p, portrait)
    assert 0.5 < d[r["inner"]].mean() < 1.3
