"""Stills painted in a child process (media/still_process.py): the same picture as painted
here, tiles reported as they are painted, and an error, a death or a stop told in one line."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from aquarelle.engine import Renderer
from aquarelle.engine.chain_spec import load_chain
from aquarelle.engine.still import paint_still
from aquarelle.media.errors import ExportCancelled
from aquarelle.media.still_process import ChildJob, export_file, paint_picture


def _die(progress: object) -> None:  # (run in the child)
    os._exit(3)


def _sleep(progress: object) -> None:  # (run in the child)
    time.sleep(60)


def _until_asked(progress: Any, cancel: Any) -> None:  # (run in the child)
    progress({"frame": 1})
    cancel.wait(60)
    raise ExportCancelled()


def _deaf(progress: Any, cancel: Any) -> None:  # (run in the child): never looks at cancel
    progress({"frame": 1})
    time.sleep(60)


def _picture(w: int = 160, h: int = 96) -> np.ndarray:
    rng = np.random.default_rng(7)
    small = rng.random((h // 16, w // 16, 3)).astype(np.float32)
    return (cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1) * 255
            ).astype(np.uint8)


def _run(job: ChildJob) -> ChildJob:
    job.start()
    assert job.wait(60.0)
    return job


def test_a_picture_painted_in_a_child_is_the_one_painted_here(gl_ctx) -> None:
    rgb = _picture()
    style = load_chain("stereo")
    job = _run(ChildJob(paint_picture, rgb.copy(), style, {"depth_strength": 5.0}, seed=3))
    assert job.error is None and job.tiles is None and job.pid != os.getpid()
    with Renderer(gl_ctx, style, seed=3) as renderer:
        renderer.set_params({"depth_strength": 5.0})
        here = paint_still(renderer, rgb.copy())
    np.testing.assert_array_equal(job.result, here)


def test_an_export_in_a_child_reports_its_tiles(tmp_path: Path) -> None:
    src, dst = tmp_path / "in.png", tmp_path / "out.png"
    cv2.imwrite(str(src), _picture(480, 320))
    job = _run(ChildJob(export_file, src, dst, load_chain("sharpen"), {},
                        tile_above_px=100_000))
    assert job.error is None and job.result == ((480, 320), [])
    assert job.tiles is not None and job.tiles[0] == job.tiles[1] >= 1  # painted in tiles
    assert cv2.imread(str(dst)).shape == (320, 480, 3)
    job = _run(ChildJob(export_file, src, dst, load_chain("sharpen"), {}))
    assert job.error is None and job.tiles is None  # under 16 MP: whole


def test_a_failure_in_a_child_is_said_in_one_line(tmp_path: Path) -> None:
    job = _run(ChildJob(export_file, tmp_path / "gone.png", tmp_path / "out.png",
                        load_chain("watercolor"), {}))
    assert job.error == f"no such file: {tmp_path / 'gone.png'}" and job.result is None
    assert not (tmp_path / "out.png").exists()


def test_a_child_that_dies_is_told() -> None:
    job = _run(ChildJob(_die))
    assert job.error == "the painting's process ended without finishing it (exit code 3)"
    job = _run(ChildJob(_die, what="export"))
    assert job.error == "the export's process ended without finishing it (exit code 3)"


def _niceness(progress: Any = None) -> int:
    return os.nice(0)


def test_a_child_asked_to_be_nicer_is() -> None:
    assert _run(ChildJob(_niceness)).result == os.nice(0)
    assert _run(ChildJob(_niceness, nice=5)).result == min(19, os.nice(0) + 5)


def test_a_child_is_stopped_at_once() -> None:
    job = ChildJob(_sleep)
    job.start()
    assert not job.poll()
    t = time.monotonic()
    job.cancel()
    assert time.monotonic() - t < 5.0
    assert job.ended and job.cancelled and job.poll()
    assert not job._process.is_alive()


def _started(job: ChildJob) -> ChildJob:
    job.start()
    while job.progress is None and not job.wait(0.05):
        pass
    assert job.progress == {"frame": 1} and not job.ended  # one object, as it was sent
    return job


def test_a_child_given_grace_is_asked_to_stop_and_stops_itself() -> None:
    """The window's video export: asked to stop, it stops between frames and its own
    cleanup runs (its temporary file removed) rather than being killed in the middle."""
    job = _started(ChildJob(_until_asked, what="export", grace=60.0))
    job.cancel()
    assert job.wait(60.0)
    assert job.cancelled and job.error == "cancelled" and job.result is None
    # it ended itself, not killed (its exit code raced the job's own reaper thread, which
    # may have collected it first: None now and then)
    assert not job.killed


def test_a_child_that_does_not_stop_when_asked_is_killed() -> None:
    job = _started(ChildJob(_deaf, what="export", grace=0.2))
    job.cancel()
    assert job.wait(30.0)
    assert job.cancelled and job.error == "cancelled"
    assert job.killed and job._process.exitcode == -signal.SIGKILL
