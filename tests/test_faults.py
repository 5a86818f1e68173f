"""Faults a render must survive without losing anything. Termination signals (what `timeout`,
schedulers, `systemctl stop` and `docker stop` send) end it like Ctrl+C: stages stopped,
temporary files removed, exit 128 + signal. A full disk or a vanished output folder: one
line, exit 2, no partial file. Real subprocesses, real signals."""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from part_files import written_parts
from videoclips import garbled, make_clip

from aquarelle.cli.signals import Terminated, terminate_like_ctrl_c

# Ctrl+C as a fresh `aquarelle` process takes it (conftest.python_takes_ctrl_c)
pytestmark = pytest.mark.usefixtures("python_takes_ctrl_c")


def signal_state(pid: int) -> str:
    """How a process takes signals now (Linux: blocked, ignored, caught; else nothing): said
    when a signal test fails."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return ""
    return " ".join(x.replace("\t", "") for x in lines if x.startswith(("SigBlk", "SigIgn",
                                                                        "SigCgt")))


def interrupt_a_render(tmp_path, out, interrupt, frames: int = 300) -> tuple[str, int, str]:
    """Start `aquarelle render` on a clip of `frames` frames into `out`, wait until it writes
    its temporary file (mid-run), call `interrupt(proc)`, and return its stderr, its exit
    status and a note for a failure (how it took signals then, how long it took to end). A
    render that ran to its end before the interrupt could come (this process starved of CPU
    under load) tests nothing: it is run again, up to three times."""
    clip = make_clip(tmp_path / "long.mp4", size=(320, 240), frames=frames, fps=30)
    out.mkdir()
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-m", "aquarelle", "render", str(clip.path),
                                 "-o", str(out / "painted.mp4"), "-q"],
                                stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 120
            while not written_parts(out):
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < deadline, "the export never started writing"
                time.sleep(0.05)
            if proc.poll() is None:  # (it reaps a render that has ended)
                taken, sent = signal_state(proc.pid), time.monotonic()
                interrupt(proc)
                _, err = proc.communicate(timeout=120)
                return err, proc.returncode, f"{taken}; ended {time.monotonic() - sent:.2f} s after"
            (out / "painted.mp4").unlink(missing_ok=True)  # finished first: again
        finally:
            if proc.poll() is None:
                proc.kill()
    raise AssertionError("every render ended before it could be interrupted")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_mid_export_leaves_nothing_and_exits_128_plus_signal(tmp_path, sig):
    out = tmp_path / "out"
    err, code, note = interrupt_a_render(tmp_path, out, lambda proc: proc.send_signal(sig))
    assert code == 128 + sig, (err, note)
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


def _limit_file_size(limit_bytes: int):
    import resource

    def apply() -> None:  # in the child: writes past the limit fail with EFBIG (SIGXFSZ
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))  # is ignored)

    return apply


@pytest.mark.parametrize("kind", ["video", "image"])
def test_a_full_disk_stops_with_one_line_and_no_partial_file(tmp_path, kind):
    # `ulimit -f`: the same write error (EFBIG) a full disk (ENOSPC) gives, without root.
    if kind == "video":
        src = make_clip(tmp_path / "in.mp4", size=(320, 240), frames=60).path
        name = "painted.mp4"
    else:
        import cv2
        import numpy as np

        src = tmp_path / "in.png"
        noise = np.random.default_rng(0).integers(0, 255, (400, 600, 3), dtype=np.uint8)
        cv2.imwrite(str(src), noise)
        name = "painted.png"
    out = tmp_path / "out"
    out.mkdir()
    proc = subprocess.run([sys.executable, "-m", "aquarelle", "render", str(src), "-o",
                           str(out / name), "-q"], capture_output=True, text=True,
                          timeout=300, preexec_fn=_limit_file_size(20_000))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("aquarelle render: error: ") and str(out / name) in proc.stderr
    # (FFmpeg's own words for the video, the OS error's in lower case for the still)
    reason = "File too large" if kind == "video" else "file too large"
    assert reason in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert list(out.iterdir()) == []


def test_the_output_folder_removed_mid_export_is_an_error_not_a_success(tmp_path):
    out = tmp_path / "out"
    # (found when the output is published: the render runs to its end, so a short clip)
    err, code, note = interrupt_a_render(tmp_path, out, lambda _proc: shutil.rmtree(out),
                                         frames=60)
    assert code == 2, (err, note)
    assert "painted.mp4" in err and "No such file or directory" in err
    assert not out.exists()


def test_corrupt_packets_mid_file_are_skipped_and_counted(tmp_path, capsys):
    import av

    from aquarelle.cli.main import main

    clip = make_clip(tmp_path / "c.mp4", size=(160, 120), frames=60, crf=30)
    bad = garbled(clip.path, tmp_path / "bad.mp4")
    out = tmp_path / "out.mp4"
    assert main(["render", str(bad), "-o", str(out), "-q"]) == 0
    err = capsys.readouterr().err
    with av.open(str(out)) as c:
        frames = sum(1 for _ in c.decode(video=0))
    lost = 60 - frames
    assert 0 < lost < 60
    assert f"{lost} frame(s) could not be decoded" in err


@pytest.mark.parametrize("sig, raised", [(signal.SIGTERM, Terminated),
                                         (signal.SIGINT, KeyboardInterrupt)])
def test_an_interrupt_waits_for_the_end_of_a_critical_section(sig, raised):
    # moderngl builds a program partly in Python: an exception raised there by a signal
    # handler crashed the process (a segfault when SIGTERM came as an export compiled a
    # shader variant). Inside a critical section the interrupt waits for its end.
    from aquarelle.engine.interrupts import critical

    steps = []
    with terminate_like_ctrl_c(), pytest.raises(raised):
        with critical():
            signal.raise_signal(sig)
            steps.append("finished the section")
        steps.append("went on after it")
    assert steps == ["finished the section"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def _swallowed(sig: int) -> None:
    """A signal whose handler's exception a library discards, as PyAV's encoders do when it
    comes while they flush (about one in twelve in a trial file's encode: a SIGHUP mid-render
    then let the export run to its end, exit 0)."""
    with contextlib.suppress(BaseException):
        signal.raise_signal(sig)


def test_an_interrupt_a_library_swallowed_is_raised_again_at_the_next_checkpoint():
    from aquarelle.engine.interrupts import checkpoint

    with terminate_like_ctrl_c():
        _swallowed(signal.SIGHUP)
        for _ in range(2):  # until its handler's scope ends
            with pytest.raises(Terminated) as info:
                checkpoint()
            assert info.value.signum == signal.SIGHUP
    checkpoint()  # handled: nothing left


def test_a_swallowed_termination_stops_the_export_and_writes_nothing(tmp_path):
    from aquarelle.media.export import export_video

    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=8).path
    out = tmp_path / "out"
    out.mkdir()
    done = []
    with terminate_like_ctrl_c(), pytest.raises(Terminated):
        _swallowed(signal.SIGTERM)
        export_video(clip, out / "painted.mp4", progress=lambda p: done.append(p.done))
    assert done == [] and list(out.iterdir()) == []  # stopped at its first frame


def test_a_swallowed_interrupt_keeps_a_finished_still_unwritten(tmp_path):
    import numpy as np

    from aquarelle.media.image_write import write_image

    with terminate_like_ctrl_c(), pytest.raises(KeyboardInterrupt):
        _swallowed(signal.SIGINT)
        write_image(tmp_path / "painted.png", np.zeros((8, 8, 3), np.uint8))
    assert list(tmp_path.iterdir()) == []


def test_an_interrupt_as_the_export_stages_start_stops_and_joins_every_one(monkeypatch):
    # Ctrl+C as the second stage thread started left the first decoding while the export
    # closed its reader: a segfault at exit (1 render in 120 killed by SIGHUP, under load).
    from aquarelle.media.runner import run_pipelined

    start = threading.Thread.start
    started: list[threading.Thread] = []

    def start_then_interrupt(self: threading.Thread) -> None:
        start(self)
        started.append(self)
        if len(started) == 1:  # as if it came while the next one was being started
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(threading.Thread, "start", start_then_interrupt)
    with terminate_like_ctrl_c(), pytest.raises(KeyboardInterrupt):
        # (a bounded source: an interrupt lost is a failure, never a hang)
        run_pipelined(iter(range(200_000)), None, lambda item: None, lambda: None,
                      lambda: None, 2)
    assert len(started) == 2 and not any(t.is_alive() for t in started)
