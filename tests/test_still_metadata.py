"""What a still's output carries of its source's metadata: a TIFF's descriptive tags, not
its file layout; a colour profile only where it describes the painted RGB; and a warning
for what a format (BMP) cannot hold."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageCms, TiffImagePlugin
from PIL.ExifTags import IFD

from aquarelle.cli.main import main
from aquarelle.media.image_read import read_image
from aquarelle.media.image_write import write_image
from aquarelle.media.image_write_warnings import write_warnings

# the baseline layout tags of a TIFF, never EXIF of another file
LAYOUT = {256, 257, 258, 259, 262, 273, 277, 278, 279, 284, 317, 322, 323, 324, 325, 338,
          339, 347, 320, 330}


def srgb(space: bytes = b"RGB ") -> bytes:
    icc = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    icc[16:20] = space
    return bytes(icc)


def picture(w: int = 30, h: int = 20) -> np.ndarray:
    rgb = np.zeros((h, w, 3), np.uint8)
    rgb[:, : w // 2] = (40, 120, 200)
    rgb[:, w // 2:] = (220, 180, 60)
    return rgb


def cli(capsys, *argv: object) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


def tagged_tiff(path: Path, sub_ifds: bool = True, **save: object) -> Path:
    """A TIFF with a maker, a copyright, an Exif IFD (a date, the pixel size) and a GPS IFD
    (Pillow writes those uncompressed only)."""
    info = TiffImagePlugin.ImageFileDirectory_v2()
    info[271] = "TestCam"
    info[33432] = "(c) someone"
    if sub_ifds:
        info[34665] = {36867: "2020:01:02 03:04:05", 40962: 30, 40963: 20}
        info[34853] = {1: "N", 2: (1.0, 2.0, 3.0)}
    Image.fromarray(picture()).save(path, tiffinfo=info, **save)
    return path


def test_a_tiffs_layout_tags_are_not_carried_as_exif(tmp_path):
    src = tagged_tiff(tmp_path / "in.tif")
    exif = Image.Exif()
    exif.load(read_image(src).exif)
    assert not LAYOUT & set(exif), dict(exif)
    assert exif[271] == "TestCam" and exif[33432] == "(c) someone"
    sub = exif.get_ifd(IFD.Exif)
    assert sub[36867] == "2020:01:02 03:04:05"
    assert 40962 not in sub and 40963 not in sub  # the source's size, not the output's
    assert exif.get_ifd(IFD.GPSInfo)[1] == "N"


@pytest.mark.parametrize("save", [{}, {"compression": "tiff_lzw"}])
def test_a_tiff_with_only_its_layout_has_no_exif(tmp_path, save):
    src = tmp_path / "plain.tif"
    Image.fromarray(picture()).save(src, **save)
    assert read_image(src).exif is None
    grey = tmp_path / "grey.tif"
    Image.fromarray(picture()[:, :, 0]).save(grey, **save)
    assert read_image(grey).exif is None


def test_a_tifffile_shape_note_and_writer_name_are_no_exif(tmp_path):
    # tifffile's own notes (its array's shape as the description, its name as Software, a
    # resolution of 1): nothing to carry, nothing to warn about losing
    src = tmp_path / "deep.tif"
    info = TiffImagePlugin.ImageFileDirectory_v2()
    info[270] = '{"shape": [20, 30, 3]}'
    info[305] = "tifffile.py"
    Image.fromarray(picture()).save(src, tiffinfo=info, dpi=(1, 1))
    image = read_image(src)
    assert image.exif is None
    deep = image.rgb.astype(np.uint16) * 257
    assert write_warnings(tmp_path / "out.tif", deep, image.icc, image.exif) == []


@pytest.mark.parametrize("lzw", [False, True])
def test_cli_tiff_to_jpeg_and_png_carries_only_descriptive_exif(tmp_path, capsys, lzw):
    save = {"compression": "tiff_lzw"} if lzw else {}
    src = tagged_tiff(tmp_path / "in.tif", sub_ifds=not lzw, **save)
    for name in ("out.jpg", "out.png"):
        code, err = cli(capsys, "render", src, "-o", tmp_path / name, "--size", "15x-1", "-q")
        assert code == 0 and err == "", err
        with Image.open(tmp_path / name) as o:
            exif = o.getexif()
            assert o.size == (15, 10)
            assert not LAYOUT & set(exif), (name, dict(exif))
            assert exif[271] == "TestCam" and exif[0x0112] == 1
            if not lzw:
                assert exif.get_ifd(IFD.Exif)[36867] == "2020:01:02 03:04:05"
                assert exif.get_ifd(IFD.GPSInfo)[1] == "N"


@pytest.mark.parametrize("space, name", [(b"CMYK", "CMYK"), (b"GRAY", "GRAY")])
@pytest.mark.parametrize("ext", [".png", ".jpg", ".webp", ".tif"])
def test_a_profile_not_for_rgb_is_left_out_with_a_warning(tmp_path, space, name, ext):
    rgb, icc = picture(), srgb(space)
    out = tmp_path / f"out{ext}"
    notes = write_warnings(out, rgb, icc)
    assert notes == [f"out{ext}: its colour profile ({name}) does not describe the painted "
                     f"RGB pixels; left out"]
    write_image(out, rgb, icc=icc)
    with Image.open(out) as o:
        assert o.mode == "RGB" and not o.info.get("icc_profile")


@pytest.mark.parametrize("ext", [".png", ".jpg", ".tif"])
def test_an_rgb_profile_is_kept_without_a_warning(tmp_path, ext):
    rgb, icc = picture(), srgb()
    out = tmp_path / f"out{ext}"
    assert write_warnings(out, rgb, icc) == []
    write_image(out, rgb, icc=icc)
    with Image.open(out) as o:
        assert o.info.get("icc_profile") == icc


@pytest.mark.parametrize("source", ["cmyk.jpg", "grey.jpg", "grey.png"])
def test_cli_a_cmyk_or_grey_sources_profile_is_not_put_on_rgb(tmp_path, capsys, source):
    rgb = Image.fromarray(picture())
    src = tmp_path / source
    if source.startswith("cmyk"):
        rgb.convert("CMYK").save(src, quality=95, icc_profile=srgb(b"CMYK"))
    else:
        rgb.convert("L").save(src, icc_profile=srgb(b"GRAY"))
    out = tmp_path / "out.png"
    code, err = cli(capsys, "render", src, "-o", out)
    assert code == 0, err
    space = "CMYK" if source.startswith("cmyk") else "GRAY"
    assert f"its colour profile ({space}) does not describe the painted RGB pixels" in err
    with Image.open(out) as o:
        assert o.mode == "RGB" and not o.info.get("icc_profile")


def test_bmp_says_it_drops_the_profile_and_exif(tmp_path, capsys):
    exif = Image.Exif()
    exif[0x0112] = 6
    exif[0x010F] = "TestCam"
    src = tmp_path / "in.jpg"
    Image.fromarray(picture()).save(src, quality=95, exif=exif, icc_profile=srgb())
    code, err = cli(capsys, "render", src, "-o", tmp_path / "out.bmp")
    assert code == 0, err
    assert "out.bmp: BMP holds no colour profile or EXIF; written without the colour " \
        "profile and EXIF" in err
    assert write_warnings(tmp_path / "o.bmp", picture(), None, exif.tobytes()) == [
        "o.bmp: BMP holds no colour profile or EXIF; written without the EXIF (.png, .jpg "
        "or .tif keep them)"]
    assert write_warnings(tmp_path / "o.bmp", picture()) == []


def test_a_16_bit_tiff_warns_only_about_what_the_source_has(tmp_path):
    deep = picture().astype(np.uint16) * 257
    assert write_warnings(tmp_path / "o.tif", deep) == []
    assert write_warnings(tmp_path / "o.tif", deep, srgb(b"CMYK")) == [
        "o.tif: its colour profile (CMYK) does not describe the painted RGB pixels; left out"]
    assert write_warnings(tmp_path / "o.tif", deep, srgb()) == [
        "o.tif: a 16-bit TIFF is written without the colour profile here (.png keeps them "
        "at 16 bits)"]


def private_jpeg(path: Path) -> Path:
    """A photo as a phone writes it: its maker, a date, a GPS position, a colour profile,
    stored sideways (orientation 6)."""
    exif = Image.Exif()
    exif[0x0112] = 6
    exif[0x010F] = "TestCam"
    exif[IFD.Exif] = {36867: "2020:01:02 03:04:05"}
    exif[IFD.GPSInfo] = {1: "N", 2: (48.0, 51.0, 30.0), 3: "E", 4: (2.0, 17.0, 40.0)}
    Image.fromarray(picture()).save(path, quality=95, exif=exif, icc_profile=srgb())
    return path


@pytest.mark.parametrize("ext", [".jpg", ".png", ".webp", ".tif"])
def test_cli_no_metadata_drops_a_stills_exif_and_keeps_its_profile(tmp_path, capsys, ext):
    src = private_jpeg(tmp_path / "gps.jpg")
    kept, bare = tmp_path / f"kept{ext}", tmp_path / f"bare{ext}"
    assert cli(capsys, "render", src, "-o", kept, "-q") == (0, "")
    assert cli(capsys, "render", src, "-o", bare, "--no-metadata", "-q") == (0, "")
    with Image.open(kept) as im:  # by default the EXIF is kept, GPS and all
        exif = im.getexif()
        assert exif[0x010F] == "TestCam" and exif.get_ifd(IFD.GPSInfo)[1] == "N"
    with Image.open(src) as im:
        profile = im.info["icc_profile"]
    with Image.open(bare) as im:
        assert im.size == (20, 30)  # upright: the orientation is in the pixels
        assert im.info.get("icc_profile") == profile
        exif = im.getexif()
        assert not {0x010F, IFD.Exif, IFD.GPSInfo} & set(exif), dict(exif)
        assert "exif" not in im.info and "xmp" not in im.info


def test_cli_no_metadata_in_a_batch_of_stills(tmp_path, capsys):
    a, b = private_jpeg(tmp_path / "a.jpg"), private_jpeg(tmp_path / "b.jpg")
    out = tmp_path / "out"
    out.mkdir()
    assert cli(capsys, "render", a, b, "-o", f"{out}/", "--no-metadata", "-q") == (0, "")
    for name in ("a", "b"):
        (path,) = out.glob(f"{name}*")
        with Image.open(path) as im:
            assert IFD.GPSInfo not in im.getexif() and 0x010F not in im.getexif()


@pytest.mark.parametrize("ext", [".bmp", ".jpg"])
def test_transparency_a_format_drops_is_warned_of(tmp_path, capsys, ext):
    rgba = np.dstack([picture(), np.full((20, 30), 255, np.uint8)])
    rgba[:, :10, 3] = 0
    src = tmp_path / "cut.png"
    Image.fromarray(rgba).save(src)
    code, err = cli(capsys, "render", src, "-o", tmp_path / f"out{ext}", "-q")
    kind = "BMP" if ext == ".bmp" else "JPEG"
    assert (code, err) == (0, f"aquarelle: warning: out{ext}: {kind} is written without "
                              "transparency here; the transparent parts are opaque paper "
                              "(.png, .webp or .tif keep it)\n")
    assert cli(capsys, "render", src, "-o", tmp_path / "out.png", "-q") == (0, "")
    Image.fromarray(rgba[:, 10:]).save(src)  # opaque: nothing is lost
    assert cli(capsys, "render", src, "-o", tmp_path / f"opaque{ext}", "-q") == (0, "")


def test_iptc_png_text_and_an_odd_gamma_are_said_to_be_left_out(tmp_path):
    """They were dropped without a word (trial V4): IPTC copyright, caption and keywords; a
    PNG's Title, Author, Copyright; a PNG gamma of 1.0 (browsers then show the output
    darker than the source)."""
    import struct

    from PIL import PngImagePlugin

    rgb = np.full((8, 8, 3), 120, np.uint8)
    info = PngImagePlugin.PngInfo()
    info.add_text("Title", "Sunset")
    info.add_text("Author", "Someone")
    info.add(b"gAMA", struct.pack(">I", 100000))
    Image.fromarray(rgb).save(tmp_path / "text.png", pnginfo=info)
    assert read_image(tmp_path / "text.png").unkept == (
        "text (Author, Title)",
        "gamma chunk (1: where a viewer honours it the output looks otherwise)")
    srgb = PngImagePlugin.PngInfo()
    srgb.add(b"gAMA", struct.pack(">I", 45455))  # sRGB's own: nothing to say
    Image.fromarray(rgb).save(tmp_path / "srgb.png", pnginfo=srgb)
    assert read_image(tmp_path / "srgb.png").unkept == ()
    iptc = b"\x1c\x02\x74\x00\x0a(c) Someone"
    Image.fromarray(rgb).save(tmp_path / "iptc.tif", tiffinfo={33723: iptc})
    assert read_image(tmp_path / "iptc.tif").unkept == ("IPTC (caption, keywords, copyright)",)
    notes = write_warnings(tmp_path / "out.png", rgb, None, None,
                           unkept=read_image(tmp_path / "iptc.tif").unkept)
    assert notes == ["out.png: written without the source's IPTC (caption, keywords, "
                     "copyright) (aquarelle does not carry them)"]
