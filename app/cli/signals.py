"""Termination signals end a command like Ctrl+C: the same clean-up, exit 128 + signal.
Neither interrupts a critical section of the engine, nor is lost in a library that swallows
it (see engine/interrupts.py)."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

from ..engine.interrupts import deliver, forget

# What `timeout`, job schedulers, `systemctl stop`, `docker stop` and a closed terminal send.
SIGNALS = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
                if s is not None)


class Terminated(KeyboardInterrupt):
    """Raised in the main thread when a termination signal arrives. A KeyboardInterrupt, so
    every path that cleans up after Ctrl+C (stages stopped, temporary files removed) runs."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _terminated(signum: int) -> None:
    raise Terminated(signum)


def _raise(signum: int, _frame: object) -> None:
    deliver(lambda: _terminated(signum))


def _ctrl_c() -> None:
    raise KeyboardInterrupt


def _interrupt(_signum: int, _frame: object) -> None:
    deliver(_ctrl_c)


@contextlib.contextmanager
def terminate_like_ctrl_c() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise Terminated, and Ctrl+C KeyboardInterrupt, each
    after any critical section (main thread only; else a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _raise) for s in SIGNALS}
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, _interrupt)
    try:
        yield
    finally:
        forget()
        for s, handler in previous.items():
            signal.signal(s, handler)
