"""A film's letterbox bars are not the picture (trial F9, g21: a group's busts ran down into
the black bar under a red-carpet still and painted it as a dark slab under the people)."""

from __future__ import annotations

import numpy as np

from aquarelle.engine.faces import Face
from aquarelle.engine.letterbox import letterbox
from aquarelle.engine.subject import Subject, SubjectTracker
from aquarelle.engine.subject_map import subject_map


def film(w: int, h: int, top: int, bottom: int, left: int = 0, right: int = 0,
         seed: int = 1) -> np.ndarray:
    """A frame of noisy content between black bars that carry a video's few levels."""
    rng = np.random.default_rng(seed)
    img = rng.integers(0, 10, (h, w, 3)).astype(np.uint8)  # the bars' noise
    img[top:h - bottom, left:w - right] = rng.integers(
        30, 255, (h - top - bottom, w - left - right, 3)).astype(np.uint8)
    return img


def test_bars_top_and_bottom_or_at_the_sides_are_found() -> None:
    content = letterbox(film(1200, 675, 80, 80))
    assert content is not None and content[0] == 0 and content[2] == 1200
    assert abs(content[1] - 80) <= 5 and abs(content[3] - 595) <= 5
    side = letterbox(film(1280, 720, 0, 0, 160, 160))
    assert side is not None and abs(side[0] - 160) <= 6 and abs(side[2] - 1120) <= 6
    assert side[1] == 0 and side[3] == 720


def test_a_dark_sky_a_dark_frame_and_a_dark_red_are_no_bars() -> None:
    assert letterbox(film(640, 480, 120, 0)) is None  # black at the top only
    assert letterbox(np.zeros((480, 640, 3), np.uint8)) is None  # a fade to black
    red = film(640, 480, 60, 60)
    red[:60, :, 0] = 120  # a dark red ground, not black
    assert letterbox(red) is None
    assert letterbox(film(640, 480, 60, 20)) is None  # no pair: a dark ground


def test_a_groups_figure_stops_at_the_bars() -> None:
    def face(x: float) -> Face:
        return Face((x, 200.0, x + 90.0, 310.0), np.zeros((6, 2)), 0.9)

    group = (face(300), face(550), face(800))
    picture = (1200, 675)
    without = subject_map(Subject(group, None), picture)
    barred = subject_map(Subject(group, None, content=(0.0, 80.0, 1200.0, 595.0)), picture)
    step = 675 / barred.shape[0]
    bar_rows = slice(round((675 - 70) / step), None)
    chest = round(450 / step), round(595 / step)
    assert without[bar_rows, chest[1], 2].max() > 0.5  # (the busts ran into the bar)
    assert barred[bar_rows].max() == 0.0  # nothing laid in the bar, nor near it
    assert barred[chest[0], chest[1], 2] > 0.8  # the bodies above it kept


def test_the_tracker_says_the_bars_of_a_frame(monkeypatch) -> None:
    frame = film(640, 360, 45, 45)
    tracker = SubjectTracker(people=False)
    monkeypatch.setattr(tracker, "_find", lambda rgb, beat, search=False: [])
    content = tracker.update(frame, 0.0).content
    assert content is not None and abs(content[1] - 45) <= 3 and abs(content[3] - 315) <= 3
