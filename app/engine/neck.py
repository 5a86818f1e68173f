"""A face's neck: the skin below its jaw that continues the face's own complexion, which the
painting lays as the face's skin (engine/subject_map.py's face channel). Past the face's
oval it was laid as clothes (trial F8, finding 3): a few crisp tones with hard dried borders
and pooled rims, a seam at the jaw between a soft face and a terraced, bruised neck.

Found on the CPU, per face with a mesh, in a lobe below its jaw (down the picture from
between its ears, so a tilted head's neck is found too): the person's (the person mask),
like the face's skin in colour (its hue and chroma measured on its cheeks and forehead;
darker in the chin's shadow, never much lighter), as smooth as its cheeks (strands of hair
in the skin's hue hanging beside the neck are not: their texture), and joined to the face's
oval through such skin (skin elsewhere on the figure, a hand on the chest, is not). The
earlier try, a colour test over the whole figure, took beige clothes, gold trim and blond
hair (fixer G22)."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from .faces import MESH_EARS, MESH_OVAL, Face

# Face mesh points (MediaPipe's numbering): the chin, the jaw's angles, and skin on the
# cheeks and the forehead (the complexion; face_light's cheeks and four on the forehead)
MESH_CHIN = 152
MESH_JAW = (172, 397)
MESH_SKIN = (50, 101, 118, 205, 187, 280, 330, 347, 425, 411, 151, 108, 337, 9)
MESH_CHEEKS = MESH_SKIN[:10]  # the skin's own texture (a stubbled neck's is a stubbled cheek's)
PATCH = 2  # px either side of a skin point: its patch
# The lobe the neck is looked for in (face sizes): down the picture (a body stands upright
# however the head tilts or turns) from the jaw (its lower angle, or the chin where higher)
# well into the chest, where it fades out; across, either side of the line down from the
# head's centre (between its ears: a tilted head's neck is not under its chin), a neck's
# half width, fading out towards the shoulders.
LOBE_UP = (0.1, 0.0)
LOBE_DOWN = (0.8, 1.1)
LOBE_ACROSS = (0.3, 0.42)
WORK_FACE = 256.0  # the face's size in work px at most (the lobe is resampled to it)
# Like the face's skin: the hue within HUE degrees of the complexion's; the chroma within
# CHROMA of its (ratios: a shadow greys it, a flush warms it); the lightness from DARKER of
# the complexion's (the shadow under the chin: a child's L* 18-28 under a face of 68) to
# LIGHTER L* above it. A grey complexion (a black-and-white photo: chroma under GREY) asks the
# same grey of the neck, and no darker than DARKER_GREY: without a hue, a dark coat is told
# from the neck's shadow by its lightness alone.
HUE = (20.0, 35.0)
CHROMA = ((0.35, 0.6), (1.8, 2.5))
DARKER = (0.2, 0.3)
DARKER_GREY = (0.4, 0.55)
LIGHTER = (8.0, 16.0)
GREY = 6.0
# As smooth as skin: the lightness's fine texture (its deviation from a blur of TEXTURE_R
# work px, each px's capped at TEXTURE_CAP L*: a single edge, the jaw's contour or a collar's,
# is no texture, and the chin's shadow is a band between two) at most SMOOTH times the
# cheeks' (or the floor's, for a retouched face smoother than any neck): hair's strands and
# a knit's or fur's loops are many small edges
TEXTURE_R = 1.2
TEXTURE_CAP = 2.0
SMOOTH = (2.0, 3.0)
TEXTURE_FLOOR = 0.4  # L*
PERSON = (0.3, 0.6)  # the person probability: not the figure .. the figure
SKIN = 0.5  # a texel this much like skin joins the neck to the face
JOIN = 0.04  # of the face's size: skin this near its oval is joined to it
BRIDGE = 0.02  # of the face's size: a line this thin does not part the skin
FADE = 0.06  # of the face's size: the neck's border softened (the face's fades over 0.12)


def neck_skin(rgb: np.ndarray, faces: Sequence[Face], person: np.ndarray) -> np.ndarray:
    """The necks of `faces` in the picture `rgb` (uint8 RGB), 0..1, on the grid of the
    person probability `person` (h, w) over the whole picture."""
    out = np.zeros(person.shape, np.float32)
    for face in faces:
        if face.mesh is not None:
            _one_neck(rgb, face, person, out)
    return out


def _smooth(edges: tuple[float, float], x: np.ndarray) -> np.ndarray:
    t = np.clip((x - edges[0]) / (edges[1] - edges[0]), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def _lab(rgb: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(rgb.astype(np.float32) / 255.0, cv2.COLOR_RGB2LAB)


def _complexion(rgb: np.ndarray, mesh: np.ndarray) -> np.ndarray:
    """The face's skin colour (CIELab): the median over patches at its skin points."""
    h, w = rgb.shape[:2]
    patches = []
    for x, y in mesh[list(MESH_SKIN), :2]:
        xi = int(np.clip(round(float(x)), PATCH, w - 1 - PATCH))
        yi = int(np.clip(round(float(y)), PATCH, h - 1 - PATCH))
        patches.append(rgb[yi - PATCH:yi + PATCH + 1, xi - PATCH:xi + PATCH + 1].reshape(-1, 3))
    return np.median(_lab(np.concatenate(patches)[None]).reshape(-1, 3), axis=0)


def _likeness(lab: np.ndarray, skin: np.ndarray) -> np.ndarray:
    """How much each colour of `lab` (.., 3) is like the complexion `skin`, 0..1."""
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    skin_c = float(np.hypot(skin[1], skin[2]))
    grey = skin_c < GREY  # a grey photo: grey skin
    light = _smooth(DARKER_GREY if grey else DARKER, lab[..., 0] / max(float(skin[0]), 1.0)) \
        * (1.0 - _smooth((skin[0] + LIGHTER[0], skin[0] + LIGHTER[1]), lab[..., 0]))
    if grey:
        return light * (1.0 - _smooth((GREY, 2.0 * GREY), chroma))
    hue = np.degrees(np.arctan2(lab[..., 2], lab[..., 1]))
    off = np.abs((hue - np.degrees(np.arctan2(skin[2], skin[1])) + 180.0) % 360.0 - 180.0)
    ratio = chroma / skin_c
    return light * (1.0 - _smooth(HUE, off)) * _smooth(CHROMA[0], ratio) \
        * (1.0 - _smooth(CHROMA[1], ratio))


def _disc(radius: float) -> np.ndarray:
    r = max(1, round(radius))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))


def _texture(lum: np.ndarray) -> np.ndarray:
    """The lightness's local texture (L*): its deviation from a small blur, capped, averaged."""
    fine = np.minimum(np.abs(lum - cv2.GaussianBlur(lum, (0, 0), TEXTURE_R)), TEXTURE_CAP)
    return cv2.GaussianBlur(fine, (0, 0), 3.0 * TEXTURE_R)


def _one_neck(rgb: np.ndarray, face: Face, person: np.ndarray, out: np.ndarray) -> None:
    """Draw `face`'s neck into `out` (the person grid) where larger."""
    assert face.mesh is not None
    h, w = rgb.shape[:2]
    mesh = face.mesh[:, :2].astype(np.float64)
    size = face.size
    if size < 8.0:
        return
    top = min(float(mesh[MESH_CHIN, 1]), max(float(mesh[i, 1]) for i in MESH_JAW))
    centre = float(mesh[list(MESH_EARS), 0].mean())
    # the lobe's corners and the cheeks (the skin's texture) bound the work region
    corners = [(centre + a * LOBE_ACROSS[1] * size, top + d * size)
               for a in (-1.0, 1.0) for d in (-LOBE_UP[0], LOBE_DOWN[1])]
    pts = np.vstack([np.array(corners), mesh[list(MESH_CHEEKS)]])
    x0, y0 = np.floor(pts.min(axis=0)).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return
    step = max(1.0, size / WORK_FACE)  # picture px per work px
    ww, wh = max(4, round((x1 - x0) / step)), max(4, round((y1 - y0) / step))
    crop = cv2.resize(np.ascontiguousarray(rgb[y0:y1, x0:x1]), (ww, wh),
                      interpolation=cv2.INTER_AREA)
    lab = _lab(crop)
    sx, sy = (x1 - x0) / ww, (y1 - y0) / wh
    xs = x0 + (np.arange(ww) + 0.5) * sx
    ys = y0 + (np.arange(wh) + 0.5) * sy
    gx, gy = np.meshgrid(xs, ys)
    lobe = _smooth((-LOBE_UP[0], -LOBE_UP[1]), (gy - top) / size) \
        * (1.0 - _smooth(LOBE_DOWN, (gy - top) / size)) \
        * (1.0 - _smooth(LOBE_ACROSS, np.abs(gx - centre) / size))
    texture = _texture(lab[..., 0])
    cheeks = mesh[list(MESH_CHEEKS)]
    ci = np.clip(((cheeks[:, 0] - x0) / sx).astype(int), 0, ww - 1)
    cj = np.clip(((cheeks[:, 1] - y0) / sy).astype(int), 0, wh - 1)
    smooth = 1.0 - _smooth(SMOOTH, texture / max(float(np.median(texture[cj, ci])),
                                                 TEXTURE_FLOOR))
    ph, pw = person.shape
    figure = cv2.remap(person, (gx * (pw / w) - 0.5).astype(np.float32),
                       (gy * (ph / h) - 0.5).astype(np.float32), cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    skin = _likeness(lab, _complexion(rgb, mesh)) * smooth * _smooth(PERSON, figure) * lobe
    # joined to the face: the skin's pieces within JOIN of its oval
    oval = np.zeros((wh, ww), np.uint8)
    poly = (mesh[list(MESH_OVAL)] - (x0, y0)) / (sx, sy) - 0.5
    cv2.fillPoly(oval, [np.round(poly * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    oval = cv2.dilate(oval, _disc(JOIN * size / step))
    held = (skin > SKIN).astype(np.uint8)
    # (a thin line across the skin does not part it: the jaw's dark contour, a chain)
    _, labels = cv2.connectedComponents(cv2.morphologyEx(held, cv2.MORPH_CLOSE,
                                                         _disc(BRIDGE * size / step)),
                                        connectivity=8)
    touching = np.unique(labels[(oval > 0) & (held > 0)])
    joined = np.isin(labels, touching[touching > 0])
    neck = np.where(joined, skin, 0.0).astype(np.float32)
    sigma = FADE * size / step / 2.0
    neck = np.maximum(neck, np.clip(2.0 * cv2.GaussianBlur(neck, (0, 0), sigma), 0.0, 1.0)
                      * lobe)
    # onto the person grid: its texels' centres within the work region
    gi0, gi1 = int(x0 * pw / w), min(pw, int(np.ceil(x1 * pw / w)))
    gj0, gj1 = int(y0 * ph / h), min(ph, int(np.ceil(y1 * ph / h)))
    if gi1 <= gi0 or gj1 <= gj0:
        return
    mx = ((np.arange(gi0, gi1) + 0.5) * (w / pw) - x0) / sx - 0.5
    my = ((np.arange(gj0, gj1) + 0.5) * (h / ph) - y0) / sy - 0.5
    mgx, mgy = np.meshgrid(mx.astype(np.float32), my.astype(np.float32))
    part = cv2.remap(neck, mgx, mgy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    np.maximum(out[gj0:gj1, gi0:gi1], part, out=out[gj0:gj1, gi0:gi1])
