"""Progress output for long jobs: one updating line on a terminal, plain lines otherwise."""

from __future__ import annotations

import sys
import time
from typing import Protocol, TextIO


class ProgressLike(Protocol):
    """What the printer needs from a progress report (e.g. ExportProgress)."""

    done: int
    total: int | None
    elapsed: float

    @property
    def fps(self) -> float: ...

    @property
    def eta(self) -> float | None: ...


def format_seconds(seconds: float) -> str:
    """0:07, 1:02:03."""
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def format_progress(label: str, p: ProgressLike) -> str:
    """`label: 120/300 frames (40%), 12.3 fps, ETA 0:14` (`120/~300 frames (~40%)` where
    the total is an estimate: `estimated`)."""
    if p.total:
        about = "~" if getattr(p, "estimated", False) else ""  # a total not yet known
        text = (f"{label}: {p.done}/{about}{p.total} frames "
                f"({about}{min(100, 100 * p.done // p.total)}%)")
    else:
        text = f"{label}: {p.done} frames"
    text += f", {p.fps:.1f} fps"
    eta = p.eta
    if p.total and p.done >= p.total:
        text += ", finishing"  # every frame is in; the encoder and muxer close the file
    elif eta is not None:
        text += f", ETA {format_seconds(eta)}"
    encoder = getattr(p, "encoder", "")
    return f"{text}, {encoder}" if encoder else text


class ProgressPrinter:
    """A progress callback that prints to `stream` (stderr by default).

    On a TTY it rewrites one line at most every `tty_interval` seconds; otherwise it prints a
    plain line every `interval` seconds. `quiet` prints nothing. Call `finish()` at the end.
    """

    def __init__(self, label: str, stream: TextIO | None = None, *, quiet: bool = False,
                 tty: bool | None = None, interval: float = 5.0,
                 tty_interval: float = 0.1) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.tty = self.stream.isatty() if tty is None else tty
        self.interval = tty_interval if self.tty else interval
        self._last = time.monotonic()
        self._width = 0
        self._final_shown = False
        self.lines = 0

    def __call__(self, p: ProgressLike) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        final = bool(p.total) and p.done >= (p.total or 0)
        if final and self.tty and not self._final_shown:
            self._final_shown = True  # show 100% once, whatever the interval
        elif now - self._last < self.interval:
            return
        self._last = now
        self.show(format_progress(self.label, p))

    def show(self, text: str) -> None:
        """Print one progress line: over the last one on a TTY, a new line otherwise."""
        if self.tty:
            pad = max(0, self._width - len(text))
            self.stream.write("\r" + text + " " * pad)
            self._width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self.lines += 1

    def finish(self, message: str | None = None) -> None:
        """End the progress line (TTY) and print a closing message."""
        if self.quiet:
            return
        if self.tty and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self._width = 0
        if message:
            self.stream.write(message + "\n")
        self.stream.flush()
