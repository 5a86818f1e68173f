"""A very wet look keeps a face's shape (trial F4, finding 2, left after the blooms' fix): the
bleeding's wide blur, scattered up to half its distance, laid the hair's and the background's
grey over the skin and melted the face's edge and a beard into the background. A face, and
the figure right next to it, take little of the bleeding and from a short reach; the rest of
the sheet is as wet as before, and the default look's face hardly changes."""

# ruff: noqa: F811 - pytest fixtures imported from another test module

from __future__ import annotations

import cv2
import numpy as np
from test_vignette_holes import pipeline, portrait  # noqa: F401 - fixtures
from test_wet_faces import LUM, face_oval
from test_wet_faces import WET as BEFORE

# wet_in_wet's values (blooms off: only the bleeding is measured)
WET = {**BEFORE, "blooms": 0.0, "detail": 0.9}


def bleeding_change(pipeline, picture: np.ndarray, values: dict):
    """|luma change| the bleeding makes under `values` (against none), and the renderer."""
    p = pipeline(values)
    wet = p.render_array(picture).astype(float) @ LUM
    dry = pipeline({**values, "bleeding": 0.0}).render_array(picture).astype(float) @ LUM
    return np.abs(wet - dry), p


def regions(p, picture: np.ndarray) -> dict[str, np.ndarray]:
    """The skin inside the first face's oval (eroded), its edge (a band either side of the
    oval), the figure just outside it (hair; up to 15 px), and the picture well away."""
    oval = face_oval(p, picture)
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
