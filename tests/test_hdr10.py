"""An HDR10 source's mastering display and content light levels: carried where the encoder
writes them (x265, and x264 where it can), read back from the output's frames; and the
warning says which of them a codec that cannot write them leaves out."""

from __future__ import annotations

import struct
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import av
import numpy as np
import pytest
from av.sidedata.sidedata import Type
from videoclips import mux_frames

from aquarelle.cli.main import main
from aquarelle.media.carry import depth_warnings
from aquarelle.media.hdr import HDR10, hdr10_params, read_hdr10, writes_hdr10
from aquarelle.media.side_data import frame_side_data
from aquarelle.media.video_reader import Colour
from aquarelle.media.video_writer import CODECS

MASTER = "G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50)"
LIGHT = (1000, 400)


@pytest.fixture(scope="module")
def hdr10(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """HEVC 10-bit PQ/BT.2020 with a mastering display and light levels, as x265 writes
    them (SEI in the pictures)."""
    path = tmp_path_factory.mktemp("hdr10") / "hdr10.mkv"
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx265", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p10le"
        cc = vs.codec_context
        cc.color_primaries, cc.color_trc, cc.colorspace = 9, 16, 9
        cc.options = {"x265-params": f"log-level=error:master-display={MASTER}:"
                                     f"max-cll={LIGHT[0]},{LIGHT[1]}"}
        ramp = np.linspace(0.3, 0.5, 64)[None, :, None] * np.ones((48, 1, 3))
        mux_frames(out, vs, (((ramp + 0.01 * k) * 65535).astype(np.uint16) for k in range(6)),
                   fmt="rgb48le", time_base=Fraction(1, 25))
    return path


def side_data(path: Path) -> dict[str, bytes]:
    """The first frame's mastering display and light level side data, as FFmpeg gives it."""
    with av.open(str(path)) as c:
        frame = next(c.decode(video=0))
        kinds = {Type.MASTERING_DISPLAY_METADATA: "mastering", Type.CONTENT_LIGHT_LEVEL: "light"}
        return {kinds[s.type]: bytes(s) for s in frame_side_data(frame) if s.type in kinds}


def render(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["render", *args, "-q", "--style", "adjust"])
    return code, capsys.readouterr().err


def hdr_warning(err: str) -> str:
    (line,) = [line for line in err.splitlines() if "is HDR" in line]
    return line


def render_hdr10(capsys: pytest.CaptureFixture[str], hdr10: Path, out: Path, codec: str
                 ) -> tuple[dict[str, bytes], str]:
    """Render `hdr10` to `out` with `codec`: what it carried of the side data, and the
    warning it gave."""
    code, err = render(capsys, str(hdr10), "-o", str(out), "--codec", codec)
    assert code == 0, err
    return side_data(out), hdr_warning(err)


def test_the_source_holds_what_x265_was_given(hdr10: Path) -> None:
    sides = side_data(hdr10)
    # AVMasteringDisplayMetadata: xy of red, green, blue, white; min, max luminance
    values = struct.unpack_from("=22i", sides["mastering"])
    xy = [Fraction(values[i], values[i + 1]) for i in range(0, 16, 2)]
    assert [round(v * 50000) for v in xy] == [34000, 16000, 13250, 34500, 7500, 3000,
                                             15635, 16450]
    assert Fraction(values[16], values[17]) == Fraction(50, 10000)
    assert Fraction(values[18], values[19]) == 1000
    assert struct.unpack_from("=2I", sides["light"]) == LIGHT
    # and read back as the option that wrote it, in x265's units
    assert hdr10_params("libx265", read_hdr10(hdr10, 0)) == [
        f"master-display={MASTER}", f"max-cll={LIGHT[0]},{LIGHT[1]}"]


def test_h265_carries_the_mastering_display_and_light_levels(
        hdr10: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sides, warning = render_hdr10(capsys, hdr10, tmp_path / "out.mkv", "h265")
    assert sides == side_data(hdr10)
    assert warning == (
        "aquarelle: warning: hdr10.mkv is HDR (PQ, BT.2020): its tags, mastering display and "
        "light levels are carried and the painting works on its coded values (no tone "
        "mapping)")


def test_prores_says_it_leaves_them_out(hdr10: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.mov"
    sides, warning = render_hdr10(capsys, hdr10, out, "prores")
    assert sides == {}
    with av.open(str(out)) as c:  # the colour tags themselves are carried
        cc = c.streams.video[0].codec_context
        assert (cc.color_primaries, cc.color_trc, cc.colorspace) == (9, 16, 9)
    assert warning == (
        "aquarelle: warning: hdr10.mkv is HDR (PQ, BT.2020): its tags are carried, its "
        "mastering display and light levels left out (prores_ks cannot write them: use "
        "--codec h265 to keep them); the painting works on its coded values (no tone mapping)")


def test_h264_carries_them_where_x264_writes_them(hdr10: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    sides, warning = render_hdr10(capsys, hdr10, tmp_path / "out.mp4", "h264")
    if writes_hdr10("libx264"):  # x264 builds since 2021
        assert sides == side_data(hdr10)
        assert "its tags, mastering display and light levels are carried" in warning
    else:
        assert sides == {}
        assert "mastering display and light levels left out (libx264 cannot write them" \
            in warning


def test_the_warning_names_only_what_the_source_has() -> None:
    light_only = SimpleNamespace(path=Path("pq.mkv"), bit_depth=10,
                                 colour=Colour(9, 16, 9, HDR10(light=LIGHT)),
                                 video=SimpleNamespace(codec_context=SimpleNamespace(
                                     pix_fmt="yuv420p10le")))
    (h265,) = depth_warnings(light_only, "yuv420p10le", CODECS["h265"])  # type: ignore[arg-type]
    assert h265.startswith("pq.mkv is HDR (PQ, BT.2020): its tags and light levels are carried")
    (hw,) = depth_warnings(light_only, "yuv420p10le", CODECS["h265"],  # type: ignore[arg-type]
                           "hevc_nvenc")
    assert "its light levels left out (hevc_nvenc cannot write them: use --encoder software" \
        in hw
