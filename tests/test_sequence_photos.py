"""An image sequence of photos is read as each photo is read (trial V4, finding 3): upright by
its EXIF orientation, its colour profile converted to sRGB, a frame of another size fitted
and named, and frames written out keeping each photo's EXIF and resolution."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from test_colour_profile import DISPLAY_P3, _png16, broken, colourful, converted
from test_files_truth import _shared_context_current_again, render  # noqa: F401 - fixture

from aquarelle.cli.main import main
from aquarelle.media.colour_profile import ColourProfileWarning
from aquarelle.media.image_read import read_image
from aquarelle.media.video_reader import VideoReader

RED, GREY = (220, 30, 30), (128, 128, 128)


def phone_frames(folder: Path, n: int = 3) -> Path:
    """`n` JPEGs stored 48x64 (portrait) with EXIF orientation 6 (shown turned a quarter
    clockwise: 64x48), a red corner stored at the top left (shown at the top right), 300 dpi
    and each its own time."""
    folder.mkdir()
    for k in range(n):
        stored = np.full((64, 48, 3), GREY, np.uint8)
        stored[:16, :16] = RED
        exif = Image.Exif()
        exif[0x0112] = 6
        exif[0x0110] = "Phone"  # Model
        exif[0x0132] = f"2026:05:01 10:00:0{k}"  # DateTime
        Image.fromarray(stored).save(folder / f"{k + 1:04d}.jpg", quality=95, exif=exif,
                                     dpi=(300, 300))
    return folder / "%04d.jpg"


@pytest.mark.parametrize("rgba", [False, True])
def test_a_phone_sequence_is_read_upright(tmp_path, rgba):
    pattern = phone_frames(tmp_path / "seq")
    with VideoReader(pattern, rgba=rgba) as reader:
        frames = [f.image for f in reader.frames()]
    assert len(frames) == 3
    assert {f.shape[:2] for f in frames} == {(48, 64)}  # 64x48 upright, not 48x64
    top_left, top_right = frames[0][4, 4, :3], frames[0][4, 60, :3]
    assert np.abs(top_right.astype(int) - RED).max() < 12, top_right
    assert np.abs(top_left.astype(int) - GREY).max() < 12, top_left
    still = read_image(tmp_path / "seq" / "0001.jpg").rgb  # as the single photo is read
    assert np.abs(frames[0][:, :, :3].astype(int) - still).mean() < 2


@pytest.mark.parametrize("rgba", [False, True])
@pytest.mark.parametrize("depth", [8, 16])
def test_a_display_p3_sequence_is_converted_as_its_photos_are(tmp_path, rgba, depth):
    (tmp_path / "seq").mkdir()
    rgb = converted(colourful(64, 48), DISPLAY_P3)  # sRGB colours stored as P3
    for k in range(2):
        path = tmp_path / "seq" / f"{k + 1:04d}.png"
        if depth == 8:
            Image.fromarray(rgb).save(path, icc_profile=DISPLAY_P3)
        else:
            _png16(path, rgb.astype(np.uint16) * 257, DISPLAY_P3)
    still = read_image(tmp_path / "seq" / "0001.png").rgb
    with VideoReader(tmp_path / "seq" / "%04d.png", rgba=rgba, deep=None) as reader:
        frames = [f.image for f in reader.frames()]
    assert len(frames) == 2 and frames[0].dtype == still.dtype
    assert np.array_equal(frames[1][:, :, :3], still)  # P3's values were read as sRGB
    assert not np.array_equal(still, rgb if depth == 8 else rgb.astype(np.uint16) * 257)
    if rgba:
        assert (frames[0][:, :, 3] == (255 if depth == 8 else 65535)).all()


def test_a_profile_that_cannot_be_read_is_said_once(tmp_path):
    (tmp_path / "seq").mkdir()
    rgb = colourful(64, 48)
    for k in range(3):
        Image.fromarray(rgb).save(tmp_path / "seq" / f"{k + 1:04d}.png",
                                  icc_profile=broken(DISPLAY_P3))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with VideoReader(tmp_path / "seq" / "%04d.png") as reader:
            frames = [f.image for f in reader.frames()]
    told = [str(w.message) for w in caught if issubclass(w.category, ColourProfileWarning)]
    assert told == ["0001.png: its colour profile cannot be read; its colours are painted as "
                    "if they were sRGB"]
    assert all(np.array_equal(f, rgb) for f in frames)


def mixed_frames(folder: Path) -> Path:
    """Five 64x48 PNGs, the third 66x48 (a column more each side)."""
    folder.mkdir()
    for k in range(5):
        w = 66 if k == 2 else 64
        rgb = np.zeros((48, w, 3), np.uint8)
        rgb[:, :, 0] = np.arange(w, dtype=np.uint8)[None, :] * 3
        rgb[:, :, 1] = 40 * k
        Image.fromarray(rgb).save(folder / f"{k + 1:04d}.png")
    return folder / "%04d.png"


def test_a_frame_of_another_size_is_fitted_and_named(tmp_path):
    pattern = mixed_frames(tmp_path / "seq")
    with VideoReader(pattern) as reader:
        frames = [f.image for f in reader.frames()]
        said = reader.photos.resized() if reader.photos is not None else None
    assert {f.shape for f in frames} == {(48, 64, 3)}
    odd = np.asarray(Image.open(tmp_path / "seq" / "0003.png"))
    assert np.array_equal(frames[2], odd[:, 1:65])  # its centre, not squeezed
    assert said == (f"{pattern}: 0003.png is 66x48, not 64x48 as the first frame is; a "
                    "sequence is painted at one size, so it was cut to 64x48 about its centre")


@pytest.mark.parametrize("out", ["out.mp4", "frames/%04d.png"])
def test_the_render_says_which_frame_was_fitted(tmp_path, capsys, out):
    pattern = mixed_frames(tmp_path / "seq")
    (tmp_path / "frames").mkdir()
    code, err = render(capsys, pattern, "-o", tmp_path / out, "--style", "adjust", "-q")
    assert code == 0, err
    assert (f"aquarelle: warning: {pattern}: 0003.png is 66x48, not 64x48 as the first frame "
            "is;") in err
    if out.startswith("frames"):
        assert {Image.open(p).size for p in (tmp_path / "frames").iterdir()} == {(64, 48)}


def test_frames_written_from_photos_keep_their_exif_and_resolution(tmp_path, capsys):
    pattern = phone_frames(tmp_path / "seq")
    (tmp_path / "frames").mkdir()
    code, err = render(capsys, pattern, "-o", tmp_path / "frames/%04d.png", "--style",
                       "adjust", "-q")
    assert code == 0, err
    written = sorted((tmp_path / "frames").iterdir())
    assert len(written) == 3
    for k, path in enumerate(written):
        with Image.open(path) as im:
            assert im.size == (64, 48)  # upright
            exif = im.getexif()
            assert exif.get(0x0110) == "Phone"
            assert exif.get(0x0132) == f"2026:05:01 10:00:0{k}"  # its own photo's
            assert exif.get(0x0112, 1) == 1  # the pixels are upright
            assert im.info["dpi"] == pytest.approx((300, 300), abs=0.01)


@pytest.mark.parametrize(("fps", "gif"), [("24", False), ("30000/1001", False), ("10", True)])
def test_fps_is_a_sequences_own_rate_every_frame_kept(tmp_path, capsys, fps, gif):
    """A sequence was always read at 25 fps and --fps resampled it: 20 frames at --fps 24
    became 19, the 20th left out (trial V4). --fps is its rate now, as ffmpeg's -framerate."""
    from fractions import Fraction

    import av

    (tmp_path / "seq").mkdir()
    for k in range(20):
        Image.fromarray(np.full((16, 24, 3), 10 * k, np.uint8)).save(
            tmp_path / "seq" / f"{k + 1:04d}.png")
    out = tmp_path / ("out.gif" if gif else "out.mp4")
    assert main(["render", str(tmp_path / "seq" / "%04d.png"), "-o", str(out), "--style",
                 "adjust", "--fps", fps, "-q"]) == 0, capsys.readouterr().err
    with av.open(str(out)) as c:
        frames = list(c.decode(video=0))
        rate = c.streams.video[0].average_rate
    assert len(frames) == 20
    if gif:
        assert [f.duration * f.time_base for f in frames[:-1]] == [Fraction(1, 10)] * 19
    else:
        assert rate == Fraction(fps)
        means = [f.to_ndarray(format="gray").mean() for f in frames]
        assert np.all(np.diff(means) > 5)  # each frame once, in order
