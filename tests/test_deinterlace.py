"""Interlaced video is made progressive before it is painted (media/deinterlace.py): the
same frames and timestamps, without the fields' combing; progressive video untouched."""

from __future__ import annotations

import av
import numpy as np
import pytest
from videoclips import make_clip

from aquarelle.media.video_reader import VideoReader

W, H, FRAMES = 96, 64, 10


def fields_clip(path, interlaced: bool):
    """A bar moving between fields: the top field's rows hold it at x, the bottom field's
    4 px on (what an interlaced camera records), coded interlaced (x264 tff) or not."""
    opts = {"x264-params": "tff=1"} if interlaced else {}
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=25, options={**opts, "qp": "0"})
        vs.width, vs.height, vs.pix_fmt = W, H, "yuv420p"
        for i in range(FRAMES):
            img = np.zeros((H, W, 3), np.uint8)
            x = 6 * i
            img[::2, x:x + 8] = 255
            img[1::2, x + 4:x + 12] = 255
            frame = av.VideoFrame.from_ndarray(img, format="rgb24").reformat(format="yuv420p")
            for packet in vs.encode(frame):
                out.mux(packet)
        for packet in vs.encode(None):
            out.mux(packet)
    return path


def combing(img: np.ndarray) -> float:
    """How much neighbouring rows differ beyond what rows two apart do (0: no combing)."""
    g = img[..., :3].astype(float).mean(axis=2)
    return float(np.abs(g[1:-1] - (g[:-2] + g[2:]) / 2).mean())


def raw(path) -> tuple[list[np.ndarray], list[int], list[bool]]:
    with av.open(str(path)) as c:
        frames = list(c.decode(video=0))
    return ([f.to_ndarray(format="rgb24") for f in frames], [f.pts for f in frames],
            [f.interlaced_frame for f in frames])


def test_interlaced_frames_are_made_progressive_one_for_one(tmp_path):
    src = fields_clip(tmp_path / "in.mkv", interlaced=True)
    decoded, pts, flags = raw(src)
    assert all(flags)  # the file says interlaced
    with VideoReader(src) as reader:
        frames = list(reader.frames())
        assert reader.deinterlaced
    assert [f.pts for f in frames] == pts
    before = np.mean([combing(f) for f in decoded])
    after = np.mean([combing(f.image) for f in frames])
    assert after < 0.4 * before, (before, after)
    # a seek and a second walk give the same frames
    with VideoReader(src) as reader:
        again = list(reader.frames(start=4 / 25))
    assert [f.pts for f in again] == pts[4:]
    assert all(np.array_equal(a.image, b.image) for a, b in zip(again[1:], frames[5:],
                                                                   strict=True))


def test_progressive_video_is_not_filtered(tmp_path):
    clip = make_clip(tmp_path / "in.mp4", size=(W, H), frames=6, audio=False)
    decoded, _, flags = raw(clip.path)
    assert not any(flags)
    with VideoReader(clip.path) as reader:
        frames = list(reader.frames())
        assert not reader.deinterlaced
    assert len(frames) == 6
    for f, d in zip(frames, decoded, strict=True):
        assert np.array_equal(f.image[..., :3], d)


@pytest.mark.parametrize("ext", [".mp4", ".gif"])
def test_the_summary_says_the_video_was_deinterlaced(tmp_path, capsys, ext):
    from aquarelle.cli.main import main

    src = fields_clip(tmp_path / "in.mkv", interlaced=True)
    assert main(["render", str(src), "-o", str(tmp_path / f"out{ext}"),
                 "--set", "temporal=0"]) == 0
    assert "deinterlaced (bwdif)" in capsys.readouterr().err
    if ext != ".gif":
        _, _, flags = raw(tmp_path / f"out{ext}")
        assert len(flags) == FRAMES and not any(flags)
