"""The --size a refusal suggests is one the next render accepts (trial X, finding 3): its -1
follows the photo's own proportions, not the refused --size's shape, and the look's
enlargement (an upscale's factor) is measured on it."""

from __future__ import annotations

import re

import numpy as np
import pytest
from PIL import Image
from test_tiles import jpeg_header

from aquarelle.cli import render_image
from aquarelle.cli.main import main
from aquarelle.media import image_write


class _Accepted(Exception):
    """Raised where the render decodes the photo: its size got past every refusal."""


def _hint(err: str) -> str:
    found = re.search(r"render it smaller, e\.g\. --size (\S+)", err)
    assert found, err
    return found.group(1)


def _size_of(hint: str, source: tuple[int, int]) -> tuple[int, int]:
    w, h = (int(v) for v in hint.split("x"))
    sw, sh = source
    return (w, round(sh * w / sw)) if h < 0 else (round(sw * h / sh), h)


@pytest.mark.parametrize(("source", "size"), [((256, 300), "5000x5000"),
                                              ((300, 256), "5000x5000"),
                                              ((256, 300), "-1x4500"),
                                              ((256, 300), "4096x-1")])
def test_a_hint_beyond_the_texture_limit_is_accepted(tmp_path, capsys, gl_ctx, monkeypatch,
                                                     source, size):
    """x4 upscale of a 256x300 photo at --size 5000x5000 (20000x20000) was told 4096x-1:
    4096x4800, which paints 16384x19200 and was refused again."""
    limit = int(gl_ctx.info["GL_MAX_TEXTURE_SIZE"])
    src = jpeg_header(tmp_path / "photo.jpg", *source)
    out = tmp_path / "out.png"
    args = ["render", str(src), "-o", str(out), "--style", "upscale", "--set", "factor=4"]
    assert main([*args, "--size", size]) == 2
    err = capsys.readouterr().err
    assert "texture limit" in err, err
    hint = _hint(err)
    w, h = _size_of(hint, source)
    # the largest that fits: its long side painted at the limit
    assert max(4 * w, 4 * h) == limit, (hint, w, h)

    def accepted(*_a, **_k):
        raise _Accepted
    monkeypatch.setattr(render_image, "read_image", accepted)
    with pytest.raises(_Accepted):
        main([*args, "--size", hint])
    assert capsys.readouterr().err == ""


def test_a_hint_beyond_webps_side_paints_a_webp(tmp_path, capsys, monkeypatch):
    """WebP's limit alike (4095x-1 for a 256x300 photo was 4095x4799, painted 16380x19196):
    run at a limit of 400 px, the hint is rendered and the WebP read back."""
    monkeypatch.setitem(image_write.MAX_SIDES, ".webp", ("WebP", 400))
    src = tmp_path / "photo.png"
    rng = np.random.default_rng(3)
    Image.fromarray(rng.integers(0, 255, (30, 26, 3), np.uint8)).save(src)
    out = tmp_path / "out.webp"
    args = ["render", str(src), "-o", str(out), "--style", "upscale", "--set", "factor=4"]
    assert main([*args, "--size", "150x150"]) == 2
    err = capsys.readouterr().err
    assert "WebP holds at most 400 px a side" in err, err
    hint = _hint(err)
    assert hint == "-1x100", err
    assert main([*args, "--size", hint, "-q"]) == 0, capsys.readouterr().err
    with Image.open(out) as im:
        assert im.size == (4 * 87, 400)
