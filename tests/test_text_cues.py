"""A video's subtitles as text for the window (media.text_cues): its text tracks, a subtitle
file beside it, the cues' times and words."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_files_cues import cued_clip

from aquarelle.media.text_cues import cue_text, plain, read_cues, text_tracks


@pytest.fixture(scope="module")
def cued(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return cued_clip(tmp_path_factory.mktemp("cued") / "cued.mkv")


def test_a_videos_text_tracks_the_forced_one_shown(cued: Path):
    tracks = text_tracks(cued)
    assert [t.key for t in tracks] == ["stream:1", "stream:2"]
    assert [t.label for t in tracks] == ["Subtitles 1", "Subtitles 2"]
    assert [t.default for t in tracks] == [False, True]


def test_cues_are_timed_from_the_first_frame_with_their_words(cued: Path):
    cues = read_cues(cued, "stream:1")
    assert [(c.start, round(c.end, 9), c.text) for c in cues] == [
        (0.1, 0.6, "Hello there"), (0.9, 1.5, "Bonjour"), (1.6, 1.9, "Last cue")]
    later = read_cues(cued, "stream:2", origin=0.1)
    assert [(round(c.start, 6), c.text) for c in later] == [(0.1, "FORCED one"),
                                                            (1.1, "FORCED two")]


def test_a_subtitle_file_beside_the_video_is_offered_and_shown(cued: Path, tmp_path: Path):
    video = tmp_path / "film.mkv"
    video.write_bytes(cued.read_bytes())
    (tmp_path / "film.srt").write_text("1\n00:00:00,500 --> 00:00:01,250\n<i>Beside</i> it\n\n",
                                       encoding="utf-8")
    tracks = text_tracks(video)
    assert tracks[-1].label == "film.srt (beside the video)"
    assert not tracks[-1].default  # the file's forced track is the one shown
    cues = read_cues(video, tracks[-1].key)
    assert [(c.start, c.end, c.text) for c in cues] == [(0.5, 1.25, "Beside it")]
    (tmp_path / "plain.mkv").write_bytes(b"")  # nothing readable: nothing offered
    assert text_tracks(tmp_path / "plain.mkv") == []


def test_what_is_on_screen_at_a_time():
    from aquarelle.media.text_cues import TextCue

    cues = [TextCue(0.0, 2.0, "a"), TextCue(1.0, 1.5, "b"), TextCue(3.0, 4.0, "c")]
    starts = [c.start for c in cues]
    assert [cue_text(cues, starts, t) for t in (0.5, 1.2, 1.6, 2.5, 3.0, 4.0)] == \
        ["a", "a\nb", "a", "", "c", ""]


def test_styling_is_left_out_of_the_words():
    assert plain(r"{\i1}Hello{\i0}\Nworld") == "Hello\nworld"
    assert plain("<font color='red'>Red</font> and\\hspace") == "Red and space"
