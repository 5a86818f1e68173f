"""Who is in the picture, frame after frame: faces (box, keypoints, mesh) kept as tracks and
smoothed with One Euro filters so they do not jitter, and the person mask, refreshed every
few frames (it costs the most), the frame's exposure (engine/exposure.py: the gain that
keys an underexposed frame up, from a thumbnail) and its compression's block grid
(engine/blocks.py, searched with the faces). A cut or a seek (`reset`) starts afresh; a
face not found in a frame is dropped. On the CPU at the models' sizes; callers run it off
the render thread."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .blocks import NO_GRID, BlockGrid, block_grid, steadied_grid
from .exposure import RISE, frame_exposure, frame_lights, keyed
from .face_light import face_light
from .face_shade import face_lights, shade_gain
from .face_sharpness import face_sharpness
from .face_skin import face_skin
from .faces import Face, FaceDetector, box_iou
from .frame_arrays import rgb8
from .letterbox import Content, letterbox
from .neck import neck_skin
from .one_euro import OneEuroFilter
from .person_mask import PersonSegmenter, with_faces

MIN_SUBJECT_SIDE = 64  # smaller frames hold no face worth finding
MATCH_IOU = 0.3  # a face this close to last frame's box is the same face
DETECT_EVERY = 10  # frames between full detections (new faces); between, meshes follow
# Faces whose meshes follow them from frame to frame (about 3 ms each on the CPU): the
# largest of a group; the others keep the place they were last found at
MAX_FOLLOWED = 8
LIGHT_FOLLOW = 0.2  # of a frame's light that the subject's takes (the rest: the last frames')
# A tracker that catches up (`catch_up`: the window's, whose playback skips frames on a slow
# machine) searches a frame afresh after more than this many frames on from the last it
# looked at: a face moved that far is beyond its mesh (followed, it lagged behind, then was
# lost and found again with no smoothing)
FOLLOW_GAP = 2


@dataclass(frozen=True)
class Subject:
    """The subject of one frame: its faces, best first, the person probability (at the
    segmentation model's size; None when not computed) and, on its grid, the faces' necks
    (engine/neck.py; None when not computed)."""

    faces: tuple[Face, ...] = ()
    person: np.ndarray | None = None
    time: float = 0.0
    light: float = 0.0  # the main face's light: -1 from the left .. 1 from the right
    sharpness: float = 0.0  # how sharp the main face is drawn: 0 soft .. 1 (face_sharpness)
    # the gain (linear light, 1 .. 2) that keys an underexposed frame's lights up, steadied
    # over a video's frames (engine/exposure.py); 1: exposed well enough
    exposure: float = 1.0
    neck: np.ndarray | None = None
    blocks: BlockGrid = NO_GRID  # the compression's block grid (engine/blocks.py)
    # the main face's own skin colour (CIELAB, engine/face_skin.py), steadied over a video's
    # frames; None where it was not measured (no mesh)
    skin: tuple[float, float, float] | None = None
    # the picture between a film's letterbox bars (x0, y0, x1, y1 px: engine/letterbox.py);
    # None without bars
    content: Content | None = None
    # each face's shadow key (engine/face_shade.py: the gain, linear light, 1 .. MAX_LIFT, that
    # lifts a face in deep shade), in the faces' order, steadied along a video's track;
    # empty: all 1
    shades: tuple[float, ...] = ()

    @property
    def face_size(self) -> float:
        """The faces' median size (px; 0 without a face): what the figure's strokes are
        sized by."""
        return float(np.median([f.size for f in self.faces])) if self.faces else 0.0


def _over(rate: float, gap: int) -> float:
    """What a per-frame `rate` of the way comes to over `gap` frames (frames skipped between
    two given ones are made up for)."""
    return rate if gap == 1 else 1.0 - (1.0 - rate) ** gap


def _steadied(last: float | None, now: float, follow: float) -> float:
    """`now` taken in by `follow` of it (the rest: the frames' before), or as it is first."""
    return now if last is None else (1.0 - follow) * last + follow * now


@dataclass
class _Track:
    face: Face
    filter: OneEuroFilter = field(default_factory=OneEuroFilter)
    shade: float | None = None  # its face's shadow key, steadied (face_shade.shade_gain)


def _pack(face: Face) -> np.ndarray:
    parts = [np.asarray(face.box, np.float64), face.keypoints.ravel()]
    if face.mesh is not None:
        parts.append(face.mesh.ravel())
    return np.concatenate(parts)


def _unpack(v: np.ndarray, like: Face) -> Face:
    mesh = None if like.mesh is None else v[16:].reshape(like.mesh.shape)
    return Face((float(v[0]), float(v[1]), float(v[2]), float(v[3])), v[4:16].reshape(6, 2),
                like.score, mesh, like.presence)


class SubjectTracker:
    """Faces and the person mask of successive frames (one thread)."""

    def __init__(self, *, people: bool = True, segment_every: int = 2,
                 detect_every: int = DETECT_EVERY, detector: FaceDetector | None = None,
                 segmenter: PersonSegmenter | None = None, catch_up: bool = False) -> None:
        self.detector = detector or FaceDetector()
        self.segmenter = segmenter or (PersonSegmenter() if people else None)
        self.segment_every = max(1, segment_every)
        self.detect_every = max(1, detect_every)
        self._tracks: list[_Track] = []
        self._person: np.ndarray | None = None
        self._neck: np.ndarray | None = None
        self._light: float | None = None
        self._sharpness: float | None = None
        self._exposure: float | None = None
        self._skin: tuple[float, float, float] | None = None
        self._blocks: BlockGrid | None = None
        self._content: Content | None = None
        self._frames = 0
        # frames skipped between two given `index`es are made up for: the detections and
        # masks an export made in them are made at the frame after (a mask kept over odd
        # indexes only was a figure left many frames behind: a trail of wash, trial W4)
        self.catch_up = catch_up
        self._beat: int | None = None  # the last frame's

    def reset(self) -> None:
        """Forget the previous frames (a cut, a seek)."""
        self._tracks = []
        self._person = self._neck = None
        self._light = self._sharpness = self._exposure = None
        self._skin = None
        self._blocks = None
        self._content = None
        self._frames = 0
        self._beat = None

    def update(self, rgb: np.ndarray, t: float, index: int | None = None) -> Subject:
        """The subject of the frame `rgb` (uint8 RGB) shown at `t` seconds, the `index`-th
        of its sequence if known: detections and masks then fall on the same frames however
        far back the tracker started (a cluster's chunk starts mid-sequence), else every so
        many frames since the last reset. With `catch_up`, frames skipped since the last
        (an `index` more than one on) are made up for."""
        beat = self._frames if index is None else index
        last, self._beat = self._beat, beat
        gap = beat - last if self.catch_up and last is not None and beat > last + 1 else 1

        def missed(every: int) -> bool:  # a frame of this beat among those skipped
            return gap > 1 and last is not None and beat // every > last // every

        found = self._find(rgb, beat, gap > FOLLOW_GAP or missed(self.detect_every))
        tracks: list[_Track] = []
        free = list(self._tracks)
        for face in found:
            track = _match(face, free)
            if track is None:
                track = _Track(face)
            else:
                free.remove(track)
            if track.face.mesh is None or face.mesh is None or \
                    track.face.mesh.shape != face.mesh.shape:
                track.filter.reset()
            track.face = _unpack(track.filter(_pack(face), t), face)
            tracks.append(track)
        self._tracks = tracks
        if not tracks:
            self._person = self._neck = None  # a person without a face is not the subject
        elif self.segmenter is not None and (beat % self.segment_every == 0
                                             or self._person is None
                                             or missed(self.segment_every)):
            self._person = with_faces(self.segmenter.mask(rgb), [tr.face.box for tr in tracks],
                                      (rgb.shape[1], rgb.shape[0]))
            self._neck = neck_skin(rgb, [tr.face for tr in tracks], self._person)
        self._frames += 1
        faces = tuple(tr.face for tr in tracks)
        if faces:  # the main face's light and sharpness, steadied over frames (a shot's are)
            main = max(faces, key=lambda f: f.size)
            follow = _over(LIGHT_FOLLOW, gap)
            self._light = _steadied(self._light, face_light(rgb, main), follow)
            self._sharpness = _steadied(self._sharpness, face_sharpness(rgb, main), follow)
            skin = face_skin(rgb, main)
            if skin is not None:
                was = self._skin or skin
                L, a, b = (_steadied(u, v, follow) for u, v in zip(was, skin, strict=True))
                self._skin = (L, a, b)
        # the frame's exposure, on every frame (a face lost for a frame does not restart it)
        lights = frame_lights(rgb)
        self._exposure = keyed(self._exposure, frame_exposure(rgb, lights), _over(RISE, gap))
        # each face's shadow key against the frame's lights, steadied as the light is
        for tr in tracks:
            tr.shade = _steadied(tr.shade, shade_gain(face_lights(rgb, tr.face), lights),
                                 _over(LIGHT_FOLLOW, gap))
        # the block grid with the full detections (a stream's grid stays as long as its
        # bitrate does; searching it costs 10-30 ms)
        if self._blocks is None or beat % self.detect_every == 0 or missed(self.detect_every):
            self._blocks = steadied_grid(self._blocks, block_grid(rgb))
        # the letterbox with the full detections (a film's bars stay: the painting, a face's
        # figure and a scene's margins, stops at them)
        if self._frames == 1 or beat % self.detect_every == 0 or missed(self.detect_every):
            self._content = letterbox(rgb)
        return Subject(faces, self._person, t, self._light or 0.0, self._sharpness or 0.0,
                       self._exposure, self._neck, self._blocks, self._skin, self._content,
                       tuple(tr.shade or 1.0 for tr in tracks))


    def _find(self, rgb: np.ndarray, beat: int, search: bool = False) -> list[Face]:
        """This frame's faces: each track's followed from its mesh; a full detection every
        `detect_every` frames (`beat` counts them; the first after a reset among them), when
        a track was lost or when asked (`search`); none between detections that found
        nobody (a face coming in is found at the next)."""
        if self._frames and beat % self.detect_every and not search:
            if not self._tracks:
                return []  # nobody in the last detection: look again at the next one
            followed = self._follow(rgb, [tr.face for tr in self._tracks])
            if all(f is not None for f in followed):
                return [f for f in followed if f is not None]
        # the first frame (a still, a new shot) is searched thoroughly: a group's small faces
        found = self.detector.detect(rgb, thorough=self._frames == 0)
        # a face the detection missed (at the frame's border, turned, or a group's small one
        # the periodic search is too coarse for) that its mesh still sees stays: the subject
        # must not blink out for a frame
        missed = [tr.face for tr in self._tracks
                  if _match(tr.face, [_Track(f) for f in found]) is None]
        found += [f for f in self._follow(rgb, missed) if f is not None]
        return found

    def _follow(self, rgb: np.ndarray, faces: list[Face]) -> list[Face | None]:
        """Each face followed from its mesh into `rgb` (None: its mesh sees none), the
        MAX_FOLLOWED largest only; the others stay where they were."""
        followed = set(sorted(range(len(faces)), key=lambda i: -faces[i].size)[:MAX_FOLLOWED])
        return [self.detector.follow(rgb, f) if i in followed else f
                for i, f in enumerate(faces)]


# A sequence's k-th frame is followed as shown at k / FRAMES_PER_S seconds: the faces'
# smoothing follows frames, whatever the video's rate (an export's and the window's alike).
FRAMES_PER_S = 30.0


class SubjectSearch:
    """The subject of the frames of a sequence as a painting style takes it: a frame that
    repeats the last picture keeps what was found in it, a frame too small holds none, and
    the models are made at the first frame that needs them. Frame `index` k is shown at
    k/30 s (the faces' smoothing follows frames, whatever the video's rate)."""

    def __init__(self) -> None:
        self._tracker: SubjectTracker | None = None
        self.last: Subject | None = None  # what the last search found

    def find(self, frame: np.ndarray, order: str, index: int, repeat: bool) -> Subject | None:
        """The subject of `frame` (RGB or BGR `order`), the `index`-th of its sequence."""
        if repeat and self.last is not None:
            return self.last
        rgb = rgb8(frame, order)
        if min(rgb.shape[:2]) < MIN_SUBJECT_SIDE:
            return None
        if self._tracker is None:
            self._tracker = SubjectTracker()
        self.last = self._tracker.update(rgb, index / FRAMES_PER_S, index)
        return self.last

    def reset(self) -> None:
        """A new sequence (a cut, a seek): faces are searched afresh."""
        if self._tracker is not None:
            self._tracker.reset()
        self.last = None

    def release(self) -> None:
        """Let the models go (cv2.dnn nets go with their owner, not at interpreter exit)."""
        self._tracker = None
        self.last = None


def _match(face: Face, tracks: list[_Track]) -> _Track | None:
    """The track whose face overlaps `face` most (above MATCH_IOU), if any."""
    if not tracks:
        return None
    boxes = np.array([tr.face.box for tr in tracks])
    overlap = box_iou(np.asarray(face.box), boxes)
    best = int(np.argmax(overlap))
    return tracks[best] if overlap[best] > MATCH_IOU else None
