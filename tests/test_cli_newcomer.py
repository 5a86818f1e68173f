"""What a newcomer tripped on with `aquarelle render` (issue 17): each case is the exact
command that failed, run as the user ran it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import cv2
import numpy as np
import pytest
from videoclips import decode_video, make_clip, numbered_frames

from aquarelle.cli.common import frame_rate
from aquarelle.cli.main import main
from aquarelle.engine.presets import list_presets


def cli(capsys, *argv: object) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


def photo(path: Path, size: tuple[int, int] = (60, 40)) -> Path:
    img = np.zeros((size[1], size[0], 3), np.uint8)
    img[:, : size[0] // 2] = (40, 120, 200)
    cv2.imwrite(str(path), img)
    return path


def test_size_with_a_negative_width_as_two_words(tmp_path, capsys):
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=3, audio=False)
    code, err = cli(capsys, "render", clip.path, "-o", tmp_path / "out.mp4", "--size", "-1x90")
    assert code == 0, err
    frames = decode_video(tmp_path / "out.mp4")[0]
    assert frames[0].shape[:2] == (90, 120)


def test_size_applies_to_images_and_video_options_are_warned_about(tmp_path, capsys):
    src = photo(tmp_path / "p.png")
    code, err = cli(capsys, "render", src, "-o", tmp_path / "o.png", "--size", "-1x90",
                    "--codec", "h264", "--start", "1")
    assert code == 0, err
    # a still keeps the aspect to the nearest pixel (60x40 -> 135x90), not to an even
    # width as a 4:2:0 video needs
    assert cv2.imread(str(tmp_path / "o.png")).shape[:2] == (90, 135)
    assert "--codec applies to videos; ignored" in err and "--start applies to videos" in err


def test_two_inputs_and_a_file_name_is_an_error_not_a_folder(tmp_path, capsys):
    a, b = photo(tmp_path / "a.png"), photo(tmp_path / "b.png")
    code, err = cli(capsys, "render", a, b, "-o", tmp_path / "single.png")
    assert code == 2 and "names a file, but there are several inputs" in err
    assert not (tmp_path / "single.png").exists()


def test_one_input_into_a_folder(tmp_path, capsys):
    src = photo(tmp_path / "p.png")
    (tmp_path / "existing").mkdir()
    assert cli(capsys, "render", src, "-o", tmp_path / "existing")[0] == 0
    assert (tmp_path / "existing" / "p.png").is_file()
    assert cli(capsys, "render", src, "-o", f"{tmp_path / 'new'}/")[0] == 0
    assert (tmp_path / "new" / "p.png").is_file()
    clip = make_clip(tmp_path / "v.mkv", frames=2, audio=False)
    assert cli(capsys, "render", clip.path, "-o", f"{tmp_path / 'videos'}/")[0] == 0
    assert (tmp_path / "videos" / "v.mkv").is_file()  # (Matroska stays Matroska)
    # the batch options name what goes into a folder for one input as for several
    assert cli(capsys, "render", clip.path, "-o", f"{tmp_path / 'videos'}/", "--format",
               "mkv", "--name", "{stem}_painted")[0] == 0
    assert (tmp_path / "videos" / "v_painted.mkv").is_file()
    assert cli(capsys, "render", src, "-o", tmp_path / "existing", "--name", "{stem}_wc")[0] == 0
    assert (tmp_path / "existing" / "p_wc.png").is_file()
    # ... and are said to be ignored where -o names the file
    code, err = cli(capsys, "render", clip.path, "-o", tmp_path / "f.mp4", "--format", "webm")
    assert code == 0 and (tmp_path / "f.mp4").is_file()
    assert "--format names the files written into a folder" in err and "ignored" in err


def test_image_and_codec_options_a_video_cannot_use_are_refused_or_said(tmp_path, capsys):
    clip = make_clip(tmp_path / "v.mp4", frames=2, audio=False)
    code, err = cli(capsys, "render", clip.path, "-o", tmp_path / "a.mp4", "--quality", "500")
    assert code == 2 and err == "aquarelle render: error: --quality must be 1 to 100, got 500\n"
    assert not (tmp_path / "a.mp4").exists()
    code, err = cli(capsys, "render", clip.path, "-o", tmp_path / "b.mp4", "--quality", "50")
    assert code == 0 and "--quality applies to JPEG, WebP and AVIF images" in err
    code, err = cli(capsys, "render", clip.path, "-o", tmp_path / "c.mov", "--codec", "prores",
                    "--speed", "veryslow")
    assert code == 0 and "--speed does not apply to prores and was ignored" in err


def test_a_commands_errors_all_say_its_name(tmp_path, capsys):
    """argparse's errors said 'aquarelle live: error:', the checks after it 'aquarelle:
    error:'; a batch's failed file too: now each command's errors say its name alike."""
    clip = make_clip(tmp_path / "v.mp4", frames=3, audio=False).path
    for argv, prog in ((["live", "--fps", "x"], "aquarelle live"),
                       (["live", "--camera", "nosuch", "--max-frames", "1"], "aquarelle live"),
                       (["eval", "flicker", clip], "aquarelle eval flicker"),
                       (["eval", "flicker", clip, tmp_path / "none.mp4"],
                        "aquarelle eval flicker"),
                       (["render", clip, "-o", tmp_path / "o.mp4", "--crf", "99"],
                        "aquarelle render")):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as stop:  # argparse's own
            code = stop.code
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and err.startswith(f"{prog}: error: "), err
    code, err = cli(capsys, "render", photo(tmp_path / "p.png"), tmp_path / "none.png", "-o",
                    f"{tmp_path}/out/", "-q")
    assert code == 2 and f"aquarelle render: error: no such file: {tmp_path / 'none.png'}" \
        in err.splitlines(), err


@pytest.mark.parametrize("argv", [
    ["bench-live", "--sizes", "320x240", "--seconds", "1", "--write", "{tmp}/none/B.md"],
    ["bench-live", "--sizes", "320x240", "--seconds", "1", "--fps", "1000"],
    ["bench", "--sizes", "64x48", "--write", "{tmp}/none/B.md"],
    ["render", "{clip}", "-o", "{tmp}/o.mp4", "--cluster", "--work-dir", "{clip}"],
    ["eval", "flicker", "{clip}", "{clip}", "--max-frames", "-5"],
])
def test_tool_options_are_refused_in_one_line_before_any_work(tmp_path, capsys, argv):
    clip = make_clip(tmp_path / "v.mp4", frames=3, audio=False).path
    args = [a.format(tmp=tmp_path, clip=clip) for a in argv]
    code, err = cli(capsys, *args)
    prog = " ".join(argv[:2] if argv[0] == "eval" else argv[:1])  # the command's own prefix
    assert code == 2 and err.count("\n") == 1 and err.startswith(f"aquarelle {prog}: error: "), err
    assert not (tmp_path / "o.mp4").exists()


def test_cluster_options_without_the_cluster_are_said_to_be_ignored(tmp_path, capsys):
    clip = make_clip(tmp_path / "v.mp4", frames=2, audio=False).path
    code, err = cli(capsys, "render", clip, "-o", tmp_path / "o.mp4", "--chunk", "1",
                    "--work-dir", tmp_path)
    assert code == 0 and "--chunk and --work-dir apply with --cluster; ignored" in err
    code, err = cli(capsys, "render", clip, "-o", tmp_path / "p.mp4", "--resume")
    assert code == 0 and err.startswith("aquarelle: warning: --resume applies with --cluster; "
                                        "ignored\n")


def test_an_empty_preset_name_is_refused(tmp_path, capsys):
    code, err = cli(capsys, "render", photo(tmp_path / "p.png"), "-o", tmp_path / "o.png",
                    "--preset", "")
    assert code == 2 and err.count("\n") == 1 and "--preset needs a name" in err
    assert not (tmp_path / "o.png").exists()


def test_a_text_file_is_blamed_as_input(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    code, err = cli(capsys, "render", notes, "-o", tmp_path / "out.png")
    assert code == 2 and "notes.txt is not an image or a video" in err
    assert "output" not in err and not (tmp_path / "out.png").exists()


def test_batch_names_keep_the_real_file_and_say_what_was_skipped(tmp_path, capsys):
    src = tmp_path / "src"
    src.mkdir()
    make_clip(src / "x.mov", frames=2, audio=False)
    make_clip(src / "x.mp4", frames=3, audio=False)
    (src / "notes.txt").write_text("not media")
    (src / "sub").mkdir()
    out = tmp_path / "out"
    code, err = cli(capsys, "render", src, "-o", out)
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["x.mp4", "x_mov.mp4"]
    assert len(decode_video(out / "x.mp4")[0]) == 3  # the real x.mp4 kept its name
    assert "skipped" in err and "notes.txt" in err and "sub/" in err


def test_a_truncated_file_reports_exactly_what_is_missing(tmp_path, capsys):
    clip = make_clip(tmp_path / "t.mkv", size=(64, 48), frames=45, audio=False)
    data = clip.path.read_bytes()
    cut = tmp_path / "cut.mkv"
    cut.write_bytes(data[: len(data) * 6 // 10])
    code, err = cli(capsys, "render", cut, "-o", tmp_path / "o.mp4")
    assert code == 0, err
    frames = decode_video(tmp_path / "o.mp4")[0]
    assert f"{45 - len(frames)} frame(s) could not be decoded" in err


def test_vorbis_from_mkv_is_transcoded_for_mp4(tmp_path, capsys):
    import av

    clip = make_clip(tmp_path / "v.mkv", frames=6, audio_codec="vorbis")
    code, err = cli(capsys, "render", clip.path, "-o", tmp_path / "o.mp4")
    assert code == 0, err
    with av.open(str(tmp_path / "o.mp4")) as c:
        assert c.streams.audio[0].codec_context.name == "aac"  # players play it
    assert "vorbis -> aac" in err





@pytest.mark.parametrize("argv, needle", [
    (["bench", "--runs", "0"], "--runs must be positive"),
    (["bench", "--runs", "-1"], "--runs must be positive"),
    (["bench", "--sizes", "0x0"], "--sizes expects WIDTHxHEIGHT"),
    (["bench", "--sizes", "abc"], "--sizes expects WIDTHxHEIGHT"),
    (["bench-export", "--fps", "0"], "--fps must be positive"),
    (["bench-export", "--size", "0x0"], "--size expects WIDTHxHEIGHT"),
    (["bench-export", "--size", "abc"], "--size expects WIDTHxHEIGHT"),
    (["bench-export", "--seconds", "0"], "--seconds must be positive"),
    (["bench-export", "--seconds", "0.01"], "under 2 frames"),
])
def test_bench_options_fail_with_one_line(capsys, argv, needle):
    code, err = cli(capsys, *argv)
    assert code == 2 and needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(("argv", "needle"), [
    (["render", "in.mp4", "-o", "out.mp4", "--seed", "abc"], "not a whole number: 'abc'"),
    (["render", "in.mp4", "-o", "out.mp4", "--speed", "superfast2"], "invalid choice"),
    (["render", "in.png", "-o", "out.png", "-y", "-n"], "not allowed with"),
    (["render"], "required: IN, -o/--output"),
    # said by the top parser, pointing to `aquarelle --help`, which does not list them
    (["render", "in.png", "-o", "out.png", "--bogus"], "unrecognized arguments: --bogus"),
])
def test_an_option_argparse_refuses_is_one_line(capsys, argv, needle):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and needle in err
    assert err.count("\n") == 1 and err.startswith("aquarelle render: error: ")
    assert err.rstrip().endswith("(see aquarelle render --help)")


def test_bench_command_line_shows_the_options_given(capsys):
    code = main(["bench", "--runs", "1", "--sizes", "48x32", "--seed", "3", "--set",
                 "dilution=0.5"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Command: `aquarelle bench --set dilution=0.5 --seed 3 --sizes 48x32 --runs 1`" \
        in out
    # the real counts: one timed frame, and two (not "3") timed pass by pass
    assert "median of 1 frame of a 2 px/frame pan" in out
    assert "GPU time per pass of a video frame (ms, GL timer queries, median of 2 frames; " \
        in out
    row = next(line for line in out.splitlines() if line.startswith("| 48x32 |"))
    assert "textures of a video frame, MB |" in out and float(row.split("|")[-2]) >= 0


def test_eval_flicker_refuses_misaligned_videos(tmp_path, capsys):
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=12, audio=False)
    assert cli(capsys, "render", clip.path, "-o", tmp_path / "all.mp4", "-q")[0] == 0
    assert cli(capsys, "render", clip.path, "-o", tmp_path / "trim.mp4", "--start", "0.1",
               "-q")[0] == 0
    code, err = cli(capsys, "eval", "flicker", clip.path, tmp_path / "trim.mp4")
    assert code == 2 and "different lengths" in err and err.count("\n") == 1
    code = main(["eval", "flicker", str(clip.path), str(tmp_path / "all.mp4")])
    out = capsys.readouterr().out
    assert code == 0 and "stylized E_warp" in out and "Lower is steadier" in out
    assert "--set margins=0" in out  # a border fixed to the frame is no flicker: said so
    # the same number of frames, but one dropped and one added at the end: refused too
    gap = make_clip(tmp_path / "gap.mp4", size=(64, 48), frames=12, audio=False,
                    pts=[0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12])
    code, err = cli(capsys, "eval", "flicker", clip.path, gap.path)
    assert code == 2 and "not aligned: frame 4" in err


def test_overwrite_control(tmp_path, capsys):
    src = photo(tmp_path / "p.png")
    out = tmp_path / "o.png"
    out.write_bytes(b"keep me")
    code, err = cli(capsys, "render", src, "-o", out, "-n")
    assert code == 2 and "exists and -n says not to replace it" in err
    assert out.read_bytes() == b"keep me"
    assert cli(capsys, "render", src, "-o", out, "-y")[0] == 0
    assert out.read_bytes() != b"keep me"
    # a batch skips what is already there, unless -y
    folder = tmp_path / "in"
    folder.mkdir()
    photo(folder / "a.png")
    photo(folder / "b.png")
    dst = tmp_path / "out"
    dst.mkdir()
    (dst / "a.png").write_bytes(b"earlier work")
    code, err = cli(capsys, "render", folder, "-o", dst)
    assert code == 0 and "1 skipped (already there: a.png; -y replaces)" in err
    assert (dst / "a.png").read_bytes() == b"earlier work" and (dst / "b.png").is_file()
    assert cli(capsys, "render", folder, "-o", dst, "-y")[0] == 0
    assert (dst / "a.png").read_bytes() != b"earlier work"


def test_did_you_mean_and_dashes(tmp_path, capsys):
    src = photo(tmp_path / "p.png")
    code, err = cli(capsys, "render", src, "-o", tmp_path / "o.png", "--set", "dilutoin=0.5")
    assert code == 2 and "did you mean 'dilution'?" in err
    code, err = cli(capsys, "render", src, "-o", tmp_path / "o.png", "--preset", "loose_wsh")
    assert code == 2 and "did you mean 'loose_wash'?" in err
    assert cli(capsys, "render", src, "-o", tmp_path / "o.png", "--preset", "loose-wash",
               "--set", "edge-width=3")[0] == 0
    code, err = cli(capsys, "render", src, "-o", tmp_path / "o.gif")
    assert code == 2 and "use one of .avif .bmp .jfif .jpe .jpeg .jpg .png" in err
    code, err = cli(capsys, "render", src, "-o", tmp_path / "o.png", "--size", "0x0")
    assert code == 2 and "--size" in err and "positive" in err


def test_presets_list_and_show(capsys):
    assert main(["presets"]) == 0
    out = capsys.readouterr().out
    loose = next(p for p in list_presets("watercolor") if p.name == "loose_wash")
    assert "loose_wash" in out and loose.description in out and "(built in," in out
    assert main(["presets", "show", "loose-wash"]) == 0
    out = capsys.readouterr().out
    tones = loose.values["quantize_levels"]
    assert f"--set quantize_levels={tones}" in out and "(default 6)" in out
    code, err = cli(capsys, "presets", "show", "lose_wash")
    assert code == 2 and "did you mean 'loose_wash'?" in err


def test_batch_recursive_format_and_name_template(tmp_path, capsys):
    src = tmp_path / "src"
    (src / "trip" / "day1").mkdir(parents=True)
    photo(src / "cover.png")
    photo(src / "trip" / "day1" / "beach.jpg")
    make_clip(src / "trip" / "clip.mp4", frames=2, audio=False)
    out = tmp_path / "out"
    code, err = cli(capsys, "render", src, "-o", out, "-r", "--format", "mkv", "--name",
                    "{stem}_painted", "-q")
    assert code == 0, err
    found = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert found == ["cover_painted.png", "trip/clip_painted.mkv",
                     "trip/day1/beach_painted.jpg"]
    code, err = cli(capsys, "render", src, "-o", tmp_path / "o2", "--name", "{nope}")
    assert code == 2 and "use {stem} and {ext} only" in err


def test_images_keep_icc_and_exif_with_the_orientation_reset_and_take_a_quality(tmp_path,
                                                                                  capsys):
    from PIL import Image, ImageCms

    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    im = Image.fromarray(np.tile(np.linspace(0, 255, 64, dtype=np.uint8)[None, :, None],
                                 (40, 1, 3)))
    exif = im.getexif()
    exif[0x0112] = 6  # stored sideways: turned upright on reading
    exif[0x010F] = "Camera maker"
    src = tmp_path / "in.jpg"
    im.save(src, quality=95, icc_profile=icc, exif=exif.tobytes())
    outs = {}
    for q in (30, 95):
        outs[q] = tmp_path / f"o{q}.jpg"
        assert cli(capsys, "render", src, "-o", outs[q], "--quality", q)[0] == 0
    with Image.open(outs[95]) as o:
        assert o.size == (40, 64)  # upright
        assert o.info.get("icc_profile") == icc
        assert o.getexif().get(0x0112) == 1 and o.getexif().get(0x010F) == "Camera maker"
    assert outs[30].stat().st_size < outs[95].stat().st_size
    code, err = cli(capsys, "render", src, "-o", tmp_path / "o.png", "--quality", "50")
    assert code == 0 and "--quality applies to JPEG, WebP and AVIF" in err
    assert cli(capsys, "render", src, "-o", tmp_path / "x.jpg", "--quality", "0")[0] == 2


def test_encoder_speed_preset(tmp_path, capsys):
    clip = make_clip(tmp_path / "in.mp4", size=(128, 96), frames=12, audio=False)
    sizes = {}
    for speed in ("ultrafast", "veryslow"):
        out = tmp_path / f"{speed}.mp4"
        code, err = cli(capsys, "render", clip.path, "-o", out, "--speed", speed, "-q")
        assert code == 0, err
        assert len(decode_video(out)[0]) == 12
        sizes[speed] = out.stat().st_size
    assert sizes["ultrafast"] > sizes["veryslow"]  # faster: bigger at the same CRF
    with pytest.raises(SystemExit) as e:  # argparse names the choices
        main(["render", str(clip.path), "-o", str(tmp_path / "x.mp4"), "--speed", "warp"])
    assert e.value.code == 2


def test_fps_changes_the_rate(tmp_path, capsys):
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=30, fps=30, audio=False)
    for fps, n in ((12, 12), (60, 60)):
        out = tmp_path / f"r{fps}.mp4"
        assert cli(capsys, "render", clip.path, "-o", out, "--fps", fps, "-q")[0] == 0
        frames, times = decode_video(out)[:2]
        assert len(frames) == n
        steps = {round(float(b - a) * fps, 3) for a, b in zip(times, times[1:], strict=False)}
        assert steps == {1.0}  # a constant rate
    code, err = cli(capsys, "render", clip.path, "-o", tmp_path / "x.mp4", "--fps", "0")
    assert code == 2 and "--fps must be between" in err


@pytest.mark.parametrize(("fps", "parsed"), [("30000/1001", Fraction(30000, 1001)),
                                              ("29.97", 29.97)])
def test_fps_takes_a_fraction_or_a_decimal(tmp_path, capsys, fps, parsed):
    # --fps 30000/1001 was refused ("invalid float value") while 29.97 was taken
    assert frame_rate(fps) == parsed  # the fraction exact, a decimal as before
    rate = Fraction(parsed).limit_denominator(1001)
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=30, fps=30, audio=False)
    out = tmp_path / "ntsc.mp4"
    assert cli(capsys, "render", clip.path, "-o", out, "--fps", fps, "-q")[0] == 0
    frames, times = decode_video(out)[:2]
    # at NTSC's rate, not 30 fps: frame 29 comes 1 ms later (the stamps are the source's
    # 1/15360 s ticks)
    assert len(frames) == 30
    assert max(abs(t - k / rate) for k, t in enumerate(times)) < Fraction(1, 15360)


@pytest.mark.parametrize(("fps", "needle"), [
    ("1/0", "argument --fps: expects a number or a fraction N/D"),
    ("abc", "argument --fps: expects a number or a fraction N/D"),
    ("1.5/2", "argument --fps: expects a number or a fraction N/D"),
    ("0/1", "--fps must be between 0.5 and 1000, got 0"),
    ("-30000/1001", "--fps must be between 0.5 and 1000, got -29.97"),
    ("-5", "--fps must be between 0.5 and 1000, got -5"),
    ("3000/1", "--fps must be between 0.5 and 1000, got 3000"),
])
def test_a_bad_fps_is_one_line(tmp_path, capsys, fps, needle):
    argv = ["render", str(tmp_path / "in.mp4"), "-o", str(tmp_path / "x.mp4"), f"--fps={fps}"]
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2 and needle in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "x.mp4").exists()


def test_every_fps_option_takes_a_fraction(capsys):
    # the fraction reaches each command's own checks (here failing on another option)
    code, err = cli(capsys, "bench-export", "--fps", "30000/1001", "--seconds", "0.01")
    assert code == 2 and "at 30000/1001 fps is under 2 frames" in err
    code, err = cli(capsys, "bench-live", "--fps", "30000/1001", "--seconds", "0")
    assert code == 2 and "--seconds must be positive" in err
    code, err = cli(capsys, "live", "--input", "synthetic", "--fps", "30000/1001",
                    "--min-scale", "5")
    assert code == 2 and "--min-scale must be between" in err
    for command in ("live", "bench-live", "bench-export"):
        with pytest.raises(SystemExit) as stop:
            main([command, "--fps", "1/0"])
        err = capsys.readouterr().err
        assert stop.value.code == 2 and err.count("\n") == 1
        assert "argument --fps: expects a number or a fraction N/D" in err


def test_gif_and_image_sequences_out_and_in(tmp_path, capsys):
    from PIL import Image

    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=12, fps=12, audio=False)
    gif = tmp_path / "short.gif"
    assert cli(capsys, "render", clip.path, "-o", gif, "--fps", "6")[0] == 0
    with Image.open(gif) as im:
        # GIF stores centiseconds: 1/6 s is 160 or 170 ms
        assert im.n_frames == 6 and abs(im.info["duration"] - 1000 / 6) <= 10
        assert im.size == (64, 48)
        delays = []
        for k in range(im.n_frames):
            im.seek(k)
            delays.append(im.info["duration"])
    assert sum(delays) == 1000  # whole centiseconds that add up to the clip's second
    frames = tmp_path / "frames"
    frames.mkdir()
    assert cli(capsys, "render", clip.path, "-o", frames / "%04d.png")[0] == 0
    names = sorted(p.name for p in frames.iterdir())
    assert names == [f"{k:04d}.png" for k in range(1, 13)]
    back = tmp_path / "back.mp4"
    code, err = cli(capsys, "render", frames / "%04d.png", "-o", back)
    assert code == 0, err
    assert len(decode_video(back)[0]) == 12
    code, err = cli(capsys, "render", tmp_path / "none" / "%04d.png", "-o", back)
    assert code == 2 and "no files match the image sequence" in err


# frames 1-10, a gap, and more: FFmpeg's image2 demuxer finds the last file past the gap
# (and fails to open the missing one), or, where its probing stops at frame 10, just ends
@pytest.mark.parametrize("numbers, missing, after", [
    ([*range(1, 11), *range(12, 21)], "f_0011.png is", "the 9 frames after the gap are"),
    ([*range(1, 11), 14], "f_0011.png to f_0013.png are", "the frame after the gap is"),
], ids=["past-the-gap", "up-to-the-gap"])
def test_a_sequence_with_a_gap_says_where_it_stops(tmp_path, capsys, numbers, missing,
                                                   after):
    seq = numbered_frames(tmp_path / "in", numbers)
    warning = (f"aquarelle: warning: {seq} stops at f_0010.png: {missing} missing, and "
               f"{after} not read")
    out = tmp_path / "out.mp4"
    code, err = cli(capsys, "render", seq, "-o", out)
    assert code == 0, err
    frames, times, _ = decode_video(out)
    assert len(frames) == 10 and times[-1] == Fraction(9, 25)  # 25 fps, frame-exact
    assert warning in err.splitlines(), err
    assert "could not be decoded" not in err  # (was: 10 frames, 'unreadable after 8')
    assert f"{seq} -> {out} (10 frames, " in err
    frames_out = tmp_path / "frames"
    frames_out.mkdir()
    code, err = cli(capsys, "render", seq, "-o", frames_out / "%04d.png")
    assert code == 0, err
    assert sorted(p.name for p in frames_out.iterdir()) == [f"{k:04d}.png"
                                                            for k in range(1, 11)]
    assert warning in err.splitlines(), err
    # a range that ends before the gap reads all it asks for: nothing to say
    code, err = cli(capsys, "render", seq, "-o", out, "--end", "0.4")
    assert code == 0 and "warning" not in err, err
    assert len(decode_video(out)[0]) == 10
    # one that starts past it finds no frames, and says why
    code, err = cli(capsys, "render", seq, "-o", out, "--start", "0.5")
    assert code == 2 and err.count("\n") == 1
    assert "no video frame starts at or after --start 0.5 s" in err
    assert warning.removeprefix("aquarelle: warning: ") in err


def test_a_failing_sequence_leaves_no_frames(tmp_path, capsys, monkeypatch):
    from aquarelle.cli import render_frames

    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=8, audio=False)
    real = render_frames.write_image
    calls = []

    def flaky(path, *a, **k):
        calls.append(path)
        if len(calls) == 4:
            raise render_frames.AquarelleError(f"cannot write {path}: disk full")
        real(path, *a, **k)

    monkeypatch.setattr(render_frames, "write_image", flaky)
    out = tmp_path / "frames"
    out.mkdir()
    code, err = cli(capsys, "render", clip.path, "-o", out / "f%03d.png")
    assert code == 2 and "disk full" in err
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("option", ["--encoder", "--decoder"])
def test_a_hardware_codec_is_refused_with_a_cluster(tmp_path, capsys, option):
    """A cluster's chunks are coded in software on every node: insisting on the GPU's codec
    with --cluster is one clear line, before anything starts (no output, no cluster)."""
    clip = make_clip(tmp_path / "in.mp4", frames=3, audio=False)
    out = tmp_path / "o.mp4"
    code, err = cli(capsys, "render", clip.path, "-o", out, "--cluster", option, "hardware")
    assert code == 2 and f"{option} hardware does not work with --cluster" in err
    assert err.count("\n") == 1 and not out.exists()


def test_the_readme_chain_example_runs_as_written(tmp_path, capsys, monkeypatch):
    # it said `--set sigma_space=3`, a denoise parameter: exit 2 in adjust+watercolor
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    start = readme.index("aquarelle render in.jpg -o out.png --style adjust+watercolor")
    first, second = readme[start:].splitlines()[:2]
    command = (first.rstrip(" \\") + " " + second.split("#")[0]).split()
    assert command[:2] == ["aquarelle", "render"] and "--set" in command
    monkeypatch.chdir(tmp_path)
    photo(tmp_path / "in.jpg", (160, 90))
    (tmp_path / "look.cube").write_text("LUT_3D_SIZE 2\n" + "".join(
        f"{r} {g} {b}\n" for b in (0, 1) for g in (0, 1) for r in (0, 1)))  # identity
    code, err = cli(capsys, *command[1:])
    assert code == 0, err
    assert cv2.imread(str(tmp_path / "out.png")).shape[:2] == (90, 160)


def test_size_is_the_size_painted_which_enlarging_styles_multiply(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["render", "--help"])
    assert "--size WxH            the size the input is resized to before painting" \
        in capsys.readouterr().out
    src = photo(tmp_path / "p.png", (160, 90))
    code, err = cli(capsys, "render", src, "-o", tmp_path / "u.png", "--style", "upscale",
                    "--set", "method=bicubic", "--size", "80x45")
    assert code == 0, err
    assert cv2.imread(str(tmp_path / "u.png")).shape[:2] == (90, 160)  # upscale's x2


def test_an_unknown_codec_is_an_error_for_an_image_too(tmp_path, capsys):
    src = photo(tmp_path / "p.png")
    code, err = cli(capsys, "render", src, "-o", tmp_path / "q.png", "--codec", "av1")
    assert code == 2 and err == "aquarelle render: error: unknown codec 'av1'; use one of h264, " \
                                "h265, vp9, prores\n"
    assert not (tmp_path / "q.png").exists()
    code, err = cli(capsys, "render", src, "-o", tmp_path / "q.png", "--codec", "H265")
    assert code == 0 and "--codec applies to videos; ignored for p.png" in err


@pytest.mark.parametrize("command", ["render", "bench"])
@pytest.mark.parametrize("lines", ["119", "4321"])
def test_video_lines_outside_its_range_are_refused(tmp_path, capsys, command, lines):
    argv = ["render", photo(tmp_path / "p.png"), "-o", tmp_path / "q.png"] \
        if command == "render" else ["bench", "--sizes", "48x32"]
    code, err = cli(capsys, *argv, "--video-lines", lines)
    assert code == 2 and err == f"aquarelle {command}: error: --video-lines must be 0 (paint " \
                                f"every line) or 120 to 4320, got {lines}\n"
    assert not (tmp_path / "q.png").exists()


@pytest.mark.parametrize(("command", "needles"), [
    ("bench", ["(median reported; default: 5)", "(default: 640x360,1280x720,1920x1080)",
               "(default 1080; 0: every line; else 120 to 4320)"]),
    ("bench-export", ["length of the test clip in seconds (default: 2)",
                      "clip size (default: 1280x720)", "clip frame rate (default: 30)"]),
    ("bench-live", ["length of each run (default: 60); each size runs twice, adaptive "
                    "quality on and off, so the bench lasts --seconds x 2 x the number of "
                    "sizes", "(default: 640x360,1280x720)"]),
    ("render", ["default 1080; 0 paints every line; else 120 to 4320"]),
])
def test_help_says_the_defaults_and_limits(capsys, command, needles):
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())  # unwrapped
    assert stop.value.code == 0
    for needle in needles:
        assert needle in out, needle


def test_live_ends_without_a_blank_line_when_not_on_a_terminal(capsys):
    code = main(["live", "--input", "synthetic", "--max-frames", "2", "--size", "64x48"])
    err = capsys.readouterr().err
    assert code == 0, err
    lines = err.splitlines()
    assert "" not in lines and lines[-1].startswith("aquarelle: live: 2 frames in "), err
