"""The subject as the painting sees it: a small map of the whole picture, made on the CPU
from the faces and the person mask (engine/subject.py) and uploaded for the GPU passes: .r
the face (inside the mesh's oval, fading out past it, and down its neck: engine/neck.py), .g
the features (eyes, brows, nostrils, mouth), .b the figure (person or head), .a how near the
figure (the figure blurred over about a tenth of the picture, 0..1), plus 1 where two people
near each other are joined (1..2: the ground between them, _joined below; only the
vignette reads it, figure.frag). A big still's tiles each get
their region of it, resampled."""

from __future__ import annotations

import cv2
import numpy as np

from .faces import MESH_LEFT_EYE, MESH_MOUTH, MESH_OVAL, MESH_RIGHT_EYE, Face
from .letterbox import Content
from .subject import Subject

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in the picture's pixels

MAP_STEP = 4  # picture px per map texel (the wash's grid); at most MAP_MAX_SIDE a side
MAP_MAX_SIDE = 512
# Face mesh points (MediaPipe's numbering) of the brows and the nostrils
MESH_RIGHT_BROW = (70, 63, 105, 66, 107)
MESH_LEFT_BROW = (300, 293, 334, 296, 336)
MESH_NOSTRILS = (98, 327)
FACE_FADE = 0.12  # of the face's size: how far the face fades out past its oval
# Without a mesh (a small face): an ellipse in the box, these half axes of its sides
BOX_AXES = (0.55, 0.65)
PERSON_SOFT = 1.2  # model px: the person mask's steps (a 256 px grid) smoothed out, or its
# outline, enlarged and thresholded by the vignette, is a staircase
# The person probability taken for the figure (0 below the first, 1 above the second): a
# person anywhere where the segmenter is sure ...
PERSON_SURE = (0.4, 0.6)
# ... and, where a person is to be expected (a face's head and the body below it, or a hole
# in the sure figure), already where it is unsure (around person_mask.REGION): it is unsure
# of a dark collar or a shoulder at the frame's border (0.3-0.9, changing from frame to
# frame), which then punched paper holes 20-50 px wide that came and went in video (trial
# F3, finding 8). Taken everywhere, this took in the pieces of background the segmenter
# gives 0.2-0.5 beside a person (a wall, a door frame, the sky above heads) as figure.
PERSON_LIKELY = (0.1, 0.3)
# In a hole of the sure figure (enclosed by it): a region the segmenter gives even a little
# is the figure's (painted whole, no paper hole in it), a gap it gives nothing stays paper
PERSON_HOLE = (0.05, 0.15)
# Where a person is expected round each face: the head with BODY_CROWN face sizes above it,
# widening to BUST[0] face sizes at the shoulders, then straight down to the frame's bottom,
# its outline softened over BODY_SOFT face sizes
BODY_CROWN = 0.6
BODY_SOFT = 0.1
GROUP = 3  # faces from which each gets a bust (shoulders and chest) in the figure
# A bust's width at the shoulders and its height (down to the feet of a seated front row,
# fading out over their last 0.4), in face sizes: at 5 a group's front row lost its legs and
# feet to the paper (trial F11, finding 3: 46% of the legs' strip), the person mask seeing
# no one in a crowd
BUST = (2.8, 7.0)
GROUP_CROWN = 0.6  # face sizes above a group's heads painted (not cut out round the hair)
GROUP_CLOSE = 1.5  # face sizes: gaps in a group's figure narrower than twice this are closed
LEGS = (2.5, 4.0)  # face sizes below a group's chins: its legs' gaps closed from the first on
NEAR_SIGMA = 0.16  # of the picture's short side: how far "near the figure" reaches
# Two people near each other (the figure in separate pieces, each at least JOIN_AREA of the
# picture, their gap under JOIN_GAP of its short side) are painted as one group with what
# lies between them: the hull round both joined to the figure (softened over JOIN_SOFT of the
# short side). Cut out each alone, two children talking through a tin-can telephone on a
# fence became two islands on bare paper, the string and the fence gone (trial F11, finding
# 3: 57% and 71% of their boxes paper). People far apart keep their own shapes.
JOIN_AREA = 0.02
JOIN_GAP = 0.6
JOIN_SOFT = 0.02
JOIN_TAIL = 0.1  # the softened hull's level taken for its outline
# A hole of the figure this small (the square root of its area, of the picture's short side;
# filled whole below the first, left from the second) is painted with the figure round it:
# the segmenter's probability hovers round its thresholds over a wall or a microphone beside
# the head, and its dips came out as pinholes of bare paper, 15-30 px across, ringed by the
# vignette's pooled rim, in dark paint where the photo has no light (trial F8, finding 9: 4
# on 3 of 26 photos). A wider gap (between an arm and the body, the ground between heads)
# is a shape of its own and stays the background's.
HOLE_SMALL = (0.03, 0.05)
HOLE_RING = 3  # texels: a filled hole takes the figure's mean level this far round it
# Whether a picture is a portrait (its figure the subject, the painting fading out round it)
# or a scene with a small figure in it (a distant walker, a face on a poster: the scene is
# painted, with the paper margins): by the share of the picture the figure covers (a face
# and its person, or a group's busts; portraits and groups cover 0.2-0.9, a small group in a
# corner 0.09, a face on a T-shirt 0.004) or by its largest face against the short side (a
# close face whose body the person mask missed). Nearly a step: a vignette weakened in
# between scatters islands of wash over the bare paper (its threshold meets its noise).
PORTRAIT_FIGURE = (0.045, 0.055)
PORTRAIT_FACE = (0.14, 0.16)
# ... unless its faces are small and few: a face under a tenth of the short side is a whole
# figure's (a head is an eighth of a standing body) standing in two thirds of the picture's
# height or less, or further off, and one or two such people are figures in a scene, painted
# with it in its margins (trial F10's p19: two walkers under a great tree, faces 0.076 of
# the short side, their full-length figures 17% of the picture; the portrait's vignette cut
# one blob out between them and dropped the people the models do not see, 79% of two
# women's box bare paper). A group of GROUP faces or more is a group portrait however small
# its faces (its busts are the figure: trial F8's team, faces 0.073). The portraits and
# pairs of the trials: 0.13 and more.
SCENE_FACE = (0.09, 0.11)


def map_step(picture: tuple[int, int]) -> float:
    """Picture px per map texel for a picture of `picture` (w, h)."""
    return max(MAP_STEP, max(picture) / MAP_MAX_SIDE)


def map_grid(region: tuple[float, float], step: float) -> tuple[int, int]:
    """The map's grid (w, h) over a region of `region` (w, h) px."""
    return max(1, round(region[0] / step)), max(1, round(region[1] / step))


def subject_map(subject: Subject | None, picture: tuple[int, int],
                grid: tuple[int, int] | None = None) -> np.ndarray:
    """The map (grid h, grid w, 4) float32 of the whole picture of size `picture` (w, h),
    sampled at the grid's texel centres (default grid: map_step's); zeros where nothing was
    found."""
    gw, gh = grid or map_grid(picture, map_step(picture))
    xs = (np.arange(gw, dtype=np.float32) + 0.5) * (picture[0] / gw)
    ys = (np.arange(gh, dtype=np.float32) + 0.5) * (picture[1] / gh)
    out = np.zeros((gh, gw, 4), np.float32)
    if subject is None or (not subject.faces and subject.person is None):
        return out
    step = (picture[0] / gw, picture[1] / gh)
    for face in subject.faces:
        out[..., 0] = np.maximum(out[..., 0], _face(face, step, (gw, gh)))
        _features(face, xs, ys, out[..., 1])
    if subject.person is not None:  # it spans the picture, as the map does
        person = _person(subject.person.astype(np.float32), subject.faces, picture)
        person = cv2.GaussianBlur(person, (0, 0), PERSON_SOFT)
        out[..., 2] = cv2.resize(person, (gw, gh), interpolation=cv2.INTER_LINEAR)
    if subject.neck is not None:  # the face's skin continued down its neck (engine/neck.py)
        neck = cv2.resize(subject.neck.astype(np.float32), (gw, gh),
                          interpolation=cv2.INTER_LINEAR)
        out[..., 0] = np.maximum(out[..., 0], neck)
    out[..., 2] = np.maximum(out[..., 2], out[..., 0])
    if len(subject.faces) >= GROUP:  # the person mask sees one or two people, not a group
        out[..., 2] = np.maximum(out[..., 2], _busts(subject.faces, step, (gw, gh)))
        out[..., 2] = _legs_closed(out[..., 2], subject.faces, step)
    out[..., 2] = _small_holes_closed(out[..., 2], HOLE_SMALL[0] * min(gw, gh),
                                      HOLE_SMALL[1] * min(gw, gh))
    near = _wide_blur(out[..., 2], NEAR_SIGMA * min(gw, gh))
    out[..., 3] = np.clip(near * 2.0, 0.0, 1.0)  # 1 at and inside the figure's outline
    joined = _joined(out[..., 2], subject.faces, step, JOIN_AREA * gw * gh,
                     JOIN_GAP * min(gw, gh))
    if joined is not None:
        # its blur's faint tail left as it was: near the figure there read as 1 (the
        # wash laid far out in drops and islands on the paper)
        joined = _wide_blur(joined, max(0.5, JOIN_SOFT * min(gw, gh)))
        joined = np.clip((joined - JOIN_TAIL) / (1.0 - JOIN_TAIL), 0.0, 1.0)
        out[..., 3] = np.where(joined > 0.0, 1.0 + joined, out[..., 3])
    if subject.content is not None:  # a film's bars are not the picture: nothing laid there
        out *= _inside(subject.content, xs, ys)[..., None]
    return out


def portrait_share(subject_map: np.ndarray, face: float, faces: int) -> float:
    """How much a picture with this subject map is a portrait (0: a scene with a small
    figure in it .. 1: the figure is the subject); `face`: its largest face's size over the
    picture's short side, `faces`: how many faces it has."""
    share = max(_smooth(PORTRAIT_FIGURE, float(subject_map[..., 2].mean())),
                _smooth(PORTRAIT_FACE, face))
    return share if faces >= GROUP else share * _smooth(SCENE_FACE, face)


def subject_portrait_share(subject_map: np.ndarray, subject: Subject,
                           picture: tuple[int, int]) -> float:
    """portrait_share of a picture of `picture` px with `subject` (faces found) and its
    subject map."""
    return portrait_share(subject_map, max(f.size for f in subject.faces) / min(picture),
                          len(subject.faces))


def _smooth(edges: tuple[float, float], x: float) -> float:
    t = min(max((x - edges[0]) / (edges[1] - edges[0]), 0.0), 1.0)
    return t * t * (3.0 - 2.0 * t)


def _smoothstep(edges: tuple[float, float], x: np.ndarray) -> np.ndarray:
    t = np.clip((x - edges[0]) / (edges[1] - edges[0]), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def _person(p: np.ndarray, faces: tuple[Face, ...], picture: tuple[int, int]) -> np.ndarray:
    """The figure (0..1) the person probability `p` (over the whole picture of size
    `picture`, on the segmenter's grid) gives: where it is sure, and where a person is
    expected (`faces`' bodies, the sure figure's holes) where it is unsure."""
    sure = _smoothstep(PERSON_SURE, p)
    body = _bodies(faces, picture, (p.shape[1], p.shape[0]))
    holes = _holes(p >= 0.5)
    return np.maximum(np.maximum(sure, _smoothstep(PERSON_LIKELY, p) * body),
                      _smoothstep(PERSON_HOLE, p) * holes)


def _joined(figure: np.ndarray, faces: tuple[Face, ...], step: tuple[float, float],
            area: float, gap: float) -> np.ndarray | None:
    """1 in the hull round each two people's pieces of `figure` (0..1, on the map's grid:
    `step` picture px per texel; pieces over 0.5 of at least `area` texels, each with one of
    `faces` in it: a head cut off its body by the mask is no second person) less than `gap`
    texels apart, else 0; None where none are."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        (figure >= 0.5).astype(np.uint8), connectivity=8)
    h, w = figure.shape
    with_face = set()
    for face in faces:
        x0, y0, x1, y1 = face.box
        i = min(h - 1, int((y0 + y1) / 2 / step[1])), min(w - 1, int((x0 + x1) / 2 / step[0]))
        with_face.add(int(labels[i]))
    big = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= area and i in with_face]
    if len(big) < 2:
        return None
    out = np.zeros(figure.shape, np.float32)
    for a, i in enumerate(big):
        # texels to piece i, for the others' nearest
        far = cv2.distanceTransform((labels != i).astype(np.uint8), cv2.DIST_L2, 3)
        for j in big[a + 1:]:
            if float(far[labels == j].min()) >= gap:
                continue
            ys, xs = np.nonzero((labels == i) | (labels == j))
            hull = cv2.convexHull(np.stack([xs, ys], axis=1).astype(np.int32))
            cv2.fillConvexPoly(out, hull, 1.0)
    return out if out.any() else None


def _holes(mask: np.ndarray) -> np.ndarray:
    """1.0 where `mask` (bool) is False but enclosed by it (not reaching the frame's edges),
    else 0.0."""
    count, labels = cv2.connectedComponents((~mask).astype(np.uint8), connectivity=4)
    open_ = np.zeros(count, bool)
    for edge in (labels[0], labels[-1], labels[:, 0], labels[:, -1]):
        open_[edge] = True
    open_[0] = True  # the mask itself
    return (~open_[labels]).astype(np.float32)


def _small_holes_closed(figure: np.ndarray, small: float, wide: float) -> np.ndarray:
    """`figure` (0..1) with its holes (regions under 0.5 enclosed by it, not reaching the
    frame's edges) filled with the figure round each, wholly where the square root of the
    hole's area is under `small` texels, not at all from `wide` (a hole's size changing in
    video fades it in or out, never pops)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        (figure < 0.5).astype(np.uint8), connectivity=4)
    h, w = figure.shape
    out = figure
    for i in range(1, count):
        x, y, bw, bh, area = stats[i]
        if x == 0 or y == 0 or x + bw >= w or y + bh >= h:
            continue  # open to the frame's edges: the background round the figure
        fill = 1.0 - float(_smoothstep((small, wide), np.float32(np.sqrt(area))))
        if fill <= 0.0:
            continue
        # the figure's level a few texels round it (its rim is barely over 0.5: a hole
        # filled with that stayed a shallow dip, and the vignette's noise pooled a rim in it)
        y0, y1 = max(0, y - HOLE_RING), min(h, y + bh + HOLE_RING)
        x0, x1 = max(0, x - HOLE_RING), min(w, x + bw + HOLE_RING)
        hole = labels[y0:y1, x0:x1] == i
        ring = cv2.dilate(hole.astype(np.uint8), np.ones((2 * HOLE_RING + 1,) * 2, np.uint8))
        around = figure[y0:y1, x0:x1][(ring > 0) & ~hole]
        if out is figure:
            out = figure.copy()
        part = out[y0:y1, x0:x1]
        part[hole] = np.maximum(part[hole], fill * float(around[around >= 0.5].mean()))
    return out


def _bodies(faces: tuple[Face, ...], picture: tuple[int, int],
            grid: tuple[int, int]) -> np.ndarray:
    """1 where a person is expected round each face (its head and, below it, its shoulders
    and body down to the frame's bottom), softened at the outline, on a grid of `grid`
    (w, h) over the picture."""
    mask = np.zeros((grid[1], grid[0]), np.float32)
    if not faces:
        return mask
    step = np.array((picture[0] / grid[0], picture[1] / grid[1]))
    shift = 4  # cv2's sub-pixel bits
    for face in faces:
        x0, y0, x1, y1 = face.box
        s, cx = face.size, (x0 + x1) / 2
        top, shoulders, half = y0 - BODY_CROWN * s, y1 + 0.6 * s, BUST[0] * s / 2
        bottom = max(picture[1], shoulders) + s  # past the frame: not softened there
        pts = np.array([(cx - 0.6 * s, top), (cx + 0.6 * s, top), (cx + half, shoulders),
                        (cx + half, bottom), (cx - half, bottom), (cx - half, shoulders)])
        cv2.fillPoly(mask, [np.round((pts / step - 0.5) * (1 << shift)).astype(np.int32)],
                     1.0, cv2.LINE_AA, shift)
    sigma = max(0.5, BODY_SOFT * float(np.median([f.size for f in faces])) / max(step))
    return cv2.GaussianBlur(mask, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)


def _inside(content: Content, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """1 in the picture between a film's bars (`content`: x0, y0, x1, y1 px), 0 in the
    bars, at the texel centres `xs`, `ys`."""
    x0, y0, x1, y1 = content
    inx = (xs >= x0) & (xs < x1)
    iny = (ys >= y0) & (ys < y1)
    return (iny[:, None] & inx[None, :]).astype(np.float32)


def _wide_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of `sigma` texels (edges replicated), wide enough to be taken on the
    picture shrunk k times (k about sigma / 8) and enlarged again: the same values within
    about 0.01 (at the corners; 0.0001 on average), at a fraction of the cost (its 170-tap
    kernel over a 1080p frame's map took 7 of the render thread's 15 ms of host work)."""
    k = int(sigma // 8)
    h, w = img.shape
    if k < 2 or min(w, h) < 8 * k:
        return cv2.GaussianBlur(img, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)
    small = cv2.resize(img, (max(1, round(w / k)), max(1, round(h / k))),
                       interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / k, borderType=cv2.BORDER_REPLICATE)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _local_blur(mask: np.ndarray, sigma: float) -> np.ndarray:
    """cv2.GaussianBlur(mask, sigma) where the mask is zero outside a small region: blurred
    over that region and the kernel's reach only (the same values: zeros reflect as zeros)."""
    ys, xs = np.nonzero(mask.any(axis=1))[0], np.nonzero(mask.any(axis=0))[0]
    out = np.zeros_like(mask)
    if len(ys) == 0:
        return out
    r = int(np.ceil(4 * sigma)) + 2  # cv2's float kernel reaches 4 sigma
    h, w = mask.shape
    y0, y1 = max(0, ys[0] - r), min(h, ys[-1] + 1 + r)
    x0, x1 = max(0, xs[0] - r), min(w, xs[-1] + 1 + r)
    out[y0:y1, x0:x1] = cv2.GaussianBlur(np.ascontiguousarray(mask[y0:y1, x0:x1]), (0, 0),
                                         sigma)
    return out


def map_region(whole: np.ndarray, picture: tuple[int, int], region: Rect,
               grid: tuple[int, int]) -> np.ndarray:
    """The part of a whole map (of a picture of size `picture`) under `region` (picture px),
    resampled bilinearly at the texel centres of `grid` (w, h) over it."""
    gh, gw = whole.shape[:2]
    x0, y0, x1, y1 = region
    xs = x0 + (np.arange(grid[0], dtype=np.float32) + 0.5) * ((x1 - x0) / grid[0])
    ys = y0 + (np.arange(grid[1], dtype=np.float32) + 0.5) * ((y1 - y0) / grid[1])
    mx, my = np.meshgrid(xs * (gw / picture[0]) - 0.5, ys * (gh / picture[1]) - 0.5)
    return cv2.remap(whole, mx.astype(np.float32), my.astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def _face(face: Face, step: tuple[float, float], grid: tuple[int, int]) -> np.ndarray:
    """1 inside the face's oval (the mesh's, else an ellipse in its box), fading out past
    it over FACE_FADE of its size, on the map's grid (`step`: picture px per texel)."""
    mask = np.zeros((grid[1], grid[0]), np.float32)
    shift = 4  # cv2's sub-pixel bits
    if face.mesh is not None:
        pts = face.mesh[list(MESH_OVAL), :2] / np.array(step) - 0.5
        cv2.fillPoly(mask, [np.round(pts * (1 << shift)).astype(np.int32)], 1.0,
                     cv2.LINE_AA, shift)
    else:
        x0, y0, x1, y1 = face.box
        centre = ((x0 + x1) / 2 / step[0] - 0.5, (y0 + y1) / 2 / step[1] - 0.5)
        axes = (BOX_AXES[0] * (x1 - x0) / step[0], BOX_AXES[1] * (y1 - y0) / step[1])
        cv2.ellipse(mask, (centre, (2 * axes[0], 2 * axes[1]), 0.0), 1.0, -1, cv2.LINE_AA)
    sigma = max(0.5, FACE_FADE * face.size / max(step) / 2)
    soft = _local_blur(mask, sigma)
    return np.maximum(mask, np.clip(2.0 * soft, 0.0, 1.0))


def _busts(faces: tuple[Face, ...], step: tuple[float, float],
           grid: tuple[int, int]) -> np.ndarray:
    """Each face's head with a little ground above it and, below it, its shoulders and body
    (BUST face sizes wide and high, fading out downwards), the gaps between neighbours
    closed, on the map's grid: a group's bodies, which the person mask misses, are part of
    the figure, as one mass."""
    mask = np.zeros((grid[1], grid[0]), np.float32)
    layer = np.empty_like(mask)
    ys = (np.arange(grid[1], dtype=np.float32) + 0.5) * step[1]
    shift = 4
    for face in faces:
        x0, y0, x1, y1 = face.box
        s, cx = face.size, (x0 + x1) / 2
        top, bottom = y0 - GROUP_CROWN * s, y1 + BUST[1] * s
        half = BUST[0] * s / 2
        pts = np.array([(cx - 0.6 * s, top), (cx + 0.6 * s, top), (cx + half, y1 + 0.6 * s),
                        (cx + half, bottom), (cx - half, bottom), (cx - half, y1 + 0.6 * s)])
        layer.fill(0.0)
        cv2.fillPoly(layer, [np.round((pts / np.array(step) - 0.5) * (1 << shift))
                             .astype(np.int32)], 1.0, cv2.LINE_AA, shift)
        fade = np.clip((bottom - ys) / (0.4 * BUST[1] * s), 0.0, 1.0)[:, None]
        np.maximum(mask, layer * fade, out=mask)
    median = float(np.median([f.size for f in faces])) / max(step)  # texels
    # one mass, as a group is painted: the gaps between neighbours' busts (a face in the
    # back row between two in front) closed, not a row of cut-out busts
    r = max(1, round(GROUP_CLOSE * median))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    # on the mask continued past the frame's edges as it meets them: a body running off the
    # frame is not eaten there, nor the ground between the heads and the frame's top filled
    big = cv2.copyMakeBorder(mask, r, r, r, r, cv2.BORDER_REPLICATE)
    mask = cv2.morphologyEx(big, cv2.MORPH_CLOSE, kernel)[r:-r, r:-r]
    return _local_blur(mask, max(0.5, 0.15 * median))


def _legs_closed(figure: np.ndarray, faces: tuple[Face, ...],
                 step: tuple[float, float]) -> np.ndarray:
    """A group's `figure` (0..1, on the map's grid) with the gaps between its people's legs
    filled, from LEGS face sizes below their chins: the figure fades out down into the
    paper as one mass at the frame's bottom, not through paper holes and tongues between
    the legs (trial F10's p15: 18% of the bottom strip bare paper)."""
    s = float(np.median([f.size for f in faces]))
    chin = float(np.median([f.box[3] for f in faces]))
    ys = (np.arange(figure.shape[0], dtype=np.float32) + 0.5) * step[1]
    weight = np.clip((ys - chin - LEGS[0] * s) / ((LEGS[1] - LEGS[0]) * s), 0.0, 1.0)
    if not weight.any():
        return figure
    r = max(1, round(GROUP_CLOSE * s / step[0]))  # texels, as the busts' gaps
    kernel = np.ones((1, 2 * r + 1), np.uint8)
    # continued past the frame's sides as it meets them: a leg at the border is not eaten
    big = cv2.copyMakeBorder(figure, 0, 0, r, r, cv2.BORDER_REPLICATE)
    closed = cv2.morphologyEx(big, cv2.MORPH_CLOSE, kernel)[:, r:-r]
    return np.maximum(figure, closed * weight[:, None])


def _features(face: Face, xs: np.ndarray, ys: np.ndarray, out: np.ndarray) -> None:
    """Soft blobs on the eyes, brows, nostrils and mouth (sizes follow the face's), drawn
    into `out` (on the grid of `xs` and `ys`) where larger."""
    s = face.size
    blobs: list[tuple[np.ndarray, float]] = []
    if face.mesh is not None:
        m = face.mesh[:, :2]
        for eye in (MESH_RIGHT_EYE, MESH_LEFT_EYE):
            blobs.append((m[list(eye)].mean(axis=0), 0.07 * s))
        for brow in (MESH_RIGHT_BROW, MESH_LEFT_BROW):
            blobs += [(m[i], 0.04 * s) for i in brow]
        blobs += [(m[i], 0.035 * s) for i in MESH_NOSTRILS]
        mouth = m[list(MESH_MOUTH)]
        blobs += [(mouth.mean(axis=0), 0.07 * s), (mouth[0], 0.04 * s), (mouth[1], 0.04 * s)]
    else:  # the detector's keypoints: eyes, nose tip, mouth
        k = face.keypoints
        blobs += [(k[0], 0.08 * s), (k[1], 0.08 * s), (k[2], 0.05 * s), (k[3], 0.08 * s)]
    for (px, py), sigma in blobs:
        # separable: a Gaussian's window of 3 sigma on each axis
        i0, i1 = np.searchsorted(xs, (px - 3 * sigma, px + 3 * sigma))
        j0, j1 = np.searchsorted(ys, (py - 3 * sigma, py + 3 * sigma))
        if i0 >= i1 or j0 >= j1:
            continue
        gx = np.exp(-((xs[i0:i1] - px) ** 2) / (2 * sigma * sigma))
        gy = np.exp(-((ys[j0:j1] - py) ** 2) / (2 * sigma * sigma))
        np.maximum(out[j0:j1, i0:i1], gy[:, None] * gx[None, :], out=out[j0:j1, i0:i1])
