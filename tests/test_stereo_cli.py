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
