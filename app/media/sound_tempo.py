"""A sound played faster or slower at its own pitch (FFmpeg's atempo), for the window's
playback speeds."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import av
import numpy as np

from .pcm_format import CHANNELS, FRAME_BYTES, RATE

ATEMPO_RANGE = (0.5, 2.0)  # one atempo's factors (0.25 is two at 0.5)


def tempo_steps(rate: float) -> list[float]:
    """`rate` as atempo factors each within ATEMPO_RANGE."""
    if not rate > 0:
        raise ValueError(f"a sound's speed must be positive, got {rate}")
    steps = []
    while rate < ATEMPO_RANGE[0] or rate > ATEMPO_RANGE[1]:
        step = ATEMPO_RANGE[0] if rate < 1 else ATEMPO_RANGE[1]
        steps.append(step)
        rate /= step
    return [*steps, rate]


def at_rate(pcm: Iterator[bytes], rate: float) -> Iterator[bytes]:
    """16-bit stereo 48 kHz `pcm` played `rate` times as fast, at its pitch: each second
    out is `rate` seconds of `pcm`."""
    if rate == 1.0:
        yield from pcm
        return
    graph = av.filter.Graph()
    node = graph.add_abuffer(format="s16", sample_rate=RATE, layout="stereo",
                             time_base=Fraction(1, RATE))
    for step in tempo_steps(rate):
        tempo = graph.add("atempo", f"{step:.6f}")
        node.link_to(tempo)
        node = tempo
    node.link_to(graph.add("abuffersink"))
    graph.configure()
    pts = 0
    for chunk in _with_end(pcm):
        if chunk is None:
            graph.push(None)
        else:
            data = np.frombuffer(chunk, np.int16).reshape(1, -1)
            frame = av.AudioFrame.from_ndarray(data, format="s16", layout="stereo")
            frame.sample_rate, frame.pts, frame.time_base = RATE, pts, Fraction(1, RATE)
            pts += len(chunk) // FRAME_BYTES
            graph.push(frame)
        while True:
            try:
                out = graph.pull()
            except (av.error.BlockingIOError, av.error.EOFError):
                break
            yield np.ascontiguousarray(out.to_ndarray()).reshape(-1)[
                :out.samples * CHANNELS].tobytes()


def _with_end(pcm: Iterator[bytes]) -> Iterator[bytes | None]:
    yield from pcm
    yield None
