"""`aquarelle render`'s options that were quietly ignored or let through (a QA trial): each
case is the command that misbehaved; bad input is one line (exit status 2, no traceback)
and leaves nothing behind, an option that does not apply is one warning."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image
from videoclips import avif_photo, make_clip

from aquarelle.cli import render_frames
from aquarelle.cli.main import main
from aquarelle.media.image_types import MAX_PIXELS


def cli(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


ERROR = re.compile(r"aquarelle (render|presets): error: ")  # the command's, as argparse's


def one_error(err: str) -> str:
    """The one line of an error, its text after 'aquarelle COMMAND: error: '."""
    assert ERROR.match(err) and err.count("\n") == 1, err
    assert "Traceback" not in err
    return ERROR.sub("", err, count=1).strip()


def photo(path: Path, size: tuple[int, int] = (60, 40)) -> Path:
    img = np.zeros((size[1], size[0], 3), np.uint8)
    img[:, : size[0] // 2] = (40, 120, 200)
    img[size[1] // 2:, :] = (200, 60, 30)
    assert cv2.imwrite(str(path), img)
    return path


@pytest.fixture
def nothing_painted(monkeypatch):
    """Fails a test that gets as far as painting (a GL context made)."""
    def refuse(*_a, **_k):
        raise AssertionError("painting started")
    for module in ("render_frames", "render_image"):
        monkeypatch.setattr(f"aquarelle.cli.{module}.create_headless_context", refuse)


# -- 1. --quality for a JPEG or WebP image sequence ----------------------------------------

def _frames(folder: Path, pattern: str) -> list[Path]:
    return sorted(folder.glob(pattern))


def test_quality_applies_to_jpeg_webp_and_avif_frames(tmp_path, capsys):
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=2, audio=False)
    for name, extra in (("lo", ["--quality", "10"]), ("hi", [])):
        for ext in ("jpg", "webp", "avif"):
            code, _, err = cli(capsys, "render", clip.path, "-o", tmp_path / f"{name}_%02d.{ext}",
                               "-q", *extra)
            assert code == 0, err
            assert "--quality" not in err
    lo, hi = _frames(tmp_path, "lo_*.jpg"), _frames(tmp_path, "hi_*.jpg")
    assert len(lo) == len(hi) == 2
    with Image.open(lo[0]) as a, Image.open(hi[0]) as b:
        # quality 10's luma table quantises far coarser than the default 95's
        assert sum(a.quantization[0]) > 5 * sum(b.quantization[0])
    for a, b in zip(lo, hi, strict=True):
        assert a.stat().st_size < b.stat().st_size / 2
    lo_w, hi_w = _frames(tmp_path, "lo_*.webp"), _frames(tmp_path, "hi_*.webp")
    assert len(lo_w) == len(hi_w) == 2
    for a, b in zip(lo_w, hi_w, strict=True):
        assert a.stat().st_size < b.stat().st_size / 2
        assert cv2.imread(str(a)).shape[:2] == (48, 64)
    # (AVIF frames took it too while the warning called it ignored)
    lo_a, hi_a = _frames(tmp_path, "lo_*.avif"), _frames(tmp_path, "hi_*.avif")
    assert len(lo_a) == len(hi_a) == 2
    for a, b in zip(lo_a, hi_a, strict=True):
        assert a.stat().st_size < b.stat().st_size / 2


@pytest.mark.parametrize("out", ["f_%02d.png", "anim.gif"])
def test_quality_is_said_to_be_ignored_for_frames_without_one(tmp_path, capsys, out):
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=2, audio=False)
    code, _, err = cli(capsys, "render", clip.path, "-o", tmp_path / out, "-q",
                       "--quality", "10")
    assert code == 0, err
    assert f"warning: --quality applies to JPEG, WebP and AVIF; ignored for {out}" in err


# -- 2. a GIF of too many frames is refused before any is painted ---------------------------

def test_a_long_gif_is_refused_before_painting(tmp_path, capsys, nothing_painted):
    clip = make_clip(tmp_path / "long.mp4", size=(16, 16), frames=1501, audio=False)
    out = tmp_path / "long.gif"
    code, _, err = cli(capsys, "render", clip.path, "-o", out, "-q")
    assert code == 2
    assert one_error(err) == ("long.mp4 gives 1501 frames; a GIF holds at most 1500 frames; "
                              "use --end, --fps or a video format")
    assert not out.exists()


def test_the_gif_limit_counts_the_range_and_rate(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(render_frames, "GIF_MAX_FRAMES", 10)
    clip = make_clip(tmp_path / "in.mp4", size=(32, 24), frames=30, audio=False)
    code, _, err = cli(capsys, "render", clip.path, "-o", tmp_path / "a.gif", "-q",
                       "--start", "0.1")  # about 27 frames
    assert code == 2 and "gives about 27 frames; a GIF holds at most" in one_error(err)
    # a range or a rate that fits is painted
    code, _, err = cli(capsys, "render", clip.path, "-o", tmp_path / "b.gif", "-q",
                       "--end", "0.2")
    assert code == 0, err
    with Image.open(tmp_path / "b.gif") as im:
        assert im.n_frames == 6
    code, _, err = cli(capsys, "render", clip.path, "-o", tmp_path / "c.gif", "-q",
                       "--fps", "6")
    assert code == 0, err
    with Image.open(tmp_path / "c.gif") as im:
        assert im.n_frames == 6


def test_a_gif_of_unknown_length_still_stops_at_the_limit(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(render_frames, "GIF_MAX_FRAMES", 4)
    monkeypatch.setattr(render_frames.VideoReader, "expected_frames",
                        lambda *_a, **_k: None)
    clip = make_clip(tmp_path / "in.mp4", size=(32, 24), frames=6, audio=False)
    out = tmp_path / "a.gif"
    code, _, err = cli(capsys, "render", clip.path, "-o", out, "-q")
    assert code == 2 and "a GIF holds at most" in one_error(err)
    assert not out.exists()


# -- 3. a --size too big to paint -------------------------------------------------------------

def test_a_size_over_the_pixel_limit_is_refused_at_once(tmp_path, capsys, nothing_painted):
    src = photo(tmp_path / "p.png", (320, 213))
    limit = f"more than the {MAX_PIXELS // 1_000_000} MP aquarelle paints"
    code, _, err = cli(capsys, "render", src, "-o", tmp_path / "e.png", "--size",
                       "100000x100000")
    assert code == 2 and one_error(err) == (f"--size 100000x100000: 10000 MP, {limit}; give a "
                                            "smaller size")
    # a -1 side is resolved against the picture, as the render resolves it
    code, _, err = cli(capsys, "render", src, "-o", tmp_path / "e.png", "--size", "100000x-1")
    assert code == 2 and one_error(err) == (f"--size 100000x-1 gives 100000x66562 for p.png: "
                                            f"6656 MP, {limit}; give a smaller size")
    assert not (tmp_path / "e.png").exists()
    # a batch of stills: before any file
    (tmp_path / "in").mkdir()
    photo(tmp_path / "in" / "a.png")
    code, _, err = cli(capsys, "render", tmp_path / "in", "-o", tmp_path / "out", "--size",
                       "-1x100000")
    assert code == 2 and "gives 150000x100000 for a.png" in one_error(err)
    assert not (tmp_path / "out").exists()


def test_a_video_size_is_refused_in_one_line_naming_the_limit(tmp_path, capsys):
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=2, audio=False)
    out = tmp_path / "o.mp4"
    code, _, err = cli(capsys, "render", clip.path, "-o", out, "--size", "50000x50000")
    assert code == 2 and "2500 MP, more than the 1000 MP" in one_error(err)
    code, _, err = cli(capsys, "render", clip.path, "-o", out, "--size", "20000x-1")
    assert code == 2 and one_error(err) == ("--size 20000x-1: in.mp4's frames are at most "
                                            "16384 px a side; give a smaller size")
    assert not out.exists()
    # a -1 side resolved against the frames (a GIF): the size it gives is named
    code, _, err = cli(capsys, "render", clip.path, "-o", tmp_path / "o.gif", "--size",
                       "-1x16000")
    assert code == 2 and one_error(err) == ("--size -1x16000 gives 21334x16000: in.mp4's "
                                            "frames are at most 16384 px a side; give a "
                                            "smaller size")
    assert not (tmp_path / "o.gif").exists()
    # a folder holding a video: before any file
    (tmp_path / "in").mkdir()
    make_clip(tmp_path / "in" / "v.mp4", size=(64, 48), frames=2, audio=False)
    photo(tmp_path / "in" / "a.png")
    code, _, err = cli(capsys, "render", tmp_path / "in", "-o", tmp_path / "out", "--size",
                       "17000x-1")
    assert code == 2 and "v.mp4's frames are at most 16384 px a side" in one_error(err)
    assert not (tmp_path / "out").exists()


# -- 4. --name takes plain {stem} and {ext} only ---------------------------------------------

@pytest.mark.parametrize("template", ["{stem.upper}", "{stem!r}", "{stem:>10}", "{stem[0]}",
                                      "{0}", "{}", "{stem", "{name}"])
def test_name_takes_plain_fields_only(tmp_path, capsys, template, nothing_painted):
    src = photo(tmp_path / "a.png")
    out = tmp_path / "out"
    code, _, err = cli(capsys, "render", src, "-o", f"{out}/", "--name", template)
    assert code == 2
    assert one_error(err) == f"--name {template!r}: use {{stem}} and {{ext}} only"
    assert not out.exists() or not any(out.iterdir())


def test_name_with_plain_fields_and_braces(tmp_path, capsys):
    src = photo(tmp_path / "a.png")
    code, _, err = cli(capsys, "render", src, "-o", f"{tmp_path / 'out'}/", "-q",
                       "--name", "{stem}_{ext}_{{x}}")
    assert code == 0, err
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["a_png_{x}.png"]


# -- 5. an empty name is no folder ------------------------------------------------------------

def test_an_empty_input_or_output_name_is_refused(tmp_path, capsys, monkeypatch,
                                                  nothing_painted):
    work = tmp_path / "work"
    work.mkdir()
    photo(work / "a.png")
    monkeypatch.chdir(work)
    code, _, err = cli(capsys, "render", "", "-o", "../out/")
    assert code == 2 and one_error(err).startswith("an empty input name")
    assert not (tmp_path / "out").exists()
    code, _, err = cli(capsys, "render", "a.png", "-o", "")
    assert code == 2 and one_error(err).startswith("-o: an empty output name")
    assert sorted(p.name for p in work.iterdir()) == ["a.png"]


# -- 7. a chain lists the user's presets as the user's ----------------------------------------

def test_a_chain_labels_user_presets_as_yours(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    folder = tmp_path / "xdg" / "aquarelle" / "presets" / "watercolor"
    folder.mkdir(parents=True)
    (folder / "mine.json").write_text(json.dumps(
        {"name": "mine", "style": "watercolor", "values": {"dilution": 0.3}}))
    code, out, err = cli(capsys, "presets")
    assert code == 0, err
    [plain] = [line for line in out.splitlines() if line.startswith("mine ")]
    assert plain.endswith("(yours, 1 value)")
    code, out, err = cli(capsys, "presets", "denoise+watercolor")
    assert code == 0, err
    [chained] = [line for line in out.splitlines() if line.startswith("mine ")]
    assert chained.endswith("watercolor: no description (yours, 1 value)")
    builtin = [line for line in out.splitlines() if line.startswith("sepia ")]
    assert builtin and builtin[0].rstrip().endswith("values)") and "(built in, " in builtin[0]
    code, out, err = cli(capsys, "presets", "show", "mine", "--style", "denoise+watercolor")
    assert code == 0, err
    assert out.splitlines()[0] == "mine: watercolor: no description (yours, 1 value)"


def test_a_chains_preset_asked_for_with_another_style_names_its_chain(tmp_path, capsys,
                                                                      monkeypatch):
    # "My Chain", saved by the app for adjust+watercolor, with --style watercolor: "unknown
    # preset; valid presets: dry_brush, ..." (watercolor's built-ins), though it exists.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    folder = tmp_path / "xdg" / "aquarelle" / "presets" / "adjust+watercolor"
    folder.mkdir(parents=True)
    (folder / "My Chain.json").write_text(json.dumps(
        {"name": "My Chain", "style": "adjust+watercolor", "values": {"adjust.exposure": 0.2}}))
    photo(tmp_path / "a.png")
    code, _, err = cli(capsys, "render", tmp_path / "a.png", "-o", tmp_path / "b.png",
                       "--style", "watercolor", "--preset", "My Chain")
    assert code == 2 and one_error(err) == ("preset 'My Chain' is for style "
                                            "'adjust+watercolor', not 'watercolor': add "
                                            "--style adjust+watercolor")
    assert not (tmp_path / "b.png").exists()


# -- 8. video options a GIF, frames or a still have no use for are said -------------------------

def test_video_file_options_are_said_to_be_ignored_for_a_gif(tmp_path, capsys):
    clip = make_clip(tmp_path / "in.mp4", size=(32, 24), frames=2, audio=False)
    code, _, err = cli(capsys, "render", clip.path, "-o", tmp_path / "a.gif", "-q",
                       "--codec", "h265", "--crf", "20", "--speed", "fast", "--end", "1")
    assert code == 0, err
    for option in ("--codec", "--crf", "--speed"):
        assert f"warning: {option} applies to video files written; ignored for a.gif" in err
    assert "--end" not in err  # it does apply
    with Image.open(tmp_path / "a.gif") as im:
        assert im.n_frames == 2


def test_cluster_is_said_to_be_ignored_for_an_image(tmp_path, capsys):
    src = photo(tmp_path / "a.png")
    code, _, err = cli(capsys, "render", src, "-o", tmp_path / "o.png", "-q", "--cluster")
    assert code == 0, err
    assert "warning: --cluster applies to videos; ignored for a.png" in err
    assert cv2.imread(str(tmp_path / "o.png")).shape[:2] == (40, 60)


@pytest.mark.parametrize("seed", ["4294967297", "-1", "2147483648", "1.5"])
def test_a_seed_out_of_range_is_refused_not_wrapped(tmp_path, capsys, seed):
    # the shaders take 31 bits of the seed: 4294967297 painted what 1 paints, -1 what
    # 2147483647 paints, and nothing said so
    src = photo(tmp_path / "p.png")
    with pytest.raises(SystemExit) as exited:  # argparse's one-line error
        main(["render", str(src), "-o", str(tmp_path / "o.png"), "--seed", seed])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.count("\n") == 1 and "argument --seed" in err
    assert not (tmp_path / "o.png").exists()


def test_the_largest_seed_is_taken(tmp_path, capsys):
    code, _, err = cli(capsys, "render", photo(tmp_path / "p.png"), "-o", tmp_path / "o.png",
                       "--seed", "2147483647")
    assert code == 0, err


def test_an_avif_photo_is_painted_as_a_still(tmp_path, capsys):
    # FFmpeg reads an AVIF (or HEIF) photo as a one-frame video: it was refused as "a video,
    # which cannot be written as .png"
    img = np.zeros((96, 128, 3), np.uint8)
    img[:48] = (200, 60, 30)
    src = avif_photo(tmp_path / "photo.avif", img)
    code, _, err = cli(capsys, "render", src, "-o", tmp_path / "out.png")
    assert code == 0, err
    painted = cv2.imread(str(tmp_path / "out.png"))
    assert painted.shape == (96, 128, 3)
    # a video of two frames is still refused for a picture output, in one line
    clip = make_clip(tmp_path / "two.mp4", size=(64, 48), frames=2, audio=False)
    code, _, err = cli(capsys, "render", clip.path, "-o", tmp_path / "two.png")
    assert code == 2 and "is a video" in one_error(err)


def test_a_name_template_refused_leaves_no_folder(tmp_path, capsys):
    out = tmp_path / "out"
    code, _, err = cli(capsys, "render", photo(tmp_path / "p.png"), "-o", f"{out}/",
                       "--name", "../x{stem}")
    assert code == 2 and "--name" in one_error(err) and not out.exists()


def test_an_empty_picture_is_said_to_be_empty(tmp_path, capsys):
    src = tmp_path / "empty.png"
    src.write_bytes(b"")
    code, _, err = cli(capsys, "render", src, "-o", tmp_path / "o.png")
    assert code == 2 and one_error(err) == f"{src} is empty (0 bytes)"


def test_frames_written_over_a_longer_earlier_render_are_noted(tmp_path, capsys):
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=3, audio=False)
    (tmp_path / "frames").mkdir()
    for k in range(1, 7):  # an earlier render of six frames
        (tmp_path / "frames" / f"{k:04d}.png").write_bytes(b"old")
    code, _, err = cli(capsys, "render", clip.path, "-o", tmp_path / "frames" / "%04d.png",
                       "--set", "temporal=0")
    assert code == 0, err
    assert "0004.png and on are from before: this render wrote 3 frames" in err
