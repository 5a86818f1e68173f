"""Playback speed: a paced file played slower or faster than its pace (the source's
schedule read from the times frames came due, `stamp_due`: no wall-clock measuring)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest
from paced import delivered, paced_clip

from aquarelle.media.file_source import VideoFileSource


def play(path: Path, rate: float,
         on_frame: Callable[[VideoFileSource, int], None] = lambda src, n: None
         ) -> tuple[list[tuple[int, float]], VideoFileSource]:
    """(index, time due) of each frame the paced file delivered at `rate` (see
    paced.delivered), and the stopped source."""
    src = VideoFileSource(path, paced=True)
    src.set_rate(rate)
    return delivered(src, on_frame), src


@pytest.mark.parametrize("rate", [0.5, 2.0])
def test_frames_come_due_at_the_speed_chosen(tmp_path, rate):
    shown, src = play(paced_clip(tmp_path, 12), rate)
    # played faster than its pace, no more frames a second than at its pace: every other
    # frame at 2x (skipped, not dropped), each a 30th of a second after the one before;
    # at half speed every frame, each a 15th of a second after
    stride = 2 if rate > 1 else 1
    # (and the last frame, at the end: test_played_faster_it_still_ends_on_its_last_frame)
    assert len(shown) + src.dropped == 12 // stride + (rate > 1)
    assert all(i % stride == 0 for i, _ in shown[:-1]), shown
    for (i0, t0), (i1, t1) in pairwise(shown):
        assert t1 - t0 == pytest.approx((i1 - i0) / 30 / rate, abs=1e-4), shown


def test_a_new_speed_reschedules_from_the_frame_on(tmp_path):
    def faster_after_three(src: VideoFileSource, taken: int) -> None:
        if taken == 3:
            src.set_rate(1.0)

    # a quarter speed, 7.5 frames a second: the change comes long before the end
    shown, src = play(paced_clip(tmp_path, 30), 0.25, faster_after_three)
    assert src.rate == 1.0 and shown[-1][0] == 29
    (a, ta), (b, tb) = shown[0], shown[1]
    assert tb - ta == pytest.approx((b - a) / 7.5, abs=1e-4), shown
    after = list(pairwise(shown[3:]))
    assert after, shown
    for (i0, t0), (i1, t1) in after:
        assert t1 - t0 == pytest.approx((i1 - i0) / 30, abs=1e-4), shown


def test_a_speed_must_be_positive_and_says_the_frames_it_delivers(tmp_path):
    with VideoFileSource(paced_clip(tmp_path, 3), paced=True) as src:
        with pytest.raises(ValueError, match="positive"):
            src.set_rate(0.0)
        assert src.rate == 1.0 and src.delivered_fps == pytest.approx(30.0)
        src.set_rate(0.5)
        assert src.delivered_fps == pytest.approx(15.0)
        src.set_rate(2.0)
        assert src.delivered_fps == pytest.approx(30.0)  # every other frame
        src.max_fps = 10.0  # (a virtual camera's rate: on the wall clock)
        assert src.delivered_fps == pytest.approx(10.0)


def test_played_faster_it_still_ends_on_its_last_frame(tmp_path):
    """At 2x every other frame is shown: a file of an even count of frames stopped on its
    last but one (the stop-59 verifier: frame 28 of 30, three times in three)."""
    shown, src = play(paced_clip(tmp_path, 12), 2.0)
    assert shown[-1][0] == 11 and src.position == pytest.approx(11 / 30, abs=1e-3)
    assert all(i % 2 == 0 for i, _ in shown[:-1]), shown
