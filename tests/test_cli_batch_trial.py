"""A batch as a new user's trial (trialB) found it: one file's failure of any kind (an
OSError, OpenCV's error) is one line and the batch goes on, while Ctrl+C and a termination
signal still end it."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image as PILImage

from aquarelle.cli import render_video
from aquarelle.cli.batch_plan import default_name
from aquarelle.cli.main import main
from aquarelle.engine import interrupts


def cli(capsys, *argv: object) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


def notes(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("aquarelle: note:")]


def photo(path: Path, w: int = 24, h: int = 16) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    img = np.zeros((h, w, 3), np.uint8)
    img[:, : w // 2] = (40, 120, 200)
    assert cv2.imwrite(str(path), img)
    return path


def without_root_override(cmd: list[str]) -> list[str]:
    """`cmd` as a user whom file modes stop (root reads and writes anything: run without
    the capabilities that let it, as the trial did)."""
    if os.geteuid() != 0:
        return cmd
    if not shutil.which("setpriv"):
        pytest.skip("root without setpriv")
    caps = "-dac_override,-dac_read_search"
    return ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", *cmd]


def aquarelle(*argv: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "aquarelle", *(str(a) for a in argv)]
    return subprocess.run(without_root_override(cmd), capture_output=True, text=True,
                          timeout=300, cwd=cwd)


@pytest.fixture
def three(tmp_path, monkeypatch) -> list[Path]:
    monkeypatch.chdir(tmp_path)
    return [photo(Path("in") / f"{c}.png") for c in "abc"]


# 1. one file's failure, of any kind: one line, the batch goes on, exit 2


@pytest.mark.skipif(sys.platform != "linux", reason="file modes and setpriv: Linux")
def test_an_unreadable_photo_first_in_a_batch_is_one_line_and_the_rest_rendered(three):
    three[0].chmod(0)
    run = aquarelle("render", *three, "-o", "out", "--style", "adjust", cwd=Path.cwd())
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    errors = [line for line in run.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and "a.png" in errors[0] and "permission denied" in errors[0], \
        run.stderr
    assert sorted(p.name for p in Path("out").iterdir()) == ["b.png", "c.png"]
    assert "batch: 2 of 3 rendered into out, 1 failed: in/a.png" in run.stderr


def test_an_os_error_and_an_opencv_error_each_fail_their_file_only(three, capsys,
                                                                   monkeypatch):
    real = render_video.render_image

    def flaky(job, src, dst, *args, **kw):
        if src.name == "a.png":
            raise PermissionError(errno.EACCES, "Permission denied", str(src))
        if src.name == "b.png":
            raise cv2.error("OpenCV(5.1.0) /io/opencv/modules/imgcodecs/src/loadsave.cpp:99: "
                            "error: (-215:Assertion failed) !buf.empty() in function "
                            "'imdecode_'\n")
        return real(job, src, dst, *args, **kw)

    monkeypatch.setattr(render_video, "render_image", flaky)
    code, err = cli(capsys, "render", *three, "-o", "out", "--style", "adjust")
    assert code == 2, err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert errors == [
        "aquarelle render: error: in/a.png: permission denied",
        "aquarelle render: error: in/b.png: (-215:Assertion failed) !buf.empty() in function "
        "'imdecode_' (cv2.error)"], err
    assert [p.name for p in Path("out").iterdir()] == ["c.png"]
    assert "2 failed: in/a.png, in/b.png" in err.splitlines()[-1]


def test_ctrl_c_in_a_file_ends_the_batch(three, capsys, monkeypatch):
    def interrupted(job, src, dst, *args, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(render_video, "render_image", interrupted)
    code, err = cli(capsys, "render", *three, "-o", "out", "--style", "adjust")
    assert code == 130, err
    assert err.count("[") == 1 and "[1/3]" in err  # the second file was never started
    assert not any(Path("out").iterdir())


def test_an_interrupt_a_library_swallowed_still_ends_the_batch(three, capsys, monkeypatch):
    """A handler's interrupt that a library caught, then failed otherwise: not one file's
    failure to go past, but the cancel it was."""

    def ctrl_c() -> None:
        raise KeyboardInterrupt

    def swallowing(job, src, dst, *args, **kw):
        with contextlib.suppress(BaseException):  # as PyAV's encoders do
            interrupts.deliver(ctrl_c)
        raise RuntimeError("encoder failed")

    monkeypatch.setattr(render_video, "render_image", swallowing)
    code, err = cli(capsys, "render", *three, "-o", "out", "--style", "adjust")
    assert code == 130, err
    assert "[2/3]" not in err


# 11. a cancelled batch says what it finished


@pytest.mark.parametrize("signum, code, said", [
    (signal.SIGINT, 130, "aquarelle: cancelled"),
    (signal.SIGTERM, 128 + signal.SIGTERM,
     "aquarelle: cancelled (SIGTERM); nothing was left half-written")])
def test_a_cancelled_batch_says_what_was_written(three, capsys, monkeypatch, signum, code,
                                                 said, python_takes_ctrl_c):
    real = render_video.render_image

    def signalled_at_c(job, src, dst, *args, **kw):
        if src.name == "c.png":
            os.kill(os.getpid(), signum)  # its handler raises here, as Ctrl+C's would
        return real(job, src, dst, *args, **kw)

    monkeypatch.setattr(render_video, "render_image", signalled_at_c)
    got, err = cli(capsys, "render", *three, "-o", "out", "--style", "adjust")
    assert got == code, err
    assert err.splitlines()[-2:] == [
        "batch: cancelled at file 3 of 3 (in/c.png, not written); 2 files written into out: "
        "a.png, b.png", said], err
    assert sorted(p.name for p in Path("out").iterdir()) == ["a.png", "b.png"]


def test_a_batch_cancelled_between_files_or_before_any_says_so():
    assert render_video.cancelled_line(2, 5, None, Path("out"), ["a.png", "b.png"]) == \
        "batch: cancelled after file 2 of 5; 2 files written into out: a.png, b.png"
    assert render_video.cancelled_line(0, 5, None, Path("out"), []) == \
        "batch: cancelled before its first file; nothing written"


# 10. an output folder that takes no file: refused once, before any painting


@pytest.mark.skipif(sys.platform != "linux", reason="file modes and setpriv: Linux")
def test_a_read_only_output_folder_is_refused_once_before_painting(three):
    Path("out").mkdir()
    Path("out").chmod(0o555)
    run = aquarelle("render", *three, "-o", "out", "--style", "adjust", cwd=Path.cwd())
    assert run.returncode == 2, run.stderr
    assert run.stderr.splitlines() == [
        "aquarelle render: error: cannot write into output folder out: permission denied"]
    assert not any(Path("out").iterdir())


def test_a_missing_output_folders_parent_is_refused_before_painting(three, capsys):
    code, err = cli(capsys, "render", *three, "-o", "no/such/out", "--style", "adjust")
    assert code == 2
    assert err.splitlines() == ["aquarelle render: error: cannot create output folder "
                                "no/such/out: no such file or directory"]


# 8. walking folders: what cannot be read, broken links and symlinked folders are said


@pytest.mark.skipif(sys.platform != "linux", reason="file modes and setpriv: Linux")
def test_an_unreadable_subfolder_is_named_in_a_warning(three):
    photo(Path("in/closed/d.png"))
    Path("in/closed").chmod(0)
    try:
        run = aquarelle("render", "in", "-r", "-o", "out", "--style", "adjust", "-q",
                        cwd=Path.cwd())
    finally:
        Path("in/closed").chmod(0o755)
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines() == [
        "aquarelle: warning: cannot read folder in/closed: permission denied; what it holds "
        "is not rendered"]
    assert sorted(p.name for p in Path("out").iterdir()) == ["a.png", "b.png", "c.png"]


@pytest.mark.skipif(sys.platform != "linux", reason="file modes and setpriv: Linux")
def test_an_unreadable_input_folder_is_said_as_such(three):
    Path("in").chmod(0)
    try:
        run = aquarelle("render", "in", "-o", "out", "--style", "adjust", cwd=Path.cwd())
    finally:
        Path("in").chmod(0o755)
    assert run.returncode == 2, run.stderr
    assert run.stderr.splitlines() == [
        "aquarelle render: error: cannot read folder in: permission denied"]


def test_a_broken_link_is_named_as_one(three, capsys):
    Path("in/dangling.jpg").symlink_to("gone.jpg")
    code, err = cli(capsys, "render", "in", "-o", "out", "--style", "adjust")
    assert code == 0, err
    assert notes(err) == ["aquarelle: note: skipped in in: dangling.jpg (broken link)"]


def test_symlinked_subfolders_are_followed_but_loops_are_not(three, capsys, tmp_path):
    photo(tmp_path / "elsewhere/e.png")
    photo(Path("in/sub/s.png"))
    Path("in/away").symlink_to(tmp_path / "elsewhere")
    Path("in/back").symlink_to(Path.cwd() / "in")
    Path("in/sub/again").symlink_to(Path.cwd() / "in/sub")
    Path("in/twin").symlink_to(Path.cwd() / "in/sub")
    code, err = cli(capsys, "render", "in", "-r", "-o", "out", "--style", "adjust")
    assert code == 0, err
    written = sorted(str(p.relative_to("out")) for p in Path("out").rglob("*.png"))
    assert written == ["a.png", "away/e.png", "b.png", "c.png", "sub/s.png"]
    assert notes(err) == [
        "aquarelle: note: skipped in in: back/, sub/again/, twin/ (a symlink to a folder "
        "walked elsewhere or above: not followed)"]


# 4. a one-frame GIF is a still; an animated one a video


def gifs(folder: Path) -> None:
    """still.gif (one frame: red left half) and anim.gif (three frames)."""
    folder.mkdir(parents=True, exist_ok=True)
    rgb = np.zeros((32, 48, 3), np.uint8)
    rgb[:, :24] = (220, 30, 30)
    PILImage.fromarray(rgb).save(folder / "still.gif")
    frames = [PILImage.fromarray(np.full((32, 48, 3), v, np.uint8)) for v in (0, 120, 240)]
    frames[0].save(folder / "anim.gif", save_all=True, append_images=frames[1:], duration=100)


def test_a_still_gif_in_a_batch_is_painted_as_a_picture(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    gifs(Path("in"))
    code, err = cli(capsys, "render", "in", "-o", "out", "--style", "adjust")
    assert code == 0, err
    assert sorted(p.name for p in Path("out").iterdir()) == ["anim.mp4", "still.png"]
    painted = cv2.imread("out/still.png")
    assert painted.shape == (32, 48, 3)
    assert painted[16, 6, 2] > 150 > painted[16, 6, 0]  # red where the GIF is red (BGR)
    assert "in/still.gif -> out/still.png (48x32)" in err
    assert "in/anim.gif -> out/anim.mp4 (3 frames" in err


# 5. the stills' format in a batch: --format for the kind it names, an extension in --name


def test_format_names_the_stills_format_and_leaves_the_videos_theirs(tmp_path, capsys,
                                                                     monkeypatch):
    monkeypatch.chdir(tmp_path)
    gifs(Path("in"))
    photo(Path("in/a.jpg"))
    code, err = cli(capsys, "render", "in", "-o", "out", "--format", "PNG", "--style", "adjust")
    assert code == 0, err
    assert sorted(p.name for p in Path("out").iterdir()) == ["a.png", "anim.mp4", "still.png"]
    assert Path("out/a.png").read_bytes().startswith(b"\x89PNG")
    code, err = cli(capsys, "render", "in", "-o", "out2", "--format", "webp", "--format", "mkv",
                    "--style", "adjust", "-q")
    assert code == 0, err
    assert sorted(p.name for p in Path("out2").iterdir()) == ["a.webp", "anim.mkv",
                                                              "still.webp"]


def test_an_extension_in_name_is_the_outputs(three, capsys):
    code, err = cli(capsys, "render", "in", "-o", "out", "--name", "{stem}_w.jpg", "--style",
                    "adjust", "-q")
    assert code == 0, err
    assert sorted(p.name for p in Path("out").iterdir()) == ["a_w.jpg", "b_w.jpg", "c_w.jpg"]
    assert Path("out/a_w.jpg").read_bytes().startswith(b"\xff\xd8")


def test_an_extension_in_name_the_inputs_kind_is_not_written_as_is_refused(tmp_path, capsys,
                                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    gifs(Path("in"))
    code, err = cli(capsys, "render", "in", "-o", "out", "--name", "{stem}.png", "--style",
                    "adjust")
    assert code == 2
    assert err.splitlines() == [
        "aquarelle render: error: --name '{stem}.png' gives anim.png for anim.gif, a video, "
        "written in .m4v .mkv .mov .mp4 .webm"]
    assert not Path("out").exists()


def test_a_dot_in_name_or_in_a_stem_is_part_of_the_name():
    assert default_name(Path("a.jpg"), None, template="{stem}.v2") == "a.v2.jpg"
    assert default_name(Path("clip.mp4.jpg"), None) == "clip.mp4.jpg"
    assert default_name(Path("b.mov"), None, template="{stem}.{ext}") == "b.mov"
    assert default_name(Path("a.jpg"), None, template="{stem}.{ext}") == "a.jpg"
    assert default_name(Path("a.heic"), None, still_fmt="tif") == "a.tif"


def test_format_twice_for_one_kind_is_refused(three, capsys):
    with pytest.raises(SystemExit) as e:
        cli(capsys, "render", "in", "-o", "out", "--format", "gif")
    assert e.value.code == 2
    assert "invalid choice: 'gif'" in capsys.readouterr().err
    code, err = cli(capsys, "render", "in", "-o", "out", "--format", "png", "--format", "jpg")
    assert code == 2
    assert err.splitlines() == ["aquarelle render: error: --format png and jpg: give one "
                                "format for the stills (and one for the other kind, if any)"]


def test_one_input_into_a_folder_is_named_as_a_batch_names_it(tmp_path, capsys, monkeypatch):
    """One still GIF into -o DIR/ is painted as a picture (it became a one-frame MP4), and
    --format names one still's output in a folder as a batch's (it was ignored, with a
    warning); -o naming the file ignores --format with a warning."""
    monkeypatch.chdir(tmp_path)
    gifs(Path("in"))
    photo(Path("in/a.jpg"))
    code, err = cli(capsys, "render", "in/still.gif", "-o", "out/", "--style", "adjust")
    assert code == 0, err
    assert [p.name for p in Path("out").iterdir()] == ["still.png"]
    code, err = cli(capsys, "render", "in/a.jpg", "-o", "out2/", "--format", "webp",
                    "--style", "adjust")
    assert code == 0, err
    assert [p.name for p in Path("out2").iterdir()] == ["a.webp"] and "warning" not in err
    code, err = cli(capsys, "render", "in/a.jpg", "-o", "one.png", "--format", "webp",
                    "--style", "adjust")
    assert code == 0 and Path("one.png").exists()
    assert "--format names the files written into a folder" in err
