"""A person's skin beyond the face, told by the face's own colour (trial F8, finding 8):
since G28 a hand, an arm, the forehead were laid as the face's skin wherever the figure had
a skin tone (skin.glsl's bands): light-brown hair, within them, was laid as skin too (its long
shapes along the strands lost); a grey photo's forehead, outside them, as the figure's hair
and clothes (a pale ledge under the hairline). The skin is now the colour the face has at its
cheeks (engine/face_skin.py, tones.glsl own_skin): as light or lighter, or darker by a
shadow's at most, of its chromaticity; a grey face's within the band round the head only."""

from __future__ import annotations

import dataclasses

import numpy as np
import reference as ref
from test_hair_washes import lightness
from test_hairline import HAIRLINE, TEXTURES_OFF, a_meshed_face, forehead
from test_strands import a_face, anisotropy, given, strand_texture

from aquarelle.engine.face_light import MESH_CHEEKS
from aquarelle.engine.face_skin import face_skin

FACE = (69.0, 11.0, 15.0)  # CIELAB: a light face's cheeks (trial F8's f16)
LIGHT_BROWN = (0.52, 0.43, 0.36)  # sRGB: hair about L* 48 a* 6 b* 13, within skin_tone's bands


def test_hair_near_the_faces_colour_is_laid_along_its_strands(pipeline):
    img = strand_texture(360, 360, base=LIGHT_BROWN)
    subject = dataclasses.replace(a_face(360, 360), skin=FACE)
    tones = {}
    for k in (0.0, 1.0):
        p = given(pipeline({"hair_flow": k}), subject)
        p.render_array(img)
        q = p.read_target("quantized")[..., 0]
        tones[k] = q[q.shape[0] // 2:]  # below the face: hair only
    # hair a shadow's depth darker than the face is no skin: laid along its strands (as
    # test_strands' warm brown hair: more than 1.4 times as anisotropic); old, laid as the
    # face's skin, the same with its flow or without
    ratio = anisotropy(tones[1.0]) / anisotropy(tones[0.0])
    assert ratio > 1.4, ratio


def test_a_grey_portraits_forehead_is_graded_into_its_hairline(pipeline):
    img = forehead(ab=(0.0, 0.0))  # a grey photo: no skin tone anywhere
    subject = a_meshed_face()
    (face,) = subject.faces
    subject = dataclasses.replace(subject, skin=face_skin(img, face))
    p = given(pipeline(TEXTURES_OFF), subject)
    lum, src = lightness(p.render_array(img)), lightness(img)
    cols = slice(170, 310)
    rows = slice(HAIRLINE + 16, 256)  # the forehead beyond the face's oval (test_hairline)
    dev = lum[rows, cols].mean(axis=1) - src[rows, cols].mean(axis=1)
    # graded with the photo as a coloured forehead is (test_hairline): old, laid as the
    # figure's hair and clothes
    assert np.abs(dev).mean() < 2.5 and np.abs(dev).max() < 3.5, dev.round(1)
    band = lum[rows, cols]
    steps = max(np.abs(band[2:] - band[:-2]).max(), np.abs(band[:, 2:] - band[:, :-2]).max())
    assert steps < 3.0, steps


def test_the_faces_skin_is_measured_at_its_cheeks():
    lab = np.zeros((200, 200, 3), np.float32)
    lab[..., 0], lab[..., 1], lab[..., 2] = 30.0, 5.0, 8.0  # hair
    lab[90:150, 40:160] = (64.0, 18.0, 20.0)  # the cheeks
    img = (np.clip(ref.lab_to_srgb(lab), 0.0, 1.0) * 255.0).round().astype(np.uint8)
    (face,) = a_meshed_face().faces
    mesh = face.mesh.copy()
    mesh[:, :2] = 100.0, 40.0  # all points on the hair ...
    for i, k in enumerate(MESH_CHEEKS):  # ... but the cheeks'
        mesh[k, :2] = 50.0 + 10.0 * i, 100.0 + 4.0 * i
    L, a, b = face_skin(img, dataclasses.replace(face, mesh=mesh))
    assert abs(L - 64.0) < 1.0 and abs(a - 18.0) < 1.0 and abs(b - 20.0) < 1.0, (L, a, b)
    assert face_skin(img, dataclasses.replace(face, mesh=None)) is None
