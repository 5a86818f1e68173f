"""The shipped subject models (assets/models/: MediaPipe's face detector, face mesh and
selfie segmentation), loaded with OpenCV's dnn module: no other runtime, nothing downloaded.

OpenCV 5's default dnn engine drops all but the first output of these graphs (the
detector's scores, the mesh's face-presence flag), so the classic engine is asked for where
there is a choice; the models are read from their files (the from-bytes form ignores the
engine). A Net is not thread-safe: each user makes its own.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ..resources import assets_dir
from .errors import AquarelleError

DETECTOR = "face_detection_short_range.tflite"
LANDMARKS = "face_landmark.tflite"
PERSON = "selfie_segmentation.tflite"
PERSON_WIDE = "selfie_segmentation_landscape.tflite"


class ModelError(AquarelleError):
    """A subject model that cannot be loaded."""


def model_path(name: str) -> Path:
    """Where a shipped model lives."""
    return assets_dir() / "models" / name


def load_model(name: str) -> cv2.dnn.Net:
    """A fresh Net for one of the shipped models."""
    path = model_path(name)
    if not path.is_file():
        raise ModelError(f"subject model {name} is missing from {path.parent} (broken install?)")
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    try:
        if engine is None:  # OpenCV 4: one engine, every output
            return cv2.dnn.readNetFromTFLite(str(path))
        return cv2.dnn.readNetFromTFLite(str(path), engine=engine)
    except cv2.error as e:
        raise ModelError(f"cannot load subject model {name}: {e.msg.strip()}") from None


def blob(rgb: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """An (H, W, 3) uint8 RGB picture as the models' NCHW float32 input, scaled to [lo, hi]."""
    x = rgb.astype(np.float32) * np.float32((hi - lo) / 255.0) + np.float32(lo)
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None])


def sigmoid(x: np.ndarray | float) -> np.ndarray:
    """The logistic function, safe for large logits."""
    return 1.0 / (1.0 + np.exp(-np.clip(np.asarray(x, np.float64), -80.0, 80.0)))
