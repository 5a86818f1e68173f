"""Faces in a picture: boxes with six keypoints (MediaPipe's short-range BlazeFace) and, per
face, the 468-point face mesh (eyes, brows, nose, lips, the oval), on the CPU at the models'
small sizes. Greyscale pictures work (the models see RGB; grey is three equal channels).

The detector sees the picture letterboxed to 128 px and finds faces of about a tenth of its
long side; wide frames are also looked at in overlapping squares of the short side, all cut
from one downscale (a 640x360 webcam frame: three of 360 px), which finds faces down to
about 45 px and several faces side by side. A thorough search (a still, the first frame after
a reset) also looks at squares of half the short side and smaller, which finds the small faces
of a group photo.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from .face_models import DETECTOR, LANDMARKS, blob, load_model, sigmoid

DETECT_SIZE = 128
MESH_SIZE = 192
MESH_MARGIN = 1.5  # the mesh's crop: this many times the face box's long side
NMS_IOU = 0.3
# A thorough search's finer squares: halving the short side while a square is at least
# THOROUGH_MIN px and an eighth of the long side (a 3000 px group photo: faces from ~55 px).
THOROUGH_MIN = 200
# ... searched where only faces under this share of the short side were found (a group), or
# none (a group photo of 1600 px, a wide shot: their 30-45 px faces are too small for the
# first boards; a picture without faces costs 15 boards at 1280x720, 40 at most);
# at most MAX_FINER boards (a level that would pass it is left out)
GROUP_FACE = 1 / 4
MAX_FINER = 40
# A small group photo's faces (a 500x334 party's 45-55 px, a 1000x644 team's 25-45 px) are
# 15-20 px on those squares' boards, at the model's floor: 5 of the party's 7 and 9 of the
# team's 26 were found, the others painted as faces' blank ovals of skin. Where the finer
# squares are searched, the next finer level under THOROUGH_MIN is too, down to the board's
# own size (never enlarged), within MAX_FINER boards; what it finds counts where the other
# boards found no face that its mesh confirmed (a face they found keeps its box: a portrait
# is painted as before; a stray box of theirs hides no face)
# Faces the frame's edge cuts (a close face, a selfie's taker, a webcam user leaning in) are
# all but invisible to boards that end at the edge (40% of a face's width past it: missed).
# A thorough search also looks at edge boards that reach past it, the picture there filled
# with its border's mean colour: squares of the short side reaching a quarter of their side
# past the edges, and where the finer squares are searched (a group, or no face yet) of half
# of it. What they find counts only at the edge and where the other boards found no face.
# (A video's periodic search has none: one padded whole board found no more cut faces.)
EDGE_REACH = 1 / 4
EDGE_SIDES = (1.0, 0.5)  # the edge squares' sides, in shares of the short side
EDGE_NEAR = 0.1  # an edge board's find counts where its box reaches this near the edge
# Points of the face mesh worth naming (MediaPipe's numbering; "right" is the subject's)
MESH_RIGHT_EYE = (33, 133, 159, 145)  # outer and inner corner, upper and lower lid
MESH_LEFT_EYE = (263, 362, 386, 374)
MESH_MOUTH = (61, 291, 13, 14)  # corners, inner upper and lower lip
MESH_NOSE_TIP = 1
MESH_EARS = (234, 454)  # the oval at the subject's right and left ear
# The face oval of the mesh (MediaPipe's silhouette, in order round the face)
MESH_OVAL = (10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378,
             400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54,
             103, 67, 109)
MIN_PRESENCE = 0.5  # below: the mesh model says the crop holds no face
# A weak detection (a cat's face scores 0.51-0.59; people's 0.57-0.97, grey and noisy ones
# included) counts only where the mesh model is all but sure: a cat's got 0.79-0.97 there
WEAK_SCORE, WEAK_PRESENCE = 0.6, 0.99
# A sure detection (people's faces, where the mesh model misses them; a cat's face, a
# galaxy, a logo, a micrograph score under it: 0.51-0.75) the mesh model does not confirm
# from its crop gets a second look: its presence swings from 0.01 to 0.9 with a few px of
# the crop's place where the detector's box, the inner face, lies off the head (a profile
# with a hand on the cheek, a blurred face looking down). The mesh from a wider crop (these
# margins, in turn) is followed once as a video's tracker follows it, on a crop round its
# own extent; the face is confirmed where that one's presence passes MIN_PRESENCE (3 ms a
# look) and its mesh is the detector's face: its extent SECOND_SIZE times the box's side,
# its centre within SECOND_OFF of it (the faces the first look confirms, 121 in 57 photos:
# 0.84-1.34 and 0.17 at most), not a part of it (the model fits a mesh, as sure, to a
# face's nose and mouth from too tight a crop: half the face) nor a neighbour's
SURE_SCORE = 0.75
SECOND_LOOK = (1.75, 2.0)
SECOND_SIZE, SECOND_OFF = (0.8, 1.5), 0.25
# Faces smaller than this (px) are too small for the mesh model's word: the detector's is
# taken where it is this sure (a cat's face, 0.53-0.61, is not; a 24 px face of a man, 0.73)
SMALL_FACE, SMALL_FACE_SCORE = 40.0, 0.7


@dataclass(frozen=True)
class Face:
    """One face, in the picture's pixels: box (x0, y0, x1, y1), keypoints (6, 2) in the
    detector's order (right eye, left eye, nose tip, mouth, right ear, left ear; "right" is
    the subject's, the image's left), score in [0, 1]; mesh (468, 3) with z on x's scale and
    the mesh model's presence, when landmarks were asked for."""

    box: tuple[float, float, float, float]
    keypoints: np.ndarray
    score: float
    mesh: np.ndarray | None = None
    presence: float = 0.0

    @property
    def size(self) -> float:
        """The box's long side (px)."""
        return max(self.box[2] - self.box[0], self.box[3] - self.box[1])


@cache
def anchors() -> np.ndarray:
    """The detector's 896 anchor centres, in [0, 1] of its input: a 16x16 grid with 2 anchors
    a cell (stride 8), then an 8x8 grid with 6 (its three stride-16 layers, 2 each)."""
    rows = []
    for cells, per_cell in ((16, 2), (8, 6)):
        c = (np.arange(cells, dtype=np.float32) + 0.5) / cells
        y, x = np.meshgrid(c, c, indexing="ij")
        grid = np.stack([x.ravel(), y.ravel()], axis=1)
        rows.append(np.repeat(grid, per_cell, axis=0))
    return np.concatenate(rows)


class FaceDetector:
    """Finds faces (and their meshes) in RGB uint8 pictures; one per thread (a cv2 Net is
    not thread-safe)."""

    def __init__(self, *, min_score: float = 0.5, landmarks: bool = True) -> None:
        self.min_score = min_score
        self.detector = load_model(DETECTOR)
        self.mesh = load_model(LANDMARKS) if landmarks else None

    def detect(self, rgb: np.ndarray, *, thorough: bool = False) -> list[Face]:
        """The faces in an (H, W, 3) uint8 RGB picture, best first: with their mesh where
        its model confirms them, small sure ones without. `thorough`: where a group is
        likely (only small faces found) or the picture is big, small faces too (finer
        squares: tens of ms more)."""
        found = self._search(*_boards(rgb))
        finer = thorough and _finer_wanted(found, rgb.shape[1], rgb.shape[0])
        if finer:
            found += self._search(*_finer_boards(rgb))
        merged = _merge(found)
        if thorough:  # faces the frame's edge cuts, where the other boards found none
            short = min(rgb.shape[:2])
            reach = [(f * short, EDGE_REACH * f * short) for f in EDGE_SIDES[:2 if finer else 1]]
            merged += [f for f in _unseen(self._search(*_edge_boards(rgb, reach)), merged)
                       if _cut(f[0], rgb.shape[1], rgb.shape[0])]
            merged.sort(key=lambda f: -f[2])
        faces = self._confirmed(rgb, merged)
        if finer:  # a small group's faces, too small for the finer squares
            seen = [(np.array(f.box), f.keypoints, f.score) for f in faces]
            faces += self._confirmed(rgb, _unseen(
                self._search(*_finer_boards(rgb, DETECT_SIZE, THOROUGH_MIN)), seen))
            faces.sort(key=lambda f: -f.score)
        return faces

    def _confirmed(self, rgb: np.ndarray, found: list[tuple[np.ndarray, np.ndarray, float]]
                   ) -> list[Face]:
        """The detections that are faces: with their mesh where its model confirms them,
        small sure ones without (all of them where no mesh is asked for)."""
        faces = [Face(tuple(map(float, b)), kp, s) for b, kp, s in found]
        if self.mesh is None:
            return faces
        out = []
        for face in faces:
            meshed = self._with_mesh(rgb, face)
            needed = WEAK_PRESENCE if face.score < WEAK_SCORE else MIN_PRESENCE
            if meshed.presence >= needed:
                out.append(meshed)
            elif face.score >= SURE_SCORE and (seen := self._second_look(rgb, face)):
                out.append(seen)
            elif face.size < SMALL_FACE and face.score >= SMALL_FACE_SCORE:
                out.append(face)  # keypoints only
        return out

    def _second_look(self, rgb: np.ndarray, face: Face) -> Face | None:
        """A sure detection's mesh from wider crops, each followed once from its own
        extent (SECOND_LOOK), the first that passes MIN_PRESENCE and lies on the detector's
        face; None where none does."""
        centre = np.array(face.box).reshape(2, 2).mean(axis=0)
        for margin in SECOND_LOOK:
            wide = self._with_mesh(rgb, face, margin)
            again = self._with_mesh(rgb, face_from_mesh(wide.mesh, face.score))
            assert again.mesh is not None
            extent = face_from_mesh(again.mesh, face.score)
            off = np.array(extent.box).reshape(2, 2).mean(axis=0) - centre
            if (again.presence >= MIN_PRESENCE
                    and SECOND_SIZE[0] <= extent.size / face.size <= SECOND_SIZE[1]
                    and math.hypot(*off) <= SECOND_OFF * face.size):
                return Face(face.box, face.keypoints, face.score, again.mesh, again.presence)
        return None

    def _search(self, boards: list[np.ndarray], places: list[tuple[float, float, float]]
                ) -> list[tuple[np.ndarray, np.ndarray, float]]:
        """The detections on each board, in the picture's pixels."""
        found: list[tuple[np.ndarray, np.ndarray, float]] = []
        # one board a forward: the converted model's reshapes assume a batch of one
        for board, place in zip(boards, places, strict=True):
            self.detector.setInput(blob(board, -1.0, 1.0))
            reg, cls = self.detector.forward(["regressors", "classificators"])
            found += self._read(reg.reshape(-1, 16), cls.reshape(-1), place)
        return found

    def _read(self, reg: np.ndarray, cls: np.ndarray, place: tuple[float, float, float]
              ) -> list[tuple[np.ndarray, np.ndarray, float]]:
        """One board's detections above min_score in the picture's pixels; `place` maps the
        board's pixels to the picture's: picture = board * scale + (x0, y0)."""
        scale, x0, y0 = place
        scores = sigmoid(cls)
        keep = np.nonzero(scores >= self.min_score)[0]
        a = anchors()
        offset = np.array([x0, y0])
        out = []
        for i in keep:
            r = reg[i] / DETECT_SIZE
            cx, cy = r[0] + a[i, 0], r[1] + a[i, 1]
            box = np.array([cx - r[2] / 2, cy - r[3] / 2, cx + r[2] / 2, cy + r[3] / 2])
            kp = r[4:].reshape(6, 2) + a[i]
            box = (box.reshape(2, 2) * DETECT_SIZE * scale + offset).ravel()
            kp = kp * DETECT_SIZE * scale + offset
            out.append((box, kp, float(scores[i])))
        return out

    def follow(self, rgb: np.ndarray, face: Face) -> Face | None:
        """The face of a previous frame found again in `rgb` from its mesh alone (no
        detection: a few ms less), or None when the mesh model no longer sees a face."""
        if self.mesh is None or face.mesh is None:
            return None
        found = self._with_mesh(rgb, face_from_mesh(face.mesh, face.score))
        return found if found.presence >= MIN_PRESENCE else None

    def _with_mesh(self, rgb: np.ndarray, face: Face, margin: float = MESH_MARGIN) -> Face:
        assert self.mesh is not None
        m = mesh_transform(face, margin)
        crop = cv2.warpAffine(rgb, m, (MESH_SIZE, MESH_SIZE), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT)
        self.mesh.setInput(blob(crop, 0.0, 1.0))
        pts, flag = self.mesh.forward(["conv2d_21", "conv2d_31"])
        pts = pts.reshape(-1, 3).astype(np.float64)
        back = cv2.invertAffineTransform(m)
        xy = pts[:, :2] @ back[:, :2].T + back[:, 2]
        z = pts[:, 2] * math.hypot(back[0, 0], back[0, 1])
        return Face(face.box, face.keypoints, face.score, np.column_stack([xy, z]),
                    float(sigmoid(flag.ravel()[0])))


def face_from_mesh(mesh: np.ndarray, score: float) -> Face:
    """A face box and keypoints made from a mesh (its extent; the detector's keypoints from
    the mesh's eyes, nose tip, mouth and ears), to crop the next frame's mesh from."""
    xy = mesh[:, :2]
    (x0, y0), (x1, y1) = xy.min(axis=0), xy.max(axis=0)
    keypoints = np.array([xy[list(MESH_RIGHT_EYE)].mean(axis=0),
                          xy[list(MESH_LEFT_EYE)].mean(axis=0), xy[MESH_NOSE_TIP],
                          xy[list(MESH_MOUTH[2:])].mean(axis=0), xy[MESH_EARS[0]],
                          xy[MESH_EARS[1]]])
    return Face((float(x0), float(y0), float(x1), float(y1)), keypoints, score, mesh)


def mesh_transform(face: Face, margin: float = MESH_MARGIN) -> np.ndarray:
    """The 2x3 affine from the picture to the mesh model's crop: centred on the box, the eyes
    level, `margin` times the box's long side across."""
    x0, y0, x1, y1 = face.box
    (ex0, ey0), (ex1, ey1) = face.keypoints[0], face.keypoints[1]
    angle = math.atan2(ey1 - ey0, ex1 - ex0)
    k = MESH_SIZE / (face.size * margin)
    c, s = math.cos(angle) * k, math.sin(angle) * k
    a = np.array([[c, s], [-s, c]])
    t = np.array([MESH_SIZE / 2, MESH_SIZE / 2]) - a @ np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    return np.hstack([a, t[:, None]]).astype(np.float32)


def _boards(rgb: np.ndarray) -> tuple[list[np.ndarray], list[tuple[float, float, float]]]:
    """The detector's 128 px inputs for a picture, with where each lies in it (scale, x0, y0):
    the whole picture letterboxed, and for a wide (or tall) one the squares of its short side
    that cover it with at least a quarter's overlap, all cut from one downscale."""
    h, w = rgb.shape[:2]
    short, long_ = min(w, h), max(w, h)
    boards, places = [], []
    if long_ >= 1.2 * short:
        k = DETECT_SIZE / short
        small = cv2.resize(rgb, (max(DETECT_SIZE, round(w * k)), max(DETECT_SIZE, round(h * k))),
                           interpolation=cv2.INTER_AREA)
        scale = short / DETECT_SIZE
        room = max(small.shape[:2]) - DETECT_SIZE
        n = math.ceil((long_ - short) / (0.75 * short)) + 1
        for i in range(n):
            at = round(i * room / (n - 1))
            cut = small[:, at:at + DETECT_SIZE] if w >= h else small[at:at + DETECT_SIZE]
            boards.append(cut)
            places.append((scale, at * scale, 0.0) if w >= h else (scale, 0.0, at * scale))
        whole = small
    else:
        whole = rgb
    # the whole picture, letterboxed
    nw = max(1, round(w * DETECT_SIZE / long_))
    nh = max(1, round(h * DETECT_SIZE / long_))
    board = np.zeros((DETECT_SIZE, DETECT_SIZE, 3), np.uint8)
    px, py = (DETECT_SIZE - nw) // 2, (DETECT_SIZE - nh) // 2
    board[py:py + nh, px:px + nw] = cv2.resize(whole, (nw, nh), interpolation=cv2.INTER_AREA)
    scale = long_ / DETECT_SIZE
    return [board, *boards], [(scale, -px * scale, -py * scale), *places]


def _finer_wanted(found: list[tuple[np.ndarray, np.ndarray, float]], w: int, h: int) -> bool:
    """Whether a thorough search looks at the finer squares, given the first search's finds."""
    sizes = [f[0][2] - f[0][0] for f in _merge(found)]
    if not sizes:
        return True
    return max(sizes) < GROUP_FACE * min(w, h)


def _finer_boards(rgb: np.ndarray, finest: float = THOROUGH_MIN, under: float = math.inf
                  ) -> tuple[list[np.ndarray], list[tuple[float, float, float]]]:
    """A thorough search's extra boards: squares of half, a quarter ... of the short side
    (at least `finest` px and an eighth of the long side, and under `under` px), overlapping
    by a quarter, the finest levels first while they fit in MAX_FINER boards (a board finds
    faces over a fivefold range of sizes, so a level left out between two others leaves no
    gap), each level cut from one downscale."""
    h, w = rgb.shape[:2]
    levels = []
    side = min(w, h) / 2
    while side >= max(finest, max(w, h) / 8):
        nx = math.ceil((w - side) / (0.75 * side)) + 1
        ny = math.ceil((h - side) / (0.75 * side)) + 1
        if side < under:
            levels.append((side, nx, ny))
        side /= 2
    boards, places = [], []
    for side, nx, ny in reversed(levels):
        if len(boards) + nx * ny > MAX_FINER:
            continue
        k = DETECT_SIZE / side
        small = cv2.resize(rgb, (max(DETECT_SIZE, round(w * k)), max(DETECT_SIZE, round(h * k))),
                           interpolation=cv2.INTER_AREA)
        scale = side / DETECT_SIZE
        sh, sw = small.shape[:2]
        for y in _spread(sh - DETECT_SIZE, ny):
            for x in _spread(sw - DETECT_SIZE, nx):
                boards.append(small[y:y + DETECT_SIZE, x:x + DETECT_SIZE])
                places.append((scale, x * scale, y * scale))
    return boards, places


def _edge_boards(rgb: np.ndarray, reach: list[tuple[float, float]]
                 ) -> tuple[list[np.ndarray], list[tuple[float, float, float]]]:
    """Boards that reach past the picture's edges, for each (side, pad): squares of `side` px
    over the picture with `pad` px of its border's mean colour round it, overlapping by a
    quarter, those wholly inside the picture left out (the other boards look there); each
    level cut from one downscale."""
    h, w = rgb.shape[:2]
    fill = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]]).mean(axis=0)
    boards, places = [], []
    for side, pad in reach:
        k = DETECT_SIZE / side
        small = cv2.resize(rgb, (max(1, round(w * k)), max(1, round(h * k))),
                           interpolation=cv2.INTER_AREA)
        sh, sw = small.shape[:2]
        p = round(pad * k)
        px, py = max(p, (DETECT_SIZE - sw + 1) // 2), max(p, (DETECT_SIZE - sh + 1) // 2)
        small = cv2.copyMakeBorder(small, py, py, px, px, cv2.BORDER_CONSTANT,
                                   value=[float(v) for v in fill])
        scale = side / DETECT_SIZE
        room_y, room_x = small.shape[0] - DETECT_SIZE, small.shape[1] - DETECT_SIZE
        ny = math.ceil(room_y / (0.75 * DETECT_SIZE)) + 1
        nx = math.ceil(room_x / (0.75 * DETECT_SIZE)) + 1
        for y in _spread(room_y, ny):
            for x in _spread(room_x, nx):
                if px <= x <= px + sw - DETECT_SIZE and py <= y <= py + sh - DETECT_SIZE:
                    continue  # wholly inside the picture
                boards.append(small[y:y + DETECT_SIZE, x:x + DETECT_SIZE])
                places.append((scale, (x - px) * scale, (y - py) * scale))
    return boards, places


def _cut(box: np.ndarray, w: int, h: int) -> bool:
    """Whether a face box reaches the picture's edge (within EDGE_NEAR of its size): an edge
    board's find inside the picture is the other boards' to find (a record on a wall, seen
    small on an edge board, is not a face)."""
    near = EDGE_NEAR * max(box[2] - box[0], box[3] - box[1])
    return bool(box[0] < near or box[1] < near or box[2] > w - near or box[3] > h - near)


def _spread(room: int, n: int) -> list[int]:
    """`n` offsets spread evenly over 0..room (one at 0 if n is 1)."""
    return [0] if n <= 1 or room <= 0 else [round(i * room / (n - 1)) for i in range(n)]


def box_iou(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Intersection over union of one box (x0, y0, x1, y1) with each of `boxes`."""
    lo = np.maximum(box[:2], boxes[:, :2])
    hi = np.minimum(box[2:], boxes[:, 2:])
    inter = np.prod(np.clip(hi - lo, 0, None), axis=1)
    area = np.prod(box[2:] - box[:2])
    areas = np.prod(boxes[:, 2:] - boxes[:, :2], axis=1)
    return inter / np.maximum(area + areas - inter, 1e-9)


def _unseen(found: list[tuple[np.ndarray, np.ndarray, float]],
            seen: list[tuple[np.ndarray, np.ndarray, float]]
            ) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """`found` merged, less the faces that overlap one `seen` (IoU > NMS_IOU)."""
    boxes = np.array([b for b, _, _ in seen]).reshape(-1, 4)
    return [f for f in _merge(found)
            if not len(boxes) or box_iou(f[0], boxes).max() <= NMS_IOU]


def _merge(found: list[tuple[np.ndarray, np.ndarray, float]]
           ) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Weighted non-maximum suppression: overlapping detections (IoU > NMS_IOU, from the
    anchors and from overlapping views) averaged by score into one, best first."""
    if not found:
        return []
    boxes = np.array([f[0] for f in found])
    kps = np.array([f[1] for f in found])
    scores = np.array([f[2] for f in found])
    order = np.argsort(-scores)
    boxes, kps, scores = boxes[order], kps[order], scores[order]
    left = np.arange(len(scores))
    out = []
    while len(left):
        overlap = box_iou(boxes[left[0]], boxes[left])
        group = left[overlap > NMS_IOU]
        w = scores[group] / scores[group].sum()
        out.append(((boxes[group] * w[:, None]).sum(0), (kps[group] * w[:, None, None]).sum(0),
                    float(scores[group[0]])))
        left = left[overlap <= NMS_IOU]
    return out
