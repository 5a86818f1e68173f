"""What a video engineer's trial (V2) found still untrue after the first fixes: a deep
source written 8-bit without --codec, chapters past a short render's end, and leftovers
named with the wrong codec, reason or count."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import pytest
from videoclips import cut_short, make_clip, probe

from aquarelle.cli.main import main


def render(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["render", *args, "--style", "adjust"])
    return code, capsys.readouterr().err


def bit_warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if "warning" in line and "bit" in line]


@pytest.fixture(scope="module")
def deep(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """10-bit sources: HEVC Main 10 and ProRes 4:2:2 in .mov."""
    folder = tmp_path_factory.mktemp("deep")
    return {"hevc": make_clip(folder / "hevc.mov", frames=6, codec="libx265",
                              pix_fmt="yuv420p10le", audio=False).path,
            "prores": make_clip(folder / "prores.mov", frames=3, codec="prores_ks",
                                pix_fmt="yuv422p10le", audio=False).path}


@pytest.mark.parametrize(("source", "ext", "codec", "pix_fmt"), [
    ("hevc", "mp4", "hevc", "yuv420p10le"), ("hevc", "mov", "hevc", "yuv420p10le"),
    ("prores", "mov", "prores", "yuv422p10le"), ("prores", "mkv", "prores", "yuv422p10le"),
    ("prores", "mp4", "hevc", "yuv420p10le")])
def test_ten_bits_stay_ten_without_a_codec(deep: dict[str, Path], tmp_path: Path, source: str,
                                           ext: str, codec: str, pix_fmt: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    # Without --codec a 10-bit source was written 8-bit H.264 with "use --codec h265 or
    # prores to keep 10 bits": its own codec where the container takes it, else H.265
    out = tmp_path / f"out.{ext}"
    code, err = render(capsys, str(deep[source]), "-o", str(out))
    assert code == 0 and not bit_warnings(err), err
    video = probe(out)["streams"][0]
    assert (video["codec"], video["pix_fmt"]) == (codec, pix_fmt)
    name = "h265" if codec == "hevc" else codec
    assert (f"{name} 10-bit (chosen to keep the source's 10 bits; --codec h264 for 8-bit "
            "H.264)") in err


def test_h264_asked_for_is_8_bit_with_its_warning(deep: dict[str, Path], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.mp4"
    code, err = render(capsys, str(deep["hevc"]), "-o", str(out), "--codec", "h264")
    assert code == 0 and "chosen" not in err
    (line,) = bit_warnings(err)
    assert "hevc.mov is 10-bit" in line and "--codec h265" in line
    assert probe(out)["streams"][0]["pix_fmt"] == "yuv420p"


def test_an_8_bit_source_stays_h264(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = make_clip(tmp_path / "in.mov", frames=3, audio=False).path
    code, err = render(capsys, str(src), "-o", str(tmp_path / "out.mp4"))
    assert code == 0 and "chosen" not in err and " h264 8-bit" in err
    with av.open(str(tmp_path / "out.mp4")) as c:
        assert c.streams.video[0].codec_context.name == "h264"


def test_the_export_dialog_offers_the_command_lines_codec(deep: dict[str, Path], qtbot,
                                                          tmp_path: Path) -> None:
    from aquarelle.ui.export_dialog import ExportDialog
    from aquarelle.ui.settings import ExportMemory

    def offered(src: Path, memory: ExportMemory) -> tuple[str, str]:
        dialog = ExportDialog(src, tmp_path, 0.2, 0.0, size=(64, 48), remembered=memory)
        qtbot.addWidget(dialog)
        return dialog.codec.currentData(), Path(dialog.path_edit.text()).suffix

    assert offered(deep["hevc"], ExportMemory()) == ("h265", ".mp4")
    assert offered(deep["prores"], ExportMemory(container=".mov")) == ("prores", ".mov")
    assert offered(deep["prores"], ExportMemory()) == ("h265", ".mp4")
    # a remembered choice stays
    assert offered(deep["hevc"], ExportMemory(codec="h264")) == ("h264", ".mp4")
    eight = make_clip(tmp_path / "eight.mov", frames=2, audio=False).path
    assert offered(eight, ExportMemory()) == ("h264", ".mp4")


def test_an_accepted_default_codec_is_not_pinned_for_the_next_source(
        deep: dict[str, Path], qtbot, tmp_path: Path) -> None:
    """A re-trial: after an 8-bit export with the codec offered, a 10-bit file was offered
    H.264 (the default taken for a choice) and written 8-bit; and the reverse. The offered
    codec accepted is remembered as such: the next file gets its own; one chosen stays."""
    from aquarelle.ui.export_dialog import ExportDialog
    from aquarelle.ui.settings import ExportMemory

    def dialog(src: Path, memory: ExportMemory) -> ExportDialog:
        d = ExportDialog(src, tmp_path, 0.2, 0.0, size=(64, 48), remembered=memory)
        qtbot.addWidget(d)
        return d

    eight = make_clip(tmp_path / "eight.mov", frames=2, audio=False).path
    accepted = dialog(eight, ExportMemory()).memory()
    assert accepted.codec == "h264" and accepted.codec_default
    assert dialog(deep["hevc"], accepted).codec.currentData() == "h265"
    back = dialog(deep["hevc"], accepted).memory()
    assert back.codec == "h265" and back.codec_default
    assert dialog(eight, back).codec.currentData() == "h264"
    chosen = dialog(eight, ExportMemory())
    chosen.codec.setCurrentIndex(chosen.codec.findData("h265"))  # the user's own choice
    kept = chosen.memory()
    assert kept.codec == "h265" and not kept.codec_default
    assert dialog(eight, kept).codec.currentData() == "h265"


def chaptered_then_cut(folder: Path) -> Path:
    """A 2 s Matroska clip (25 fps, 8-bit) with chapters at 0-0.7, 0.7-1.4 and 1.4-2.0 s,
    cut short at 40% of its bytes (a download that stopped)."""
    plain = make_clip(folder / "plain.mkv", frames=50, fps=25, audio=False).path
    whole = folder / "whole.mkv"
    with av.open(str(plain)) as c, av.open(str(whole), "w") as out:
        video = out.add_stream_from_template(c.streams.video[0])
        out.set_chapters([{"id": i + 1, "start": a, "end": b, "time_base": Fraction(1, 1000),
                           "metadata": {"title": title}} for i, (a, b, title) in enumerate(
                               [(0, 700, "Intro"), (700, 1400, "Middle"), (1400, 2000, "End")])])
        for packet in c.demux(c.streams.video[0]):
            if packet.size:
                packet.stream = video
                out.mux(packet)
    return cut_short(whole)


def video_end(path: Path) -> float:
    with av.open(str(path)) as c:
        last = list(c.decode(video=0))[-1]
        return float((last.pts + last.duration) * last.time_base)


@pytest.mark.parametrize("ext", ["mkv", "mp4", "mov"])
def test_chapters_end_where_a_short_renders_video_ends(tmp_path: Path, ext: str,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    # trunc40k.mkv (0.76 s of a 2 s file) kept its chapters to 2.0 s
    src = chaptered_then_cut(tmp_path)
    out = tmp_path / f"out.{ext}"
    code, err = render(capsys, str(src), "-o", str(out))
    assert code == 0 and "could not be decoded" in err, err
    end = video_end(out)
    assert 0.2 < end < 1.6
    chapters = probe(out)["chapters"]
    assert chapters[-1][1] == pytest.approx(end, abs=0.002)
    assert [c[2] for c in chapters] == ["Intro", "Middle", "End"][: len(chapters)]
    assert chapters[0][:2] == (0.0, pytest.approx(min(0.7, end), abs=0.002))


def test_a_data_stream_is_named_by_its_codec_and_the_true_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # "data stream 2 (unknown) left out: only the main video is painted" for a drone's KLV
    src = tmp_path / "drone.ts"
    plain = make_clip(tmp_path / "plain.mp4", frames=5, fps=25, audio=False).path
    with av.open(str(plain)) as c, av.open(str(src), "w", format="mpegts") as out:
        video = out.add_stream_from_template(c.streams.video[0])
        data = out.add_data_stream("klv")
        for k, packet in enumerate(p for p in c.demux(c.streams.video[0]) if p.size):
            packet.stream = video
            out.mux(packet)
            klv = av.Packet(b"\x06\x0e\x2b\x34\x02\x0b\x01\x01" + bytes(9))
            klv.stream, klv.pts, klv.dts, klv.time_base = data, k * 3600, k * 3600, \
                Fraction(1, 90000)
            out.mux(klv)
    code, err = render(capsys, str(src), "-o", str(tmp_path / "out.mkv"))
    assert code == 0, err
    assert "data stream 1 (klv) left out: .mkv files cannot carry it" in err


def test_a_guessed_total_is_said_as_a_guess(tmp_path: Path, gl_ctx) -> None:
    # a variable-rate .mkv's 15 frames were counted "13/34 frames (38%)"
    from aquarelle.media.export import ExportOptions, export_video
    from aquarelle.media.progress import format_progress

    pts = [0, 1, 2, 3, 4, 8, 9, 10, 20, 21, 22, 30, 31, 32, 33]  # 15 frames over 34 ticks
    src = make_clip(tmp_path / "vfr.mkv", frames=15, fps=25, pts=pts, audio=False).path
    seen: list[str] = []
    export_video(src, tmp_path / "out.mp4", "adjust", None, ExportOptions(),
                 progress=lambda p: seen.append(format_progress("vfr.mkv", p)), ctx=gl_ctx)
    assert seen[-1].startswith("vfr.mkv: 15/15 frames (100%)")
    guessed = [line for line in seen[:-1] if "/~" in line]
    assert guessed and len(guessed) == len(seen) - 1, seen
    assert seen[0].startswith("vfr.mkv: 0/~34 frames (~0%)")  # a guess until the end


def test_a_sequences_unreadable_file_is_named(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    import cv2
    from videoclips import pattern

    folder = tmp_path / "seq"
    folder.mkdir()
    for n in range(12):
        cv2.imwrite(str(folder / f"{n:04d}.png"), pattern(n, 64, 48))
    data = (folder / "0007.png").read_bytes()
    (folder / "0007.png").write_bytes(data[: len(data) // 3])  # truncated
    code, err = render(capsys, str(folder / "%04d.png"), "-o", str(tmp_path / "out.mp4"))
    assert code == 0, err
    assert "1 frame(s) could not be decoded and are missing from the output (0007.png could " \
        "not be read)" in err
