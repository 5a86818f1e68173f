"""Interlaced video made progressive before it is painted: FFmpeg's bwdif, one frame out for
each frame in (the frame count and timestamps kept), applied only to the frames flagged
interlaced. Painted as they are, the two fields' combing became brush strokes."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from fractions import Fraction

import av
import av.error
import av.filter

# one frame out per frame in; frames not flagged interlaced pass through untouched
FILTER_ARGS = "mode=send_frame:parity=auto:deint=interlaced"


class Deinterlacer:
    """Feeds decoded frames through bwdif once one is flagged interlaced (before that, and
    for a progressive video, frames pass straight through). Its output lags a frame: the
    filter needs the next field; `frames(..., flush=True)` at the end of a walk drains it,
    and `reset()` forgets what it holds (a seek)."""

    def __init__(self) -> None:
        self._graph: av.filter.Graph | None = None
        self._key: tuple[int, int, str] | None = None
        # (pts, duration, time base) of each frame in, for its frame out
        self._times: deque[tuple[int | None, int, Fraction | None]] = deque()
        self.used = False  # a frame was deinterlaced (or passed through the filter)

    def frames(self, frames: Iterable[av.VideoFrame], *, flush: bool = False
               ) -> Iterator[av.VideoFrame]:
        """The progressive frames for `frames` decoded (in order), as far as they are ready."""
        for f in frames:
            if self._graph is None and not f.interlaced_frame:
                yield f
                continue
            key = (f.width, f.height, f.format.name)
            if self._graph is not None and key != self._key:
                yield from self._drain()
            if self._graph is None:
                self._build(f, key)
            assert self._graph is not None
            self._times.append((f.pts, f.duration or 0, f.time_base))
            self._graph.push(f)
            yield from self._pull()
        if flush and self._graph is not None:
            yield from self._drain()

    def reset(self) -> None:
        """Drop the frames held (a seek: the next ones do not follow them)."""
        self._graph, self._key = None, None
        self._times.clear()

    def _build(self, f: av.VideoFrame, key: tuple[int, int, str]) -> None:
        graph = av.filter.Graph()
        src = graph.add_buffer(width=f.width, height=f.height, format=f.format.name,
                               time_base=f.time_base)
        deint = graph.add("bwdif", FILTER_ARGS)
        sink = graph.add("buffersink")
        src.link_to(deint)
        deint.link_to(sink)
        graph.configure()
        self._graph, self._key = graph, key
        self.used = True

    def _pull(self) -> Iterator[av.VideoFrame]:
        assert self._graph is not None
        while self._times:
            try:
                out = self._graph.pull()
            except (av.error.BlockingIOError, av.error.EOFError):
                return
            # the filter counts in half its input's time base: the source's times back
            pts, duration, time_base = self._times.popleft()
            out.time_base, out.pts, out.duration = time_base, pts, duration
            yield out

    def _drain(self) -> Iterator[av.VideoFrame]:
        assert self._graph is not None
        self._graph.push(None)
        yield from self._pull()
        self.reset()
