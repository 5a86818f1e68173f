"""Every tool tells the truth (issue 27): each check names what it checked, each error blames
what is actually wrong. The device files and folders are fakes under tmp_path, so that
every case runs on any machine."""

from __future__ import annotations

import ast
import re
import types
from pathlib import Path

import cv2
import numpy as np
import pytest
from videoclips import make_clip, tone

from aquarelle import diagnostics
from aquarelle.cli import bench_export
from aquarelle.cli.main import main
from aquarelle.media import virtual_camera as vc
from aquarelle.media.sniff import sniff_image
from aquarelle.platforms import current_device_denied_hint

MODPROBE = "sudo modprobe v4l2loopback devices=1 exclusive_caps=1"
PERMISSIONS = "'video' group"
ISSUE = re.compile(r"\bissues? #?\d", re.IGNORECASE)


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    # the command's name (a mistyped command has none)
    assert re.match(r"aquarelle( (render|live|params|presets|styles|doctor))?: error: ", err) \
        and "\n" not in err, err
    assert "Traceback" not in err
    return err


def photo(path: Path, size: tuple[int, int] = (48, 32), ext: str = ".jpg") -> Path:
    img = np.zeros((size[1], size[0], 3), np.uint8)
    img[:, : size[0] // 2] = (40, 120, 200)
    ok, data = cv2.imencode(ext, img)
    assert ok
    path.write_bytes(data.tobytes())
    return path


def video_devices(tmp_path: Path, names: dict[int, str], loopback: int | None = None
                  ) -> tuple[Path, Path]:
    """A fake /sys/class/video4linux and /dev with /dev/videoN named `names[N]`; device
    `loopback` has v4l2loopback's own attribute."""
    sys_root, dev_root = tmp_path / "sys", tmp_path / "dev"
    sys_root.mkdir()
    dev_root.mkdir()
    for n, name in names.items():
        info = sys_root / f"video{n}"
        info.mkdir()
        (info / "name").write_text(name + "\n")
        (info / "index").write_text("0\n")
        if n == loopback:
            (info / vc.LOOPBACK_ATTRIBUTE).write_text("10\n")
        (dev_root / f"video{n}").write_text("")
    return sys_root, dev_root


@pytest.fixture
def devices(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Point the device scans at fakes, as on Linux: `devices({N: name})` makes them."""
    monkeypatch.setattr(vc, "current_finds_virtual_camera_device", lambda: True)
    monkeypatch.setattr("aquarelle.media.webcam.current_lists_cameras_from_devices",
                        lambda: True)

    def make(names: dict[int, str]) -> tuple[Path, Path]:
        sys_root, dev_root = video_devices(tmp_path, names)
        monkeypatch.setattr(vc, "SYS_VIDEO", sys_root)
        monkeypatch.setattr(vc, "DEV", dev_root)
        return sys_root, dev_root
    return make


@pytest.fixture
def no_user_presets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    config = tmp_path / "config"
    monkeypatch.setattr("aquarelle.engine.presets.current_config_dir", lambda: config)
    return config


@pytest.fixture
def pyvirtualcam(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "pyvirtualcam",
                        types.ModuleType("pyvirtualcam"))


# -- 1. aquarelle doctor --------------------------------------------------------------------

def test_doctor_says_no_loopback_device_exists_and_how_to_make_one(tmp_path, pyvirtualcam):
    sys_root, dev_root = video_devices(tmp_path, {0: "HD Webcam: HD Webcam"})
    report = diagnostics.Report()
    diagnostics.virtual_camera(report, "linux", sys_root, dev_root)
    [check] = report.checks
    assert not check.ok and not check.required
    assert "no v4l2loopback device exists" in check.detail and MODPROBE in check.detail
    assert "pyvirtualcam is installed" not in check.detail
    assert "-- virtual camera" in diagnostics.format_report(report)


@pytest.mark.parametrize("name, attr", [("Dummy video device (0x0000)", None),
                                        ("OBS Virtual Camera", None), ("Aquarelle", None),
                                        ("My cam", 10)])
def test_doctor_names_the_loopback_device_it_found(tmp_path, pyvirtualcam, name, attr):
    sys_root, dev_root = video_devices(tmp_path, {0: "HD Webcam", 10: name}, attr)
    report = diagnostics.Report()
    diagnostics.virtual_camera(report, "linux", sys_root, dev_root)
    [check] = report.checks
    assert check.ok and check.detail == f"v4l2loopback {dev_root / 'video10'} ({name})"


def test_doctor_does_not_claim_obs_virtual_camera_it_cannot_see(pyvirtualcam):
    for platform in ("win32", "darwin"):
        report = diagnostics.Report()
        diagnostics.virtual_camera(report, platform)
        detail = report.checks[0].detail
        assert "not checked here" in detail and "OBS Studio 28" in detail


def test_doctor_without_pyvirtualcam_says_so(tmp_path, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "pyvirtualcam", None)
    sys_root, dev_root = video_devices(tmp_path, {10: "Aquarelle"})
    report = diagnostics.Report()
    diagnostics.virtual_camera(report, "linux", sys_root, dev_root)
    assert not report.checks[0].ok
    assert "pip install pyvirtualcam" in report.checks[0].detail


def test_doctor_user_presets_folder_will_be_created(capsys, no_user_presets):
    assert main(["doctor"]) in (0, 1)  # 1: this machine lacks something required
    out = capsys.readouterr().out
    presets = no_user_presets / "presets"
    assert "ok user presets" in out
    assert f"{presets} (will be created on first save); each style's in its own folder: " \
           f"{presets}/STYLE/ (e.g. watercolor/)" in out
    assert not no_user_presets.exists()  # tried, but nothing left behind


def test_user_presets_folder_that_cannot_be_made_or_written_is_a_problem(tmp_path):
    (tmp_path / "file").write_text("")
    report = diagnostics.Report()
    diagnostics.folders(report, tmp_path / "file" / "presets")
    by_name = {c.name: c for c in report.checks}
    assert not by_name["user presets"].ok
    assert "cannot be created" in by_name["user presets"].detail
    assert "is a file, not a folder" in by_name["config folder"].detail

    there = tmp_path / "cfg" / "presets"
    there.mkdir(parents=True)
    report = diagnostics.Report()
    diagnostics.folders(report, there, access=lambda path, mode: False)
    assert "!! user presets" in diagnostics.format_report(report)  # nothing can be saved
    assert not report.ok and f"make {there} writable (chmod u+w {there})" in report.fixes[1]
    assert f"{there} is not writable" in report.checks[1].detail
    report = diagnostics.Report()
    diagnostics.folders(report, there)
    assert report.checks[1].ok
    assert report.checks[1].detail.startswith(f"{there} (exists, writable); ")


# -- 2. aquarelle live --virtual-camera ----------------------------------------------------

def test_live_without_any_video_device_says_no_loopback_not_permissions(capsys, devices):
    devices({})
    assert main(["live", "--virtual-camera", "--max-frames", "1"]) == 2
    err = one_line_error(capsys)
    assert "no virtual camera: no v4l2loopback device exists" in err
    assert "no /dev/video* at all" in err and MODPROBE in err and PERMISSIONS not in err


def test_live_with_only_a_webcam_says_it_is_no_loopback(capsys, devices):
    _, dev = devices({0: "HD Webcam"})
    assert main(["live", "--virtual-camera", "--input", "synthetic", "--max-frames", "1"]) == 2
    err = one_line_error(capsys)
    assert f"no v4l2loopback device exists ({dev / 'video0'} is not one)" in err
    assert MODPROBE in err


def test_a_refused_loopback_device_blames_permissions(tmp_path):
    sys_root, dev_root = video_devices(tmp_path, {10: "Aquarelle"})
    problem = vc.loopback_problem(sys_root, dev_root, access=lambda path, mode: False)
    assert problem == (f"no virtual camera: {dev_root / 'video10'} (Aquarelle) is a "
                       f"v4l2loopback device, but {current_device_denied_hint()}")
    assert vc.loopback_problem(sys_root, dev_root) is None  # allowed: nothing to say


def test_device_files_without_sysfs_leave_it_to_pyvirtualcam(tmp_path):
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "video0").write_text("")
    assert vc.loopback_devices(tmp_path / "nosys", tmp_path / "dev") is None
    assert vc.loopback_problem(tmp_path / "nosys", tmp_path / "dev") is None


def test_live_without_a_camera_says_it_does_not_exist(capsys, devices):
    _, dev = devices({})
    assert main(["live", "--max-frames", "1"]) == 2
    err = one_line_error(capsys)
    assert f"no camera 0: {dev / 'video0'} does not exist; no camera is connected" in err
    assert "--input" in err and PERMISSIONS not in err


def test_live_camera_refused_blames_permissions(capsys, devices, monkeypatch):
    _, dev = devices({0: "HD Webcam"})
    monkeypatch.setattr("aquarelle.media.webcam.os.access", lambda path, mode: False)
    assert main(["live", "--camera", "0", "--max-frames", "1"]) == 2
    err = one_line_error(capsys)
    assert f"cannot open camera 0: {dev / 'video0'} exists, but" in err
    assert current_device_denied_hint() in err


def test_live_camera_by_a_name_no_camera_has_says_not_found(capsys, devices):
    # '--camera foo' blamed permissions (OpenCV tried foo as a file and failed)
    devices({0: "HD Webcam"})
    assert main(["live", "--camera", "foo", "--max-frames", "1"]) == 2
    err = one_line_error(capsys)
    assert err.startswith("aquarelle live: error: camera foo not found: a camera is named by its "
                          "number (0, 1, ...) or its device; cameras here: --camera 0 (HD "
                          "Webcam)"), err
    assert PERMISSIONS not in err and current_device_denied_hint() not in err


def test_live_camera_named_by_a_file_points_to_input(capsys, devices, tmp_path):
    # a notes file given as the camera was "busy (another app may be using it)" (trial W10's
    # follow-up); a file is played with --input
    devices({0: "HD Webcam"})
    notes = tmp_path / "notes.txt"
    notes.write_text("this is a text file, not a video\n" * 40)
    assert main(["live", "--camera", str(notes), "--max-frames", "1"]) == 2
    err = one_line_error(capsys)
    assert err == (f"aquarelle live: error: cannot open camera: {notes} is a file, not a "
                   f"camera; a video file plays with --input {notes}"), err


@pytest.mark.parametrize("device_files", [True, False])  # Linux; Windows and macOS
def test_the_apps_camera_by_an_unknown_name_is_not_found(monkeypatch, device_files):
    from aquarelle.media.webcam import CameraSource

    monkeypatch.setattr("aquarelle.media.webcam.current_lists_cameras_from_devices",
                        lambda: device_files)
    cam = CameraSource("foo", capture_factory=lambda _: None)
    cam.start()
    assert cam.ended.wait(10)
    cam.stop()
    assert cam.error == ("camera foo not found: a camera is named by its number (0, 1, ...) "
                         "or its device")


def test_live_refuses_to_paint_the_virtual_camera_into_itself(capsys, devices):
    devices({0: "Dummy video device (0x0000)", 2: "HD Webcam"})
    assert main(["live", "--virtual-camera", "--max-frames", "1"]) == 2
    err = one_line_error(capsys)
    assert "camera 0" in err and "is the virtual camera itself" in err
    assert "cameras here: --camera 2 (HD Webcam)" in err


# -- 3. aquarelle render: the input's kind, the output's name -----------------------------

def test_an_image_named_mp4_is_rendered_as_the_image_it_is(tmp_path, capsys):
    src = photo(tmp_path / "x.mp4")
    out = tmp_path / "out.png"
    assert main(["render", str(src), "-o", str(out), "-q"]) == 0
    err = capsys.readouterr().err
    assert f"warning: {src} is a JPEG image despite its .mp4 name; rendering it as an image" \
        in err
    assert cv2.imread(str(out)).shape[:2] == (32, 48)


@pytest.mark.parametrize("ext, kind", [(".jpg", "JPEG"), (".png", "PNG"), (".webp", "WebP"),
                                       (".bmp", "BMP"), (".tif", "TIFF")])
def test_images_are_known_by_their_first_bytes(tmp_path, ext, kind):
    assert sniff_image(photo(tmp_path / "picture.mov", ext=ext)) == (kind, ext)


def test_videos_and_missing_files_are_no_images(tmp_path):
    clip = make_clip(tmp_path / "in.mp4", size=(32, 24), frames=2, audio=False)
    assert sniff_image(clip.path) is None and sniff_image(tmp_path / "nope.mp4") is None


def test_standard_output_is_refused_by_name(tmp_path, capsys):
    assert main(["render", str(photo(tmp_path / "a.jpg")), "-o", "-"]) == 2
    err = one_line_error(capsys)
    assert "writing to standard output is not supported; give a file name" in err


def test_an_output_without_extension_names_those_of_an_image(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["render", str(photo(tmp_path / "a.jpg")), "-o", str(out)]) == 2
    err = one_line_error(capsys)
    assert f"-o {out} has no extension" in err and ".jpg, .png" in err
    assert f"-o {out}.png" in err


def test_an_output_without_extension_names_those_of_a_video(tmp_path, capsys):
    clip = make_clip(tmp_path / "in.mp4", size=(32, 24), frames=2, audio=False)
    out = tmp_path / "out"
    assert main(["render", str(clip.path), "-o", str(out)]) == 2
    err = one_line_error(capsys)
    assert "a video can be written as .m4v, .mkv, .mov, .mp4, .webm" in err
    assert "frames/%04d.png" in err and not out.exists()


# -- 4. did you mean ------------------------------------------------------------------------

def test_a_mistyped_command_is_not_taken_for_a_file(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["stlyes"]) == 2
    assert one_line_error(capsys) == \
        "aquarelle: error: unknown command 'stlyes'; did you mean 'styles'?"
    assert main(["rendr", "a.jpg", "-o", "b.png"]) == 2
    assert "did you mean 'render'?" in one_line_error(capsys)
    assert main(["qqq"]) == 2
    assert "no command or file 'qqq'; commands: render, live" in one_line_error(capsys)


@pytest.mark.parametrize("name", ["watercolour", "watercolr", "denoise+watercolr"])
def test_a_mistyped_style_gets_a_suggestion(capsys, name):
    assert main(["params", name]) == 2
    err = one_line_error(capsys)
    assert f"unknown style '{name.split('+')[-1]}'; did you mean 'watercolor'?" in err


def test_a_mistyped_preset_gets_a_suggestion(capsys, no_user_presets):
    assert main(["presets", "show", "sotf_wash"]) == 2
    assert "unknown preset 'sotf_wash'; did you mean 'soft_wash'?" in one_line_error(capsys)
    assert main(["presets", "show", "soft", "--style", "upscale"]) == 2
    assert "unknown preset 'soft'; upscale has no presets" in one_line_error(capsys)


def test_a_preset_is_read_once(tmp_path, capsys, monkeypatch, no_user_presets):
    """--preset NAME (the default style's) or FILE: its file is read once, to find the
    style, and its values are the ones used (it was read again to apply them)."""
    import argparse
    import json

    from aquarelle.cli import common
    from aquarelle.engine import presets
    from aquarelle.engine.chain_spec import load_chain, param_set

    builtin = presets.load_preset("loose_wash", "watercolor").path
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"name": "mine", "style": "watercolor",
                                "values": {"dilution": 0.7, "background": "bare paper"}}))
    reads: list[Path] = []
    real = presets._read

    def read(path: Path, builtin: bool) -> presets.Preset:
        reads.append(Path(path))
        return real(path, builtin)

    monkeypatch.setattr(presets, "_read", read)
    parser = argparse.ArgumentParser()
    common.add_style_options(parser)
    params = param_set(load_chain("watercolor"))
    for given, path in (("loose_wash", builtin), (str(mine), mine)):
        reads.clear()
        look = common.resolve_look(parser.parse_args(["--preset", given]))
        assert reads.count(path) == 1, given
        wanted = {k: params.spec(k).coerce(v)[0]  # a choice by its index
                  for k, v in json.loads(path.read_text())["values"].items()}
        assert look.name == "watercolor" and look.values == {**params.values(), **wanted}
    assert capsys.readouterr().err == ""
    reads.clear()
    assert main(["presets", "show", "loose_wash"]) == 0
    assert reads.count(builtin) == 1
    assert "  --set dilution=0.15    (default " in capsys.readouterr().out


# -- 5. styles, presets, params: said, and readable ----------------------------------------

def test_a_style_without_presets_says_so(capsys, no_user_presets):
    assert main(["presets", "upscale"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("upscale has no presets; save one in the desktop app")
    assert "aquarelle params upscale" in out


def test_styles_lists_the_main_style_first_and_wraps(capsys, monkeypatch, no_user_presets):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["styles"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("watercolor     Watercolor: ")
    assert max(len(line) for line in lines) <= 80
    names = [m.group(1) for line in lines if (m := re.match(r"(\S+) {2,}\S", line))]
    assert names[0] == "watercolor" and names[1:] == sorted(names[1:])


@pytest.mark.parametrize("columns", [80, 150])
def test_params_wraps_long_help_to_the_terminal(capsys, monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(["params", "watercolor"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= columns
    assert any(line.startswith(" ") for line in lines)  # a help went on
    assert ("help" in lines[0]) == (columns == 150)  # narrow: help below each row


# -- 6. no issue numbers where users read ---------------------------------------------------

def test_bench_export_says_what_its_target_is(tmp_path):
    args = types.SimpleNamespace(preset=None, sets=[], seed=0, scale=1.0, seconds=None,
                                 size="1280x720", fps=30, repeat=1, no_cv2=False,
                                 style="watercolor", encoder="auto", decoder="auto",
                                 photo=None)
    rows = [("pipelined", 60, 3.0, {}), ("cv2", 60, 10.0, {})]
    md = bench_export._markdown(args, "watercolor", "llvmpipe", (1280, 720), 60, rows)
    assert "issue" not in md.lower()
    assert "**0.300** (target: at most 0.35, the pipelined export at least 2.9 times as " \
           "fast as that per-frame loop: met)" in md


def test_bench_live_says_the_command_it_ran():
    from aquarelle.cli import bench_live

    args = types.SimpleNamespace(seconds=1.0, fps=15.0, sizes="320x240", preset="vivid",
                                 sets=[], seed=0, scale=0.5)
    md = bench_live._markdown(args, "watercolor", "llvmpipe", [])
    assert md.startswith("Command: `aquarelle bench-live --preset vivid --scale 0.5 "
                         "--seconds 1 --fps 15 --sizes 320x240`")


def test_no_user_facing_text_names_an_issue():
    app = Path(diagnostics.__file__).parent
    found = []
    for path in sorted(app.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                    | ast.AsyncFunctionDef)
                      and node.body and isinstance(node.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in docstrings and ISSUE.search(node.value):
                found.append(f"{path.relative_to(app)}:{node.lineno}: {node.value[:60]!r}")
    assert not found, found


def test_the_apps_camera_error_says_the_device_is_missing_not_permissions(devices):
    """The app opens cameras through CameraSource: a missing device is named as missing."""
    from aquarelle.media.webcam import CameraSource

    _, dev = devices({})
    cam = CameraSource(3, capture_factory=lambda _: None)
    cam.start()
    assert cam.ended.wait(10)
    cam.stop()
    assert cam.error == f"cannot open camera 3: {dev / 'video3'} does not exist (is it connected?)"
    assert PERMISSIONS not in cam.error


def test_a_video_to_an_image_name_says_what_to_write_instead(tmp_path, capsys):
    clip = make_clip(tmp_path / "clip.mp4", frames=2, audio=False)
    assert main(["render", str(clip.path), "-o", str(tmp_path / "out.png"), "-q"]) == 2
    err = one_line_error(capsys)
    assert "is a video, which cannot be written as .png" in err
    assert "out.mp4" in err and "out.gif" in err and "out_%04d.png" in err
    assert not list(tmp_path.glob("out*"))


def test_a_video_named_jpg_is_rendered_as_the_video_it_is(tmp_path, capsys):
    clip = make_clip(tmp_path / "clip.mp4", frames=3, audio=False)
    named = tmp_path / "holiday.jpg"
    named.write_bytes(clip.path.read_bytes())
    out = tmp_path / "holiday.mp4"
    assert main(["render", str(named), "-o", str(out), "-q", "--style", "adjust"]) == 0
    assert "holiday.jpg is a video despite its .jpg name" in capsys.readouterr().err
    import av

    with av.open(str(out)) as c:
        assert sum(1 for _ in c.decode(video=0)) == 3
    (tmp_path / "junk.jpg").write_bytes(b"garbage")  # neither: the image reader's error
    assert main(["render", str(tmp_path / "junk.jpg"), "-o", str(tmp_path / "j.png")]) == 2
    junk = tmp_path / "junk.jpg"
    assert one_line_error(capsys) == f"aquarelle render: error: not a readable image: {junk}"


# -- 7. aquarelle render: animated pictures, standard input, the input's problem first -----

def animation(path: Path, fmt: str, frames: int = 3, size: tuple[int, int] = (64, 48)) -> Path:
    """An animated PNG (APNG) or WebP of `frames` different frames, whatever `path`'s name."""
    from PIL import Image

    pictures = []
    for k in range(frames):
        img = np.zeros((size[1], size[0], 3), np.uint8)
        img[:, : size[0] // 2] = (40 + 35 * k, 120, 200)
        pictures.append(Image.fromarray(img))
    pictures[0].save(path, format=fmt, save_all=True, append_images=pictures[1:],
                     duration=100, loop=0)
    return path


def decoded_frames(path: Path) -> list[np.ndarray]:
    import av

    with av.open(str(path)) as c:
        return [f.to_ndarray(format="rgb24") for f in c.decode(video=0)]


def test_animated_pictures_are_known_by_their_headers(tmp_path):
    from aquarelle.media.animation import animation_of

    apng = animation_of(animation(tmp_path / "a.png", "PNG", frames=4))
    assert apng is not None and (apng.kind, apng.frames) == ("APNG", 4)
    assert apng.name == "an animated PNG (APNG, 4 frames)"
    webp = animation_of(animation(tmp_path / "a.mp4", "WEBP", frames=5))
    assert webp is not None and (webp.kind, webp.frames) == ("WebP", 5)
    for ext in (".png", ".webp", ".jpg"):  # stills
        assert animation_of(photo(tmp_path / f"still{ext}", ext=ext)) is None
    cut = tmp_path / "cut.png"
    cut.write_bytes((tmp_path / "a.png").read_bytes()[:20])
    assert animation_of(cut) is None and animation_of(tmp_path / "missing.png") is None


@pytest.mark.parametrize("name, out, written", [("anim.png", "out.mp4", "out.mp4"),
                                                 ("anim.apng", "out.gif", "out.gif"),
                                                 ("anim.png", "folder/", "folder/anim.mp4")])
def test_an_animated_png_is_rendered_as_a_video_without_a_warning(tmp_path, capsys, name,
                                                                   out, written):
    src = animation(tmp_path / name, "PNG")
    assert main(["render", str(src), "-o", f"{tmp_path}/{out}", "-q", "--style",
                 "adjust"]) == 0
    assert capsys.readouterr().err == ""
    frames = decoded_frames(tmp_path / written)
    assert len(frames) == 3 and frames[0].shape[:2] == (48, 64)


def test_an_animated_png_to_an_image_name_says_what_to_write_instead(tmp_path, capsys):
    src = animation(tmp_path / "anim.png", "PNG")
    assert main(["render", str(src), "-o", str(tmp_path / "out.png"), "-q"]) == 2
    err = one_line_error(capsys)
    assert f"{src} is an animated PNG (APNG, 3 frames), which cannot be written as .png" in err
    assert "out.mp4" in err and "out.gif" in err and not list(tmp_path.glob("out*"))


def test_a_still_png_named_apng_is_said_to_be_still(tmp_path, capsys):
    src = photo(tmp_path / "still.apng", ext=".png")
    assert main(["render", str(src), "-o", str(tmp_path / "out.png"), "-q", "--style",
                 "adjust"]) == 0
    assert capsys.readouterr().err == (f"aquarelle: warning: {src} is a still PNG image "
                                       "despite its .apng name; rendering it as an image\n")


@pytest.fixture
def undecodable(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """FFmpeg as here (8.0), which opens an animated WebP but decodes none of its frames,
    whichever FFmpeg the tests run with. The files probed, once a probe."""
    from aquarelle.cli import batch_plan, render, render_image

    probed: list[Path] = []

    def decodes(path: str | Path) -> bool:
        probed.append(Path(path))
        return False

    for module in (render, render_image, batch_plan):
        monkeypatch.setattr(module, "ffmpeg_decodes", decodes)
    return probed


def test_an_animation_ffmpeg_cannot_decode_is_painted_as_its_first_frame(tmp_path, capsys,
                                                                       undecodable):
    src = animation(tmp_path / "anim.webp", "WEBP", frames=6)
    out = tmp_path / "out.webp"
    assert main(["render", str(src), "-o", str(out), "-q", "--style", "adjust"]) == 0
    assert capsys.readouterr().err == (
        f"aquarelle: warning: {src} is an animated WebP (6 frames); only its first frame is "
        "painted, the other 5 are not (FFmpeg here cannot decode them)\n")
    assert len(decoded_frames(out)) == 1 and cv2.imread(str(out)).shape == (48, 64, 3)
    assert undecodable == [src]  # its frames decoded once: the router's probe is the warning's
    for name in ("out.mp4", "out.gif", "out_%04d.png"):
        assert main(["render", str(src), "-o", str(tmp_path / name), "-q"]) == 2
        err = one_line_error(capsys)
        assert f"{src} is an animated WebP (6 frames), whose frames FFmpeg here cannot " \
               f"decode, so it cannot be written as " in err
        assert "only its first frame can be painted, as an image (e.g. -o " in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["anim.webp", "out.webp"]


@pytest.mark.parametrize("options, ext", [([], ".mp4"), (["--format", "mkv"], ".mkv")])
def test_a_batch_renders_an_animated_png_as_a_video(tmp_path, capsys, options, ext):
    """As `aquarelle render` renders one alone (also one named .png; an .apng in a folder is
    found): a video named as the batch names videos. A still beside it stays an image."""
    import shutil

    folder = tmp_path / "in"
    folder.mkdir()
    still = photo(folder / "still.png", ext=".png")
    animation(folder / "anim.png", "PNG")
    animation(folder / "more.apng", "PNG", frames=4)
    out = tmp_path / "out"
    for inputs in ([folder], [still, folder / "anim.png", folder / "more.apng"]):
        assert main(["render", *map(str, inputs), "-o", f"{out}/", "-q", "--style", "adjust",
                     *options]) == 0
        assert capsys.readouterr().err == ""
        assert sorted(p.name for p in out.iterdir()) == [f"anim{ext}", f"more{ext}",
                                                          "still.png"]
        for name, count in (("anim", 3), ("more", 4)):
            frames = decoded_frames(out / f"{name}{ext}")
            assert len(frames) == count and frames[0].shape[:2] == (48, 64)
            assert np.abs(frames[0].astype(int) - frames[-1]).mean() > 5  # all its frames
        assert cv2.imread(str(out / "still.png")).shape == (32, 48, 3)
        shutil.rmtree(out)


def test_a_batch_paints_an_animation_ffmpeg_cannot_decode_as_its_first_frame(tmp_path, capsys,
                                                                            undecodable):
    src = animation(tmp_path / "anim.webp", "WEBP", frames=6)
    out = tmp_path / "out"
    assert main(["render", str(src), str(photo(tmp_path / "still.jpg")), "-o", f"{out}/",
                 "-q", "--style", "adjust"]) == 0
    assert capsys.readouterr().err == (
        f"aquarelle: warning: {src} is an animated WebP (6 frames); only its first frame is "
        "painted, the other 5 are not (FFmpeg here cannot decode them)\n")
    assert sorted(p.name for p in out.iterdir()) == ["anim.webp", "still.jpg"]
    assert len(decoded_frames(out / "anim.webp")) == 1
    assert cv2.imread(str(out / "anim.webp")).shape == (48, 64, 3)
    assert undecodable == [src]  # the batch's probe is the warning's


def test_ffmpeg_decodes_the_frames_of_an_animated_png(tmp_path):
    from aquarelle.media.animation import ffmpeg_decodes

    assert ffmpeg_decodes(animation(tmp_path / "anim.png", "PNG"))
    assert not ffmpeg_decodes(photo(tmp_path / "still.png", ext=".png"))
    assert not ffmpeg_decodes(tmp_path / "missing.png")


def test_standard_input_is_refused_by_name(tmp_path, capsys):
    assert main(["render", "-", "-o", str(tmp_path / "x.png")]) == 2
    assert one_line_error(capsys) == (
        "aquarelle render: error: reading from standard input is not supported; give the input's "
        "file name (a file called '-': ./-)")


@pytest.mark.parametrize("out", ["a.m4a", "a.png", "a.mp4"])
def test_sound_without_pictures_is_the_error_whatever_the_output(tmp_path, capsys, out):
    import av

    src = tmp_path / "sound.m4a"
    with av.open(str(src), "w", format="ipod") as c:
        stream = c.add_stream("aac", rate=48000, layout="stereo")
        frame = av.AudioFrame.from_ndarray(tone(0.2), format="fltp", layout="stereo")
        frame.sample_rate = 48000
        for packet in [*stream.encode(frame), *stream.encode(None)]:
            c.mux(packet)
    assert main(["render", str(src), "-o", str(tmp_path / out), "-q"]) == 2
    assert one_line_error(capsys) == f"aquarelle render: error: {src} has no video stream"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sound.m4a"]


def test_h265s_10_bit_4_2_0_is_said_as_a_choice_not_the_encoders_limit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # trial V3, finding 4: "12-bit; h265 keeps 10 bits" and "4:4:4 colour; h265 is written
    # 4:2:0" read as limits, though this libx265 writes 12-bit and 4:4:4 (Rext); what is
    # written is unchanged: Main 10, 4:2:0
    import av

    src = make_clip(tmp_path / "deep.mkv", codec="ffv1", pix_fmt="yuv444p12le", frames=3,
                    audio=False).path
    out = tmp_path / "out.mkv"
    assert main(["render", str(src), "-o", str(out), "--style", "adjust"]) == 0
    err = capsys.readouterr().err
    assert "deep.mkv is 12-bit; h265 is written 10-bit 4:2:0 (Main 10) for players" in err
    assert ("deep.mkv has 4:4:4 colour; h265 is written 4:2:0 (Main 10) for players, "
            "its colour at half the width and height") in err
    assert "keeps 10 bits" not in err
    with av.open(str(out)) as c:
        cc = c.streams.video[0].codec_context
        assert (cc.name, cc.pix_fmt, cc.profile) == ("hevc", "yuv420p10le", "Main 10")
    report = diagnostics.Report()
    diagnostics.encoders(report)
    (h265,) = [c.detail for c in report.checks if c.name == "encoder H.265"]
    formats = {f.name for f in av.codec.Codec("libx265", "w").video_formats or ()}
    if {"yuv420p12le", "yuv444p10le"} <= formats:
        assert h265 == "libx265 (deep sources written 10-bit; it takes up to 12-bit, 4:4:4)"
