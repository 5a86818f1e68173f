"""A face's shadow glaze as a portrait painter lays it (trial F3, finding 5): one dried
border, where it faces the light; soft elsewhere (glaze.glsl glaze_width)."""
# ruff: noqa: F811 - pytest fixtures imported from another test module

from __future__ import annotations

import cv2
import numpy as np
from test_glaze import lab_image, unit_pipeline  # noqa: F401 - fixture

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject

H = W = 320
BOX = (32.0, 32.0, 288.0, 288.0)  # a face filling the frame (no mesh: an ellipse in its box)


def face_tones(p, img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The quantized tones (Lab, half size) of `img` painted as a face, and its bare skin."""
    p.subject_feed = "given"
    p.set_subject(Subject((Face(BOX, np.zeros((6, 2)), 0.9),), None))
    p.render_array(img)
    q = p.read_target("quantized")[..., :3].astype(np.float64)
    focus = cv2.resize(p.read_target("focus_t"), (q.shape[1], q.shape[0]))
    return q, (focus[..., 2] > 0.95) & (focus[..., 1] < 0.05)


def test_a_faces_glaze_is_hard_only_where_it_faces_the_light(unit_pipeline):
    """The same slow ramp of the face's shade (L* 20..80) laid lighter upwards (towards the
    light, from above: under the jaw, the socket under the brow) and lighter sideways (the
    light straight above): the glaze's border steps 4+ L* within two texels in the first,
    less than 3.5 in the second (medians of ten lines; the border's tremor turns it a little
    towards the light here and there). Measured 5.1 and 2.5; before 5.1 and 4.9."""
    ramp = np.linspace(80.0, 20.0, H, dtype=np.float32)
    jumps = {}
    for way in ("up", "side"):
        lab = np.zeros((H, W, 3), np.float32)
        lab[..., 0] = ramp[:, None] if way == "up" else ramp[None, :]
        lab[..., 1], lab[..., 2] = 10.0, 14.0
        q, skin = face_tones(unit_pipeline({"quantize_levels": 6, "glaze": 1.0}),
                             lab_image(lab))
        L = q[..., 0] if way == "up" else q[..., 0].T
        ok = skin if way == "up" else skin.T
        steps = []
        for c in range(60, 100, 4):  # lines across the ramp, inside the face
            rows = np.flatnonzero(ok[:, c])
            line = L[rows.min() + 2:rows.max() - 2, c]
            steps.append(float(np.max(line[:-2] - line[2:])))  # lighter before: over two
        jumps[way] = float(np.median(steps))
    assert jumps["up"] > 4.0, jumps
    assert jumps["side"] < 3.5, jumps
