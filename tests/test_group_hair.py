"""A group's hair (trial F10, finding 5): every found face's head is laid as hair round a face
(figure_rest.glsl head_round: its hairline and light hair in graded washes along the flow),
not only the four largest faces'. In a group of eight children the fifth face's afro was the
figure's clothes: the wash's six crisp tones with hard dried borders, concentric translucent
rings stacked round its dark core."""

from __future__ import annotations

import numpy as np
from test_hair_washes import combed_head, hard_share, lightness
from test_strands import given

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject


def a_row_of_faces(w: int, h: int, n: int) -> Subject:
    """n faces: the smallest (a fifth of the height) low in the middle, the grey hair of
    `combed_head` above it, and n - 1 larger ones down both sides, well away from its head."""
    s = 0.4 * h
    faces = [Face((w / 2 - s / 2, 0.55 * h, w / 2 + s / 2, 0.55 * h + s), np.zeros((6, 2)), 0.9)]
    side = 0.16 * w  # each larger face's side: its head reaches 2.2 half sides from it
    for i in range(n - 1):
        x = 0.0 if i % 2 == 0 else w - side
        y = (i // 2) * (side + 4.0)
        faces.append(Face((x, y, x + side, y + side), np.zeros((6, 2)), 0.9))
    return Subject(tuple(faces), np.ones((144, 256), np.float32))


def test_the_hair_of_a_groups_fifth_face_is_laid_in_graded_washes(pipeline):
    h, w = 360, 1000
    n = 5
    img = combed_head(h, w, centre=0.33)  # the ramp over rows 0.23-0.43 of the height
    subject = a_row_of_faces(w, h, n)
    assert min(subject.faces, key=lambda f: f.size) is subject.faces[0]  # the fifth largest
    p = given(pipeline(), subject)
    lum, src = lightness(p.render_array(img)), lightness(img)
    rows = slice(int(0.15 * h), int(0.5 * h))  # the hair above the face, to its forehead
    cols = slice(w // 2 - 55, w // 2 + 55)
    laid, photo = hard_share(lum[rows, cols]), hard_share(src[rows, cols])
    # old (the four largest faces' heads only): its hair laid as clothes, crisp terraces
    # with hard borders, 0.30 of the ramp's change in a tenth of its steps, more than the
    # photo's strands (0.28); now as a single face's (test_hair_washes): graded, 0.24
    assert laid < 0.95 * photo, (laid, photo)
    top, bottom = lum[int(0.17 * h):int(0.24 * h), cols], lum[int(0.33 * h):int(0.42 * h), cols]
    assert bottom.mean() - top.mean() > 15.0, (top.mean(), bottom.mean())
