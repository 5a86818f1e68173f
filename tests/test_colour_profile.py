"""A still with a colour profile of another RGB space (Display P3, Adobe RGB) is painted as
its sRGB version is: converted when read, written without the profile; sRGB-tagged and
untagged stills are read exactly as decoded; 16 bits stay 16; a broken profile warns once."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import warnings
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageCms

from aquarelle.cli.main import main
from aquarelle.media.colour_profile import ColourProfileWarning
from aquarelle.media.image_read import read_image

D50 = (0.9642, 1.0, 0.8249)
D65 = (0.3127, 0.3290)
P3 = ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060))
ADOBE = ((0.64, 0.33), (0.21, 0.71), (0.15, 0.06))
BRADFORD = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367],
                     [0.0389, -0.0685, 1.0296]])


def _xyz(xy: tuple[float, float]) -> np.ndarray:
    x, y = xy
    return np.array([x / y, 1.0, (1 - x - y) / y])


def _s15(*values: float) -> bytes:
    return struct.pack(f">{len(values)}i", *(round(v * 65536) for v in values))


def _mluc(text: str) -> bytes:
    s = text.encode("utf-16-be")
    return b"mluc" + bytes(4) + struct.pack(">II2s2sII", 1, 12, b"en", b"US", len(s), 28) + s


def matrix_shaper_icc(primaries: tuple, trc: bytes, name: str) -> bytes:
    """A v4 display profile built from public facts: the primaries, D65 white (adapted to
    D50 by Bradford, as ICC asks) and one tone curve (`para` or `curv` tag) for all three."""
    white = _xyz(D65)
    prim = np.stack([_xyz(p) for p in primaries], axis=1)
    to_xyz = prim * np.linalg.solve(prim, white)
    cone = BRADFORD @ np.array(D50), BRADFORD @ white
    adapt = np.linalg.inv(BRADFORD) @ np.diag(cone[0] / cone[1]) @ BRADFORD
    cols = adapt @ to_xyz
    tags = [(b"desc", _mluc(name)), (b"cprt", _mluc("No copyright, test data")),
            (b"wtpt", b"XYZ " + bytes(4) + _s15(*D50)),
            (b"chad", b"sf32" + bytes(4) + _s15(*adapt.ravel())),
            (b"rXYZ", b"XYZ " + bytes(4) + _s15(*cols[:, 0])),
            (b"gXYZ", b"XYZ " + bytes(4) + _s15(*cols[:, 1])),
            (b"bXYZ", b"XYZ " + bytes(4) + _s15(*cols[:, 2])),
            (b"rTRC", trc), (b"gTRC", trc), (b"bTRC", trc)]
    table, data = b"", b""
    at = 128 + 4 + 12 * len(tags)
    for sig, body in tags:
        body += bytes(-len(body) % 4)
        table += struct.pack(">4sII", sig, at + len(data), len(body))
        data += body
    size = at + len(data)
    header = struct.pack(">I4sI4s4s4s12s4s4sI4s4s8sI", size, b"lcms", 0x04300000, b"mntr",
                         b"RGB ", b"XYZ ", bytes(12), b"acsp", b"APPL", 0, bytes(4),
                         bytes(4), bytes(8), 0) + _s15(*D50) + bytes(4) + bytes(16) + bytes(28)
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + table + data


SRGB_TRC = b"para" + bytes(4) + struct.pack(">HH", 3, 0) + _s15(
    2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
DISPLAY_P3 = matrix_shaper_icc(P3, SRGB_TRC, "Display P3 (test)")
ADOBE_RGB = matrix_shaper_icc(ADOBE, b"curv" + bytes(4) + struct.pack(">IH", 1, 563) + bytes(2),
                              "Adobe RGB compatible (test)")
SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


def colourful(w: int = 192, h: int = 160) -> np.ndarray:
    """An sRGB picture of saturated hues over smooth gradients, with a pale flat corner."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    hue = (x / w * 180).astype(np.uint8)
    hsv = np.stack([hue, (120 + 135 * y / h).astype(np.uint8),
                    (90 + 160 * (1 - y / h) * (0.6 + 0.4 * np.sin(x / 9))).astype(np.uint8)],
                   axis=-1)
    rgb = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)
    rgb[: h // 4, : w // 4] = (235, 225, 205)
    return rgb


def converted(rgb: np.ndarray, icc: bytes) -> np.ndarray:
    """sRGB pixels converted into the space of `icc` (as a camera or editor writes them)."""
    src = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))
    dst = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    out = ImageCms.profileToProfile(Image.fromarray(rgb), src, dst, outputMode="RGB",
                                    renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    return np.asarray(out)


def as_srgb(rgb: np.ndarray, icc: bytes) -> np.ndarray:
    """littlecms' own conversion of `icc` pixels to sRGB (8-bit), the reference."""
    src = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    out = ImageCms.profileToProfile(Image.fromarray(rgb), src, ImageCms.createProfile("sRGB"),
                                    outputMode="RGB",
                                    renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    return np.asarray(out)


def render(capsys: pytest.CaptureFixture[str], src: Path, out: Path) -> Image.Image:
    code = main(["render", str(src), "-o", str(out), "-y", "-q"])
    assert code == 0, capsys.readouterr().err
    return Image.open(out)


def test_a_p3_photo_is_painted_as_its_srgb_version_and_written_as_srgb(tmp_path, capsys):
    rgb = colourful()
    p3 = converted(rgb, DISPLAY_P3)
    assert np.abs(p3.astype(int) - rgb).mean() > 5  # (a space of its own: far apart as is)
    Image.fromarray(p3).save(tmp_path / "p3.png", icc_profile=DISPLAY_P3)
    Image.fromarray(rgb).save(tmp_path / "srgb.png")
    with render(capsys, tmp_path / "p3.png", tmp_path / "p3_out.png") as a, \
            render(capsys, tmp_path / "srgb.png", tmp_path / "srgb_out.png") as b:
        painted, reference = np.asarray(a, np.float32), np.asarray(b, np.float32)
        carried = a.info.get("icc_profile")
    # (without the conversion: 4.3 levels apart, the mean colour 1.7 levels off in red)
    assert np.abs(painted - reference).mean() < 1.0
    means = painted.reshape(-1, 3).mean(0), reference.reshape(-1, 3).mean(0)
    assert np.abs(means[0] - means[1]).max() < 0.5
    assert not carried  # its pixels are sRGB now, as untagged ones are


@pytest.mark.parametrize("profile", [DISPLAY_P3, ADOBE_RGB], ids=["p3", "adobe"])
def test_read_converts_8_bit_with_littlecms(tmp_path, profile):
    pixels = converted(colourful(), profile)
    Image.fromarray(pixels).save(tmp_path / "in.jpg", icc_profile=profile, quality=95)
    decoded = cv2.imread(str(tmp_path / "in.jpg"))[:, :, ::-1]
    image = read_image(tmp_path / "in.jpg")
    assert image.icc is None
    assert np.array_equal(image.rgb, as_srgb(np.ascontiguousarray(decoded), profile))
    assert image.rgb.flags.writeable


@pytest.mark.parametrize("profile", [DISPLAY_P3, ADOBE_RGB], ids=["p3", "adobe"])
def test_16_bits_stay_16_bits_converted_exactly(tmp_path, profile):
    photo = converted(colourful(1024, 64), profile)  # 8-bit values: littlecms' answer known
    ramp = np.stack([np.arange(1024) * 64] * 3, axis=-1)[None].repeat(8, axis=0)
    deep = np.concatenate([photo.astype(np.uint16) * 257, ramp.astype(np.uint16)])
    path = tmp_path / "deep.png"
    _png16(path, deep, profile)
    image = read_image(path)
    assert image.rgb.dtype == np.uint16 and image.icc is None
    assert len(np.unique(image.rgb[64:, :, 1])) > 900  # 16-bit steps, not 256 levels
    top = image.rgb[:64] / 257.0
    assert np.abs(top - as_srgb(photo, profile)).max() <= 1.0  # littlecms', to its rounding
    assert np.abs(top - photo).mean() > 3  # converted, not kept


def _png16(path: Path, rgb: np.ndarray, icc: bytes) -> None:
    """A 16-bit RGB PNG with a colour profile (Pillow writes none)."""
    import zlib

    h, w, _ = rgb.shape
    raw = b"".join(b"\0" + rgb[r].astype(">u2").tobytes() for r in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + \
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16,
                                                                       2, 0, 0, 0))
                     + chunk(b"iCCP", b"P3\0\0" + zlib.compress(icc))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


@pytest.mark.parametrize("tag", ["srgb", "none", "srgb_16"])
def test_srgb_and_untagged_stills_are_read_exactly_as_decoded(tmp_path, tag):
    rgb = colourful()
    if tag == "srgb_16":
        deep = rgb.astype(np.uint16) * 257 + 100
        _png16(tmp_path / "in.png", deep, SRGB)
        image = read_image(tmp_path / "in.png")
        assert np.array_equal(image.rgb, deep) and image.icc == SRGB
        return
    Image.fromarray(rgb).save(tmp_path / "in.jpg", quality=90,
                              **({"icc_profile": SRGB} if tag == "srgb" else {}))
    image = read_image(tmp_path / "in.jpg")
    assert np.array_equal(image.rgb, cv2.imread(str(tmp_path / "in.jpg"))[:, :, ::-1])
    assert image.icc == (SRGB if tag == "srgb" else None)  # carried on as it was


def broken(icc: bytes) -> bytes:
    """A profile cut short (its tags past its end), as a truncated file's."""
    return icc[:300]


def test_a_broken_profile_keeps_the_pixels_and_warns_once(tmp_path):
    rgb = converted(colourful(), DISPLAY_P3)
    Image.fromarray(rgb).save(tmp_path / "bad.png", icc_profile=broken(DISPLAY_P3))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first, again = read_image(tmp_path / "bad.png"), read_image(tmp_path / "bad.png")
    told = [w for w in caught if issubclass(w.category, ColourProfileWarning)]
    assert len(told) == 1, [str(w.message) for w in caught]
    assert str(told[0].message) == ("bad.png: its colour profile cannot be read; its colours "
                                    "are painted as if they were sRGB")
    assert np.array_equal(first.rgb, rgb) and np.array_equal(again.rgb, rgb)


def test_cli_says_a_broken_profile_in_one_line_once(tmp_path):
    rgb = converted(colourful(96, 80), ADOBE_RGB)
    Image.fromarray(rgb).save(tmp_path / "bad.jpg", icc_profile=broken(ADOBE_RGB), quality=95)
    done = subprocess.run([sys.executable, "-m", "aquarelle", "render", str(tmp_path / "bad.jpg"),
                           "-o", str(tmp_path / "out.png"), "-q"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = [s for s in done.stderr.splitlines() if "colour profile" in s]
    assert len(lines) == 1, done.stderr
    assert lines == ["aquarelle: warning: bad.jpg: its colour profile cannot be read; its "
                     "colours are painted as if they were sRGB"], done.stderr


def test_16_bits_through_a_table_where_a_profile_has_no_curves_and_matrix():
    # (a profile of tables takes this route; a matrix-shaper one checks it against the exact)
    from aquarelle.media import colour_profile as cp

    deep = converted(colourful(), DISPLAY_P3).astype(np.uint16) * 257 + 77
    exact = cp._apply_float(deep, *cp._matrix_shaper(DISPLAY_P3))
    table = cp._apply_table(deep, cp._transform(DISPLAY_P3))
    assert table.dtype == np.uint16
    assert np.abs(table / 257.0 - exact / 257.0).max() < 3.0
    assert np.abs(table / 257.0 - exact / 257.0).mean() < 0.5
