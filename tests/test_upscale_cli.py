"""`aquarelle render --style upscale`: images and videos enlarged, frame-exact, with sound.
(Apart from test_upscale.py: each command opens and releases its own GL context.)"""

from __future__ import annotations

from pathlib import Path

import av
import cv2
import skimage.data

from aquarelle.cli.main import main


def test_cli_upscales_an_image(tmp_path: Path, capsys):
    src = tmp_path / "in.png"
    cv2.imwrite(str(src), (skimage.data.astronaut()[::4, ::4, ::-1]).copy())
    out = tmp_path / "out.png"
    assert main(["render", str(src), "-o", str(out), "--style", "upscale", "--set",
                 "factor=3"]) == 0
    img = cv2.imread(str(out))
    assert img.shape == (384, 384, 3)


def test_cli_upscales_a_video_frame_exact_with_sound(tmp_path: Path):
    from videoclips import make_clip

    clip_with_audio = make_clip(tmp_path / "in.mp4", size=(96, 64), frames=12).path
    out = tmp_path / "up.mp4"
    assert main(["render", str(clip_with_audio), "-o", str(out), "--style", "upscale", "-q"]) == 0
    with av.open(str(clip_with_audio)) as a, av.open(str(out)) as b:
        va, vb = a.streams.video[0], b.streams.video[0]
        assert (vb.width, vb.height) == (2 * va.width, 2 * va.height)
        assert len(b.streams.audio) == len(a.streams.audio) == 1
        frames_in = sum(1 for _ in a.decode(video=0))
        frames_out = sum(1 for _ in b.decode(video=0))
    assert frames_out == frames_in
