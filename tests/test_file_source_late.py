"""A paced file whose decoding falls behind the clock (a loaded machine): the frames it skips
to catch up keep a cap's cadence, and the file's last frame is still shown at its end.

The stall is made, not waited for: the source's clock jumps ahead when a chosen frame is
decoded, as the wall clock does while a loaded machine decodes it."""

from __future__ import annotations

import time
import types
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from paced import delivered, paced_clip

from aquarelle.media import file_source
from aquarelle.media.file_source import VideoFileSource


def stalled(path: Path, monkeypatch: pytest.MonkeyPatch, at: float, seconds: float,
            max_fps: float | None = None) -> tuple[list[tuple[int, float]], VideoFileSource]:
    """(index, time due) of each frame a paced source of `path` delivered, its clock jumping
    `seconds` ahead once, as the frame at media time `at` is decoded; and the source."""
    ahead = [0.0]
    monkeypatch.setattr(file_source, "time", types.SimpleNamespace(
        monotonic=lambda: time.monotonic() + ahead[0]))

    def slow(walk: Iterator) -> Iterator:
        for decoded in walk:
            if decoded.time >= at and not ahead[0]:
                ahead[0] = seconds
            yield decoded

    src = VideoFileSource(path, paced=True)
    src._walk = slow(src._walk)
    src.max_fps = max_fps
    return delivered(src), src


def test_the_last_frame_is_shown_though_it_came_late(tmp_path, monkeypatch):
    # frames 28 and 29 come 0.3 s late: skipped to catch up with a clock nothing follows, the
    # file ended on frame 27 (the window's picture at the end was not the file's last)
    shown, src = stalled(paced_clip(tmp_path, 30), monkeypatch, at=28 / 30, seconds=0.3)
    assert shown[-1][0] == 29, shown
    assert [i for i, _ in shown] == sorted(i for i, _ in shown)
    assert 28 not in [i for i, _ in shown]  # the late frame before it is still skipped
    assert len(shown) + src.dropped == 30  # the last one is not counted as dropped


def test_a_capped_file_keeps_the_caps_cadence_after_a_late_frame(tmp_path, monkeypatch):
    # at most 10 frames a second from a 30 fps file: frames 0, 3, 6, ... The clock jumps as
    # frame 9 decodes: 9 comes late and is skipped; the next frame kept was the first not
    # late, a file's frame period off the cap's schedule (frames 0.233 s apart at 10 fps)
    shown, _ = stalled(paced_clip(tmp_path, 30), monkeypatch, at=9 / 30, seconds=0.28, max_fps=10.0)
    assert len(shown) >= 5, shown
    for (i0, t0), (i1, t1) in pairwise(shown[:-1]):  # (the end: its last frame)
        k = round((t1 - t0) / 0.1)
        assert k >= 1 and t1 - t0 == pytest.approx(k * 0.1, abs=1e-4), shown
        assert (i1 - i0) == 3 * k, shown
