"""What a new user's files carried and an export lost or misreported: MP4 track titles in
Matroska, an MP4's cover picture and chapter track, a trimmed stretch of a variable frame
rate, and what a GIF or an image sequence cannot hold (said in a warning)."""

from __future__ import annotations

import io
import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np
import pytest
from PIL import Image
from videoclips import make_clip, make_rich_clip, mux_frames, pattern, probe

from aquarelle.cli.main import main
from aquarelle.media.frame_range import gap_frames
from aquarelle.media.metadata import rescaled_timecode, shifted_timecode

COVER = io.BytesIO()
Image.new("RGB", (16, 16), (200, 60, 40)).save(COVER, format="JPEG")


def render(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["render", *args, "-q", "--style", "adjust"])
    return code, capsys.readouterr().err


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if "warning" in line]


@pytest.fixture(scope="module")
def phone_mp4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An MP4 as phones and editors write them: titled tracks (FFmpeg reads an MP4 track's
    title as "name"), chapters (a text track of their own) and a cover picture."""
    path = tmp_path_factory.mktemp("phone") / "clip.mp4"
    tb = Fraction(1, 1000)
    with av.open(str(path), "w", format="mp4") as out:
        out.metadata["title"] = "Holiday"
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        vs.time_base = vs.codec_context.time_base = tb
        audio = out.add_stream("aac", rate=48000, layout="stereo")
        audio.metadata.update(language="spa", title="Español")
        cover = out.add_stream("mjpeg")
        cover.width, cover.height, cover.pix_fmt = 16, 16, "yuvj420p"
        cover.disposition = av.stream.Disposition.attached_pic
        out.set_chapters([{"id": 1, "start": 0, "end": 200, "time_base": tb,
                           "metadata": {"title": "Intro"}},
                          {"id": 2, "start": 200, "end": 400, "time_base": tb,
                           "metadata": {"title": "Beach"}}])
        mux_frames(out, vs, (pattern(k, 64, 48) for k in range(10)),
                   pts=[k * 40 for k in range(10)], time_base=tb)
        af = av.AudioFrame.from_ndarray(np.zeros((2, 19200), np.float32), format="fltp",
                                        layout="stereo")
        af.sample_rate, af.pts, af.time_base = 48000, 0, Fraction(1, 48000)
        for packet in [*audio.encode(af), *audio.encode(None)]:
            out.mux(packet)
        packet = av.Packet(COVER.getvalue())
        packet.stream = cover
        out.mux(packet)
    with av.open(str(path)) as c:  # what FFmpeg makes of it, which the tests rely on
        assert c.streams.audio[0].metadata.get("name") == "Español"
        assert [s.type for s in c.streams] == ["video", "audio", "data", "video"]
    return path


def cover_bytes(path: Path) -> list[bytes]:
    with av.open(str(path)) as c:
        pics = [s for s in c.streams.video
                if s.disposition & av.stream.Disposition.attached_pic]
        return [bytes(p) for s in pics for p in c.demux(s) if p.size]


@pytest.mark.parametrize("ext", ["mkv", "webm", "mp4"])
def test_an_mp4_tracks_title_stays_its_title(phone_mp4: Path, tmp_path: Path, ext: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"out.{ext}"
    code, err = render(capsys, str(phone_mp4), "-o", str(out))
    assert code == 0, err
    (audio,) = [s for s in probe(out)["streams"] if s["type"] == "audio"]
    key = "name" if ext == "mp4" else "title"  # how FFmpeg reads each container's title
    assert audio["tags"].get(key) == "Español" and audio["tags"]["language"] == "spa"


def test_a_cover_picture_is_kept_where_the_container_holds_one(
        phone_mp4: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for ext in ("mp4", "mkv"):
        out = tmp_path / f"out.{ext}"
        code, err = render(capsys, str(phone_mp4), "-o", str(out))
        assert code == 0 and not warnings(err), err
        assert cover_bytes(out) == [COVER.getvalue()]
        assert [c[2] for c in probe(out)["chapters"]] == ["Intro", "Beach"]
        assert len(av.open(str(out)).streams.video) == 2  # the painting and the cover
    again = tmp_path / "again.mp4"  # Matroska's cover attachment goes back into an MP4
    assert render(capsys, str(tmp_path / "out.mkv"), "-o", str(again))[0] == 0
    assert cover_bytes(again) == [COVER.getvalue()]
    out = tmp_path / "out.mov"
    code, err = render(capsys, str(phone_mp4), "-o", str(out))
    assert code == 0 and not cover_bytes(out)
    assert warnings(err) == ["aquarelle: warning: cover picture 3 (mjpeg) left out: .mov files "
                             "cannot hold it; write .mp4 or .mkv to keep it"]


@pytest.mark.parametrize("ext", ["mp4", "mkv"])
def test_no_metadata_leaves_the_cover_picture_out(
        phone_mp4: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str) -> None:
    """A cover picture is the file's own, as its tags are: --no-metadata drops it (it was
    kept: a picture stream in the .mp4, an image attachment in the .mkv) and says so."""
    out = tmp_path / f"out.{ext}"
    code, err = render(capsys, str(phone_mp4), "-o", str(out), "--no-metadata")
    assert code == 0, err
    assert cover_bytes(out) == []
    with av.open(str(out)) as c:
        assert len(c.streams.video) == 1 and not c.streams.attachments
        assert "title" not in c.metadata
    assert warnings(err) == ["aquarelle: warning: cover picture 3 (mjpeg) left out: "
                             "--no-metadata leaves it out"], err


def test_pictures_name_the_cover_picture_they_leave_out(
        phone_mp4: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Frames of a video with a cover picture named what they leave out but not the cover
    (a trial); --no-metadata drops it with the tags, so it is not said then."""
    code, err = render(capsys, str(phone_mp4), "-o", str(tmp_path / "f%02d.png"), "--no-audio")
    assert code == 0
    assert warnings(err) == ["aquarelle: warning: clip.mp4: its cover picture, 2 chapters, the "
                             "tags (title) left out: an image sequence holds pictures only; "
                             "write .mkv to keep them"], err
    code, err = render(capsys, str(phone_mp4), "-o", str(tmp_path / "g%02d.png"), "--no-audio",
                       "--no-metadata")
    assert code == 0 and warnings(err) == [], err


def test_a_trimmed_stretch_of_a_variable_frame_rate_loses_no_frames(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 40 ms steps with pauses of 120 to 220 ms: the stretch 0.3-0.9 s holds five steps of
    # 40 ms and one of 220 ms (5.5 frame times), which read as 5 lost frames
    pts = [0, 40, 80, 200, 240, 400, 440, 480, 700, 740, 780, 820, 1000, 1040, 1080]
    clip = make_clip(tmp_path / "vfr.mkv", pts=pts, time_base=Fraction(1, 1000), fps=25)
    out = tmp_path / "cut.mkv"
    code, err = render(capsys, str(clip.path), "-o", str(out), "--start", "0.3", "--end", "0.9")
    assert code == 0 and "could not be decoded" not in err, err
    with av.open(str(out)) as c:
        times = [round(float(f.pts * f.time_base), 3) for f in c.decode(video=0)]
    assert times == [0.0, 0.1, 0.14, 0.18, 0.4, 0.44, 0.48, 0.52]  # (0.24's on screen at 0.3)
    assert gap_frames(Counter({40: 5, 220: 1})) == 0
    assert gap_frames(Counter({33: 40, 198: 1})) == 5  # a steady stream's gap still counts


def test_pictures_say_what_they_leave_out_and_pngs_keep_sixteen_bits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = make_rich_clip(tmp_path / "film.mkv", frames=4)  # 10-bit, 2 tracks, subtitles...
    code, err = render(capsys, str(src), "-o", str(tmp_path / "film.gif"))
    assert code == 0
    assert warnings(err) == [
        "aquarelle: warning: film.mkv: 2 audio tracks, 1 subtitle track, 2 chapters, the tags "
        "(comment, title) left out: a GIF holds pictures only; write .mkv to keep them",
        "aquarelle: warning: film.mkv is 10-bit; a GIF of it is written 8-bit "
        "(frames/%04d.png keeps 16 bits)"]
    code, err = render(capsys, str(src), "-o", str(tmp_path / "f%02d.png"), "--no-audio",
                       "--no-metadata")
    assert code == 0
    assert warnings(err) == ["aquarelle: warning: film.mkv: 1 subtitle track left out: an "
                             "image sequence holds pictures only; write .mkv to keep them"]
    png = cv2.imread(str(tmp_path / "f01.png"), cv2.IMREAD_UNCHANGED)
    assert png.dtype == np.uint16
    # the ramp's fine steps: many more levels along a row than 8 bits give
    assert len(np.unique(png[24, :, 1])) > 2 * len(np.unique(png[24, :, 1] >> 8))
    assert not list(itertools.islice(tmp_path.glob("f*.png.*"), 1))  # no temporary left


@pytest.fixture(scope="module")
def timecoded_mov(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A .mov with a timecode at 25 fps, as cameras write them: FFmpeg reads its tmcd track
    as a data stream with a "timecode" tag (and gives the video the tag too)."""
    path = tmp_path_factory.mktemp("tc") / "tc.mov"
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        vs.metadata["timecode"] = "01:02:03:04"
        mux_frames(out, vs, (pattern(k, 64, 48) for k in range(30)), time_base=Fraction(1, 25))
    with av.open(str(path)) as c:
        assert [(s.type, s.metadata.get("timecode")) for s in c.streams] == \
            [("video", "01:02:03:04"), ("data", "01:02:03:04")]
    return path


def timecodes(path: Path) -> list[tuple[str, str | None]]:
    """Each stream's type and timecode tag, as FFmpeg reads the file."""
    with av.open(str(path)) as c:
        return [(s.type, next((v for k, v in s.metadata.items() if k.lower() == "timecode"),
                              None)) for s in c.streams]


@pytest.mark.parametrize(("ext", "cut", "held"), [
    ("mov", [], [("video", "01:02:03:04"), ("data", "01:02:03:04")]),
    ("mp4", [], [("video", "01:02:03:04"), ("data", "01:02:03:04")]),
    ("mkv", [], [("video", "01:02:03:04")]),
    # a timecode names the first frame: 25 frames later after a cut at 1 s
    ("mov", ["--start", "1.0"], [("video", "01:02:04:04"), ("data", "01:02:04:04")]),
    ("mkv", ["--start", "1.0"], [("video", "01:02:04:04")])])
def test_a_timecode_is_kept_without_a_left_out_warning(
        timecoded_mov: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str,
        cut: list[str], held: list[tuple[str, str]]) -> None:
    out = tmp_path / f"out.{ext}"
    code, err = render(capsys, str(timecoded_mov), "-o", str(out), *cut)
    assert code == 0 and not warnings(err), err
    assert timecodes(out) == held


@pytest.mark.parametrize(("fps", "held", "warned"), [
    # 4 frames at 25 fps are 8 at 50: the same 0.16 s into the second
    ("50", "01:02:03:08", []),
    ("30", "01:02:03:05", ["aquarelle: warning: timecode 01:02:03:04 at 25 fps written as "
                           "01:02:03:05 at 30 fps: the frame nearest its time"])])
def test_a_timecode_is_counted_at_the_new_rate(
        timecoded_mov: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], fps: str,
        held: str, warned: list[str]) -> None:
    out = tmp_path / "out.mov"
    code, err = render(capsys, str(timecoded_mov), "-o", str(out), "--fps", fps)
    assert code == 0 and warnings(err) == warned, err
    assert timecodes(out) == [("video", held), ("data", held)]


def test_timecodes_keep_their_time_at_a_new_rate() -> None:
    assert rescaled_timecode("01:02:03:04", 25, 50) == ("01:02:03:08", True)
    assert rescaled_timecode("00:00:10;29", 30, 60) == ("00:00:10;58", True)
    assert rescaled_timecode("00:01:00;04", 60, 30) == ("00:01:00;02", True)
    # at 25 fps no frame is dropped: FFmpeg refuses a drop-frame timecode there
    # (;02 is 60.06 s, 1501.5 frames at 25: half way, the earlier frame, on screen then)
    assert rescaled_timecode("00:01:00;02", 30, 25) == ("00:01:00:01", False)
    assert rescaled_timecode("01:00:00:59", 60, 25) == ("01:00:01:00", False)
    assert rescaled_timecode("no timecode", 25, 50) is None


def test_a_timecode_left_out_says_why(timecoded_mov: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.mov"
    code, err = render(capsys, str(timecoded_mov), "-o", str(out), "--no-metadata")
    assert code == 0 and timecodes(out) == [("video", None)]
    assert warnings(err) == ["aquarelle: warning: data stream 1 (eng) (timecode 01:02:03:04) "
                             "left out: --no-metadata leaves it out"]


def test_timecodes_move_on_by_frames() -> None:
    assert shifted_timecode("01:02:03:04", 25, 25) == "01:02:04:04"
    assert shifted_timecode("23:59:59:24", 1, 25) == "00:00:00:00"
    # drop-frame (29.97 fps): frame numbers 0 and 1 are skipped but every tenth minute
    assert shifted_timecode("00:00:59;29", 1, 30) == "00:01:00;02"
    assert shifted_timecode("00:09:59;29", 1, 30) == "00:10:00;00"
    assert shifted_timecode("00:00:00;00", 1800, 30) == "00:01:00;02"
    assert shifted_timecode("00:01:00;02", 17982 - 1800, 30) == "00:10:00;00"
    assert shifted_timecode("no timecode", 1, 25) is None
