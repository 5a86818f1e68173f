"""Motion estimated a frame ahead of a live or playing source's render (media/motion_feed.py):
the motion the render's own tracker would find for the frames it paints, bit for bit."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from conftest import smooth_noise, to_u8

from aquarelle.engine import motion as motion_module
from aquarelle.engine.motion import MotionTracker
from aquarelle.engine.renderer import Renderer
from aquarelle.media.motion_feed import MotionFeed
from aquarelle.media.source import Frame, LatestSlot, ThreadedSource

W, H = 96, 72


def pan(n: int) -> list[np.ndarray]:
    big = to_u8(smooth_noise(H, W + 3 * n, seed=11, sigma=3.0))
    return [np.ascontiguousarray(big[:, 3 * k:3 * k + W]) for k in range(n)]


class HandSource(ThreadedSource):
    """A live source whose frames the test hands over."""

    name = "hand"
    live = True

    def __init__(self) -> None:
        super().__init__()
        self._slot = LatestSlot()
        self._size = (W, H)

    def _run(self) -> None:
        pass

    def push(self, index: int, image: np.ndarray) -> None:
        self._slot.put(Frame(image, index, None))

    def latest(self) -> Frame | None:
        return self._slot.take()


def next_ready(feed: MotionFeed, index: int) -> Frame:
    """Wait until frame `index` is the one ready, and take it."""
    assert feed.wait(10.0, newer_than=index - 1)
    frame = feed.take()
    assert frame is not None and frame.index == index
    return frame


@pytest.fixture
def fed():
    source = HandSource()
    feed = MotionFeed(source, lambda: {160, 48})
    feed.start()
    yield source, feed
    feed.stop()


def same_motion(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return (np.array_equal(a.flow_uv, b.flow_uv) and np.array_equal(a.confidence, b.confidence)
            and np.array_equal(a.to_previous, b.to_previous))


def test_the_feed_finds_what_the_renders_tracker_finds_for_the_frames_taken(fed):
    source, feed = fed
    frames = pan(6)
    taken = []
    source.push(0, frames[0])
    taken.append(next_ready(feed, 0))
    assert taken[0].motion is not None and taken[0].motion.by_width == {}  # nothing before
    source.push(1, frames[1])
    assert feed.wait(10.0, newer_than=0)
    source.push(2, frames[2])  # comes before frame 1 is taken: replaces it, from frame 0
    taken.append(next_ready(feed, 2))
    for i in (3, 5):  # frame 4 never reaches the feed
        source.push(i, frames[i])
        taken.append(next_ready(feed, i))
    tracker = MotionTracker()
    for frame in taken:
        tracker.next_frame(frame.image)
        assert frame.motion is not None
        for width in (48, 160):
            expected = tracker.motion(width)
            if width in frame.motion.by_width:
                assert same_motion(frame.motion.by_width[width], expected), (frame.index, width)
    assert [sorted(f.motion.by_width) for f in taken[1:]] == [[48, 160]] * 3
    assert all(f.motion.by_width[160] is not None for f in taken[1:])


def test_a_frame_from_before_a_seek_is_never_handed_on(fed):
    source, feed = fed
    frames = pan(3)
    source.push(0, frames[0])
    next_ready(feed, 0)
    source.push(1, frames[1])
    assert feed.wait(10.0, newer_than=0)
    feed.clear()  # a seek: frame 1 was decoded before it
    assert feed.take() is None
    source.push(7, frames[2])
    after = next_ready(feed, 7)
    assert after.motion is not None and after.motion.by_width == {}  # no past to follow


@pytest.mark.parametrize("style", ["watercolor", "denoise+watercolor+motion_blur"])
def test_renders_given_the_feeds_motion_are_the_renders_that_find_it(gl_ctx, style, fed,
                                                                     monkeypatch):
    source, feed = fed
    threads: list[str] = []
    update = motion_module.MotionEstimator.update
    monkeypatch.setattr(motion_module.MotionEstimator, "update", lambda self, frame:
                        threads.append(threading.current_thread().name) or update(self, frame))
    with Renderer(gl_ctx, style) as inline, Renderer(gl_ctx, style) as given:
        widths = given.motion_widths()
        feed._widths = lambda: widths
        for i, image in enumerate(pan(5)):
            a = inline.render_array(image)
            threads.clear()
            source.push(i, image)
            frame = next_ready(feed, i)
            b = given.read(given.render(frame.image, motion=frame.motion))
            assert np.array_equal(a, b), i
            if i:  # the feed had the past: the render estimated nothing itself
                assert threads == [], i


def test_a_render_without_motion_ahead_follows_from_the_feeds_last_frame(gl_ctx, fed):
    """A frame the feed gave no motion (after a seek it had no past) is estimated by the
    render's own tracker from the frame the feed handed on before: no motion lost."""
    source, feed = fed
    frames = pan(4)
    with Renderer(gl_ctx, "watercolor") as inline, \
            Renderer(gl_ctx, "watercolor") as given:
        widths = given.motion_widths()
        feed._widths = lambda: widths
        for i, image in enumerate(frames):
            a = inline.render_array(image)
            if i == 2:
                feed.clear()  # frame 2 comes with no motion ahead
            source.push(i, image)
            frame = next_ready(feed, i)
            assert (frame.motion.by_width == {}) == (i in (0, 2))
            b = given.read(given.render(frame.image, motion=frame.motion))
            assert np.array_equal(a, b), i


def test_a_feed_needs_a_source_it_can_wait_on():
    class Polled(HandSource):
        def __init__(self) -> None:
            super().__init__()
            del self._slot

    with pytest.raises(ValueError, match="wait on"):
        MotionFeed(Polled(), lambda: {160})
