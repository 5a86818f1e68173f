"""What a new user's trial of stills found (trialB): unreadable files said in one line, the
photo formats a render accepts by name, AVIF read with its profile, EXIF and alpha, no
library's own messages on stderr, a TIFF's other pages said, JPEG's chroma and TIFF's
compression, and the resolution (DPI) kept."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from aquarelle.cli.main import main
from aquarelle.media import image_read
from aquarelle.media.image_read import read_image
from aquarelle.media.image_types import ImageError, ImageWarning
from aquarelle.media.image_write import write_image


def picture(w: int = 48, h: int = 32) -> np.ndarray:
    rgb = np.zeros((h, w, 3), np.uint8)
    rgb[:, : w // 2] = (200, 30, 40)
    rgb[:, w // 2:] = (40, 120, 210)
    rgb[: h // 4] = (250, 250, 240)
    return rgb


def cli(capsys, *argv: object) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


# 1. a file that cannot be read: one line, no traceback


def test_an_os_error_while_reading_is_one_line(tmp_path, monkeypatch):
    src = tmp_path / "secret.jpg"
    Image.fromarray(picture()).save(src)

    def refuse(*args: object, **kw: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(src))

    monkeypatch.setattr(image_read.np, "fromfile", refuse)
    with pytest.raises(ImageError, match=r"^cannot read .*secret\.jpg: permission denied$"):
        read_image(src)


def test_an_os_error_while_writing_is_said_in_the_same_words_as_reading(tmp_path):
    # (the write said "Is a directory", from strerror, where a read says "permission denied")
    (tmp_path / "taken.png").mkdir()
    with pytest.raises(ImageError, match=r"^cannot write .*taken\.png: is a directory$"):
        write_image(tmp_path / "taken.png", picture())
    assert list((tmp_path / "taken.png").iterdir()) == []


@pytest.mark.skipif(sys.platform != "linux", reason="file modes and setpriv: Linux")
def test_cli_an_unreadable_photo_is_one_line_and_exit_2(tmp_path):
    src = tmp_path / "secret.jpg"
    Image.fromarray(picture()).save(src)
    src.chmod(0)
    cmd = [sys.executable, "-m", "aquarelle", "render", str(src), "-o", str(tmp_path / "o.png")]
    if os.geteuid() == 0:  # root reads anything: without the capabilities that let it
        if not shutil.which("setpriv"):
            pytest.skip("root without setpriv")
        caps = "-dac_override,-dac_read_search"
        cmd = ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", *cmd]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().splitlines()[-1].endswith(
        f"cannot read {src}: permission denied"), run.stderr
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "o.png").exists()


# 2, 3. AVIF and HEIF photos: read with their profile, EXIF and alpha; every name a render
# accepts is an image in a batch too


def avif(path: Path, rgb: np.ndarray, alpha: np.ndarray | None = None, **save: object) -> Path:
    im = Image.fromarray(rgb if alpha is None else np.dstack([rgb, alpha]))
    im.save(path, quality=100, **save)
    return path


def test_an_avif_keeps_its_profile_exif_orientation_and_alpha(tmp_path):
    from test_colour_profile import DISPLAY_P3, as_srgb, colourful, converted

    p3 = converted(colourful(96, 64), DISPLAY_P3)
    exif = Image.Exif()
    exif[0x0110] = "TestCam"  # Model
    exif[0x0112] = 6  # turned: the stored picture is read upright
    exif.get_ifd(0x8825)[1] = "N"  # a GPS IFD
    alpha = np.full((64, 96), 255, np.uint8)
    alpha[:, :20] = 0
    src = avif(tmp_path / "p3.avif", p3, alpha, icc_profile=DISPLAY_P3, exif=exif)
    img = read_image(src)
    stored = np.asarray(Image.open(src).convert("RGB"))
    want = np.rot90(as_srgb(stored, DISPLAY_P3), -1)  # orientation 6: a quarter turn right
    assert img.rgb.shape == (96, 64, 3)
    assert np.abs(img.rgb.astype(int) - want).max() <= 2  # converted from P3 as a PNG is
    assert img.icc is None  # (converted: sRGB, as untagged)
    assert img.alpha is not None and img.alpha[:20].max() == 0 and img.alpha[-40:].min() == 255
    kept = Image.Exif()
    kept.load(img.exif)
    assert kept[0x0110] == "TestCam" and kept[0x0112] == 1
    assert kept.get_ifd(0x8825)[1] == "N"


def test_cli_an_avif_with_alpha_paints_paper_and_keeps_it(tmp_path, capsys):
    rgb = np.zeros((32, 48, 3), np.uint8)
    rgb[:] = (0, 200, 0)  # green hidden under alpha 0 must not be painted
    alpha = np.zeros((32, 48), np.uint8)
    alpha[:, 24:] = 255
    rgb[:, 24:] = (120, 60, 160)
    src = avif(tmp_path / "a.avif", rgb, alpha)
    code, err = cli(capsys, "render", src, "-o", tmp_path / "o.png", "-q")
    assert code == 0, err
    out = np.asarray(Image.open(tmp_path / "o.png"))
    assert out.shape == (32, 48, 4) and out[:, :20, 3].max() == 0
    hidden = out[:, :20, :3].astype(int)
    assert (hidden[..., 1] - hidden[..., 0]).max() < 40  # paper, not green washes


def heif_like(path: Path, rgb: np.ndarray) -> Path:
    """An AV1-coded picture in a HEIF box whose brands say HEIC: what Pillow (without a
    HEIF plugin) does not open and FFmpeg does, as a real HEIC photo here."""
    from videoclips import avif_photo

    data = bytearray(avif_photo(path.with_suffix(".tmp.avif"), rgb).read_bytes())
    size = int.from_bytes(data[:4], "big")
    assert data[4:8] == b"ftyp"
    data[8:12] = b"heic"
    for at in range(16, size, 4):
        if data[at:at + 4] in (b"avif", b"avis"):
            data[at:at + 4] = b"heic"
    path.write_bytes(bytes(data))
    return path


def test_a_heif_photo_pillow_cannot_read_goes_through_ffmpeg_and_says_what_is_lost(tmp_path):
    rgb = picture(64, 48)
    src = heif_like(tmp_path / "photo.heic", rgb)
    with pytest.raises(Exception):  # noqa: B017 (Pillow's own refusal, whatever it is)
        Image.open(src).load()
    with pytest.warns(ImageWarning, match=r"photo\.heic: a HEIF photo, read through "
                      r"FFmpeg.*no colour profile, EXIF or transparency"):
        img = read_image(src)
    assert img.rgb.shape == (48, 64, 3) and np.abs(img.rgb.astype(int) - rgb).mean() < 8


def test_cli_a_batch_takes_every_name_a_single_render_takes(tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    rgb = picture()
    for name in ("p.jfif", "p2.jpe", "p3.jpeg"):
        Image.fromarray(rgb).save(folder / name, format="JPEG")
    avif(folder / "a.avif", rgb)
    code, err = cli(capsys, "render", folder, "-o", tmp_path / "out", "-q")
    assert code == 0, err
    assert "skipped" not in err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == \
        ["a.avif", "p.jfif", "p2.jpe", "p3.jpeg"]
    for p in (tmp_path / "out").iterdir():
        with Image.open(p) as im:
            assert im.size == (48, 32) and im.format == ("AVIF" if p.suffix == ".avif"
                                                         else "JPEG")


def test_cli_heif_is_read_but_not_written(tmp_path, capsys):
    src = heif_like(tmp_path / "photo.heic", picture(64, 48))
    code, err = cli(capsys, "render", src, "-o", tmp_path / "o.heif", "-q")
    assert code == 2 and "HEIF, which aquarelle reads but does not write" in err
    with pytest.warns(ImageWarning, match="read through FFmpeg"):
        code, err = cli(capsys, "render", src, "-o", tmp_path / "o.jpg", "-q")
    assert code == 0, err
    assert Image.open(tmp_path / "o.jpg").size == (64, 48)


# 9. no library's own messages on stderr; a truncated file said to be truncated, a damaged
# header to be damaged


def jpeg_bytes(rgb: np.ndarray) -> bytes:
    import io

    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="JPEG", quality=90)
    return buf.getvalue()


def noisy(w: int = 96, h: int = 64) -> np.ndarray:
    return np.random.default_rng(3).integers(0, 256, (h, w, 3), dtype=np.uint8)


@pytest.mark.parametrize("ext", [".png", ".jpg"])
def test_a_truncated_file_says_truncated_and_no_library_prints(tmp_path, capfd, ext):
    src = tmp_path / f"cut{ext}"
    Image.fromarray(noisy()).save(src)
    data = src.read_bytes()
    src.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImageError, match=r"not a readable image: .*cut\..*\(truncated"):
        read_image(src)
    err = capfd.readouterr().err
    assert "libpng" not in err and "JPEG" not in err, err


def test_a_corrupt_jpeg_is_painted_with_our_warning_not_libjpegs_print(tmp_path, capfd):
    data = jpeg_bytes(noisy())
    sos = data.index(b"\xff\xda")
    src = tmp_path / "corrupt.jpg"
    src.write_bytes(data[: sos + (len(data) - sos) // 2] + b"\xff\xd9")  # EOI mid-scan
    with pytest.warns(ImageWarning, match=r"corrupt\.jpg: it looks damaged "
                      r"\(libjpeg: Corrupt JPEG data"):
        img = read_image(src)
    assert img.rgb.shape == (64, 96, 3)
    assert "Corrupt JPEG" not in capfd.readouterr().err


def test_other_writes_to_stderr_during_a_decode_are_passed_on(tmp_path, capfd):
    src = tmp_path / "ok.png"
    Image.fromarray(picture()).save(src)
    real = image_read.cv2.imdecode

    def decode_and_print(*args: object) -> np.ndarray:
        os.write(2, b"another thread's line\n")
        return real(*args)

    image_read.cv2.imdecode = decode_and_print
    try:
        read_image(src)
    finally:
        image_read.cv2.imdecode = real
    assert capfd.readouterr().err == "another thread's line\n"


def tiff_entry_at(data: bytes, tag: int) -> int:
    """The offset of a little-endian classic TIFF's first-IFD entry for `tag`."""
    first = int.from_bytes(data[4:8], "little")
    n = int.from_bytes(data[first:first + 2], "little")
    for at in range(first + 2, first + 2 + 12 * n, 12):
        if int.from_bytes(data[at:at + 2], "little") == tag:
            return at
    raise AssertionError(f"no tag {tag}")


def test_an_absurd_tiff_header_size_is_a_damaged_file_not_resize_it(tmp_path):
    src = tmp_path / "huge.tif"
    Image.fromarray(picture()).save(src)
    data = bytearray(src.read_bytes())
    for tag, value in ((256, 673715987), (257, 4653456)):
        at = tiff_entry_at(bytes(data), tag)
        data[at + 2:at + 4] = (4).to_bytes(2, "little")  # LONG
        data[at + 8:at + 12] = value.to_bytes(4, "little")
    src.write_bytes(bytes(data))
    with pytest.raises(ImageError, match=r"huge\.tif is damaged: its header says "
                                         r"673715987x4653456 pixels") as e:
        read_image(src)
    assert "resize" not in str(e.value)


def test_pillows_warnings_become_one_of_ours(tmp_path):
    src = tmp_path / "tags.tif"
    Image.fromarray(picture()).save(src, tiffinfo={305: "some writer"})
    data = bytearray(src.read_bytes())
    at = tiff_entry_at(bytes(data), 305)
    data[at + 4:at + 8] = (1 << 20).to_bytes(4, "little")  # a count beyond the file
    src.write_bytes(bytes(data))
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        img = read_image(src)
    assert img.rgb.shape == (32, 48, 3)
    assert [w.category for w in caught] == [ImageWarning], \
        [str(w.message) for w in caught]
    assert "tags.tif: its metadata looks damaged (Pillow: Tag data larger than file" in \
        str(caught[0].message)


# 7. a TIFF's other pages: said, as an animated WebP's other frames are


def test_a_multi_page_tiff_says_only_its_first_page_is_painted(tmp_path):
    src = tmp_path / "pages.tif"
    first = Image.fromarray(picture())
    thumb = Image.fromarray(picture(12, 8))
    first.save(src, save_all=True, append_images=[Image.fromarray(picture()[::-1]),
                                                  Image.fromarray(picture()[:, ::-1])])
    with pytest.warns(ImageWarning, match=r"^pages\.tif holds 3 pages; only the first "
                      r"of 3 pages is painted$"):
        img = read_image(src)
    assert np.array_equal(img.rgb, picture())
    import warnings

    one = tmp_path / "one.tif"
    thumb.save(one)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_image(one)  # one page: nothing said


# 12. JPEG's colour at full resolution from quality 90 up (the default is 95)


def jpeg_sampling(path: Path) -> tuple[int, ...]:
    """The luma and chroma sampling factors of a JPEG's frame (SOF0/SOF2): (2, 2, 1, 1...)
    is 4:2:0, all ones 4:4:4."""
    data = path.read_bytes()
    at = 2
    while at < len(data):
        marker, length = data[at + 1], int.from_bytes(data[at + 2:at + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            n = data[at + 9]
            return tuple(f for k in range(n) for f in (data[at + 11 + 3 * k] >> 4,
                                                        data[at + 11 + 3 * k] & 15))
        at += 2 + length
    raise AssertionError("no frame header")


@pytest.mark.parametrize("metadata", [False, True], ids=["opencv", "pillow"])
def test_jpeg_keeps_full_chroma_at_high_quality(tmp_path, metadata):
    exif = Image.Exif()
    exif[0x0110] = "TestCam"
    kw = {"exif": exif.tobytes()} if metadata else {}
    for quality, want in ((None, (1,) * 6), (90, (1,) * 6), (89, (2, 2, 1, 1, 1, 1))):
        out = tmp_path / f"q{quality}.jpg"
        write_image(out, picture(), quality=quality, **kw)
        assert jpeg_sampling(out) == want, quality


# 13. an 8-bit TIFF compressed the same whichever route writes it


@pytest.mark.parametrize("alpha", [False, True], ids=["rgb", "rgba"])
def test_an_8_bit_tiff_with_exif_is_compressed_like_one_without(tmp_path, alpha):
    from test_colour_profile import DISPLAY_P3  # (an RGB profile: kept on RGB pixels)

    rgb = noisy(96, 64) // 8 * 8  # smooth enough to compress
    a = np.full((64, 96), 200, np.uint8) if alpha else None
    exif = Image.Exif()
    exif[0x010F] = "Maker"
    exif[0x8298] = "(c) someone"
    exif.get_ifd(0x8769)[0x9003] = "2020:01:02 03:04:05"
    exif.get_ifd(0x8825)[1] = "N"
    plain, tagged = tmp_path / "plain.tif", tmp_path / "tagged.tif"
    write_image(plain, rgb, a)
    write_image(tagged, rgb, a, exif=exif.tobytes(), icc=DISPLAY_P3)
    for path in (plain, tagged):
        with Image.open(path) as im:
            assert (im.tag_v2.get(259), im.tag_v2.get(317)) == (5, 2), path.name  # LZW
            assert np.array_equal(np.asarray(im)[..., :3], rgb)
            if alpha:
                assert np.array_equal(np.asarray(im)[..., 3], a)
    assert tagged.stat().st_size < plain.stat().st_size * 1.2
    with Image.open(tagged) as im:
        assert im.info["icc_profile"] == DISPLAY_P3
        got = im.getexif()
        assert got[0x010F] == "Maker" and got[0x8298] == "(c) someone"
        assert got.get_ifd(0x8769)[0x9003] == "2020:01:02 03:04:05"
        assert got.get_ifd(0x8825)[1] == "N"
    back = read_image(tagged)
    kept = Image.Exif()
    kept.load(back.exif)
    assert kept.get_ifd(0x8769)[0x9003] == "2020:01:02 03:04:05"


# 6. the resolution (DPI) kept; what is not carried (XMP, a comment) said


@pytest.mark.parametrize("ext", [".jpg", ".png", ".tif"])
@pytest.mark.parametrize("out_ext", [".jpg", ".png", ".tif"])
def test_cli_the_resolution_is_kept(tmp_path, capsys, ext, out_ext):
    src = tmp_path / f"in{ext}"
    Image.fromarray(picture()).save(src, dpi=(300, 300))
    out = tmp_path / f"out{out_ext}"
    code, err = cli(capsys, "render", src, "-o", out, "-q")
    assert code == 0 and err == "", err
    with Image.open(out) as im:
        assert tuple(round(float(v)) for v in im.info["dpi"]) == (300, 300)


def test_a_16_bit_tiff_keeps_its_resolution_and_webp_says_it_has_none(tmp_path, capsys):
    deep = (picture().astype(np.uint16) * 257)
    write_image(tmp_path / "deep.tif", deep, dpi=(240.0, 240.0))
    with Image.open(tmp_path / "deep.tif") as im:
        assert tuple(round(float(v)) for v in im.info["dpi"]) == (240, 240)
    src = tmp_path / "in.png"
    Image.fromarray(picture()).save(src, dpi=(300, 300))
    code, err = cli(capsys, "render", src, "-o", tmp_path / "o.webp", "-q")
    assert code == 0 and "o.webp: WEBP holds no resolution here; written without the " \
        "source's 300 dpi" in err, err


def test_cli_xmp_and_a_comment_are_said_to_be_dropped(tmp_path, capsys):
    src = tmp_path / "in.jpg"
    xmp = b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>'
    Image.fromarray(picture()).save(src, xmp=xmp, comment=b"a note")
    code, err = cli(capsys, "render", src, "-o", tmp_path / "o.jpg", "-q")
    assert code == 0
    assert "o.jpg: written without the source's XMP and comment" in err, err


def test_a_float_tiff_beyond_its_range_is_said(tmp_path):
    """A 32-bit float TIFF (an HDR render's) was clipped to 0..1 without a word (trial V4)."""
    import warnings

    import cv2

    hdr = np.full((8, 8, 3), 0.5, np.float32)
    hdr[0, 0] = 4.0
    hdr[1, 1] = -0.25
    hdr[2, 2, 0] = np.nan
    path = tmp_path / "hdr.tif"
    assert cv2.imwrite(str(path), hdr)
    with pytest.warns(ImageWarning, match=r"hdr\.tif: a floating-point picture is painted in "
                      r"its 0\.0-1\.0 range: values up to 4 painted as white \(1\.0\); values "
                      r"down to -0\.25 as black \(0\.0\); 1 not-a-number values as black"):
        im = read_image(path)
    assert im.rgb.dtype == np.uint16
    assert im.rgb[0, 0].tolist() == [65535] * 3 and im.rgb[1, 1].tolist() == [0] * 3
    assert im.rgb[2, 2].tolist() == [32768, 32768, 0]  # (BGR in the file: NaN was blue)
    assert im.rgb[5, 5].tolist() == [32768] * 3
    within = tmp_path / "ldr.tif"
    ldr = np.full((8, 8, 3), 0.25, np.float32)
    ldr[0, 1], ldr[0, 2] = 1.0000001, -1e-7  # (rounding noise: no warning)
    assert cv2.imwrite(str(within), ldr)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert read_image(within).rgb[0, 0].tolist() == [16384] * 3
