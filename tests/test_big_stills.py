"""Big stills (engine/tiles.py, tile_plan.py, still.py; the command line): tiles as large as
their overlap needs at any picture size (the overlap grows with the picture: the styles'
kernels are sized in px of a reference frame), and styles that change the picture's size
(an upscale, a stereo pair side by side) painted whole over 16 MP, or refused before
decoding, in one line with a --size that works, where their painting would exceed the
GPU's texture limit."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from test_tiles import jpeg_header

from aquarelle.cli.main import main
from aquarelle.engine import still
from aquarelle.engine.chain_spec import load_chain
from aquarelle.engine.params import ParamSet
from aquarelle.engine.tile_plan import MIN_CORE_PER_OVERLAP, Tile, overlap_floor_px
from aquarelle.engine.tiles import analyse, plan_still, still_margin

LIMIT = 16384  # llvmpipe's texture limit (the plans are made for it, whatever the GPU)
GB = 1 << 30


def _plan(size: tuple[int, int], style: str = "watercolor", *, memory: int = 16 * GB,
          limit: int = LIMIT) -> tuple[tuple[int, int], tuple[int, int], list[Tile]]:
    """(the padded picture, the overlap, the tiles) of a still of `size`, as TiledStill
    plans it (without a GPU)."""
    spec = load_chain(style)
    params = ParamSet(spec.params, scope=spec.name)
    plan, align = analyse(spec, params.values(), size)
    return plan.size, still_margin(plan, align), plan_still(plan, align, limit,
                                                            memory_bytes=memory)


def _check_cover(size: tuple[int, int], margin: tuple[int, int], tiles: list[Tile],
                 limit: int) -> None:
    """The cores partition the picture (a grid of spans along each side, each pair once);
    each box holds its core and the overlap."""
    w, h = size
    for t in tiles:
        x0, y0, x1, y1 = t.core
        bx0, by0, bx1, by1 = t.box
        assert bx0 <= max(0, x0 - margin[0]) and bx1 >= min(w, x1 + margin[0])
        assert by0 <= max(0, y0 - margin[1]) and by1 >= min(h, y1 + margin[1])
        assert max(t.size) <= limit
    for axis, length in ((0, w), (1, h)):
        spans = sorted({(t.core[axis], t.core[axis + 2]) for t in tiles})
        assert spans[0][0] == 0 and spans[-1][1] >= length
        assert all(a[1] == b[0] for a, b in zip(spans, spans[1:], strict=False))
    cells = [(t.core[0], t.core[1]) for t in tiles]
    assert len(set(cells)) == len(cells) == len({c[0] for c in cells}) * len({c[1] for c in
                                                                               cells})


# -- the plan (issue: tiles of big stills) --------------------------------------------------
@pytest.mark.parametrize("size", [(9000, 6000), (11000, 7333), (13000, 8667), (15000, 10000),
                                  (16000, 10667), (20000, 15000)])
def test_a_big_photo_is_painted_in_a_few_tiles_whatever_its_overlap(size):
    """The watercolor's overlap grows with the picture (16000x10667: 1596 px a side), so
    its tiles grow with it. Tiles sized by memory alone had cores of a few hundred px (13000
    px wide: 192 tiles rendering 20 times the picture) and from 15000 px wide none at all;
    20000x15000 is what the 1000 MP refusal suggests for a 40000x30000 photo."""
    padded, margin, tiles = _plan(size)
    w, h = padded
    assert margin[0] >= 0.09 * h and margin[1] >= 0.09 * h  # the overlap is not cut short
    box = tiles[0].size
    assert len({t.size for t in tiles}) == 1
    # (16 and 3.5 until the skin spots' work-size target, 4 bytes a px more: 20000x15000
    # now in 18 tiles rendering 3.96 times its cores)
    assert len(tiles) <= 18, (len(tiles), box)
    assert len(tiles) * box[0] * box[1] <= 4.0 * w * h  # overlaps rendered: < 3x the cores
    assert box[0] * box[1] <= 0.3 * w * h  # memory: a fraction of the whole picture's
    _check_cover(padded, margin, tiles, LIMIT - 4)


def test_tiles_are_large_enough_for_their_overlap():
    margin, align = (1596, 1596), 4
    side = (MIN_CORE_PER_OVERLAP + 2) * 1596 + 2 * align
    assert overlap_floor_px((16000, 10668), margin, align, LIMIT) == side * side
    # no larger than the picture (padded to the grid) nor the texture limit
    assert overlap_floor_px((3001, 2000), margin, align, LIMIT) == 3004 * 2000
    assert overlap_floor_px((16000, 10668), margin, align, 5000) == 5000 * 5000
    padded, margin, tiles = _plan((16000, 10667))
    core = min(min(t.core[2] - t.core[0], t.core[3] - t.core[1]) for t in tiles)
    assert core >= margin[0]


def test_small_overlaps_keep_the_tiles_memory_sizes_them():
    """A panorama (its overlap follows its 4000 px height) and a sharpening (a few px):
    tiles as before, sized by the 1.8 GB the process aims at (34: the composite reaches 8
    reference px for the faces' stated darks, 78c05e5; 32 before)."""
    padded, margin, tiles = _plan((30000, 4000))
    assert margin[0] < 800 and 20 <= len(tiles) <= 36
    _check_cover(padded, margin, tiles, LIMIT - 4)
    padded, margin, tiles = _plan((16000, 10667), "sharpen")
    assert margin[0] < 16 and len(tiles) <= 12
    _check_cover(padded, margin, tiles, LIMIT - 4)


def test_a_machine_with_less_memory_gets_smaller_tiles():
    _, _, roomy = _plan((16000, 10667))
    _, margin, lean = _plan((16000, 10667), memory=6 * GB)
    assert lean[0].size[0] * lean[0].size[1] < roomy[0].size[0] * roomy[0].size[1]
    assert len(lean) > len(roomy)
    _check_cover((16000, 10668), margin, lean, LIMIT - 4)


# -- styles that change the picture's size (issue: upscale, stereo over 16 MP) --------------
def _small_tiles(monkeypatch) -> None:
    """Stills over 100 000 px are big (painted in tiles where the style allows)."""
    monkeypatch.setattr(still, "needs_tiles", lambda size, max_side, **_: size[0] * size[1]
                        > 100_000 or max(size) > max_side)


def _photo(path: Path, w: int = 480, h: int = 320) -> Path:
    rng = np.random.default_rng(5)
    small = rng.random((h // 32, w // 32, 3)).astype(np.float32)
    img = (cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1) * 255)
    assert cv2.imwrite(str(path), img.astype(np.uint8))
    return path


@pytest.mark.parametrize(("style", "sets", "shape"), [
    ("upscale", [], (640, 960)),
    ("stereo", ["--set", "output=sbs"], (320, 960)),
    ("stereo", ["--set", "output=tb"], (640, 480)),
    ("stereo", [], (320, 480)),  # anaglyph: the same size, a pass that cannot be tiled
    ("enhance", [], (320, 480)),  # histograms of the whole picture
])
def test_a_big_still_a_style_cannot_tile_is_painted_whole(tmp_path, capsys, monkeypatch,
                                                          style, sets, shape):
    """Over 16 MP and within the texture limit, a style that cannot be painted in tiles
    (it changes the picture's size, or reads more than a tile holds) paints it whole: it
    was refused ("style upscale's picture is not the size of its input")."""
    _small_tiles(monkeypatch)
    src = _photo(tmp_path / "big.png")
    out = tmp_path / "out.png"
    assert main(["render", str(src), "-o", str(out), "--style", style, *sets, "-q"]) == 0, \
        capsys.readouterr().err
    assert cv2.imread(str(out)).shape == (*shape, 3)


def test_a_big_still_a_style_can_tile_is_still_tiled(tmp_path, capsys, monkeypatch):
    _small_tiles(monkeypatch)
    src = _photo(tmp_path / "big.png")
    assert main(["render", str(src), "-o", str(tmp_path / "out.png"), "--style",
                 "sharpen"]) == 0
    assert "big.png: tile 0/" in capsys.readouterr().err
    assert cv2.imread(str(tmp_path / "out.png")).shape == (320, 480, 3)


@pytest.mark.parametrize(("style", "sets", "painted"), [
    ("upscale", [], "{a}x{b}"),
    ("stereo", ["--set", "output=sbs"], "{a}x{h}"),
])
def test_a_painting_beyond_the_texture_limit_is_refused_with_a_size_that_fits(
        tmp_path, capsys, gl_ctx, style, sets, painted):
    """A picture within the texture limit whose painting is not (twice as wide) is refused
    from its header, in one line naming the largest --size whose painting fits."""
    limit = int(gl_ctx.info["GL_MAX_TEXTURE_SIZE"])
    w, h = limit * 3 // 4, limit // 2
    src = jpeg_header(tmp_path / "big.jpg", w, h)
    out = tmp_path / "out.png"
    assert main(["render", str(src), "-o", str(out), "--style", style, *sets]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith(f"aquarelle render: error: big.jpg is {w}x{h}: {style} would paint it "
                             + painted.format(a=2 * w, b=2 * h, h=h))
    assert "texture limit" in err[0] and err[0].endswith(f"--size {limit // 2}x-1")
    assert not out.exists()


@pytest.mark.parametrize(("style", "why"), [
    ("stereo", "stereo cannot be painted in tiles"),
    ("denoise+watercolor", "a chain of styles cannot be painted in tiles"),
])
def test_a_big_still_painted_whole_says_so_and_its_time(tmp_path, capsys, monkeypatch,
                                                        style, why):
    """Nothing counts a whole painting's share done (a 9000x6000 stereo still took 100 s
    in silence): the line says it is painted whole and why, then how long it took."""
    _small_tiles(monkeypatch)
    src = _photo(tmp_path / "big.png")
    assert main(["render", str(src), "-o", str(tmp_path / "out.png"), "--style", style]) == 0
    err = capsys.readouterr().err
    assert f"big.png: painting 480x320 whole ({why}), no progress to show..." in err
    assert "big.png: painted in 0:" in err
    assert "tile" not in err.replace("in tiles", "")


def test_a_small_still_or_a_tiled_one_says_nothing_of_a_whole_painting(tmp_path, capsys,
                                                                         monkeypatch):
    src = _photo(tmp_path / "small.png")
    assert main(["render", str(src), "-o", str(tmp_path / "out.png"), "--style",
                 "stereo"]) == 0
    _small_tiles(monkeypatch)
    assert main(["render", str(src), "-o", str(tmp_path / "out2.png"), "--style",
                 "sharpen", "-y"]) == 0
    assert "whole" not in capsys.readouterr().err
