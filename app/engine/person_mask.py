"""Where the people are: MediaPipe's selfie segmentation, the probability of a person per
pixel, on the CPU at the model's size (256x144 for wide frames, 256x256 otherwise)."""

from __future__ import annotations

import cv2
import numpy as np

from .face_models import PERSON, PERSON_WIDE, blob, load_model

WIDE_ASPECT = 1.4  # wider than this: the landscape model (16:9 webcams)
# A person's region is where the probability passes REGION; one that holds no face counts
# only when at least OTHER_PERSON of the largest with a face (a second person, turned away):
# the model's stray blobs (a flag, a curtain, a blurred shoulder in the background) became
# islands of wash on the bare paper round a portrait
REGION = 0.2
OTHER_PERSON = 0.3


class PersonSegmenter:
    """Person masks of RGB uint8 pictures; one per thread."""

    def __init__(self) -> None:
        self._nets: dict[bool, cv2.dnn.Net] = {}

    def mask(self, rgb: np.ndarray, size: tuple[int, int] | None = None) -> np.ndarray:
        """The person probability (float32 in [0, 1]) of an (H, W, 3) picture, at the
        model's size, or resized to `size` (W, H)."""
        h, w = rgb.shape[:2]
        wide = w > WIDE_ASPECT * h
        net = self._nets.get(wide)
        if net is None:
            net = self._nets[wide] = load_model(PERSON_WIDE if wide else PERSON)
        model_size = (256, 144) if wide else (256, 256)
        net.setInput(blob(cv2.resize(rgb, model_size, interpolation=cv2.INTER_AREA), 0.0, 1.0))
        out = np.clip(net.forward().reshape(model_size[1], model_size[0]), 0.0, 1.0)
        if size is None:
            return out.astype(np.float32)
        return cv2.resize(out.astype(np.float32), size, interpolation=cv2.INTER_LINEAR)


def with_faces(mask: np.ndarray, faces: list[tuple[float, float, float, float]],
               picture: tuple[int, int]) -> np.ndarray:
    """`mask` (a person probability over a picture of `picture` (w, h) px) with the regions
    that are nobody's left out: kept, those under a face's box (x0, y0, x1, y1, picture px)
    and any other at least OTHER_PERSON of the largest of those."""
    if not faces:
        return mask
    h, w = mask.shape
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        (mask > REGION).astype(np.uint8), connectivity=8)
    if count <= 2:
        return mask  # one region (or none): nothing stray to leave out
    held: set[int] = set()
    sx, sy = w / picture[0], h / picture[1]
    for x0, y0, x1, y1 in faces:  # the regions under each face's box
        box = labels[max(0, int(y0 * sy)):min(h, int(np.ceil(y1 * sy))),
                     max(0, int(x0 * sx)):min(w, int(np.ceil(x1 * sx)))]
        held.update(np.unique(box).tolist())
    held.discard(0)
    if not held:
        return mask
    largest = max(stats[i, cv2.CC_STAT_AREA] for i in held)
    keep = np.zeros(count, bool)
    keep[list(held)] = True
    keep[1:] |= stats[1:, cv2.CC_STAT_AREA] >= OTHER_PERSON * largest
    return np.where(keep[labels], mask, 0.0).astype(mask.dtype)
