"""Termination signals (what `timeout`, schedulers, `systemctl stop` and `docker stop` send)
end a render like Ctrl+C: stages stopped, temporary files removed, exit 128 + signal."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import pytest
from videoclips import make_clip

from aquarelle.cli.signals import Terminated, terminate_like_ctrl_c


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_mid_export_leaves_nothing_and_exits_128_plus_signal(tmp_path, sig):
    src = tmp_path / "in"
    src.mkdir()
    clip = make_clip(src / "long.mp4", size=(320, 240), frames=300, fps=30)
    out = tmp_path / "out"
    out.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "aquarelle", "render", str(clip.path),
                             "-o", str(out / "painted.mp4"), "-q"],
                            stderr=subprocess.PIPE, text=True)
    try:
        # Wait until the export is writing its temporary file: the signal lands mid-run.
        deadline = time.monotonic() + 120
        while not any(".part" in p.name for p in out.iterdir()):
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the export never started writing"
            time.sleep(0.05)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + sig, err
    assert f"cancelled ({signal.Signals(sig).name})" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert list(out.iterdir()) == []  # no output, no temporary file


def test_handlers_are_restored_and_only_installed_on_the_main_thread():
    before = signal.getsignal(signal.SIGTERM)
    with terminate_like_ctrl_c(), pytest.raises(Terminated) as info:
        signal.raise_signal(signal.SIGTERM)
    assert info.value.signum == signal.SIGTERM and isinstance(info.value, KeyboardInterrupt)
    assert signal.getsignal(signal.SIGTERM) is before

    done = []

    def elsewhere() -> None:  # signal.signal() would raise outside the main thread
        with terminate_like_ctrl_c():
            done.append(signal.getsignal(signal.SIGTERM) is before)

    t = threading.Thread(target=elsewhere)
    t.start()
    t.join()
    assert done == [True]
