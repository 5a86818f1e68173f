"""The window compiles its style's presets ahead (ui/shader_warmup.py): in a child, once the
window has painted, and never again for the same looks (the stamp it leaves)."""
# ruff: noqa: F811 - pytest fixtures imported from test_gui

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import pytest
from test_gui import Dialogs, config, dialogs, make_window, open_and_render, scene  # noqa: F401

from aquarelle.ui import shader_warmup as sw

pytestmark = pytest.mark.gui


def test_the_window_warms_its_styles_presets_once(qtbot: Any, config: Path, dialogs: Dialogs,
                                                  tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A child paints the looks; the stamp it leaves keeps a second window from doing it
    again."""
    monkeypatch.setattr(sw, "DELAY_MS", 0)
    stamps = sw.WarmStamps(tmp_path / "warm.json")
    still = tmp_path / "still.png"
    cv2.imwrite(str(still), scene()[:, :, ::-1])
    win = make_window(qtbot, config)
    win.set_style("adjust")
    win.warmup.stamps = stamps
    win.warmup.enabled = True
    open_and_render(qtbot, win, still)
    qtbot.waitUntil(lambda: win.warmup.job is not None, timeout=30000)
    job = win.warmup.job
    assert job is not None
    qtbot.waitUntil(lambda: win.warmup.job is None, timeout=120000)
    assert job.error is None and job.result == len(win.warmup.looks())
    assert stamps.keys() == [win.warmup.key]
    win.close()

    again = make_window(qtbot, config)
    again.warmup.stamps = stamps
    again.warmup.enabled = True
    assert again.state.style.name == "adjust"  # (restored)
    started: list[object] = []
    monkeypatch.setattr(sw, "ChildJob", lambda *a, **k: started.append(a))
    open_and_render(qtbot, again, still)
    qtbot.waitUntil(lambda: not again.warmup._delay.isActive(), timeout=30000)
    assert started == [] and again.warmup.job is None
    again.close()
