"""`aquarelle render --style watercolor+stereo`: a painted 3D video, frame-exact with sound.
(Apart from test_stereo.py: each command opens and releases its own GL context.)"""

from __future__ import annotations

from pathlib import Path

import av

from aquarelle.cli.main import main


def test_a_painted_side_by_side_video_keeps_every_frame_and_the_sound(tmp_path: Path):
    from videoclips import make_clip

    clip = make_clip(tmp_path / "in.mp4", size=(96, 64), frames=10).path
    out = tmp_path / "3d.mp4"
    assert main(["render", str(clip), "-o", str(out), "--style", "watercolor+stereo",
                 "--set", "output=sbs", "-q"]) == 0
    with av.open(str(clip)) as a, av.open(str(out)) as b:
        vb = b.streams.video[0]
        assert (vb.width, vb.height) == (192, 64)
        assert len(b.streams.audio) == len(a.streams.audio) == 1
        assert sum(1 for _ in b.decode(video=0)) == sum(1 for _ in a.decode(video=0))


def test_an_unknown_layout_is_one_line(tmp_path: Path, capsys):
    from videoclips import make_clip

    clip = make_clip(tmp_path / "in.mp4", size=(96, 64), frames=4).path
    out = tmp_path / "3d.mp4"
    assert main(["render", str(clip), "-o", str(out), "--style", "stereo", "--set",
                 "output=vr180"]) == 2
    err = capsys.readouterr().err.strip()
    assert "not one of anaglyph, sbs, sbs_half, tb, depth" in err and "\n" not in err
    assert not out.exists()


def test_two_photos_of_a_stereo_pair(tmp_path: Path, capsys):
    import cv2
    import numpy as np

    rng = np.random.default_rng(0)
    left = cv2.GaussianBlur(rng.integers(0, 255, (64, 96, 3), dtype=np.uint8), (0, 0), 1.0)
    right = np.roll(left, -6, axis=1)  # everything 6 px nearer the left in the right view
    cv2.imwrite(str(tmp_path / "l.png"), left)
    cv2.imwrite(str(tmp_path / "r.png"), right)
    out = tmp_path / "sbs.png"
    assert main(["render", str(tmp_path / "l.png"), str(tmp_path / "r.png"), "-o", str(out),
                 "--pair", "--style", "stereo", "--set", "output=sbs", "-q"]) == 0
    assert cv2.imread(str(out)).shape == (64, 192, 3)  # two views of 96x64
    cv2.imwrite(str(tmp_path / "small.png"), left[:32])
    assert main(["render", str(tmp_path / "l.png"), str(tmp_path / "small.png"), "-o",
                 str(tmp_path / "x.png"), "--pair", "--style", "stereo"]) == 2
    assert "must be the same size" in capsys.readouterr().err
