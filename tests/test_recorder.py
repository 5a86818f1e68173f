"""Recording: a file source's media-time stamps and its sound across a loop; live sources and
stills timed by the clock, the last picture held until the stop; the file's name."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np
import pytest
from videoclips import audio_seconds, make_clip

from aquarelle.ui.recorder import Recorder


def test_loop_during_recording_keeps_picture_and_sound_in_step(tmp_path: Path) -> None:
    clip = make_clip(tmp_path / "src.mp4", size=(32, 24), frames=10, fps=10, audio=True)
    rec = Recorder(tmp_path / "rec.mp4", fps=10, audio_source=clip.path)
    frame = np.zeros((24, 32, 3), np.uint8)
    # Frames 0.7, 0.8, 0.9 s, then the file loops to 0.0, 0.1; 0.1 again is a re-render.
    for pts in (0.7, 0.8, 0.9, 0.0, 0.1, 0.1):
        rec.push(frame, pts)
    out = rec.stop()
    assert out == tmp_path / "rec.mp4" and rec.sound_error is None
    starts = [v for s in rec.segments for v in (s.out_start, s.src_start)]
    assert starts == pytest.approx([0.0, 0.7, 0.3, 0.0])
    with av.open(str(out)) as c:
        times = [float(f.pts * f.time_base) for f in c.decode(video=0)]
    assert times == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4], abs=1e-3)
    # 0.7..1.0 s of the source, then 0.0..0.2 s: half a second of sound under 5 frames.
    assert audio_seconds(out, 1) == pytest.approx(0.5, abs=0.05)
    assert not list(tmp_path.glob("*.part*"))


def test_live_source_is_timed_by_the_clock_and_silent(tmp_path: Path) -> None:
    rec = Recorder(tmp_path / "live.mp4", fps=30, clock=lambda: 0.0)  # stopped at once
    for _ in range(3):
        rec.push(np.zeros((24, 32, 3), np.uint8), None)
    out = rec.stop()
    with av.open(str(out)) as c:
        assert not c.streams.audio
        assert c.streams.video[0].frames == 3


def test_a_recording_keeps_odd_sides_and_says_its_colours(tmp_path: Path) -> None:
    # tagged BT.709 limited range, as exports are (untagged, players guess BT.709 for HD
    # while the conversion used BT.601), the last column and row repeated to even sides;
    # frames packed on the GPU (yuv420p bytes) record the same picture as RGB ones
    from av.video.reformatter import ColorRange, Colorspace
    from conftest import smooth_noise, to_u8

    from aquarelle.engine.yuv_pack import packed_array
    from aquarelle.media.video_writer import pad_to

    rgb = to_u8(smooth_noise(25, 33, seed=3, sigma=3))
    padded = pad_to(rgb, 34, 26)
    sws = av.VideoFrame.from_ndarray(padded, format="rgb24").reformat(
        format="yuv420p", dst_colorspace=Colorspace.ITU709, dst_color_range=ColorRange.MPEG)
    packed = packed_array(sws.to_ndarray().tobytes(), (34, 26))
    shown = {}
    for name, frame in (("rgb", rgb), ("packed", packed)):
        rec = Recorder(tmp_path / f"{name}.mp4", fps=30, clock=lambda: 0.0)
        for _ in range(2):
            rec.push(frame, None)
        out = rec.stop()
        assert out is not None and rec.frames == 2
        with av.open(str(out)) as c:
            cc = c.streams.video[0].codec_context
            assert (cc.width, cc.height) == (34, 26)
            assert (cc.colorspace, cc.color_primaries, cc.color_trc) == (1, 1, 1)
            f = next(c.decode(video=0))
            shown[name] = f.reformat(format="rgb24", src_colorspace=Colorspace.ITU709,
                                     src_color_range=ColorRange.MPEG).to_ndarray()
    for picture in shown.values():
        assert np.abs(picture[:25, :33].astype(int) - rgb).mean() < 3.0
    assert np.abs(shown["rgb"].astype(int) - shown["packed"]).mean() < 0.5


def frame_times(path: Path) -> list[float]:
    with av.open(str(path)) as c:
        return [float(f.pts * f.time_base) for f in c.decode(video=0)]


# first_at 2.5: a GPU's readback ring hands the still's frame over only at the stop
@pytest.mark.parametrize("first_at", [0.0, 2.5])
def test_a_clock_timed_recording_holds_its_last_picture_until_it_stops(
        tmp_path: Path, first_at: float) -> None:
    # a still is painted once: its recording was one frame long, however long it ran
    now = [100.0]
    rec = Recorder(tmp_path / "still.mp4", fps=30, clock=lambda: now[0])
    now[0] += first_at
    rec.push(np.zeros((24, 32, 3), np.uint8), None)
    now[0] = 102.5
    out = rec.stop()
    assert out is not None and rec.seconds == pytest.approx(2.5)
    assert frame_times(out) == pytest.approx([0.0, 2.5], abs=1e-3)


def test_a_still_changed_while_recording_is_held_between_changes(tmp_path: Path) -> None:
    now = [0.0]
    rec = Recorder(tmp_path / "still.mp4", fps=30, clock=lambda: now[0])
    for t, value in ((0.0, 10), (1.0, 200), (4.0, None)):  # a slider moved at 1 s
        now[0] = t
        if value is not None:
            rec.push(np.full((24, 32, 3), value, np.uint8), None)
    out = rec.stop()
    assert out is not None
    with av.open(str(out)) as c:
        shown = [(round(float(f.pts * f.time_base), 3), int(f.to_ndarray(format="rgb24").mean()))
                 for f in c.decode(video=0)]
    assert [t for t, _ in shown] == [0.0, 1.0, 4.0]
    assert [v > 100 for _, v in shown] == [False, True, True]  # the last picture held


@pytest.mark.parametrize("name", ["rec.xyz", "rec.mkv", "rec"])
def test_a_recording_not_named_mp4_is_refused_before_any_file(tmp_path: Path,
                                                              name: str) -> None:
    # it was written as MP4 under any name, without a word
    from aquarelle.engine.errors import AquarelleError

    with pytest.raises(AquarelleError) as e:
        Recorder(tmp_path / name, fps=30)
    assert str(e.value) == (f"cannot record to {tmp_path / name}: a recording is an MP4 "
                            "video; name it rec.mp4")
    assert not list(tmp_path.iterdir())
