"""A small face's features (60-120 px: a group photo, a webcam) as a portrait painter lays them
(portrait trial F3, finding 6): each eye one dark, never lighter than the skin round it, and
no lone dark dot (a mouth's corners as pin-pricks with the mouth's line pale between them,
like stitches), on a dark-haired head before a dark wall, whose wide blur is as dark as the
eyes."""
# ruff: noqa: F811 - pytest fixtures imported from another test module

from __future__ import annotations

import numpy as np
from test_face_features import lab_picture, lightness, pipeline  # noqa: F401 - fixture

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject

EYES = [(305.0, 215.0), (335.0, 215.0)]
MOUTH = (320.0, 252.0)  # its middle; the line 16 px long


def dark_room_face() -> tuple[np.ndarray, Face]:
    """A face of 76 px in a 640x480 frame: skin of L* 46 in an oval, dark hair over it and a
    dark wall round it (L* 14); each eye a dark of L* 33 (10x3 px), a faint brow (L* 38) 6 px
    above it, the mouth a faint line (L* 40) with a dark dot (L* 20, 2 px across) at each
    corner: a smiling mouth's corners."""
    yy, xx = np.mgrid[0:480, 0:640].astype(np.float32)
    lum = np.full((480, 640), 14.0, np.float32)
    lum[((xx - 320) / 30) ** 2 + ((yy - 232) / 40) ** 2 <= 1] = 46.0
    lum[(yy < 200) & (((xx - 320) / 38) ** 2 + ((yy - 200) / 30) ** 2 <= 1)] = 14.0  # hair
    for ex, ey in EYES:
        lum[((xx - ex) / 5.0) ** 2 + ((yy - ey) / 1.5) ** 2 <= 1] = 33.0
        lum[((xx - ex) / 6.0) ** 2 + ((yy - ey + 6.0) / 1.2) ** 2 <= 1] = 38.0
    mx, my = MOUTH
    lum[(np.abs(xx - mx) <= 8) & (np.abs(yy - my) <= 0.5)] = 40.0
    for cx in (mx - 8.0, mx + 8.0):
        lum[np.hypot(xx - cx, yy - my) <= 1.2] = 20.0
    face = Face((282.0, 194.0, 358.0, 270.0),
                np.array([*EYES, (320, 235), MOUTH, (285, 218), (355, 218)], float), 0.9)
    return lab_picture(lum, 12.0, 16.0), face


def test_a_small_face_in_a_dark_room_keeps_dark_eyes_and_no_lone_dots(pipeline):
    """Each eye's dark is about as deep under the skin round it as the photo's (the wide blur,
    dark with hair and wall, had been the eyes' measure: they were stated weakly and the
    washes left them paler), and a mouth corner's dot is laid no more than 8 L* darker than
    the mouth's line beside it (the corners were laid as deep as the photo's pixel while the
    line was not: two pin-pricks). Measured (L* of the eyes under the skin; of the darker
    corner under the line's middle): photo 12.9 / 20.0; before 10.6 / 10.2, now 16.1 / 6.7."""
    picture, face = dark_room_face()
    p = pipeline({}, seed=1)
    p.subject_feed = "given"
    p.set_subject(Subject((face,), None))
    out = p.render_array(picture)
    yy, xx = np.mgrid[0:480, 0:640].astype(np.float32)
    got = {}
    for name, lum in (("photo", lightness(picture)), ("painting", lightness(out))):
        skin = float(np.median(lum[(np.abs(xx - 320) <= 14) & (np.abs(yy - 232) <= 4)]))
        eyes = [skin - float(np.median(lum[((xx - ex) / 4.0) ** 2 + ((yy - ey) / 1.2) ** 2
                                           <= 1])) for ex, ey in EYES]
        mx, my = MOUTH
        line = float(np.median(lum[(np.abs(xx - mx) <= 3) & (np.abs(yy - my) <= 0.5)]))
        corners = [line - float(lum[round(my) - 1:round(my) + 2,
                                    round(cx) - 1:round(cx) + 2].min())
                   for cx in (mx - 8.0, mx + 8.0)]
        got[name] = (min(eyes), max(corners))
    (photo_eye, _), (eye, corner) = got["photo"], got["painting"]
    assert eye >= 0.95 * photo_eye, got
    assert corner <= 8.0, got
