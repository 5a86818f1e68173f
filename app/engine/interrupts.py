"""How an interrupt (Ctrl+C, SIGTERM) raised by a signal handler reaches the code.

Not in the middle of a critical section: moderngl builds a program partly in Python, and an
exception raised there crashes the process instead of unwinding it; the interrupt is raised
when the section ends. And not lost: a handler runs at whatever Python code the main thread
is at, and inside some libraries that is code whose exceptions the library discards (PyAV's
encoders, flushing in `kept_flags`' trial files, swallow about one in twelve), so an interrupt
raised and never handled is raised again at the next `checkpoint`."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

_depth = 0  # of the main thread's open sections (signal handlers run on the main thread)
_pending: list[Callable[[], None]] = []
_raised: Callable[[], None] | None = None  # raised by a handler; may have been swallowed


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
            _raise(interrupt)


def deliver(interrupt: Callable[[], None]) -> None:
    """For a signal handler: call `interrupt` (which raises) now, or at the end of the
    critical section it is in; either way `checkpoint` raises it again until `forget`."""
    if _depth:
        _pending.append(interrupt)
    else:
        _raise(interrupt)


def _raise(interrupt: Callable[[], None]) -> None:
    global _raised
    _raised = interrupt
    interrupt()


def checkpoint() -> None:
    """Raise again an interrupt that was raised and never reached its handler (a library
    swallowed it). For points where work goes on or is made final: each frame, a commit."""
    if _raised is not None:
        _raised()


def forget() -> None:
    """The interrupts so far were handled (their handlers' scope ends)."""
    global _raised
    _raised = None
    _pending.clear()
