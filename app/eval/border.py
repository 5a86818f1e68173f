"""Which bare-paper border the watercolor paints round a video's frames, as its renderer
decides: the vignette round a figure the subject models find (a face that is the picture's
subject), or the paper margins round a scene. A flicker measurement names the parameter
that turns off the one the video gets, where the stylized video shows such a border (not
one painted without the watercolor, or with its borders off)."""

from __future__ import annotations

import numpy as np

from ..engine.subject import SubjectSearch
from ..engine.subject_map import subject_map, subject_portrait_share

SAMPLE_EVERY = 10  # frames between those looked at (the renderer's full detections' beat)
BAND = 0.02  # of the short side (at least 2 px): the frame's outer band a paper border covers
LIGHTER = 0.2  # luma (0..1) a bare-paper pixel is above the picture's there, at least
PAPER_LUMA = 0.7  # ... and its luma at least (the papers shipped are near white)
BARE_SHARE = 0.25  # of the band bare: a border, where the middle is not as bare


def _luma(rgb: np.ndarray) -> np.ndarray:
    top = 65535.0 if rgb.dtype == np.uint16 else 255.0
    return (rgb.astype(np.float32) / top) @ np.array([0.299, 0.587, 0.114], np.float32)


def bare_border(picture: np.ndarray, painted: np.ndarray) -> bool:
    """Whether `painted` (RGB, the size of `picture`, its stylization) leaves a border of
    bare paper where `picture` has none: a quarter or more of its outer band much lighter than
    the picture there (paper), and a share of the band larger by 0.2 or more than of its middle
    (a light stylization overall is no border). A paper darker than the picture is missed."""
    h, w = picture.shape[:2]
    lit = (_luma(painted) - _luma(picture) > LIGHTER) & (_luma(painted) > PAPER_LUMA)
    b = max(2, round(BAND * min(h, w)))
    band = np.zeros((h, w), bool)
    band[:b] = band[-b:] = True
    band[:, :b] = band[:, -b:] = True
    q = min(h, w) // 4
    middle = lit[q:h - q, q:w - q]
    share = float(lit[band].mean())
    return share >= BARE_SHARE and share >= (float(middle.mean()) if middle.size else 0.0) + 0.2


class BorderSurvey:
    """Frames of a video looked at for a figure, every `every`-th: how many the renderer
    paints with the vignette (a portrait), the margins (a scene), or both cross-faded."""

    def __init__(self, every: int = SAMPLE_EVERY) -> None:
        self.every = max(1, every)
        self.portraits = 0  # the vignette alone round the figure
        self.scenes = 0  # the margins alone (no face, or one too small to be the subject)
        self.mixed = 0  # both, cross-faded (a figure part way to being the subject)
        self.stylized = 0  # frames of a stylization looked at beside the picture's
        self.bare = 0  # ... with a border of bare paper
        self._search: SubjectSearch | None = None

    @property
    def looked_at(self) -> int:
        """Frames looked at."""
        return self.portraits + self.scenes + self.mixed

    def see(self, image: np.ndarray, index: int, stylized: np.ndarray | None = None) -> None:
        """Look at the `index`-th frame (RGB) if it is one of those sampled, and at its
        stylization (the same size) where given, for a border of bare paper."""
        if index % self.every:
            return
        if stylized is not None:
            self.stylized += 1
            self.bare += bare_border(image, stylized)
        if self._search is None:
            self._search = SubjectSearch()
        subject = self._search.find(image, "rgb", index, False)
        if subject is None or not subject.faces:
            self.scenes += 1
            return
        picture = (image.shape[1], image.shape[0])
        share = subject_portrait_share(subject_map(subject, picture), subject, picture)
        if share >= 1.0:
            self.portraits += 1
        elif share <= 0.0:
            self.scenes += 1
        else:
            self.mixed += 1

    def release(self) -> None:
        """Let the subject models go."""
        if self._search is not None:
            self._search.release()

    def parameters(self) -> list[str]:
        """The watercolor parameters that paint this video's border: "vignette" where a
        figure was found, "margins" where the scene was painted without one."""
        names = []
        if self.portraits or self.mixed:
            names.append("vignette")
        if self.scenes or self.mixed or not self.looked_at:
            names.append("margins")
        return names

    def hint(self) -> str | None:
        """What of the watercolor's border a flicker measurement counts, and how to leave it
        out; None where the stylized frames looked at show no border of bare paper (painted
        without the watercolor, or with its borders off)."""
        if self.stylized and not self.bare:
            return None
        n = self.looked_at
        faces = self.portraits + self.mixed
        if not faces:
            what = ("the watercolor's paper margins (round a scene without a face; none was "
                    f"found in {n} frame{'' if n == 1 else 's'} looked at) do")
        elif not self.scenes and not self.mixed:
            what = (f"the watercolor's vignette round the figure (a face found in {faces} of "
                    f"{n} frame{'' if n == 1 else 's'} looked at; the paper margins are off "
                    "round a face) does")
        else:
            what = (f"the watercolor's vignette round the figure (a face found in {faces} of "
                    f"{n} frames looked at) and its paper margins (where no face, or one "
                    "small in the picture, is found) do")
        sets = " ".join(f"--set {name}=0" for name in self.parameters())
        return ("A border of bare paper that does not move with the picture counts as error "
                f"wherever the picture moves under it: {what}; to measure the painting alone, "
                f"export with {sets}.")
