"""Nothing is replaced or lost by accident (issue #27): -n is atomic (two renders racing for
one name: exactly one wins, the other fails and the winner's file is intact), temporary files
of killed renders are cleaned by the next write of the same output (and nothing else is
touched), and an output that is a symlink is written through, the link kept."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from part_files import parts, written_parts

from aquarelle.cli import render_image
from aquarelle.cli.main import main
from aquarelle.media import atomic
from aquarelle.media.atomic import OutputExists, atomic_output, sweep_stale


def no_hard_links(monkeypatch) -> None:
    """A filesystem like FAT: os.link fails with EPERM."""
    def refuse(*_a, **_k):
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(atomic.os, "link", refuse)


@pytest.mark.parametrize("links", [True, False], ids=["hard-links", "no-hard-links"])
def test_two_no_replace_writers_racing_exactly_one_wins(tmp_path, monkeypatch, links):
    if not links:
        no_hard_links(monkeypatch)
    target = tmp_path / "out.mp4"
    both_written = threading.Barrier(2)  # both past the early check before either publishes
    outcomes: dict[str, BaseException | None] = {}

    def render(name: str) -> None:
        try:
            with atomic_output(target, replace=False) as tmp:
                tmp.write_bytes(name.encode() * 1000)
                both_written.wait(timeout=30)
            outcomes[name] = None
        except BaseException as e:  # noqa: BLE001 - recorded, asserted below
            outcomes[name] = e

    threads = [threading.Thread(target=render, args=(n,)) for n in ("first", "second")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    winners = [n for n, e in outcomes.items() if e is None]
    losers = [e for e in outcomes.values() if e is not None]
    assert len(winners) == 1 and len(losers) == 1, outcomes
    assert isinstance(losers[0], OutputExists)
    assert str(losers[0]) == f"{target} exists and -n says not to replace it"
    assert target.read_bytes() == winners[0].encode() * 1000  # the winner's, whole
    assert parts(tmp_path) == []


def test_no_replace_refuses_an_existing_file_before_the_work(tmp_path):
    target = tmp_path / "out.png"
    target.write_bytes(b"mine")
    with pytest.raises(OutputExists), atomic_output(target, replace=False):
        pytest.fail("the block must not run")
    assert target.read_bytes() == b"mine" and parts(tmp_path) == []


def test_replace_still_replaces(tmp_path):
    target = tmp_path / "out.png"
    target.write_bytes(b"old")
    with atomic_output(target) as tmp:
        tmp.write_bytes(b"new")
    assert target.read_bytes() == b"new" and parts(tmp_path) == []
    assert (target.stat().st_mode & 0o777) != 0o600


def test_a_failed_no_links_publish_removes_only_its_own_claim(tmp_path, monkeypatch):
    no_hard_links(monkeypatch)
    target = tmp_path / "out.png"

    def broken_replace(*_a):
        raise OSError(errno.EIO, "Input/output error")

    with pytest.raises(OSError, match="Input/output"), atomic_output(target, replace=False) \
            as tmp:
        tmp.write_bytes(b"x")
        monkeypatch.setattr(atomic.os, "replace", broken_replace)
    assert not target.exists() and parts(tmp_path) == []


# Stale temporary files


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()  # reaped: no process has this pid now (and one reusing it counts as alive)
    return proc.pid


def temp_name(stem: str, suffix: str, pid: int, host: str = atomic._HOST,
              rand: str = "0badc0de") -> str:
    return f".{stem}.{pid}.{host}.{rand}.part{suffix}"


def test_only_dead_processes_temporary_files_of_the_same_target_are_removed(tmp_path):
    dead = dead_pid()
    stale = temp_name("out", ".mp4", dead)
    kept = [
        temp_name("out", ".mp4", os.getpid()),  # a live process's (this one's)
        temp_name("out", ".mp4", 1),  # init's: alive, even if not ours to signal
        temp_name("out", ".mp4", dead, host="elsewhere-12345678"),  # another machine's
        temp_name("other", ".mp4", dead),  # another target's
        temp_name("out", ".mkv", dead),  # another target's (extension)
        temp_name("out.1", ".mp4", dead),  # another target's (out.1.mp4)
        f".out.{dead}.{atomic._HOST}.0badc0de.part.mp4.bak",  # look-alikes
        f".out.{dead}.{atomic._HOST}.0BADC0DE.part.mp4",
        f"out.{dead}.{atomic._HOST}.0badc0de.part.mp4",
        ".out.k3j4h5g2.part.mp4",  # the old mkstemp names: no owner to check
        "out.mp4",
    ]
    for name in [stale, *kept]:
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / temp_name("out", ".mp4", dead, rand="deadbeef")).mkdir()  # not a file

    removed = sweep_stale(tmp_path / "out.mp4")

    assert removed == [tmp_path / stale]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*kept, temp_name("out", ".mp4", dead, rand="deadbeef")])


def test_a_write_removes_a_killed_writers_temporary_file(tmp_path):
    stale = tmp_path / temp_name("out", ".png", dead_pid())
    stale.write_bytes(b"half a picture")
    with atomic_output(tmp_path / "out.png") as tmp:
        assert not stale.exists()  # cleaned when the write started
        assert tmp.name.startswith(f".out.{os.getpid()}.{atomic._HOST}.")
        tmp.write_bytes(b"done")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.png"]


def write_clip(path: Path, frames: int, size: tuple[int, int] = (160, 120)) -> Path:
    from videoclips import make_clip

    return make_clip(path, size=size, frames=frames, fps=30).path


def wait_for_part(folder: Path, proc: subprocess.Popen, timeout: float = 120) -> str:
    """The name of the first temporary file `proc` writes into in `folder` (polled). An empty
    one may be the writability probe's, made and removed before the work starts."""
    deadline = time.monotonic() + timeout
    while not (written := written_parts(folder)):
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else "ended too soon"
        assert time.monotonic() < deadline, "the render never started writing"
        time.sleep(0.02)  # a polling interval, not a synchronisation
    return written[0]


def test_a_render_after_a_sigkilled_one_leaves_no_temporary_file(tmp_path):
    clip = write_clip(tmp_path / "in.mp4", frames=360)  # seconds of work: killed long before
    out = tmp_path / "out"
    out.mkdir()
    argv = [sys.executable, "-m", "aquarelle", "render", str(clip), "-o", str(out / "p.mp4"),
            "-q", "--speed", "ultrafast"]
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True)
    try:
        name = wait_for_part(out, proc)
        proc.send_signal(signal.SIGKILL)  # no handler runs: the temporary file stays
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert name.startswith(f".p.{proc.pid}.") and parts(out) == [name]

    again = subprocess.run([*argv[:3], "render", str(write_clip(tmp_path / "short.mp4", 4)),
                            *argv[5:]], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in out.iterdir()) == ["p.mp4"]


# Symlinks


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path):
    real_dir, link_dir = tmp_path / "real", tmp_path / "links"
    real_dir.mkdir()
    link_dir.mkdir()
    real = real_dir / "final.png"
    real.write_bytes(b"old")
    link = link_dir / "out.png"
    link.symlink_to(real)
    with atomic_output(link) as tmp:
        assert tmp.parent == real_dir  # renamed within the target's filesystem
        tmp.write_bytes(b"new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new"
    assert parts(real_dir) == [] and parts(link_dir) == []


def test_a_chain_of_symlinks_is_followed_to_the_file(tmp_path):
    real = tmp_path / "final.png"
    real.write_bytes(b"old")
    (tmp_path / "b.png").symlink_to("final.png")  # relative links
    (tmp_path / "a.png").symlink_to("b.png")
    with atomic_output(tmp_path / "a.png") as tmp:
        tmp.write_bytes(b"new")
    assert real.read_bytes() == b"new" and (tmp_path / "a.png").is_symlink()


def test_a_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "out.png"
    link.symlink_to(tmp_path / "made.png")
    with atomic_output(link, replace=False) as tmp:  # -n: no file is there to replace
        tmp.write_bytes(b"new")
    assert link.is_symlink() and (tmp_path / "made.png").read_bytes() == b"new"


def test_a_dangling_symlink_into_a_missing_folder_is_a_clear_error(tmp_path):
    link = tmp_path / "out.png"
    link.symlink_to(tmp_path / "gone" / "made.png")
    with pytest.raises(FileNotFoundError) as info, atomic_output(link):
        pytest.fail("the block must not run")
    assert info.value.strerror == (f"it is a symlink to {tmp_path / 'gone' / 'made.png'}, "
                                   "whose folder does not exist")
    assert link.is_symlink() and parts(tmp_path) == []


def test_a_symlink_loop_is_an_error_not_a_replaced_link(tmp_path):
    (tmp_path / "a.png").symlink_to("b.png")
    (tmp_path / "b.png").symlink_to("a.png")
    with pytest.raises(OSError) as info, atomic_output(tmp_path / "a.png"):
        pytest.fail("the block must not run")
    assert info.value.errno == errno.ELOOP
    assert (tmp_path / "a.png").is_symlink() and (tmp_path / "b.png").is_symlink()


def test_no_replace_refuses_a_symlink_to_an_existing_file(tmp_path):
    real = tmp_path / "final.png"
    real.write_bytes(b"mine")
    (tmp_path / "out.png").symlink_to(real)
    with pytest.raises(OutputExists), atomic_output(tmp_path / "out.png", replace=False):
        pytest.fail("the block must not run")
    assert real.read_bytes() == b"mine"


# The command line


@pytest.fixture
def photo(tmp_path) -> Path:
    path = tmp_path / "in.png"
    cv2.imwrite(str(path), (np.arange(48 * 64 * 3) % 251).astype(np.uint8).reshape(48, 64, 3))
    return path


def render(capsys, *argv: object) -> tuple[int, str]:
    code = main(["render", *map(str, argv), "-q"])
    return code, capsys.readouterr().err


@pytest.fixture
def late_output(monkeypatch):
    """The early -n check passes (as when the output appears after it): the write must
    still refuse."""
    from aquarelle.cli import render_frames, render_video

    for module in (render_image, render_video, render_frames):
        monkeypatch.setattr(module, "refuse_existing", lambda *_: None)


def test_n_refuses_an_image_that_appeared_after_the_check(tmp_path, capsys, photo, late_output,
                                                          gl_ctx):
    out = tmp_path / "out.png"
    out.write_bytes(b"mine")
    code, err = render(capsys, photo, "-o", out, "-n")
    assert code == 2 and err == f"aquarelle render: error: {out} exists and -n says not to " \
                                "replace it\n"
    assert out.read_bytes() == b"mine" and parts(tmp_path) == []


def test_n_refuses_a_symlinked_image_output(tmp_path, capsys, photo, gl_ctx):
    real = tmp_path / "final.png"
    real.write_bytes(b"mine")
    (tmp_path / "out.png").symlink_to(real)
    code, err = render(capsys, photo, "-o", tmp_path / "out.png", "-n")
    assert code == 2 and "out.png exists and -n says not to replace it" in err
    assert real.read_bytes() == b"mine"


def test_an_image_output_symlink_is_written_through(tmp_path, capsys, photo, gl_ctx):
    real = tmp_path / "final.png"
    real.write_bytes(b"old")
    (tmp_path / "out.png").symlink_to(real)
    code, err = render(capsys, photo, "-o", tmp_path / "out.png")
    assert code == 0, err
    assert (tmp_path / "out.png").is_symlink()
    assert cv2.imread(str(real)).shape == (48, 64, 3)


def test_an_image_output_symlink_into_a_missing_folder(tmp_path, capsys, photo, gl_ctx):
    (tmp_path / "out.png").symlink_to(tmp_path / "gone" / "final.png")
    code, err = render(capsys, photo, "-o", tmp_path / "out.png")
    assert code == 2 and err == (f"aquarelle render: error: cannot write {tmp_path / 'out.png'}: "
                                 f"it is a symlink to {tmp_path / 'gone' / 'final.png'}, whose "
                                 "folder does not exist\n")


def test_n_refuses_a_video_that_appeared_after_the_check(tmp_path, capsys, late_output,
                                                         gl_ctx):
    clip = write_clip(tmp_path / "in.mp4", frames=3, size=(64, 48))
    out = tmp_path / "out.mp4"
    out.write_bytes(b"mine")
    code, err = render(capsys, clip, "-o", out, "-n")
    assert code == 2 and err.endswith(f"aquarelle render: error: {out} exists and -n says not to "
                                      "replace it\n"), err
    assert out.read_bytes() == b"mine" and parts(tmp_path) == []


@pytest.mark.parametrize("name, existing", [("anim.gif", "anim.gif"),
                                            ("frames/%03d.png", "frames/002.png")])
def test_n_refuses_frames_that_appeared_after_the_check(tmp_path, capsys, late_output,
                                                        gl_ctx, name, existing):
    clip = write_clip(tmp_path / "in.mp4", frames=3, size=(64, 48))
    (tmp_path / "frames").mkdir()
    (tmp_path / existing).write_bytes(b"mine")
    code, err = render(capsys, clip, "-o", tmp_path / name, "-n")
    assert code == 2 and "exists and -n says not to replace it" in err, err
    assert (tmp_path / existing).read_bytes() == b"mine"
    assert sorted(p.name for p in (tmp_path / "frames").iterdir()) == (
        ["002.png"] if "frames" in existing else [])  # frame 1, written first, is gone again


def test_the_cluster_join_refuses_to_replace_with_n(tmp_path):
    from fractions import Fraction

    from aquarelle.cluster.join import join_chunks
    from aquarelle.media.errors import MediaError

    chunk = write_clip(tmp_path / "chunk.mp4", frames=3, size=(64, 48))
    out = tmp_path / "out.mp4"
    out.write_bytes(b"mine")
    with pytest.raises(MediaError) as info:
        join_chunks([(chunk, Fraction(0))], out, "mp4", chunk, replace=False)
    assert str(info.value) == f"{out} exists and -n says not to replace it"
    assert out.read_bytes() == b"mine" and parts(tmp_path) == []
    join_chunks([(chunk, Fraction(0))], out, "mp4", chunk)  # without -n: replaced
    assert out.read_bytes() != b"mine" and parts(tmp_path) == []


# An output folder no file can be made in: refused before any painting, every output kind


@pytest.fixture
def locked(tmp_path) -> Iterator[Path]:
    """A folder nobody may write to (root may write anywhere but /proc)."""
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        yield folder if os.geteuid() != 0 else Path("/proc/1")
    finally:
        folder.chmod(0o700)


@pytest.fixture
def no_painting(monkeypatch) -> None:
    """Painting fails the test: the output's folder is to be refused before it."""
    from aquarelle.cli import render_frames
    from aquarelle.media import export

    def paint(*_a, **_k):
        raise AssertionError("painted before the output was checked")

    for module in (render_image, render_frames, export):
        monkeypatch.setattr(module, "Renderer", paint)


def ours(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.lstrip(".").startswith("x"))


@pytest.mark.parametrize("name, first", [("x.gif", "x.gif"), ("x_%04d.png", "x_0001.png"),
                                         ("x.mp4", "x.mp4"), ("x.png", "x.png")])
def test_an_unwritable_folder_is_refused_before_any_painting(tmp_path, capsys, photo, locked,
                                                             no_painting, name, first):
    src = photo if name == "x.png" else write_clip(tmp_path / "in.mp4", frames=3,
                                                   size=(64, 48))
    code, err = render(capsys, src, "-o", locked / name)
    assert code == 2 and err.startswith(f"aquarelle render: error: cannot write {locked / first}: ")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert ours(locked) == []


# An existing output that cannot be replaced: refused before any painting, left as it was


@pytest.mark.parametrize("name, first", [("x.gif", "x.gif"), ("x_%04d.png", "x_0001.png"),
                                         ("x.mp4", "x.mp4"), ("x.png", "x.png")])
def test_a_read_only_output_is_refused_before_any_painting(tmp_path, capsys, photo,
                                                           monkeypatch, no_painting, name,
                                                           first):
    src = photo if name == "x.png" else write_clip(tmp_path / "in.mp4", frames=3,
                                                   size=(64, 48))
    target = tmp_path / first
    target.write_bytes(b"mine")
    access = os.access

    def read_only(path, mode, **kw) -> bool:  # as a user other than root sees a 444 file
        return not (mode & os.W_OK and Path(path) == target) and access(path, mode, **kw)

    monkeypatch.setattr(os, "access", read_only)
    code, err = render(capsys, src, "-o", tmp_path / name)
    assert code == 2 and err == (f"aquarelle render: error: cannot write {target}: it exists and "
                                 "is read-only (make it writable, or choose another name)\n")
    assert target.read_bytes() == b"mine" and ours(tmp_path) == [first]


def test_a_read_only_image_is_replaced_where_the_user_may(tmp_path, capsys, photo, gl_ctx):
    """Root may replace a 444 file (and does); another user is refused."""
    target = tmp_path / "x.png"
    target.write_bytes(b"mine")
    target.chmod(0o444)
    code, err = render(capsys, photo, "-o", target, "--style", "adjust")
    if os.geteuid() == 0:
        assert code == 0 and err == ""
        assert cv2.imread(str(target)).shape == (48, 64, 3)
    else:
        assert code == 2 and "it exists and is read-only" in err
        assert target.read_bytes() == b"mine"


@pytest.mark.parametrize("out, made", [("out/", "out/in.png"),
                                       ("out/x_%04d.png", "out/x_0001.png")])
def test_an_output_that_is_a_folder_is_refused_before_any_painting(tmp_path, capsys, photo,
                                                                   no_painting, out, made):
    """The name the output gets in -o's folder, or a sequence's first frame, is a folder
    (-o naming a folder itself renders into it)."""
    src = photo if made.endswith("in.png") else write_clip(tmp_path / "in.mp4", frames=3,
                                                           size=(64, 48))
    (tmp_path / made).mkdir(parents=True)
    code, err = render(capsys, src, "-o", f"{tmp_path}/{out}")
    assert code == 2 and err == f"aquarelle render: error: cannot write {tmp_path / made}: it is " \
                                "a folder\n"
    assert [p.name for p in (tmp_path / "out").iterdir()] == [Path(made).name]
    assert not any((tmp_path / made).iterdir())


def test_the_writable_probe_leaves_nothing_behind(tmp_path, locked):
    atomic.probe_writable(tmp_path / "out.gif")
    assert [p.name for p in tmp_path.iterdir()] == ["locked"]
    with pytest.raises(OSError):
        atomic.probe_writable(locked / "x.gif")
    assert ours(locked) == []


@pytest.mark.parametrize("name", ["gone.jpg", "gone.mp4"])
def test_a_missing_input_is_named_before_the_output(tmp_path, capsys, name):
    """The input's own problem first: a missing photo or clip with an output whose folder
    is missing too is told as the missing input."""
    out = tmp_path / "no_folder" / ("out" + Path(name).suffix.replace(".jpg", ".png"))
    assert main(["render", str(tmp_path / name), "-o", str(out), "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"aquarelle render: error: no such file: {tmp_path / name}", err
    assert not out.parent.exists()
