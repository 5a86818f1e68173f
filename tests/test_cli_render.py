"""The command line, run as a user runs it (`python -m aquarelle ...` in a subprocess):
image formats, metadata, presets and parameters, and clean failures on bad input.

Every command is prepared in its own folder and all of them run concurrently once per module
(a process spends most of its time importing), then each test checks its command's result.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest
from conftest import rings, smooth_noise, to_u8

import aquarelle
from aquarelle.cli.main import main
from aquarelle.engine import Renderer, list_presets, load_preset, load_style
from aquarelle.media.image_pixels import off_paper, on_paper

AQUARELLE = [sys.executable, "-m", "aquarelle"]
PRESET = list_presets("watercolor")[0].name if list_presets("watercolor") else "none"
MINE = {"edge_darkening": 0.0, "quantize_levels": 5, "paper_color": "#e0e8f0"}


def picture(h: int = 24, w: int = 32) -> np.ndarray:
    """RGB uint8 test picture."""
    return to_u8(0.5 * smooth_noise(h, w, seed=4) + 0.5 * rings(h, w, period=9.0))


def write_rgb(path: Path, rgb: np.ndarray, alpha: np.ndarray | None = None) -> Path:
    bgr = rgb[..., ::-1] if rgb.ndim == 3 else rgb
    if alpha is not None:
        bgr = np.dstack([bgr, alpha])
    assert cv2.imwrite(str(path), np.ascontiguousarray(bgr))
    return path


def read_rgb(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    assert img is not None, f"{path} is not a readable image"
    return img[..., 2::-1] if img.ndim == 3 else img


# -- the commands ---------------------------------------------------------------------------
# Each case gets a folder with in/photo.png (the picture) and an empty out/; it may add inputs
# and returns the command line. Commands run with out/ as the working directory.

def _render(d: Path, out: str | Path, *extra: str | Path, src: str | Path = "") -> list[str]:
    return [*AQUARELLE, "render", str(src or d / "in" / "photo.png"), "-o",
            str(d / "out" / out), *map(str, extra)]


def _grey(d: Path) -> list[str]:
    assert cv2.imwrite(str(d / "in" / "grey.png"), picture()[..., 1])
    return _render(d, "grey.png", src=d / "in" / "grey.png")


def _rgba(d: Path) -> list[str]:
    write_rgb(d / "in" / "rgba.png", picture(), RGBA_ALPHA)
    return _render(d, "rgba.png", src=d / "in" / "rgba.png")


def _deep(d: Path) -> list[str]:
    write_rgb(d / "in" / "deep.png", DEEP)
    return _render(d, "deep.png", src=d / "in" / "deep.png")


def _exif(d: Path) -> list[str]:
    from PIL import Image

    # Stored 40 wide x 24 high, red on the left half, blue on the right; orientation 6 means
    # "rotate 90 degrees clockwise to display": shown 24 wide x 40 high, red at the top.
    stored = np.zeros((24, 40, 3), np.uint8)
    stored[:, :20] = (220, 30, 30)
    stored[:, 20:] = (30, 30, 220)
    exif = Image.Exif()
    exif[0x0112] = 6
    Image.fromarray(stored).save(d / "in" / "rotated.jpg", quality=95, exif=exif)
    return _render(d, "upright.png", src=d / "in" / "rotated.jpg")


def _preset_file(d: Path) -> list[str]:
    path = d / "in" / "mine.json"
    path.write_text(json.dumps({"name": "mine", "style": "watercolor", "values": MINE}))
    return _render(d, "mine.png", "--preset", path)


def _relative(d: Path) -> list[str]:
    (d / "out" / "rel.png").write_bytes(b"an older file")
    return [*AQUARELLE, "render", os.path.join("..", "in", "photo.png"), "-o", "rel.png"]


def _with_input(name: str, content: bytes) -> Callable[[Path], list[str]]:
    def case(d: Path) -> list[str]:
        (d / "in" / name).write_bytes(content)
        return _render(d, "x.png", src=d / "in" / name)
    return case


def _in_folder(d: Path) -> list[str]:
    (d / "in" / "folder.png").mkdir()
    return _render(d, "x.png", src=d / "in" / "folder.png")


def _broken_preset(content: str) -> Callable[[Path], list[str]]:
    def case(d: Path) -> list[str]:
        (d / "in" / "broken.json").write_text(content)
        return _render(d, "x.png", "--preset", d / "in" / "broken.json")
    return case


def _icc_sequence(d: Path) -> list[str]:
    """Three PNGs carrying an sRGB profile (iCCP): FFmpeg's PNG decoder puts it on each frame
    as side data, whose reading crashed PyAV 18 (SIGSEGV, trial V4)."""
    from PIL import Image, ImageCms

    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    (d / "in" / "seq").mkdir()
    for k in range(3):
        Image.fromarray(np.roll(picture(48, 64), 4 * k, axis=1)).save(
            d / "in" / "seq" / f"{k + 1:04d}.png", icc_profile=icc)
    return [*AQUARELLE, "render", str(d / "in" / "seq" / "%04d.png"), "-o", "seq.mp4",
            "--style", "adjust", "-q"]


def _truncated_png() -> bytes:
    ok, buf = cv2.imencode(".png", picture())
    assert ok
    return buf.tobytes()[:60]


RGBA_ALPHA = np.tile(np.linspace(0, 255, 32).astype(np.uint8), (24, 1))
DEEP = picture().astype(np.uint16) * 257 + 100  # 16 bits, not a plain widening of 8 bits

CASES: dict[str, Callable[[Path], list[str]]] = {
    # success
    "png": lambda d: _render(d, "result.png"),
    "fmt.jpg": lambda d: _render(d, "result.jpg", "-q"),
    "fmt.webp": lambda d: _render(d, "result.webp", "-q"),
    "fmt.tif": lambda d: _render(d, "result.tif", "-q"),
    "fmt.bmp": lambda d: _render(d, "result.bmp", "-q"),
    "fmt.JPEG": lambda d: _render(d, "result.JPEG", "-q"),
    "grey": _grey,
    "rgba": _rgba,
    "deep": _deep,
    "exif": _exif,
    "preset": lambda d: _render(d, "preset.png", "--preset", PRESET),
    "preset_file": _preset_file,
    "set_seed": lambda d: _render(d, "set.png", "--preset", PRESET, "--set", "edge_darkening=0",
                                  "--set", "paper_color=0.9,0.9,1", "--set", "quantize_levels=3",
                                  "--seed", "7"),
    "scale": lambda d: _render(d, "half.png", "--scale", "0.5"),
    "clamp": lambda d: _render(d, "clamped.png", "--set", "sigma_c=100"),
    "relative": _relative,
    "icc_sequence": _icc_sequence,
    # bad input
    "missing": lambda d: _render(d, "x.png", src=d / "in" / "nothing.png"),
    "not_image": _with_input("text.png", b"this is not a PNG\n"),
    "empty": _with_input("empty.jpg", b""),
    "truncated": _with_input("cut.png", _truncated_png()),
    "in_folder": _in_folder,
    "unknown_param": lambda d: _render(d, "x.png", "--set", "sigma_cc=2"),
    "wrong_number": lambda d: _render(d, "x.png", "--set", "sigma_c=abc"),
    "wrong_colour": lambda d: _render(d, "x.png", "--set", "paper_color=blue"),
    "no_equals": lambda d: _render(d, "x.png", "--set", "sigma_c"),
    "unknown_preset": lambda d: _render(d, "x.png", "--preset", "no_such_preset"),
    "missing_preset_file": lambda d: _render(d, "x.png", "--preset", d / "in" / "none.json"),
    "preset_not_json": _broken_preset("{not json"),
    "preset_bad_values": _broken_preset('{"style": "watercolor", "values": {"nope": 1}}'),
    "bad_scale": lambda d: _render(d, "x.png", "--scale", "3"),
    "out_no_folder": lambda d: _render(d, Path("missing") / "x.png"),
    "out_extension": lambda d: _render(d, "result.xyz"),
    "out_is_input": lambda d: [*AQUARELLE, "render", str(d / "in" / "photo.png"), "-o",
                               str(d / "in" / "photo.png")],
    "out_is_input_dotted": lambda d: [*AQUARELLE, "render", str(d / "in" / "photo.png"), "-o",
                                      str(d / "in" / "." / "photo.png")],
    # other commands
    "version": lambda d: [*AQUARELLE, "--version"],
    "styles": lambda d: [*AQUARELLE, "styles"],
    "params": lambda d: [*AQUARELLE, "params", "watercolor"],
    "params_json": lambda d: [*AQUARELLE, "params", "watercolor", "--json"],
    "params_unknown": lambda d: [*AQUARELLE, "params", "nostyle"],
    "script": lambda d: [str(Path(sys.executable).with_name("aquarelle")), "--version"],
}


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file (with its content) and folder below `folder`."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


@dataclass
class Run:
    folder: Path
    result: subprocess.CompletedProcess
    before: dict[str, bytes | None]

    @property
    def out(self) -> Path:
        return self.folder / "out"

    @property
    def stderr(self) -> str:
        return self.result.stderr

    @property
    def stdout(self) -> str:
        return self.result.stdout


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Run]:
    root = tmp_path_factory.mktemp("cli")
    prepared = {}
    for name, make in CASES.items():
        d = root / name
        (d / "in").mkdir(parents=True)
        (d / "out").mkdir()
        write_rgb(d / "in" / "photo.png", picture())
        argv = make(d)
        prepared[name] = (d, argv, snapshot(d))

    def run(item):
        name, (d, argv, before) = item
        res = subprocess.run(argv, capture_output=True, text=True, cwd=d / "out", timeout=300)
        return name, Run(d, res, before)

    with ThreadPoolExecutor(max_workers=(os.cpu_count() or 2) + 1) as pool:
        return dict(pool.map(run, prepared.items()))


@pytest.fixture
def engine_render(gl_ctx):
    """What the engine makes of an image in this process (the CLI must give the same)."""

    def render(rgb: np.ndarray, values: dict | None = None, seed: int = 0) -> np.ndarray:
        with Renderer(gl_ctx, "watercolor", seed=seed, deep=rgb.dtype == np.uint16) as p:
            p.set_params(values or {})
            return p.render_array(rgb)

    return render


def ok(run: Run) -> Run:
    assert run.result.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    return run


def files(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


# -- success paths --------------------------------------------------------------------------

def test_png_output_equals_the_engine(runs, engine_render):
    run = ok(runs["png"])
    np.testing.assert_array_equal(read_rgb(run.out / "result.png"), engine_render(picture()))
    assert files(run.out) == ["result.png"]  # no temporary file left behind
    # one progress line naming input, output and size
    assert "photo.png" in run.stderr and "result.png" in run.stderr and "32x24" in run.stderr


@pytest.mark.parametrize("ext, lossless", [("jpg", False), ("webp", False), ("tif", True),
                                           ("bmp", True), ("JPEG", False)])
def test_output_formats(runs, engine_render, ext, lossless):
    run = ok(runs[f"fmt.{ext}"])
    assert run.stderr == ""  # -q
    got = read_rgb(run.out / f"result.{ext}")
    assert got.shape == (24, 32, 3) and got.dtype == np.uint8
    expected = engine_render(picture())
    if lossless:
        np.testing.assert_array_equal(got, expected)
    else:
        assert np.abs(got.astype(int) - expected).mean() < 6
    assert files(run.out) == [f"result.{ext}"]


def test_grayscale_input(runs, engine_render):
    run = ok(runs["grey"])
    grey = cv2.imread(str(run.folder / "in" / "grey.png"), cv2.IMREAD_UNCHANGED)
    assert grey.ndim == 2
    np.testing.assert_array_equal(read_rgb(run.out / "grey.png"),
                                  engine_render(np.dstack([grey] * 3)))


def test_rgba_input_keeps_alpha(runs, engine_render):
    run = ok(runs["rgba"])
    got = cv2.imread(str(run.out / "rgba.png"), cv2.IMREAD_UNCHANGED)
    assert got.shape == (24, 32, 4)
    np.testing.assert_array_equal(got[..., 3], RGBA_ALPHA)
    # painted from the picture laid on paper by its alpha, not the colours it hides; written
    # as the colours that give that painting laid on white by the alpha again (as painted,
    # half-transparent pixels were laid on white twice: 50% black showed 191, trial V4)
    painted = engine_render(on_paper(picture().copy(), RGBA_ALPHA))
    np.testing.assert_array_equal(got[..., 2::-1], off_paper(painted, RGBA_ALPHA))
    a = RGBA_ALPHA[..., None] / 255.0
    seen = got[..., 2::-1] * a + 255 * (1 - a)  # a viewer's picture on white
    # (where the painting is not darker than the alpha lets any colour be on white)
    feasible = (painted >= 255 * (1 - a) - 0.5) & (a > 0)
    assert feasible.mean() > 0.8
    assert np.abs(seen - painted)[feasible].max() <= 1.0


def test_a_cut_out_written_without_alpha_shows_paper_where_it_was_transparent(tmp_path):
    rgb = np.zeros((96, 128, 3), np.uint8)  # black hidden under the transparent part
    alpha = np.zeros((96, 128), np.uint8)
    cv2.circle(alpha, (64, 48), 30, 255, -1)
    rgb[alpha > 0] = (200, 120, 60)
    src = write_rgb(tmp_path / "cut.png", rgb, alpha)
    assert main(["render", str(src), "-o", str(tmp_path / "out.jpg"), "-q"]) == 0
    got = read_rgb(tmp_path / "out.jpg").astype(int)
    corner = got[:20, :20].reshape(-1, 3)
    assert corner.min() > 200  # paper, not a dark wash of the hidden black
    ramp = np.linspace(0, 255, 7).astype(np.uint16)
    assert on_paper(np.zeros((1, 7, 3), np.uint16), ramp[None] * 257)[0, :, 0].tolist() == \
        [65535 - v * 257 for v in ramp.tolist()]


def test_16_bit_png_input(runs, engine_render):
    run = ok(runs["deep"])
    got = cv2.imread(str(run.out / "deep.png"), cv2.IMREAD_UNCHANGED)
    assert got.dtype == np.uint16 and got.shape == (24, 32, 3)
    expected = engine_render(DEEP)  # painted at 16 bits, not 8 widened
    assert expected.dtype == np.uint16
    np.testing.assert_array_equal(got[..., ::-1], expected)
    assert np.any(got % 257 != 0)  # finer steps than 8 bits


def test_exif_orientation_is_applied(runs):
    got = read_rgb(ok(runs["exif"]).out / "upright.png").astype(int)
    assert got.shape == (40, 24, 3)
    top, bottom = got[:16], got[-16:]
    assert top[..., 0].mean() > top[..., 2].mean() + 60  # red on top
    assert bottom[..., 2].mean() > bottom[..., 0].mean() + 60  # blue at the bottom


def test_preset_by_name(runs, engine_render):
    got = read_rgb(ok(runs["preset"]).out / "preset.png")
    values = load_preset(PRESET, "watercolor").values
    np.testing.assert_array_equal(got, engine_render(picture(), values))
    assert not np.array_equal(got, engine_render(picture()))


def test_preset_from_a_json_file(runs, engine_render):
    got = read_rgb(ok(runs["preset_file"]).out / "mine.png")
    np.testing.assert_array_equal(got, engine_render(picture(), MINE))


def test_set_overrides_the_preset_and_seed_is_used(runs, engine_render):
    got = read_rgb(ok(runs["set_seed"]).out / "set.png")
    values = dict(load_preset(PRESET, "watercolor").values, edge_darkening=0,
                  paper_color="0.9,0.9,1", quantize_levels=3)
    np.testing.assert_array_equal(got, engine_render(picture(), values, seed=7))
    assert not np.array_equal(got, engine_render(picture(), values, seed=0))


def test_scale_option(runs):
    assert read_rgb(ok(runs["scale"]).out / "half.png").shape == (24, 32, 3)


def test_out_of_range_value_clamps_with_a_warning(runs, engine_render):
    run = ok(runs["clamp"])
    warnings = [ln for ln in run.stderr.splitlines() if ln.startswith("aquarelle: warning:")]
    assert len(warnings) == 1 and "sigma_c" in warnings[0] and "clamped" in warnings[0]
    max_sigma = next(p.max for p in load_style("watercolor").params if p.name == "sigma_c")
    np.testing.assert_array_equal(read_rgb(run.out / "clamped.png"),
                                  engine_render(picture(), {"sigma_c": max_sigma}))


def test_relative_paths_and_existing_output_is_replaced(runs):
    run = ok(runs["relative"])
    assert read_rgb(run.out / "rel.png").shape == (24, 32, 3)
    assert files(run.out) == ["rel.png"]


def test_at_least_one_preset():
    assert len(list_presets("watercolor")) >= 3


# -- bad input: exit 2, one clean line, nothing written ------------------------------------------

@pytest.mark.parametrize("case, fragments", [
    ("missing", ["nothing.png"]),
    ("not_image", ["text.png"]),
    ("empty", ["empty.jpg"]),
    ("truncated", ["cut.png"]),
    ("in_folder", ["folder.png"]),
    ("unknown_param", ["sigma_cc", "did you mean 'sigma_c'?"]),
    ("wrong_number", ["sigma_c", "abc"]),
    ("wrong_colour", ["paper_color", "blue"]),
    ("no_equals", ["NAME=VALUE"]),
    ("unknown_preset", ["no_such_preset", PRESET]),
    ("missing_preset_file", ["none.json"]),
    ("preset_not_json", ["broken.json"]),
    ("preset_bad_values", ["nope"]),
    ("bad_scale", ["scale"]),
    ("out_no_folder", ["missing"]),
    ("out_extension", [".xyz"]),
    ("out_is_input", ["input"]),
    ("out_is_input_dotted", ["input"]),
])
def test_bad_input_fails_cleanly(runs, case, fragments):
    run = runs[case]
    assert run.result.returncode == 2, (run.result.returncode, run.stderr)
    assert "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got:\n{run.stderr}"
    assert lines[0].startswith("aquarelle render: error:"), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    assert run.stdout == ""
    # nothing written, no temporary file left, the input untouched
    assert snapshot(run.folder) == run.before


# -- other commands -----------------------------------------------------------------------------

def test_version(runs):
    run = ok(runs["version"])
    assert run.stdout.strip() == f"aquarelle {aquarelle.__version__}"


def test_console_script_is_installed(runs):
    run = ok(runs["script"])
    assert run.stdout.strip() == f"aquarelle {aquarelle.__version__}"


def test_styles_lists_watercolor_and_its_presets(runs):
    run = ok(runs["styles"])
    assert "watercolor" in run.stdout
    for preset in list_presets("watercolor"):
        assert preset.name in run.stdout


def test_params_lists_every_parameter(runs):
    run = ok(runs["params"])
    listed = {ln.split()[0] for ln in run.stdout.splitlines()[1:]
              if ln.strip() and not ln.startswith(" ")}  # indented: wrapped help
    assert listed == {p.name for p in load_style("watercolor").params}


def test_params_json(runs):
    data = json.loads(ok(runs["params_json"]).stdout)
    by_name = {d["name"]: d for d in data}
    style = load_style("watercolor")
    assert set(by_name) == {p.name for p in style.params}
    for p in style.params:
        if p.choices:  # a menu: its names, as the table lists it
            assert by_name[p.name]["type"] == "choice"
            assert by_name[p.name]["choices"] == list(p.choices)
            continue
        assert by_name[p.name]["type"] == p.type
        if p.type in ("float", "int"):
            assert (by_name[p.name]["min"], by_name[p.name]["max"]) == (p.min, p.max)


def test_params_of_an_unknown_style(runs):
    run = runs["params_unknown"]
    assert run.result.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("aquarelle params: error:")
    assert "watercolor" in lines[0]  # lists the available styles


def test_a_png_sequence_with_a_colour_profile_renders(runs):
    """It crashed the interpreter once the frames' side data was read (exit 139, a 0-byte
    hidden .part file left, the rest of a batch never rendered)."""
    import av

    run = ok(runs["icc_sequence"])
    with av.open(str(run.out / "seq.mp4")) as c:
        assert sum(1 for _ in c.decode(video=0)) == 3
    assert files(run.out) == ["seq.mp4"]
