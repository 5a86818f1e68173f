"""scripts/run-app.sh on a machine without a display says where the app runs and how to see
it, and still runs it (on a virtual screen)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_run_app_without_a_display_says_where_and_how_to_look() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    done = subprocess.run(["bash", "scripts/run-app.sh", "--version"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("aquarelle ")  # the app ran, on the virtual screen
    assert "DISPLAY=:" in done.stderr and "Xvfb" in done.stderr
    assert "x11vnc -display :" in done.stderr and "ssh -X" in done.stderr
