"""Running the export stages: one thread after the other, or overlapped in threads (decode,
the frames' analysis where one is given, render, encode).

Stages talk through bounded queues; a failure in any stage, or an exception on the calling
thread (cancel, Ctrl+C), stops the others promptly, and the first error is re-raised on the
calling thread, which owns the GL context and runs the render stage.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from ..engine.interrupts import critical
from .frame_range import DecodedFrame
from .render_stage import RenderStage
from .video_reader import AudioItem

_END = object()

Analyse = Callable[[DecodedFrame], DecodedFrame]  # a frame's motion and subject, found ahead


class _Stopped(Exception):
    """Another stage failed or the export was cancelled: unwind quietly."""


def run_sequential(items: Iterator[DecodedFrame | AudioItem], stage: RenderStage,
                   encode: Callable[[Any], None], finish: Callable[[], None],
                   report: Callable[[], None], queue_size: int,
                   analyse: Analyse | None = None) -> None:
    """decode -> (analyse) -> render -> read -> encode, one frame at a time on this thread."""
    for item in items:
        if isinstance(item, DecodedFrame):
            if analyse is not None:
                item = analyse(item)
            for out in stage.push(item):
                encode(out)
            report()
        else:
            encode(item)
    for out in stage.flush():
        encode(out)
    finish()


def run_pipelined(items: Iterator[DecodedFrame | AudioItem], stage: RenderStage,
                  encode: Callable[[Any], None], finish: Callable[[], None],
                  report: Callable[[], None], queue_size: int,
                  analyse: Analyse | None = None) -> None:
    """Decoder thread -> queue -> (analysis thread -> queue) -> GL (this thread) -> queue ->
    encoder thread."""
    stop = threading.Event()
    errors: list[BaseException] = []
    decoded: queue.Queue[Any] = queue.Queue(maxsize=queue_size)
    analysed: queue.Queue[Any] = queue.Queue(maxsize=queue_size) if analyse else decoded
    rendered: queue.Queue[Any] = queue.Queue(maxsize=queue_size)

    def guard(fn: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                fn()
            except _Stopped:
                pass
            except BaseException as e:  # handed to the GL thread, which re-raises it
                errors.append(e)
                stop.set()
        return run

    def decode() -> None:
        for item in items:
            _put(decoded, item, stop)
        _put(decoded, _END, stop)

    def analysis() -> None:
        assert analyse is not None
        while (item := _get(decoded, stop)) is not _END:
            _put(analysed, analyse(item) if isinstance(item, DecodedFrame) else item, stop)
        _put(analysed, _END, stop)

    def encoder() -> None:
        while (item := _get(rendered, stop)) is not _END:
            encode(item)
        finish()

    threads = [threading.Thread(target=guard(decode), name="aquarelle-decode", daemon=True),
               threading.Thread(target=guard(encoder), name="aquarelle-encode", daemon=True)]
    if analyse is not None:
        threads.append(threading.Thread(target=guard(analysis), name="aquarelle-analyse",
                                        daemon=True))
    try:
        with critical():  # an interrupt waits until all are started, so all are joined
            for t in threads:  # (one left decoding as the reader closed crashed at exit)
                t.start()
        while (item := _get(analysed, stop)) is not _END:
            if isinstance(item, DecodedFrame):
                for out in stage.push(item):
                    _put(rendered, out, stop)
                report()
            else:
                _put(rendered, item, stop)
        for out in stage.flush():
            _put(rendered, out, stop)
        _put(rendered, _END, stop)
        while threads[1].is_alive():
            threads[1].join(0.05)
            report()
    except _Stopped:
        pass
    finally:
        stop.set()
        for t in threads:
            t.join()
    if errors:
        raise errors[0]


def _put(q: queue.Queue[Any], item: Any, stop: threading.Event) -> None:
    while True:
        if stop.is_set():
            raise _Stopped
        try:
            q.put(item, timeout=0.05)
            return
        except queue.Full:
            continue


def _get(q: queue.Queue[Any], stop: threading.Event) -> Any:
    while True:
        if stop.is_set():
            raise _Stopped
        try:
            return q.get(timeout=0.05)
        except queue.Empty:
            if stop.is_set():
                raise _Stopped from None
