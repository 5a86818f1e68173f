"""Where the people are: MediaPipe's selfie segmentation, the probability of a person per
pixel, on the CPU at the model's size (256x144 for wide frames, 256x256 otherwise)."""

from __future__ import annotations

import cv2
import numpy as np

from .face_models import PERSON, PERSON_WIDE, blob, load_model

WIDE_ASPECT = 1.4  # wider than this: the landscape model (16:9 webcams)


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
