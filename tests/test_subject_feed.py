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
