"""Exports keep what people put in their files, as `ffmpeg -map 0` would: every audio track
with its language, title and disposition, subtitles (copied or converted), chapters, tags,
10 bits where the codec holds them, HDR tags; and one warning for anything left out."""

from __future__ import annotations

import struct
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest
from videoclips import make_clip, make_rich_clip, mux_frames, probe, subtitle_cues

from aquarelle.cli.main import main
from aquarelle.engine.renderer import Renderer
from aquarelle.media.metadata import container_tags, mov_language, shifted_chapters
from aquarelle.media.subtitles import cue_payload, cue_text
from aquarelle.media.video_reader import VideoReader
from aquarelle.media.video_writer import CODECS, VideoWriter


@pytest.fixture(scope="module")
def rich(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # 1 s: its chapters and cues end with its picture (a render's chapters end with its video)
    return make_rich_clip(tmp_path_factory.mktemp("rich") / "film.mkv", frames=25)


def render(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["render", *args, "-q", "--style", "adjust"])
    return code, capsys.readouterr().err


def by_type(info: dict, kind: str) -> list[dict]:
    return [s for s in info["streams"] if s["type"] == kind]


def test_mkv_keeps_tracks_tags_subtitles_and_chapters(rich: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    out = tmp_path / "out.mkv"
    code, err = render(capsys, str(rich), "-o", str(out), "--codec", "h265")
    assert code == 0, err
    info = probe(out)
    audio = by_type(info, "audio")
    assert [(a["tags"]["language"], a["tags"]["title"]) for a in audio] == \
        [("eng", "English"), ("fra", "Français")]
    assert [a["disposition"] & 1 for a in audio] == [1, 0]  # default kept on the first only
    (subs,) = by_type(info, "subtitle")
    assert subs["tags"]["language"] == "fra" and subs["tags"]["title"] == "Sous-titres"
    assert subs["disposition"] & int(av.stream.Disposition.forced)
    assert subtitle_cues(out) == [(0.0, 0.5, b"<i>Hello</i> there"), (0.6, 0.4, b"Second line")]
    assert info["tags"]["title"] == "My film" and info["tags"]["comment"] == "made for a test"
    assert [c[2] for c in info["chapters"]] == ["Opening", "Ending"]
    assert info["chapters"][1][0] == pytest.approx(0.5)
    (video,) = by_type(info, "video")
    assert video["pix_fmt"] == "yuv420p10le" and video["profile"] == "Main 10"
    assert "warning" not in err


def test_mp4_converts_subtitles_to_mov_text_and_names_the_track(
        rich: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.mp4"
    code, err = render(capsys, str(rich), "-o", str(out), "--codec", "h265")
    assert code == 0, err
    info = probe(out)
    (subs,) = by_type(info, "subtitle")
    assert subs["codec"] == "mov_text" and subs["tags"]["language"] == "fra"
    texts = [cue_text("mov_text", c[2]) for c in subtitle_cues(out)]
    # the italics as mov_text's style record, in the track's own default font: FFmpeg's
    # decoder reads no other change of style; the track's sample description is a whole
    # one (default style and font table: 84 bytes with its btrt), which Apple's players need
    assert [t for t in texts if t] == ["<i>Hello</i> there", "Second line"]
    with av.open(str(out)) as c:
        stream = c.streams.subtitles[0]
        ass = [bytes(s.ass) for p in c.demux(stream) if p.size for s in stream.decode(p)]
    assert ass[0].endswith(b",{\\i1}Hello{\\r} there")
    data = out.read_bytes()
    assert struct.unpack(">I", data[data.find(b"tx3g") - 4:][:4])[0] > 60
    assert [a["tags"]["handler_name"] for a in by_type(info, "audio")] == ["English", "Français"]
    assert [c[2] for c in info["chapters"]] == ["Opening", "Ending"]


def small_video(out: av.container.OutputContainer) -> av.video.stream.VideoStream:
    """A 32x24 H.264 stream added to `out` (its frames: `mux_greys`)."""
    vs = out.add_stream("libx264", rate=25)
    vs.width, vs.height, vs.pix_fmt = 32, 24, "yuv420p"
    return vs


def mux_greys(out: av.container.OutputContainer, vs: av.video.stream.VideoStream) -> None:
    """Three grey frames of `small_video`'s stream, 25 a second."""
    mux_frames(out, vs, (np.full((24, 32, 3), 60 * k, np.uint8) for k in range(1, 4)),
               time_base=Fraction(1, 25))


def test_a_mov_keeps_languages_by_the_code_quicktime_knows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ISO 639-2's two codes for French: QuickTime's table knows "fra" only, and a .mov
    # dropped "fre" silently; Maori it knows under neither code: said in a warning; Swedish
    # and Croatian it spells its own way ("sve", "hr "): they were dropped, "QuickTime's
    # table lacks it" (trial V14)
    src = tmp_path / "langs.mkv"
    with av.open(str(src), "w") as out:
        vs = small_video(out)
        tracks = []
        for lang in ("fre", "mao", "swe", "hrv"):
            a = out.add_stream("aac", rate=48000, layout="mono")
            a.metadata["language"] = lang
            tracks.append(a)
        mux_greys(out, vs)
        for a in tracks:
            af = av.AudioFrame.from_ndarray(np.zeros((1, 5760), np.float32), format="fltp",
                                            layout="mono")
            af.sample_rate, af.pts, af.time_base = 48000, 0, Fraction(1, 48000)
            for packet in [*a.encode(af), *a.encode(None)]:
                out.mux(packet)
    out_path = tmp_path / "out.mov"
    code, err = render(capsys, str(src), "-o", str(out_path), "--codec", "prores")
    assert code == 0, err
    langs = [a["tags"].get("language") for a in by_type(probe(out_path), "audio")]
    assert langs == ["fra", None, "sve", "hr "]
    assert "a .mov cannot hold the language mao" in err
    assert "language swe" not in err and "language hrv" not in err
    assert mov_language("ger") == "ger" and mov_language("deu") == "ger"  # the other way


def test_trim_moves_cues_and_chapters(rich: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cut.mkv"
    code, err = render(capsys, str(rich), "-o", str(out), "--start", "0.2")
    assert code == 0, err
    cues = subtitle_cues(out)
    assert cues[0][0] == pytest.approx(0.0) and cues[0][1] == pytest.approx(0.3)  # shortened
    assert cues[1][0] == pytest.approx(0.4)
    chapters = probe(out)["chapters"]
    assert [(round(a, 3), round(b, 3), t) for a, b, t in chapters] == \
        [(0.0, 0.3, "Opening"), (0.3, 0.8, "Ending")]


def test_trim_end_cuts_cues_to_the_picture(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    # A cue lasting past --end kept whole made the file outlast its picture; one beginning
    # at or after it was kept too. Both copied (SubRip into .mkv) and converted (mov_text)
    src = make_rich_clip(tmp_path / "film.mkv", frames=25)
    out = tmp_path / "cut.mkv"
    code, err = render(capsys, str(src), "-o", str(out), "--start", "0.2", "--end", "0.8")
    assert code == 0, err
    assert subtitle_cues(out) == [(0.0, 0.3, b"<i>Hello</i> there"),
                                  (pytest.approx(0.4), pytest.approx(0.2), b"Second line")]
    with av.open(str(out)) as c:
        assert len(list(c.decode(video=0))) == 15  # 0.6 s
    out = tmp_path / "cut.mp4"
    code, err = render(capsys, str(src), "-o", str(out), "--end", "0.4")
    assert code == 0, err
    cues = [(a, d, cue_text("mov_text", p)) for a, d, p in subtitle_cues(out)]
    assert [c for c in cues if c[2]] == [(0.0, pytest.approx(0.4), "<i>Hello</i> there")]
    with av.open(str(out)) as c:
        assert len(list(c.decode(video=0))) == 10
        subs = c.streams.subtitles[0]
        assert float(subs.duration * subs.time_base) == pytest.approx(0.4)


def test_no_subtitles_and_no_metadata(rich: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bare.mkv"
    code, err = render(capsys, str(rich), "-o", str(out), "--no-subtitles", "--no-metadata",
                       "--codec", "h265")
    assert code == 0, err
    info = probe(out)
    assert not by_type(info, "subtitle") and not info["chapters"]
    assert "title" not in info["tags"]
    assert all("language" not in a["tags"] for a in by_type(info, "audio"))
    assert len(by_type(info, "audio")) == 2


def test_ten_bits_lost_only_with_one_warning(rich: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "eight.mp4"  # (without --codec a deep source gets H.265 Main 10)
    code, err = render(capsys, str(rich), "-o", str(out), "--codec", "h264")
    assert code == 0
    lines = [line for line in err.splitlines() if "warning" in line and "bit" in line]
    assert len(lines) == 1 and "10-bit" in lines[0] and "--codec h265" in lines[0]
    assert by_type(probe(out), "video")[0]["pix_fmt"] == "yuv420p"


def _row_levels(path: Path) -> int:
    with av.open(str(path)) as c:
        frame = next(c.decode(video=0))
        y = frame.reformat(format="yuv420p10le").to_ndarray()[: frame.height]
    return len(np.unique(y[y.shape[0] // 2]))


def test_ten_bit_output_keeps_the_fine_steps(rich: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A gentle ramp (a dozen steps at 8 bits) keeps several times as many at 10."""
    deep, shallow = tmp_path / "deep.mkv", tmp_path / "shallow.mkv"
    assert render(capsys, str(rich), "-o", str(deep), "--codec", "h265")[0] == 0
    assert render(capsys, str(rich), "-o", str(shallow), "--codec", "h264")[0] == 0
    assert _row_levels(deep) >= 2.5 * _row_levels(shallow)
    # an 8-bit source stays 8-bit (decided from the source; no encode needed to see it:
    # libx265 fails about once in a hundred flushes of a two-frame clip, as it always did)
    eight = make_clip(tmp_path / "eight.mkv", size=(64, 48), frames=2, audio=False)
    with VideoReader(eight.path, deep=None) as reader:
        assert not reader.deep and reader.bit_depth == 8
    writer = VideoWriter(tmp_path / "plain.mkv", fmt="matroska", codec=CODECS["h265"],
                         size=(64, 48), time_base=Fraction(1, 1000), fps=30, deep=False)
    assert writer.pix_fmt == "yuv420p"
    writer.abort()


def test_deep_pipeline_paints_in_sixteen_bits(gl_ctx: object) -> None:
    ramp = np.linspace(0.2, 0.3, 256)[None, :, None] * np.ones((64, 1, 3))
    with Renderer(gl_ctx, "watercolor", deep=True) as deep:
        out16 = deep.render_array((ramp * 65535).astype(np.uint16))
    with Renderer(gl_ctx, "watercolor") as shallow:
        out8 = shallow.render_array((ramp * 255).round().astype(np.uint8))
    assert out16.dtype == np.uint16 and out8.dtype == np.uint8
    assert np.abs(out16 / 257.0 - out8).mean() < 1.0  # the same picture
    row = 32
    assert len(np.unique(out16[row, :, 0])) > 2 * len(np.unique(out8[row, :, 0]))


def test_hdr_tags_carried_and_picture_subtitles_named(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    src = make_rich_clip(tmp_path / "hdr.mkv", frames=4, hdr=True, picture_subtitles=True)
    out = tmp_path / "hdr.mp4"
    code, err = render(capsys, str(src), "-o", str(out), "--codec", "h265")
    assert code == 0, err
    video = by_type(probe(out), "video")[0]
    assert video["colour"] == (9, 16, 9) and video["pix_fmt"] == "yuv420p10le"
    assert "HDR (PQ, BT.2020)" in err
    with av.open(str(src)) as a, av.open(str(out)) as b:  # coded values kept, not converted
        ya, yb = (next(c.decode(video=0)).to_ndarray()[:48].astype(int) for c in (a, b))
    assert np.abs(ya - yb).mean() < 2.0
    assert "subtitle stream 4 (deu) (pgssub, picture subtitles) left out" in err
    assert len(by_type(probe(out), "subtitle")) == 1  # the text one, converted
    kept = tmp_path / "hdr.mkv.mkv"
    code, err = render(capsys, str(src), "-o", str(kept), "--codec", "h265")
    assert code == 0 and "left out" not in err
    assert len(by_type(probe(kept), "subtitle")) == 2  # Matroska holds both


def _prores_tagged_hlg(path: Path) -> Path:
    """A .mov whose stream says BT.2020/HLG while its ProRes pictures say "unspecified"
    (encoded untagged, then remuxed with the stream's tags set)."""
    plain = path.with_name("untagged.mov")
    with av.open(str(plain), "w") as out:
        vs = out.add_stream("prores_ks", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv422p10le"
        mux_frames(out, vs, (np.full((48, 64, 3), 30000 + 500 * k, np.uint16) for k in range(3)),
                   fmt="rgb48le", time_base=Fraction(1, 25))
    with av.open(str(plain)) as src, av.open(str(path), "w") as out:
        video = out.add_stream_from_template(src.streams.video[0])
        cc = video.codec_context
        cc.color_primaries, cc.color_trc, cc.colorspace = 9, 18, 9
        for packet in src.demux(src.streams.video[0]):
            if packet.dts is not None:
                packet.stream = video
                out.mux(packet)
    return path


def test_container_colour_tags_win_over_unspecified_pictures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _prores_tagged_hlg(tmp_path / "hlg.mov")
    with av.open(str(src)) as c:  # the case: the decoder says unspecified once it decodes
        frame = next(c.decode(video=0))
        assert (frame.color_primaries, frame.color_trc) == (2, 2)
    with VideoReader(src) as reader:
        assert next(reader.frames()).index == 0
        assert (reader.colour.primaries, reader.colour.transfer, reader.colour.matrix) == \
            (9, 18, 9)
    out = tmp_path / "out.mov"
    code, err = render(capsys, str(src), "-o", str(out), "--codec", "prores")
    assert code == 0, err
    assert by_type(probe(out), "video")[0]["colour"] == (9, 18, 9)
    assert "HDR (HLG, BT.2020)" in err


def test_text_conversions() -> None:
    ass = b"0,0,Default,,0,0,0,,{\\i1}Bonjour{\\i0}\\Nle monde"
    assert cue_text("ass", ass) == "<i>Bonjour</i>\nle monde"  # SubRip's and WebVTT's tags
    assert cue_text("mov_text", cue_payload("mov_text", "<b>Hi</b> you")) == "Hi you"
    assert cue_text("mov_text", cue_payload("mov_text", "a <b>b <i>c</i></b> <font x>d</font>",
                                            (16, 0xFFFFFFFF))) == "a <b>b </b><b><i>c</i></b> d"
    # a mov_text cue's style record (italic "Hi", bold "you") read as SubRip's tags
    styl = struct.pack(">I4sH", 34, b"styl", 2) + struct.pack(">HHHBBI", 0, 2, 1, 2, 18, 0) \
        + struct.pack(">HHHBBI", 3, 6, 1, 1, 18, 0)
    assert cue_text("mov_text", b"\0\6Hi you" + styl) == "<i>Hi</i> <b>you</b>"
    assert cue_payload("webvtt", "<i>a</i>") == b"<i>a</i>"


def test_stale_tags_dropped_and_chapters_cut() -> None:
    assert container_tags({"title": "T", "ENCODER": "Lavf", "major_brand": "isom",
                           "creation_time": "2020"}) == {"title": "T", "creation_time": "2020"}
    from fractions import Fraction
    chapters = [{"id": 1, "start": 0, "end": 2000, "time_base": Fraction(1, 1000),
                 "metadata": {"title": "A"}},
                {"id": 2, "start": 2000, "end": 5000, "time_base": Fraction(1, 1000),
                 "metadata": {"title": "B"}}]
    cut = shifted_chapters(chapters, 2.5, 4.0)
    assert [(c["start"], c["end"], c["metadata"]["title"]) for c in cut] == [(0, 1500, "B")]


def test_mp4_and_mov_say_what_they_do_to_the_tracks_flags(rich: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    # The rich clip's one subtitle track is forced, not default: an MP4's muxer marks it
    # default (shown unasked) and a MOV's also drops forced, both said nowhere before
    for ext, flags in (("mp4", {"default", "forced"}), ("mov", {"default"}), ("mkv", {"forced"})):
        out = tmp_path / f"out.{ext}"
        code, err = render(capsys, str(rich), "-o", str(out))
        assert code == 0, err
        (subs,) = by_type(probe(out), "subtitle")
        got = {n for n in ("default", "forced")
               if subs["disposition"] & int(getattr(av.stream.Disposition, n))}
        assert got == flags
        said = [line for line in err.splitlines() if "subtitle 3 (fra)" in line]
        marked = f"marked default: .{ext} files mark the first subtitle track so"
        assert any(marked in line for line in said) == (ext != "mkv")
        assert any("loses its forced flag" in line for line in said) == (ext == "mov")


MOV_TEXT_CUES = [(200, 500, "One"), (1000, 400, "Two"), (1500, 300, "Three")]  # ms, ms


@pytest.fixture(scope="module")
def mov_text_mp4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2 s MP4 of a video, a sound and a mov_text track of three cues apart (FFmpeg's
    muxer fills each gap with an empty sample of its own)."""
    path = tmp_path_factory.mktemp("mov_text") / "clip.mp4"
    with av.open(str(path), "w", format="mp4") as out:
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = 32, 24, "yuv420p"
        audio = out.add_stream("aac", rate=48000, layout="mono")
        subs = out.add_mux_stream("mov_text", time_base=Fraction(1, 1000))
        mux_frames(out, vs, (np.full((24, 32, 3), 4 * k, np.uint8) for k in range(50)),
                   time_base=Fraction(1, 25))
        af = av.AudioFrame.from_ndarray(np.zeros((1, 96000), np.float32), format="fltp",
                                        layout="mono")
        af.sample_rate, af.pts, af.time_base = 48000, 0, Fraction(1, 48000)
        for packet in [*audio.encode(af), *audio.encode(None)]:
            out.mux(packet)
        for start, length, text in MOV_TEXT_CUES:
            packet = av.Packet(cue_payload("mov_text", text))
            packet.stream, packet.time_base = subs, Fraction(1, 1000)
            packet.pts = packet.dts = start
            packet.duration = length
            out.mux(packet)
    return path


def text_cues(path: Path) -> list[tuple[float, float, str]]:
    """(start s, duration s, text) of every sample of the first subtitle stream."""
    return [(a, d, cue_text("mov_text", p)) for a, d, p in subtitle_cues(path)]


# The samples FFmpeg writes for them: (start s, duration s, text)
MOV_TEXT_SAMPLES = [(0.0, 0.2, ""), (0.2, 0.5, "One"), (0.7, 0.3, ""), (1.0, 0.4, "Two"),
                    (1.4, 0.1, ""), (1.5, 0.3, "Three")]


@pytest.mark.parametrize(("ext", "cut", "expected"), [
    ("mp4", (), MOV_TEXT_SAMPLES),
    ("mov", ("--start", "0.5", "--end", "1.6"),
     [(0.0, 0.2, "One"), (0.2, 0.3, ""), (0.5, 0.4, "Two"), (0.9, 0.1, ""), (1.0, 0.1, "Three")]),
])
def test_copied_mov_text_keeps_its_samples_and_gains_none(
        mov_text_mp4: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str,
        cut: tuple[str, ...], expected: list[tuple[float, float, str]]) -> None:
    # FFmpeg's MP4 muxer ends a mov_text cue with an empty sample once a packet of any track
    # has a dts past the cue's end, comparing numbers in the tracks' own time bases: video
    # and audio packets set it off after each millisecond sample, and every copied sample
    # came after a zero-length empty one
    assert text_cues(mov_text_mp4) == MOV_TEXT_SAMPLES
    out = tmp_path / f"out.{ext}"
    code, err = render(capsys, str(mov_text_mp4), "-o", str(out), *cut)
    assert code == 0, err
    (subs,) = by_type(probe(out), "subtitle")
    assert subs["codec"] == "mov_text"
    assert text_cues(out) == expected


@pytest.mark.parametrize(("lang", "ext", "held"), [("fre", "mov", "fra"), ("deu", "mov", "ger"),
                                                   ("fre", "mp4", "fre")])
def test_the_summary_names_the_language_the_file_holds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, ext: str, held: str
        ) -> None:
    # A .mov holds one of ISO 639-2's two codes for a language, QuickTime's: the summary
    # named the source's ("fre") where the file held the other ("fra")
    src = tmp_path / "film.mkv"
    with av.open(str(src), "w") as out:
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = 32, 24, "yuv420p"
        subs = out.add_mux_stream("subrip", time_base=Fraction(1, 1000))
        subs.metadata["language"] = lang
        mux_frames(out, vs, (np.full((24, 32, 3), 60 * k, np.uint8) for k in range(3)),
                   time_base=Fraction(1, 25))
        packet = av.Packet(b"Bonjour")
        packet.stream, packet.time_base = subs, Fraction(1, 1000)
        packet.pts = packet.dts = 0
        packet.duration = 100
        out.mux(packet)
    dst = tmp_path / f"out.{ext}"
    assert main(["render", str(src), "-o", str(dst), "--style", "adjust"]) == 0
    summary = capsys.readouterr().err.splitlines()[-1]
    (written,) = by_type(probe(dst), "subtitle")
    assert written["tags"]["language"] == held
    assert f"subtitle 1 ({held}) srt -> mov_text;" in summary


def _pgs_segment(kind: int, data: bytes) -> bytes:
    return struct.pack(">BH", kind, len(data)) + data


def _pgs_packet(number: int, show: bool) -> bytes:
    """One PGS display set as Matroska holds it: an 8x2 picture shown (PCS with one object,
    WDS, PDS, ODS, END), or the screen cleared (PCS with none, WDS, END)."""
    pcs = struct.pack(">HHBHBBBB", 64, 48, 0x10, number, 0x80 if show else 0, 0, 0, int(show))
    wds = _pgs_segment(0x17, struct.pack(">BBHHHH", 1, 0, 8, 8, 8, 2))
    if not show:
        return _pgs_segment(0x16, pcs) + wds + _pgs_segment(0x80, b"")
    pcs += struct.pack(">HBBHH", 0, 0, 0, 8, 8)
    pds = _pgs_segment(0x14, bytes([0, 0, 1, 235, 128, 128, 255]))
    rle = bytes([0, 0x88, 1, 0, 0]) * 2  # two lines of 8 pixels of colour 1
    ods = _pgs_segment(0x15, struct.pack(">HBB", 0, 0, 0xC0) + (len(rle) + 4).to_bytes(3, "big")
                       + struct.pack(">HH", 8, 2) + rle)
    return _pgs_segment(0x16, pcs) + wds + pds + ods + _pgs_segment(0x80, b"")


def test_trim_shows_the_picture_subtitle_on_screen_at_the_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A PGS subtitle shown at 0.3 s and cleared at 0.8 s was left out of a cut from 0.5 s
    # (its packets have no duration): the track opened with a bare clear
    src = tmp_path / "pgs.mkv"
    with av.open(str(src), "w", format="matroska") as out:
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        pgs = out.add_mux_stream("hdmv_pgs_subtitle", time_base=Fraction(1, 1000))
        mux_frames(out, vs, (np.full((48, 64, 3), 5 * k, np.uint8) for k in range(50)),
                   time_base=Fraction(1, 25))
        for n, (ms, show) in enumerate([(300, True), (800, False), (1200, True)]):
            packet = av.Packet(_pgs_packet(n, show))
            packet.stream, packet.time_base = pgs, Fraction(1, 1000)
            packet.pts = packet.dts = ms
            out.mux(packet)
    # (start s, shows) of each packet; from 1.3 s no packet follows the one held back
    for start, end, want in (("0.5", "1.5", [(0.0, True), (0.3, False), (0.7, True)]),
                             ("1.3", "1.8", [(0.0, True)]), ("0.9", "1.5", [(0.3, True)])):
        dst = tmp_path / f"cut{start}.mkv"
        code, err = render(capsys, str(src), "-o", str(dst), "--start", start, "--end", end)
        assert code == 0, err
        with av.open(str(dst)) as c:
            subs = c.streams.subtitles[0]
            shown = [(round(float(p.pts * p.time_base), 3), bool(subs.codec_context.decode(p)))
                     for p in c.demux(subs) if p.pts is not None and p.size]
        assert shown == want, (start, end)


@pytest.mark.parametrize("ext, lost", [
    # MP4 and MOV hold the tags iTunes' list lacks as QuickTime metadata keys
    (".mp4", []),
    (".mov", []),
    (".mkv", []),
])
def test_file_tags_an_output_cannot_hold_are_named(tmp_path: Path, ext: str, lost: list[str],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # An MP4 writes the tags it knows (title, date, copyright...) and dropped the others
    # silently, where the README promises a warning for anything left out.
    src = make_clip(tmp_path / "plain.mkv", frames=3, audio=False).path
    tagged = tmp_path / "tagged.mkv"
    tags = {"title": "T", "DATE": "2018", "DATE_RECORDED": "2019-05-06", "MYTAG": "hello",
            "DESCRIPTION": "desc", "COPYRIGHT": "(c) me"}
    with av.open(str(src)) as c, av.open(str(tagged), "w") as out:
        out.metadata.update(tags)
        stream = out.add_stream_from_template(c.streams.video[0])
        for packet in c.demux(c.streams.video[0]):
            if packet.size:
                packet.stream = stream
                out.mux(packet)
    dst = tmp_path / f"out{ext}"
    code, err = render(capsys, str(tagged), "-o", str(dst))
    assert code == 0, err
    written = {k.lower() for k in probe(dst)["tags"]}
    assert {k.lower() for k in tags if k not in lost} <= written  # title, date...: kept
    assert not {k.lower() for k in lost} & written
    said = [line for line in err.splitlines() if "left out" in line]
    if lost:
        assert said == [f"aquarelle: warning: tags {', '.join(lost)} left out: {ext} files "
                        "cannot hold them; write .mkv to keep them"]
    else:
        assert said == []


ASS = ("[Script Info]\nScriptType: v4.00+\nPlayResX: 32\nPlayResY: 24\n\n[V4+ Styles]\n"
       "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, "
       "BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, "
       "BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n"
       "Style: Sign,Comic Sans MS,14,&H0000FFFF,&H000000FF,&H00000000,&H00000000,1,0,0,0,"
       "100,100,0,0,1,1,0,8,10,10,10,1\n\n[Events]\n"
       "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
       "Dialogue: 0,0:00:00.00,0:00:00.10,Sign,,0,0,0,,{\\pos(20,15)}SIGN\n")


@pytest.mark.parametrize("ext", [".mp4", ".webm"])
def test_a_style_sheet_left_behind_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           ext: str) -> None:
    # an ASS track's fonts, colours and positions went into mov_text or WebVTT without a word
    # (trial V14); its text and italics, bold and underline are kept
    sheet = tmp_path / "signs.ass"
    sheet.write_text(ASS)
    src = tmp_path / "signs.mkv"
    with av.open(str(sheet)) as ass, av.open(str(src), "w") as out:
        vs = small_video(out)
        subs = out.add_stream_from_template(ass.streams[0])
        for packet in ass.demux(ass.streams[0]):
            if packet.size:
                packet.stream = subs
                out.mux(packet)
        mux_greys(out, vs)
    code, err = render(capsys, str(src), "-o", str(tmp_path / f"out{ext}"))
    assert code == 0, err
    target = "mov_text" if ext == ".mp4" else "webvtt"
    assert (f"subtitle stream 1 (ssa) becomes {target}: its style sheet (fonts, colours, "
            "positions) is not kept") in err, err
    assert [text for _, _, text in subtitle_cues(tmp_path / f"out{ext}")] and \
        "style sheet" not in render(capsys, str(src), "-o", str(tmp_path / "out.mkv"))[1]


def test_a_tracks_own_tags_an_mp4_cannot_hold_are_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a track's MY_TRACK_TAG went into .mp4/.mov without a word (trial V14); Matroska keeps it
    src = tmp_path / "tagged.mkv"
    with av.open(str(src), "w") as out:
        vs = small_video(out)
        vs.metadata.update({"title": "Camera", "MY_TRACK_TAG": "kept in mkv"})
        mux_greys(out, vs)
    said = {}
    for ext in (".mp4", ".mov", ".mkv"):
        code, said[ext] = render(capsys, str(src), "-o", str(tmp_path / f"out{ext}"))
        assert code == 0, said[ext]
    for ext in (".mp4", ".mov"):
        assert ("video stream 0: its tags MY_TRACK_TAG left out: "
                f"{ext} tracks hold a language and a name only; .mkv keeps them") in said[ext]
    assert "left out" not in said[".mkv"]
    assert probe(tmp_path / "out.mkv")["streams"][0]["tags"].get("MY_TRACK_TAG") == "kept in mkv"
