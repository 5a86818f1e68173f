"""`aquarelle live` says the size it paints (trial X, finding 5): `--input synthetic` painted
a 64x48 test picture whatever --size asked (1280x720 only enlarged it) and the summary said
"29.2 fps, scale 1.00", no size. The test picture is made at --size (else a webcam's
640x360), and the status and summary lines name the size painted and the one fitted to."""

from __future__ import annotations

import re

import pytest
from videoclips import make_clip

from aquarelle.cli import live as live_cli
from aquarelle.cli.main import main
from aquarelle.media.live import LiveSession


@pytest.fixture
def painted(monkeypatch) -> list[tuple[int, ...]]:
    """The shapes of the frames `aquarelle live` paints."""
    shapes: list[tuple[int, ...]] = []

    class Recording(LiveSession):
        def _paint(self, frame, fitter):
            shapes.append(frame.image.shape)
            super()._paint(frame, fitter)

    monkeypatch.setattr(live_cli, "LiveSession", Recording)
    return shapes


def _summary(err: str) -> str:
    m = re.search(r"aquarelle: live: \d+ frames? in [\d.]+ s: (.*)", err)
    assert m, err
    return m.group(1)


@pytest.mark.parametrize(("size", "frame"), [(["--size", "160x90"], (90, 160, 3)),
                                             ([], (360, 640, 3))])
def test_a_synthetic_picture_is_made_at_the_size_asked(capsys, painted, size, frame):
    assert main(["live", "--input", "synthetic", *size, "--style", "adjust",
                 "--max-frames", "2", "--no-adaptive"]) == 0
    err = capsys.readouterr().err
    assert painted and set(painted) == {frame}, painted
    h, w = frame[:2]
    assert f", {w}x{h} painted at scale 1.00, " in _summary(err), err
    assert "fitted" not in err


def test_a_file_fitted_to_another_size_says_both(tmp_path, capsys, painted):
    clip = make_clip(tmp_path / "c.mp4", size=(64, 48), frames=6, audio=False)
    assert main(["live", "--input", str(clip.path), "--size", "96x64", "--style", "adjust",
                 "--max-frames", "2", "--no-adaptive", "--scale", "0.5"]) == 0
    err = capsys.readouterr().err
    assert set(painted) == {(48, 64, 3)}, painted
    assert ", 64x48 painted at scale 0.50, fitted to 96x64, " in _summary(err), err
