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
    # --size is each view's: it was the joined pair's, each view squeezed to half its width
    for output, shape in (("sbs", (32, 96, 3)), ("anaglyph", (32, 48, 3))):
        assert main(["render", str(tmp_path / "l.png"), str(tmp_path / "r.png"), "-o",
                     str(out), "-y", "--pair", "--style", "stereo", "--set",
                     f"output={output}", "--size", "48x-1", "-q"]) == 0
        assert cv2.imread(str(out)).shape == shape
    capsys.readouterr()
    assert main(["render", str(tmp_path / "l.png"), str(tmp_path / "r.png"), "-o", str(out),
                 "-y", "--pair", "--style", "watercolor", "-q"]) == 0
    assert capsys.readouterr().err == (
        "aquarelle: warning: --pair paints the two photos side by side as one picture with "
        "watercolor; --style stereo makes them one 3D picture\n")
    assert cv2.imread(str(out)).shape == (64, 192, 3)
    cv2.imwrite(str(tmp_path / "small.png"), left[:32])
    assert main(["render", str(tmp_path / "l.png"), str(tmp_path / "small.png"), "-o",
                 str(tmp_path / "x.png"), "--pair", "--style", "stereo"]) == 2
    assert "must be the same size" in capsys.readouterr().err
    # the summary names both photos (it named the left one alone)
    assert main(["render", str(tmp_path / "l.png"), str(tmp_path / "r.png"), "-o", str(out),
                 "-y", "--pair", "--style", "stereo"]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"{tmp_path / 'l.png'} + {tmp_path / 'r.png'} -> {out} (96x64)")  # (anaglyph)
    # an output naming a view is refused, -y or not (-y painted over the right view)
    kept = (tmp_path / "r.png").read_bytes()
    for view in ("l.png", "r.png"):
        assert main(["render", str(tmp_path / "l.png"), str(tmp_path / "r.png"), "-o",
                     str(tmp_path / view), "-y", "--pair", "--style", "stereo"]) == 2
        assert capsys.readouterr().err == (
            f"aquarelle render: error: output {tmp_path / view} is the input; choose another "
            "name\n")
    assert (tmp_path / "r.png").read_bytes() == kept


def test_a_transparent_photo_keeps_its_cut_out_in_each_view(tmp_path: Path):
    import cv2
    import numpy as np

    rng = np.random.default_rng(3)
    bgra = np.dstack([cv2.GaussianBlur(rng.integers(0, 255, (40, 60, 3), dtype=np.uint8),
                                       (0, 0), 1.0), np.zeros((40, 60), np.uint8)])
    bgra[10:30, 20:40, 3] = 255  # an opaque square on a clear ground
    src = tmp_path / "cut.png"
    cv2.imwrite(str(src), bgra)

    def opaque(layout: str, *more: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        out = tmp_path / f"{layout}.png"
        assert main(["render", str(src), "-o", str(out), "--style", "stereo", "--set",
                     f"output={layout}", *more, "-q"]) == 0
        seen = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)[:, :, 3] > 127

        def runs(on: np.ndarray) -> list[tuple[int, int]]:
            idx = np.flatnonzero(on)
            parts = np.split(idx, np.flatnonzero(np.diff(idx) > 1) + 1)
            return [(int(r[0]), int(r[-1])) for r in parts]
        return runs(seen.any(axis=0)), runs(seen.any(axis=1))

    assert opaque("sbs") == ([(20, 39), (80, 99)], [(10, 29)])  # 120 x 40
    assert opaque("sbs_half") == ([(10, 19), (40, 49)], [(10, 29)])  # 60 x 40
    assert opaque("tb") == ([(20, 39)], [(10, 29), (50, 69)])  # 60 x 80
    assert opaque("anaglyph") == ([(20, 39)], [(10, 29)])
    cols, rows = opaque("sbs", "--scale", "0.5")  # a draft: the same layout
    assert cols == [(20, 39), (80, 99)] and rows == [(10, 29)]
    # the app's export of a still (Ctrl+E) lays it out alike
    from aquarelle.media.still_export import export_still

    out = tmp_path / "app.png"
    assert export_still(src, out, "stereo", {"output": "tb"}) == (60, 80)
    seen = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)[:, :, 3] > 127
    assert np.array_equal(seen[:40], seen[40:]) and seen[10:30, 20:40].all()
