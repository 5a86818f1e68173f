"""Stills and GIFs say what they hold (trial V4, findings 5, 6, 7, 10, 11): a TIFF without
resolution tags has no resolution (not Pillow's 1 dpi); a GIF keeps its source's loop count
and its summary counts the frames it holds; WebP's size limit is said before painting; a
BMP keeps its source's resolution."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from test_still_metadata import cli, picture
from videoclips import make_clip

from aquarelle.cli.main import main
from aquarelle.media.image_read import read_image
from aquarelle.media.image_types import ImageError
from aquarelle.media.image_write import write_image

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


# 6. and 7. a GIF keeps its source's loop count, and its summary counts what it holds


def animation(path: Path, frames: int = 5, **save: object) -> Path:
    """An animation of `frames` different pictures shown 100 ms each (GIF or APNG)."""
    images = [Image.fromarray(np.roll(picture(), 6 * k, axis=1)) for k in range(frames)]
    if path.suffix == ".gif":
        images = [im.quantize(colors=64) for im in images]
    images[0].save(path, save_all=True, append_images=images[1:], duration=100,
                   optimize=False, **save)
    return path


def gif_loop(path: Path) -> int | None:
    with Image.open(path) as im:
        return im.info.get("loop")


@pytest.mark.parametrize("source, save, loop", [
    ("loop3.gif", {"loop": 3}, 3),  # (GIF: repeats after the first showing)
    ("once.gif", {}, None),  # (no NETSCAPE loop: shown once)
    ("forever.gif", {"loop": 0}, 0),
    ("plays3.png", {"loop": 3}, 2),  # (APNG's num_plays: shown 3 times in all)
    ("plays1.png", {"loop": 1}, None),
])
def test_a_gif_keeps_its_sources_loop_count(tmp_path, capsys, source, save, loop):
    src = animation(tmp_path / source, **save)
    out = tmp_path / "out.gif"
    assert cli(capsys, "render", src, "-o", out, "-q", "--style", "adjust") == (0, "")
    assert gif_loop(out) == loop
    with Image.open(out) as im:
        assert im.n_frames == 5


def test_a_gif_from_a_video_loops_forever(tmp_path, capsys):
    src = make_clip(tmp_path / "clip.mp4", frames=4, audio=False).path
    out = tmp_path / "out.gif"
    assert cli(capsys, "render", src, "-o", out, "-q", "--style", "adjust") == (0, "")
    assert gif_loop(out) == 0


def test_a_gif_summary_counts_the_frames_it_holds(tmp_path, capsys):
    # at 20 fps each 100 ms picture is painted twice: the second, the same, is merged into
    # the first (shown 100 ms), so the file holds 5 frames, not the 10 painted
    src = animation(tmp_path / "in.gif", loop=0)
    out = tmp_path / "out.gif"
    code, err = cli(capsys, "render", src, "-o", out, "--style", "adjust", "--fps", "20")
    assert code == 0, err
    with Image.open(out) as im:
        held = im.n_frames
        delays = []
        for k in range(held):
            im.seek(k)
            delays.append(im.info["duration"])
    assert held == 5 and delays == [100] * 5
    assert err.endswith(f"{src} -> {out} (5 frames; 5 identical frames merged into the one "
                        "before)\n"), err


# 10. what a format cannot hold (WebP's 16383 px a side) is refused before painting


def test_a_still_too_wide_for_webp_is_refused_before_painting(tmp_path, capsys):
    src = tmp_path / "wide.png"
    Image.fromarray(np.zeros((8, 16384, 3), np.uint8)).save(src)
    out = tmp_path / "wide.webp"
    code, err = cli(capsys, "render", src, "-o", out, "--style", "adjust")
    assert (code, err) == (2, "aquarelle render: error: wide.png is 16384x8: WebP holds at "
                              "most 16383 px a side; render it smaller, e.g. --size "
                              "16383x-1 (or write .png, .tif or .avif)\n")
    assert list(tmp_path.iterdir()) == [src]
    code, err = cli(capsys, "render", src, "-o", out, "--style", "adjust", "--size",
                    "16383x-1", "-q")
    assert (code, err) == (0, "")
    with Image.open(out) as im:
        assert im.size == (16383, 8)


@pytest.mark.parametrize("name, kind, most", [("o.webp", "WebP", 16383),
                                              ("o.jpg", "JPEG", 65500)])
def test_write_image_names_a_formats_longest_side(tmp_path, name, kind, most):
    with pytest.raises(ImageError, match=f"{kind} holds at most {most} px a side, the "
                                         f"picture is {most + 1}x2"):
        write_image(tmp_path / name, np.zeros((2, most + 1, 3), np.uint8))
    assert not list(tmp_path.iterdir())
    write_image(tmp_path / name, np.zeros((2, most, 3), np.uint8))
    with Image.open(tmp_path / name) as im:
        assert im.size == (most, 2)


# 11. a BMP keeps its source's resolution (OpenCV's BMP writer set none)


def test_a_bmp_keeps_the_sources_resolution(tmp_path, capsys):
    src = tmp_path / "in.png"
    Image.fromarray(picture()).save(src, dpi=(300, 300))
    out = tmp_path / "out.bmp"
    assert cli(capsys, "render", src, "-o", out, "-q", "--style", "adjust") == (0, "")
    with Image.open(out) as im:
        assert tuple(round(float(v)) for v in im.info["dpi"]) == (300, 300)
    assert read_image(out).dpi == (300.0, 300.0)
    write_image(tmp_path / "none.bmp", picture())  # no resolution given: none written
    with Image.open(tmp_path / "none.bmp") as im:
        assert "dpi" not in im.info


@pytest.mark.parametrize("ext", [".png", ".webp"])
def test_a_transparent_still_gif_keeps_its_transparency(tmp_path, capsys, ext):
    """It was painted opaque, the transparent part the colour under it, without a word (trial
    V4): FFmpeg's frame of a GIF has no alpha; Pillow reads its transparent colour."""
    import cv2

    pal = np.zeros((48, 64), np.uint8)
    pal[12:36, 16:48] = 1  # colour 1 seen, colour 0 transparent round it
    gif = Image.fromarray(pal, "P")
    gif.putpalette([0, 0, 0, 200, 120, 40] + [0] * 762)
    gif.save(tmp_path / "cut.gif", transparency=0)
    out = tmp_path / f"out{ext}"
    assert main(["render", str(tmp_path / "cut.gif"), "-o", str(out), "--style", "adjust",
                 "-q"]) == 0, capsys.readouterr().err
    got = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    assert got.shape == (48, 64, 4)
    np.testing.assert_array_equal(got[..., 3], np.where(pal == 1, 255, 0))
    assert read_image(tmp_path / "cut.gif").alpha is not None
    Image.fromarray(np.full((8, 8, 3), 90, np.uint8)).save(tmp_path / "opaque.gif")
    assert read_image(tmp_path / "opaque.gif").alpha is None


def test_the_window_opens_a_transparent_still_gif_as_the_cli_paints_it(tmp_path):
    """The window took FFmpeg's opaque frame where the CLI now lays the GIF on paper by its
    transparent colour."""
    from aquarelle.media.image_pixels import on_paper
    from aquarelle.media.sources import open_source

    pal = np.zeros((16, 24), np.uint8)
    pal[4:12, 6:18] = 1
    gif = Image.fromarray(pal, "P")
    gif.putpalette([0, 0, 0, 200, 120, 40] + [0] * 762)
    gif.save(tmp_path / "cut.gif", transparency=0)
    src = open_source(str(tmp_path / "cut.gif"))
    picture = read_image(tmp_path / "cut.gif")
    assert src.still and src.alpha is not None
    np.testing.assert_array_equal(src.image, on_paper(picture.rgb, picture.alpha))
    assert (src.image[pal == 0] == 255).all()  # paper, not the black under it
