"""A batch's output names and what it says (user trial 21): inputs of one name from different
folders each get their own painting, never reported as "already there"; hidden files are
named as skipped; a missing input and a file in -o's path are said as what they are."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from aquarelle.cli.batch_plan import default_name, output_names
from aquarelle.cli.main import main


def cli(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def photo(path: Path, size: tuple[int, int], ext: str = ".png") -> Path:
    """A picture of `size` (W, H), its bytes encoded as `ext` whatever its name says."""
    path.parent.mkdir(parents=True, exist_ok=True)
    img = np.zeros((size[1], size[0], 3), np.uint8)
    img[:, : max(1, size[0] // 2)] = (40, 120, 200)
    ok, data = cv2.imencode(ext, img)
    assert ok
    path.write_bytes(data.tobytes())
    return path


def sizes(folder: Path) -> dict[str, tuple[int, int]]:
    """Each file written in `folder` and its picture's (W, H), decoded."""
    found = {}
    for p in sorted(folder.iterdir()):
        img = cv2.imread(str(p), cv2.IMREAD_UNCHANGED)
        assert img is not None, p
        found[p.name] = (img.shape[1], img.shape[0])
    return found


@pytest.fixture
def three_ones(tmp_path, monkeypatch) -> list[str]:
    """The trial's inputs: one.png in batch/, batch/other/ and batch/sub/ (BMP data there),
    each of its own size; run from tmp_path, as the user did."""
    monkeypatch.chdir(tmp_path)
    photo(tmp_path / "batch/one.png", (1, 1))
    photo(tmp_path / "batch/other/one.png", (2, 2))
    photo(tmp_path / "batch/sub/one.png", (30, 20), ".bmp")
    return ["batch/one.png", "batch/other/one.png", "batch/sub/one.png"]


def test_same_names_from_different_folders_each_get_their_own_output(three_ones, capsys):
    code, _, err = cli(capsys, "render", *three_ones, "-o", "bo3")
    assert code == 0, err
    assert sizes(Path("bo3")) == {"one.png": (1, 1), "one_other.png": (2, 2),
                                  "one_sub.png": (30, 20)}
    lines = err.splitlines()
    assert lines[0] == ("aquarelle: note: 2 outputs renamed, as other inputs would have the "
                        "same name: batch/other/one.png -> one_other.png, batch/sub/one.png "
                        "-> one_sub.png")
    assert lines[-1] == "batch: 3 of 3 rendered into bo3"
    # again: all three are there now (this time they are, from the run before)
    code, _, err = cli(capsys, "render", *three_ones, "-o", "bo3", "-q")
    assert code == 0
    assert err == ("batch: 0 of 3 rendered into bo3, 3 skipped (already there: one.png, "
                   "one_other.png, one_sub.png; -y replaces)\n")
    # -y replaces each with its own painting, none with another's
    code, _, err = cli(capsys, "render", *three_ones, "-o", "bo3", "-y")
    assert code == 0 and err.splitlines()[-1] == "batch: 3 of 3 rendered into bo3"
    assert sizes(Path("bo3")) == {"one.png": (1, 1), "one_other.png": (2, 2),
                                  "one_sub.png": (30, 20)}


def test_a_name_template_without_the_stem_numbers_the_others(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    inputs = [photo(tmp_path / f"in/{c}.png", (w, 8)) for c, w in (("a", 4), ("b", 6), ("c", 10))]
    code, _, err = cli(capsys, "render", *inputs, "-o", "out", "--name", "painted", "-q")
    assert code == 0 and err == "", err
    assert sizes(Path("out")) == {"painted.png": (4, 8), "painted-2.png": (6, 8),
                                  "painted-3.png": (10, 8)}


def test_names_differing_only_in_case_are_one_name(tmp_path, capsys, monkeypatch):
    """Photo.png and photo.png are one file on Windows and macOS: the second painting would
    replace the first there."""
    monkeypatch.chdir(tmp_path)
    photo(tmp_path / "x/Photo.png", (4, 4))
    photo(tmp_path / "y/photo.png", (6, 6))
    code, _, err = cli(capsys, "render", "x/Photo.png", "y/photo.png", "-o", "out", "-q")
    assert code == 0 and err == "", err
    assert sizes(Path("out")) == {"Photo.png": (4, 4), "photo_y.png": (6, 6)}


def test_a_renamed_output_never_takes_another_inputs_name():
    """x.mov's x_mov.mp4 is the plain name of the input x_mov.mp4: it takes a number."""
    files = [(Path("d/x.mp4"), Path()), (Path("d/x.mov"), Path()),
             (Path("d/x_mov.mp4"), Path())]
    assert output_names(files, None) == [Path("x.mp4"), Path("x-2.mp4"), Path("x_mov.mp4")]
    # with -r the tree keeps them apart; a tag is only added within one folder
    files = [(Path("d/x.mp4"), Path()), (Path("d/s/x.mp4"), Path("s")),
             (Path("d/s/x.mov"), Path("s"))]
    assert output_names(files, None) == [Path("x.mp4"), Path("s/x.mp4"), Path("s/x_mov.mp4")]


def test_a_matroska_source_stays_matroska():
    """An .mkv source is written as .mkv into a folder (its attachments and ASS subtitles
    kept; MP4 left them out or converted them, trial V5), unless --codec or --format names
    another; x.mkv and x.mp4 then share no name."""
    files = [(Path("d/x.mp4"), Path()), (Path("d/x.mkv"), Path())]
    assert output_names(files, None) == [Path("x.mp4"), Path("x.mkv")]
    assert default_name(Path("x.mkv"), "vp9") == "x.webm"
    assert default_name(Path("x.mkv"), None, "mp4") == "x.mp4"
    assert default_name(Path("x.mkv"), None, template="{stem}_painted") == "x_painted.mkv"


def test_hidden_files_are_named_as_skipped(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    photo(tmp_path / "batch/a.png", (4, 4))
    photo(tmp_path / "batch/.hidden.jpg", (6, 6), ".jpg")
    photo(tmp_path / "batch/.git/b.png", (6, 6))
    photo(tmp_path / "batch/.git/c.png", (6, 6))
    (tmp_path / "batch/readme.txt").write_text("hi")
    code, _, err = cli(capsys, "render", "batch", "-o", "out")
    assert code == 0, err
    assert err.splitlines()[0] == (
        "aquarelle: note: skipped in batch: readme.txt (not images or videos by their names; "
        "subfolders are entered with --recursive); .git/, .hidden.jpg (hidden)")
    assert err.splitlines()[-1] == "batch: 1 of 1 rendered into out"
    assert sizes(Path("out")) == {"a.png": (4, 4)}
    code, _, err = cli(capsys, "render", "batch", "-o", "out_r", "-r")
    assert code == 0, err
    assert err.splitlines()[0] == (
        "aquarelle: note: skipped in batch: readme.txt (not images or videos by their "
        "names); .git/, .hidden.jpg (hidden)")  # the hidden folder once, not each file
    assert sizes(Path("out_r")) == {"a.png": (4, 4)}


@pytest.mark.parametrize(("given", "said"), [
    ("nosuch.jpg", "no such file: nosuch.jpg"),
    ("nosuch.mp4", "no such file: nosuch.mp4"),
    ("batch/*.jpg", "no such file: batch/*.jpg (the pattern matches no file)"),
    ("batch/*.png", "no such file: batch/*.png (a pattern, which aquarelle does not expand: "
                    "leave it unquoted for the shell to, or give the folder)"),
])
def test_a_missing_input_is_said_before_the_output(tmp_path, capsys, monkeypatch, given, said):
    monkeypatch.chdir(tmp_path)
    photo(tmp_path / "batch/a.png", (4, 4))
    code, out, err = cli(capsys, "render", given, "-o", "bo7")
    assert (code, out, err) == (2, "", f"aquarelle render: error: {said}\n")
    assert not Path("bo7").exists()


@pytest.mark.parametrize("output", ["in/one.png/x.png", "in/one.png/a/x.mp4", "in/one.png/"])
def test_a_file_where_the_output_needs_a_folder_is_said_to_be_one(tmp_path, capsys,
                                                                  monkeypatch, output):
    monkeypatch.chdir(tmp_path)
    src = photo(tmp_path / "in/one.png", (4, 4))
    before = src.read_bytes()
    code, _, err = cli(capsys, "render", "in/one.png", "-o", output)
    assert (code, err) == (2, f"aquarelle render: error: -o {output}: in/one.png is a file, not a "
                              "folder\n")
    assert src.read_bytes() == before


def test_help_says_out_may_be_a_folder_and_size_is_for_stills_too(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["render", "--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    general, video = text.split("\nvideo options:\n")[0], text.split("\nvideo options:\n")[1]
    general = " ".join(general.split())
    assert "-o OUT, --output OUT output file, or folder to render into" in general
    assert "--size WxH the size the input is resized to before painting (a still or a " \
           "video's frames)" in general
    assert "--size" not in video.split("\n\n")[0]
