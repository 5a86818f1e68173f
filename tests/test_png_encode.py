"""PNG deflated on every core (media/png_encode.py): the pixels OpenCV and Pillow decode are
the ones given, in one piece or several, at 8 and 16 bits, grey, colour and alpha."""

from __future__ import annotations

import io
import zlib

import cv2
import numpy as np
import pytest
from PIL import Image

from aquarelle.media.image_write import write_image
from aquarelle.media.png_encode import encode_png


@pytest.mark.parametrize("shape", [(37, 53), (37, 53, 3), (37, 53, 4), (1, 1, 3), (600, 40, 4)])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("pieces", [1, 3, 100])
def test_the_pixels_come_back(shape, dtype, pieces) -> None:
    x = np.random.default_rng(1).integers(0, np.iinfo(dtype).max + 1, shape, dtype=dtype)
    data = encode_png(x, pieces)
    back = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    assert back.dtype == x.dtype and back.shape == x.shape and np.array_equal(back, x)
    pil = np.asarray(Image.open(io.BytesIO(data)))  # an independent decoder, RGB(A) order
    want = x if x.ndim == 2 else x[:, :, [2, 1, 0, 3][:x.shape[2]]]
    if dtype == np.uint16 and x.ndim == 3:
        return  # Pillow reads 16-bit colour as 8 bits
    assert np.array_equal(pil.astype(x.dtype).reshape(want.shape), want)


def test_pieces_join_into_one_valid_zlib_stream() -> None:
    """Each piece but the last ends on a byte boundary (sync flush); the stream's checksum is
    the whole data's: zlib itself, strict about both, inflates it."""
    x = np.random.default_rng(2).integers(0, 40, (64, 80, 3), dtype=np.uint8)
    data = encode_png(x, 4)
    at = data.index(b"IDAT")
    size = int.from_bytes(data[at - 4:at], "big")
    raw = zlib.decompress(data[at + 4:at + 4 + size])
    assert len(raw) == 64 * (1 + 80 * 3)
    assert zlib.crc32(data[at:at + 4 + size]) == int.from_bytes(data[at + 4 + size:at + 8 + size],
                                                                 "big")


def test_write_image_writes_big_pngs_through_it(tmp_path) -> None:
    rgb = np.random.default_rng(3).integers(0, 256, (900, 1600, 3), dtype=np.uint8)
    alpha = np.random.default_rng(4).integers(0, 256, (900, 1600), dtype=np.uint8)
    write_image(tmp_path / "a.png", rgb, alpha)
    back = cv2.imread(str(tmp_path / "a.png"), cv2.IMREAD_UNCHANGED)
    assert np.array_equal(back[:, :, 2::-1], rgb) and np.array_equal(back[:, :, 3], alpha)


def test_other_types_are_refused() -> None:
    with pytest.raises(ValueError, match="8 or 16 bits"):
        encode_png(np.zeros((4, 4, 3), np.float32))


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_a_png_keeps_its_colour_profile_and_exif_at_either_depth(tmp_path, dtype) -> None:
    # (a 16-bit PNG lost both: they were embedded through Pillow, which writes 8 bits only)
    from PIL import ImageCms

    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    exif = Image.Exif()
    exif[0x010F] = "Camera maker"
    rgb = np.random.default_rng(3).integers(0, np.iinfo(dtype).max + 1, (20, 30, 3), dtype)
    write_image(tmp_path / "x.png", rgb, icc=icc, exif=exif.tobytes())
    with Image.open(tmp_path / "x.png") as im:
        assert im.info.get("icc_profile") == icc
        assert im.getexif().get(0x010F) == "Camera maker"
    back = cv2.imread(str(tmp_path / "x.png"), cv2.IMREAD_UNCHANGED)
    assert back.dtype == dtype and np.array_equal(back[:, :, ::-1], rgb)


@pytest.mark.parametrize("ext", [".jpg", ".webp", ".bmp"])
def test_a_16_bit_picture_in_an_8_bit_format_is_rounded_not_clipped(tmp_path, ext) -> None:
    # OpenCV clipped 16-bit values to 255: the picture came out white, and said nothing
    from aquarelle.media.image_write_warnings import write_warnings

    grad = np.linspace(0, 65535, 64 * 48 * 3).reshape(48, 64, 3).astype(np.uint16)
    alpha = np.full((48, 64), 65535, np.uint16)
    write_image(tmp_path / f"x{ext}", grad, alpha, quality=100)
    back = cv2.imread(str(tmp_path / f"x{ext}"))[:, :, ::-1]
    want = (grad.astype(np.float64) / 257).round()
    assert np.abs(back - want).mean() < 1.5  # (JPEG's and WebP's own loss)
    assert write_warnings(tmp_path / f"x{ext}", grad) and not write_warnings(
        tmp_path / "x.png", grad) and not write_warnings(tmp_path / f"x{ext}", back)
