"""Answering a modal dialog from a GUI test without risking a hang.

A dialog's `exec()` blocks the test until the dialog closes, so the test answers it from a
timer. A fixed delay races a slow open (the timer fires before the dialog exists) and an
assertion failing in the answer leaves the dialog open for ever; both hung the suite.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PyQt6.QtCore import QTimer
from PyQt6.QtWidgets import QApplication, QDialog

POLL_MS = 20


def answer_modal(answer: Callable[[Any], None], kind: type = QDialog,
                 give_up_s: float = 60.0) -> None:
    """Call `answer(dialog)` once a modal dialog of `kind` is open (polled: no race with a
    slow open). If `answer` fails, the dialog is closed first, so the failure is reported
    (pytest-qt fails the test with it) instead of leaving `exec()` waiting."""
    deadline = time.monotonic() + give_up_s

    def poll() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, kind):
            if time.monotonic() > deadline:
                raise AssertionError(f"no {kind.__name__} opened within {give_up_s:.0f} s "
                                     f"(modal now: {type(dialog).__name__})")
            QTimer.singleShot(POLL_MS, poll)
            return
        try:
            answer(dialog)
        except BaseException:
            if dialog.isVisible():
                dialog.reject()
            raise

    QTimer.singleShot(0, poll)
