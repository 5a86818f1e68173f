"""Stills and GIFs say what they hold (trial V4): a TIFF without resolution tags has no
resolution (not Pillow's 1 dpi)."""

from __future__ import annotations

import numpy as np
from PIL import Image

from aquarelle.cli.main import main
from aquarelle.media.image_read import read_image


def picture(w: int = 30, h: int = 20) -> np.ndarray:
    rgb = np.zeros((h, w, 3), np.uint8)
    rgb[:, : w // 2] = (40, 120, 200)
    rgb[:, w // 2:] = (220, 180, 60)
    return rgb


def cli(capsys, *argv: object) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


# 5. a TIFF without resolution tags: no resolution, not 1 dpi


def test_a_tiff_without_resolution_tags_has_no_resolution(tmp_path, capsys):
    src = tmp_path / "in.tif"
    Image.fromarray(picture()).save(src)  # (Pillow reads it back as 1 dpi)
    assert read_image(src).dpi is None
    for name in ("o.jpg", "o.png", "o.tif"):
        assert cli(capsys, "render", src, "-o", tmp_path / name, "-q", "--style",
                   "adjust") == (0, "")
        with Image.open(tmp_path / name) as im:  # (a TIFF's XResolution: 282)
            assert "dpi" not in im.info if im.format != "TIFF" else 282 not in im.tag_v2, \
                (name, im.info.get("dpi"))
    for name in ("o.webp", "o.bmp"):  # no "written without the source's 1 dpi"
        assert cli(capsys, "render", src, "-o", tmp_path / name, "-q", "--style",
                   "adjust") == (0, "")
    tagged = tmp_path / "tagged.tif"  # a resolution the file gives is kept
    Image.fromarray(picture()).save(tagged, dpi=(150, 150))
    assert read_image(tagged).dpi == (150, 150)

