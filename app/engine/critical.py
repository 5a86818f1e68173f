"""Sections an interrupt must not split: moderngl builds a program partly in Python, and an
exception raised there by a signal handler (Ctrl+C, SIGTERM) crashes the process instead of
unwinding it. Our handlers ask `defer` first; the interrupt is raised when the section ends."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

_depth = 0  # of the main thread's open sections (signal handlers run on the main thread)
_pending: list[Callable[[], None]] = []


@contextlib.contextmanager
def critical() -> Iterator[None]:
    """While inside (on the main thread), interrupts wait; the first one then runs."""
    global _depth
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if _depth == 0:
        _pending.clear()  # one kept past an earlier section's end (raised there already)
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0 and _pending:
            interrupt = _pending[0]
            _pending.clear()
            interrupt()


def defer(interrupt: Callable[[], None]) -> bool:
    """For a signal handler: inside a critical section, keep `interrupt` for its end and
    return True; else return False (the handler raises now)."""
    if _depth == 0:
        return False
    _pending.append(interrupt)
    return True
