"""The window's subject feed (ui/subject_feed.py) under frames that come faster than it
polls its worker: what a cut waits for still arrives."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest
from PyQt6.QtCore import QTimer
from skimage import data

from aquarelle.ui.subject_feed import POLL_MS, SubjectFeed

pytestmark = pytest.mark.gui


def test_a_cut_is_found_while_frames_come_faster_than_the_poll(qtbot: Any) -> None:
    """Frames every few ms (a fast file, a soak) restarted the poll's timer each time, so a
    cut's frames waited for their subject until the window's hold gave up (the soak painted
    5 of 400 frames)."""
    face = cv2.resize(data.astronaut(), (128, 128), interpolation=cv2.INTER_AREA)
    feed = SubjectFeed()
    frames = iter(range(1, 100000))
    steady = QTimer()
    steady.setInterval(max(1, POLL_MS // 4))  # a frame every few ms, playing on
    steady.timeout.connect(lambda: feed.frame(np.roll(face, 1, 1), still=False, cut=False,
                                              wait=False, index=next(frames), t=0.0))
    try:
        feed.frame(face.copy(), still=False, cut=True, wait=False, index=0, t=0.0)
        assert feed.waiting_fresh
        steady.start()
        qtbot.waitUntil(lambda: not feed.waiting_fresh, timeout=5000)
    finally:
        steady.stop()
        feed.stop()


@pytest.mark.parametrize("deep", [False, True])
def test_a_16_bit_picture_is_searched_as_its_8_bits(qtbot: Any, deep: bool) -> None:
    """The window handed a 16-bit still's own array to the face models, which found no face
    in it (the trial: the painting 34-99 levels off the CLI's, framed as a scene)."""
    face = cv2.resize(data.astronaut(), (256, 256), interpolation=cv2.INTER_AREA)
    image = face.astype(np.uint16) * 257 if deep else face
    feed = SubjectFeed()
    try:
        feed.frame(image, still=True, cut=True, wait=True, index=None, t=0.0)
        qtbot.waitUntil(lambda: not feed.waiting, timeout=10000)
        found = feed.latest
        assert found is not None and len(found.faces) == 1
    finally:
        feed.stop()
