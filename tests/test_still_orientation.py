"""A still is read upright once, whatever its format: a TIFF's Orientation tag (which
OpenCV's TIFF decoder, and Pillow's, apply themselves) is applied once, to every kind of
TIFF, and image_size agrees with read_image; a PNG's colour chunks do not make libpng
print warnings."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageOps

from aquarelle.cli.main import main
from aquarelle.media.image_read import image_size, read_image

tifffile = pytest.importorskip("tifffile")

W, H = 48, 32  # not square: a turn shows in the size too

# the stored pixels of an upright picture `u` that orientation k turns upright
STORED: dict[int, Callable[[np.ndarray], np.ndarray]] = {
    1: lambda u: u,
    2: lambda u: u[:, ::-1],
    3: lambda u: u[::-1, ::-1],
    4: lambda u: u[::-1],
    5: lambda u: np.swapaxes(u, 0, 1),
    6: lambda u: np.swapaxes(u[:, ::-1], 0, 1),
    7: lambda u: np.swapaxes(u[::-1, ::-1], 0, 1),
    8: lambda u: np.swapaxes(u[::-1], 0, 1),
}


def upright(channels: int, deep: bool) -> np.ndarray:
    rng = np.random.default_rng(channels * 10 + deep)
    top = 65535 if deep else 255
    shape = (H, W) if channels == 1 else (H, W, channels)
    u = rng.integers(0, top + 1, shape, dtype=np.uint16 if deep else np.uint8)
    if channels == 4:
        u[:, :, 3] = top  # opaque: the colours read as stored, whoever reads them
        u[:4, :, 3] = top // 2 + 1
    return u


def save_pillow(path: Path, stored: np.ndarray, k: int, **kw: object) -> None:
    exif = Image.Exif()
    exif[0x0112] = k
    Image.fromarray(np.ascontiguousarray(stored)).save(path, exif=exif, **kw)


def save_tifffile(path: Path, stored: np.ndarray, k: int, **kw: object) -> None:
    photometric = "minisblack" if stored.ndim == 2 else "rgb"
    extra = {"extrasamples": [2]} if stored.ndim == 3 and stored.shape[2] == 4 else {}
    tifffile.imwrite(path, np.ascontiguousarray(stored), photometric=photometric,
                     extratags=[(274, "H", 1, k, True)], **extra, **kw)


KINDS = {  # name: (channels, 16-bit, writer, options)
    "rgb8": (3, False, save_pillow, {}),
    "rgb8_lzw": (3, False, save_pillow, {"compression": "tiff_lzw"}),
    "rgba8": (4, False, save_pillow, {}),
    "grey8": (1, False, save_pillow, {}),
    "rgba8_tifffile": (4, False, save_tifffile, {}),
    "rgb16": (3, True, save_tifffile, {}),
    "rgba16": (4, True, save_tifffile, {}),
    "grey16": (1, True, save_tifffile, {}),
    "rgb16_deflate": (3, True, save_tifffile, {"compression": "zlib"}),
}


@pytest.mark.parametrize("k", range(1, 9))
@pytest.mark.parametrize("kind", list(KINDS))
def test_a_tiff_is_turned_upright_once(tmp_path: Path, kind: str, k: int) -> None:
    channels, deep, save, kw = KINDS[kind]
    u = upright(channels, deep)
    src = tmp_path / f"{kind}_{k}.tif"
    save(src, STORED[k](u), k, **kw)
    assert image_size(src) == (W, H)
    image = read_image(src)
    assert image.size == (W, H)
    colour = u if channels != 4 else u[:, :, :3]
    want = np.repeat(colour[:, :, None], 3, axis=2) if channels == 1 else colour
    assert np.array_equal(image.rgb, want)
    if channels == 4:
        assert np.array_equal(image.alpha, u[:, :, 3])
    else:
        assert image.alpha is None


@pytest.mark.parametrize("k", range(1, 9))
def test_the_stored_pixels_are_what_other_formats_read_upright(tmp_path: Path, k: int) -> None:
    # the table above checked against Pillow's own turning, and a PNG's reading
    u = upright(3, False)
    src = tmp_path / f"o{k}.png"
    save_pillow(src, STORED[k](u), k)
    with Image.open(src) as im:
        assert np.array_equal(np.asarray(ImageOps.exif_transpose(im)), u)
    assert np.array_equal(read_image(src).rgb, u) and image_size(src) == (W, H)


def test_cli_size_of_a_turned_tiff_follows_its_upright_shape(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    u = upright(3, False)
    src = tmp_path / "o6.tif"
    save_pillow(src, STORED[6](u), 6)
    out = tmp_path / "out.png"
    code = main(["render", str(src), "-o", str(out), "--size", "24x-1", "-q"])
    assert code == 0, capsys.readouterr().err
    with Image.open(out) as im:
        assert im.size == (24, 16)


def test_a_png_profile_libpng_dislikes_prints_nothing(tmp_path: Path) -> None:
    # an ICC profile whose illuminant is not D50: libpng (in OpenCV's decoder) printed
    # "libpng warning: iCCP: ... PCS illuminant is not D50" to stderr on every read
    from PIL import ImageCms

    icc = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    icc[68:80] = bytes(12)  # the PCS illuminant: zero, not D50
    src = tmp_path / "p.png"
    Image.fromarray(upright(3, False)).save(src, icc_profile=bytes(icc))
    code = ("import sys; from aquarelle.media.image_read import read_image; "
            f"im = read_image({str(src)!r}); print(im.size, len(im.icc))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"({W}, {H}) {len(icc)}"
    assert run.stderr == ""
