"""A job in a Python thread that the GUI polls (video exports; a still is painted in a
process of its own: media/still_process.py)."""

from __future__ import annotations

import threading


class ThreadJob:
    """Runs `_run` in a daemon thread; the GUI starts it and polls `running`."""

    def __init__(self, name: str) -> None:
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the worker; True when it has finished."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        raise NotImplementedError
