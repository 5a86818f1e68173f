"""The alpha a render leaves out, or keeps, is told truthfully: a video's transparency is
warned of where the source really has some (not for a GIF whose bgra frames are all opaque,
nor for frames outside --start/--end), for a VP9 source whose alpha FFmpeg's decoder does not
give, and for every video output; a TIFF with alpha says its fourth sample is unassociated
alpha (ExtraSamples 2), and one is read with its colours as stored."""

from __future__ import annotations

import struct
from pathlib import Path

import av
import cv2
import numpy as np
import pytest
from PIL import Image as PILImage
from videoclips import decode_video, mux_frames, probe

from aquarelle.cli.main import main
from aquarelle.media.frame_alpha import translucent
from aquarelle.media.image_read import read_image
from aquarelle.media.image_write import write_image


def alpha_warning(src: str, out: str, on_white: bool = True) -> str:
    """The warning for a transparent source written where its transparency cannot be kept
    (trial V6, finding 4: it said 'the painting has none', where the output format is what
    cannot keep it, and nothing of the white paper its transparent parts are laid on).
    `on_white`: its frames are laid on white (else a YUVA video's, painted as they are)."""
    if not on_white:  # (never read: no output keeps it; .gif and .png frames said so)
        return (f"aquarelle: warning: {src} has an alpha channel which is not read (a YUV "
                "video's or VP8/VP9's alpha: no output keeps it), its colours under the "
                "transparency painted as they are")
    why, keep = ("JPEG holds no transparency", ".png, .webp and .tif frames") \
        if out.endswith(".jpg") else ("videos are written opaque", ".gif and .png frames")
    return (f"aquarelle: warning: {src} has an alpha channel, which {out} cannot keep ({why}): "
            f"its transparent parts are laid on white paper ({keep} keep it)")


PALETTE = [0, 0, 0] + [v for k in range(1, 256) for v in (k, 255 - k, k * 7 % 256)]


def gif(path: Path, frames: int = 5, clear: int | None = None) -> Path:
    """A 64x48 GIF, 0.1 s a frame; frame `clear` (None: none) has its left 16 columns
    transparent, the others are opaque. FFmpeg decodes every GIF to bgra."""
    images = []
    for k in range(frames):
        index = np.full((48, 64), 1 + 10 * k, np.uint8)
        index[:, 10 + 4 * k:30 + 4 * k] = 100 + k
        if k == clear:
            index[:, :16] = 0
        im = PILImage.fromarray(index, "P")
        im.putpalette(PALETTE)
        images.append(im)
    extra = {} if clear is None else {"transparency": 0, "disposal": 2}
    images[0].save(path, save_all=True, append_images=images[1:], duration=100, loop=0,
                   optimize=False, **extra)
    with av.open(str(path)) as c:  # what the source is: bgra, transparent where asked
        seen = [(f.format.name, int(f.to_ndarray(format="rgba")[:, :, 3].min()))
                for f in c.decode(video=0)]
    assert seen == [("bgra", 0 if k == clear else 255) for k in range(frames)]
    return path


def vp9(path: Path, alpha: bool) -> Path:
    """Five 64x48 VP9 frames in WebM, half transparent with `alpha` (libvpx writes it in
    BlockAdditional, the stream tagged ALPHA_MODE 1; FFmpeg's vp9 decoder gives yuv420p)."""
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libvpx-vp9", rate=25)
        vs.width, vs.height = 64, 48
        vs.pix_fmt = "yuva420p" if alpha else "yuv420p"
        rgba = np.zeros((48, 64, 4), np.uint8)
        rgba[:, :, 0], rgba[:, 20:40, 1], rgba[:, :, 3] = 180, 200, 255
        rgba[:, :32, 3] = 0
        mux_frames(out, vs, [rgba] * 5, fmt="rgba")
    with av.open(str(path)) as c:
        cc = c.streams.video[0].codec_context
        assert (cc.name, cc.pix_fmt) == ("vp9", "yuv420p")
    tags = {k.lower(): v for k, v in probe(path)["streams"][0]["tags"].items()}
    assert (tags.get("alpha_mode") == "1") == alpha
    return path


def render(capsys: pytest.CaptureFixture[str], src: Path, out: Path, *extra: str
           ) -> list[str]:
    """Render `src` to `out` (adjust style); the alpha warnings."""
    code = main(["render", str(src), "-o", str(out), "-q", "--style", "adjust", *extra])
    err = capsys.readouterr().err
    assert code == 0, err
    return [line for line in err.splitlines() if "alpha" in line]


# -- videos: warned of where the source has transparency ---------------------------------

def test_an_opaque_gif_is_not_said_to_have_alpha(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    src = gif(tmp_path / "anim.gif")
    assert render(capsys, src, tmp_path / "out.mp4") == []
    frames, _, facts = decode_video(tmp_path / "out.mp4")
    assert len(frames) == 5 and (facts["width"], facts["height"]) == (64, 48)


def test_a_gif_transparent_in_a_later_frame_is_warned_of(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = gif(tmp_path / "late.gif", clear=3)
    assert render(capsys, src, tmp_path / "out.mp4") == [alpha_warning("late.gif", "out.mp4")]
    assert len(decode_video(tmp_path / "out.mp4")[0]) == 5
    # the frames the export decodes decide: the transparent one is after --end
    assert render(capsys, src, tmp_path / "cut.mp4", "--end", "0.25") == []
    assert len(decode_video(tmp_path / "cut.mp4")[0]) == 3


def test_a_transparent_gif_to_gif_keeps_its_transparency(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A GIF holds one bit of transparency: a transparent animation's is kept (it was
    written opaque, said as 'the painting has none', trial V5), each frame replacing the
    last; an opaque frame stays opaque."""
    src = gif(tmp_path / "late.gif", clear=3)
    assert render(capsys, src, tmp_path / "out.gif") == []
    with PILImage.open(tmp_path / "out.gif") as im:
        assert im.n_frames == 5
        alphas = []
        for k in range(5):
            im.seek(k)
            alphas.append(np.asarray(im.convert("RGBA"))[:, :, 3])
    assert alphas[3][:, :16].max() == 0 and alphas[3][:, 20:].min() == 255
    assert all(a.min() == 255 for k, a in enumerate(alphas) if k != 3)


@pytest.mark.parametrize(("out", "kept"), [("f_%02d.png", True), ("f_%02d.jpg", False)])
def test_a_transparent_animation_to_frames_keeps_its_alpha_where_they_hold_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], out: str, kept: bool) -> None:
    src = gif(tmp_path / "late.gif", clear=3)
    warnings = render(capsys, src, tmp_path / out)
    assert warnings == ([] if kept else [alpha_warning("late.gif", out)])
    fourth = cv2.imread(str(tmp_path / out.replace("%02d", "04")), cv2.IMREAD_UNCHANGED)
    if kept:
        assert fourth.shape[2] == 4
        assert fourth[:, :16, 3].max() == 0 and fourth[:, 20:, 3].min() == 255
    else:
        assert fourth.ndim == 3 and fourth.shape[2] == 3


def test_vp9_alpha_the_decoder_leaves_out_is_warned_of(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = vp9(tmp_path / "va.webm", alpha=True)
    # (the decoder gives the colours alone: painted as they are, no white paper)
    assert render(capsys, src, tmp_path / "out.webm") == [alpha_warning("va.webm", "out.webm",
                                                                        on_white=False)]
    frames, _, facts = decode_video(tmp_path / "out.webm")
    assert len(frames) == 5 and facts["codec"] == "vp9"
    plain = vp9(tmp_path / "plain.webm", alpha=False)
    assert render(capsys, plain, tmp_path / "plain_out.webm") == []


@pytest.mark.parametrize("fmt", ["bgra", "argb", "pal8", "ya16be", "yuva444p10le",
                                 "yuva420p", "gbrap16be", "rgba64le"])
def test_translucent_reads_the_alpha_of_every_layout(fmt: str) -> None:
    """Packed, planar, palette and deep alpha: opaque is opaque, one pixel below is not."""
    for lower in (False, True):
        frame = av.VideoFrame(34, 6, fmt)
        comps = frame.format.components
        alpha = next((c for c in comps if c.is_alpha), None)
        for i, plane in enumerate(frame.planes):
            mine = [c for c in comps if c.plane == i]
            bits = max(c.bits for c in mine) if mine else 8
            dtype = np.dtype(np.uint8 if bits <= 8 else ">u2" if fmt.endswith("be") else "<u2")
            values = np.full(plane.buffer_size // dtype.itemsize, (1 << bits) - 1, dtype)
            if fmt == "pal8" and i == 1:  # the palette: 256 BGRA entries, the first used
                values[3] = 254 if lower else 255
            elif fmt == "pal8":
                values[:] = 0
            elif lower and alpha is not None and i == alpha.plane:
                row = 2 * plane.line_size // dtype.itemsize
                at = 0 if fmt == "argb" else mine.index(alpha)  # (alpha first there)
                values[row + 3 * len(mine) + at] = (1 << bits) - 2
            plane.update(values.tobytes())
        assert translucent(frame) is lower


def test_a_frame_without_alpha_is_opaque() -> None:
    frame = av.VideoFrame.from_ndarray(np.zeros((6, 34, 3), np.uint8), format="rgb24")
    assert translucent(frame.reformat(format="yuv420p")) is False


# -- TIFF: the fourth sample is unassociated alpha ----------------------------------------

def tiff_tags(path: Path) -> dict[int, tuple[int, int, bytes]]:
    """The first IFD of a (classic) TIFF: tag -> (type, count, value field)."""
    data = path.read_bytes()
    order = {b"II": "<", b"MM": ">"}[data[:2]]
    magic, first = struct.unpack_from(order + "HI", data, 2)
    assert magic == 42
    (n,) = struct.unpack_from(order + "H", data, first)
    tags = {}
    for k in range(n):
        tag, kind, count = struct.unpack_from(order + "HHI", data, first + 2 + 12 * k)
        tags[tag] = (kind, count, data[first + 10 + 12 * k:first + 14 + 12 * k])
    assert list(tags) == sorted(tags)  # entries in ascending order, as TIFF asks
    return tags


def short(path: Path, tag: int) -> int:
    kind, count, value = tiff_tags(path)[tag]
    assert (kind, count) == (3, 1)
    return struct.unpack((">" if path.read_bytes()[:2] == b"MM" else "<") + "H", value[:2])[0]


EXTRA_SAMPLES, SAMPLES_PER_PIXEL, PHOTOMETRIC = 338, 277, 262


def picture(deep: bool) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    top = 65535 if deep else 255
    dtype = np.uint16 if deep else np.uint8
    rgb = rng.integers(0, top + 1, (40, 56, 3), dtype=dtype)
    alpha = rng.integers(0, top + 1, (40, 56), dtype=dtype)
    alpha[:, :8], alpha[:, 8:16] = 0, top
    return rgb, alpha


@pytest.mark.parametrize(("deep", "icc"), [(False, False), (True, False), (False, True)])
def test_a_tiff_with_alpha_marks_it_unassociated(tmp_path: Path, deep: bool,
                                                 icc: bool) -> None:
    rgb, alpha = picture(deep)
    profile = None
    if icc:  # (an 8-bit TIFF with a colour profile is written by Pillow)
        from PIL import ImageCms
        profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    out = tmp_path / "a.tif"
    write_image(out, rgb, alpha, icc=profile)
    assert (short(out, SAMPLES_PER_PIXEL), short(out, PHOTOMETRIC)) == (4, 2)  # RGB + 1
    assert short(out, EXTRA_SAMPLES) == 2  # unassociated alpha
    # the pixels as given: OpenCV's own 16-bit reading, Pillow's 8-bit one (OpenCV's 8-bit
    # reader multiplies the colours by an unassociated alpha), and read_image
    back = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    assert back.shape == (40, 56, 4) and np.array_equal(back[:, :, 3], alpha)
    if deep:
        assert np.array_equal(back[:, :, 2::-1], rgb)
    else:
        with PILImage.open(out) as im:
            assert im.mode == "RGBA"
            assert np.array_equal(np.asarray(im), np.dstack([rgb, alpha]))
    image = read_image(out)
    assert np.array_equal(image.rgb, rgb) and np.array_equal(image.alpha, alpha)


def test_a_tiff_without_alpha_has_no_extra_samples(tmp_path: Path) -> None:
    rgb, _ = picture(False)
    write_image(tmp_path / "a.tif", rgb)
    assert short(tmp_path / "a.tif", SAMPLES_PER_PIXEL) == 3
    assert EXTRA_SAMPLES not in tiff_tags(tmp_path / "a.tif")


@pytest.mark.parametrize("name", ["a.tif", "b.tiff"])
def test_render_to_tiff_keeps_the_alpha_marked(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               name: str) -> None:
    rgb = np.zeros((48, 64, 3), np.uint8)
    rgb[:, :, 0], rgb[:24, :, 2] = 200, 90
    alpha = np.full((48, 64), 255, np.uint8)
    alpha[:, :16], alpha[:, 16:32] = 0, 128
    src = tmp_path / "cut.png"
    assert cv2.imwrite(str(src), np.dstack([rgb[:, :, ::-1], alpha]))
    assert render(capsys, src, tmp_path / name) == []
    assert short(tmp_path / name, EXTRA_SAMPLES) == 2
    back = cv2.imread(str(tmp_path / name), cv2.IMREAD_UNCHANGED)
    assert back.shape == (48, 64, 4) and np.array_equal(back[:, :, 3], alpha)


def test_an_unassociated_alpha_tiff_reads_as_its_png(tmp_path: Path) -> None:
    """A TIFF from Pillow (ExtraSamples 2) reads with the colours stored, not multiplied by
    the alpha (OpenCV's reading darkened a half-transparent pixel by half)."""
    rgb, alpha = picture(False)
    PILImage.fromarray(np.dstack([rgb, alpha])).save(tmp_path / "p.tif")
    assert short(tmp_path / "p.tif", EXTRA_SAMPLES) == 2
    image = read_image(tmp_path / "p.tif")
    assert np.array_equal(image.rgb, rgb) and np.array_equal(image.alpha, alpha)


@pytest.mark.parametrize("out", ["out.mp4", "out.gif"])
def test_an_animations_transparent_ground_is_painted_as_paper(tmp_path: Path, out: str,
                                                              capsys) -> None:
    """An animated cut-out (an APNG sticker) is laid on white where it is transparent, as a
    transparent still is: the colour hidden under alpha 0 (black here) was painted as a dark
    ground round it."""
    frames = []
    for k in range(4):
        rgba = np.zeros((48, 64, 4), np.uint8)
        rgba[10:38, 8 + 6 * k:30 + 6 * k] = (200, 40, 40, 255)
        frames.append(PILImage.fromarray(rgba))
    src = tmp_path / "sticker.png"
    frames[0].save(src, save_all=True, append_images=frames[1:], duration=100, loop=0)
    dst = tmp_path / out
    assert main(["render", str(src), "-o", str(dst), "--style", "adjust", "-q"]) == 0
    err = capsys.readouterr().err
    assert (alpha_warning("sticker.png", out) in err) == out.endswith(".mp4")
    with av.open(str(dst)) as got:
        first = next(got.decode(video=0)).to_ndarray(format="rgba").astype(int)
    assert first[2:8, 40:60, :3].min() > 240  # the ground: paper, not black
    if out.endswith(".gif"):  # (and a GIF keeps it clear)
        assert first[2:8, 40:60, 3].max() == 0 and first[20:30, 12:24, 3].min() == 255
    assert abs(first[20:30, 12:24, :3].mean(axis=(0, 1)) - (200, 40, 40)).max() < 12
