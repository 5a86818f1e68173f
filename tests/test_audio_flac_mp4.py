"""Lossless surround into MP4 (trial V6, finding 5): PCM 5.1 is written as FLAC, whose MP4
box holds a channel count, not a layout, so it reads back as FLAC's own for six channels,
5.1(side): said in one warning (it was unsaid); Matroska keeps 5.1, with no warning."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_audio_layouts import TONES, channel_tones, render, surround_clip


@pytest.mark.parametrize("ext", ["mp4", "mkv"])
def test_pcm_5_1_as_flac_says_the_layout_it_reads_back_as(tmp_path: Path, gl_ctx,
                                                            ext: str) -> None:
    src = surround_clip(tmp_path / "in.mov", "pcm_s16le", "5.1")  # (a .mov names its layout)
    assert channel_tones(src)[0] == "5.1"
    out = tmp_path / f"out.{ext}"
    r = render(src, out, gl_ctx)
    assert r.audio[0].startswith("audio 1 pcm_s16le -> flac (lossless")
    layout, peaks, _ = channel_tones(out)
    assert peaks == pytest.approx(TONES["5.1"], abs=4)  # every channel in its place
    said = [w for w in r.warnings if "FLAC" in w]
    if ext == "mp4":
        assert layout == "5.1(side)"
        assert said == ["audio stream 1: pcm_s16le 5.1 written as FLAC in .mp4 reads back as "
                        "5.1(side) (FLAC in MP4 holds a channel count, not a layout; .mkv "
                        "keeps 5.1)"]
    else:
        assert layout == "5.1" and said == []
