"""`--codec prores` keeps a ProRes source's profile (4444 at 4:4:4, HQ...), and says that
a source's alpha channel is left out (videos are written opaque); other sources get Standard."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np
import pytest
from test_alpha_truth import alpha_warning
from videoclips import make_clip, mux_frames

from aquarelle.cli.main import main


def prores_clip(path: Path, profile: str, pix_fmt: str) -> Path:
    """Five 64x48 frames in ProRes `profile` (prores_ks' name), half transparent where
    `pix_fmt` has alpha."""
    with av.open(str(path), "w") as out:
        vs = out.add_stream("prores_ks", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, pix_fmt
        vs.codec_context.options = {"profile": profile}
        ramp = np.linspace(40, 200, 64, dtype=np.uint8)[None, :, None] * np.ones((48, 1, 4),
                                                                                np.uint8)
        ramp[:, :32, 3] = 128
        mux_frames(out, vs, [ramp] * 5, fmt="rgba")
    return path


def render(capsys: pytest.CaptureFixture[str], src: Path, out: Path
           ) -> tuple[tuple[str, str, str], list[str]]:
    """Render `src` to `out` as ProRes: the output's profile, pixel format and codec tag,
    and the warnings."""
    code = main(["render", str(src), "-o", str(out), "--codec", "prores", "-q",
                 "--style", "adjust"])
    err = capsys.readouterr().err
    assert code == 0, err
    with av.open(str(out)) as c:
        cc = c.streams.video[0].codec_context
        kept = (cc.profile, cc.pix_fmt, cc.codec_tag)
    return kept, [line for line in err.splitlines() if "warning" in line]


def test_4444_with_alpha_stays_4444_and_says_the_alpha_is_left_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = prores_clip(tmp_path / "in.mov", "4444", "yuva444p10le")
    with av.open(str(src)) as c:
        assert c.streams.video[0].codec_context.pix_fmt.startswith("yuva444p")
    (profile, pix_fmt, tag), warnings = render(capsys, src, tmp_path / "out.mov")
    # no alpha painted, none invented: 4:4:4 without it (prores decodes at 12 bits)
    assert (profile, tag) == ("4444", "ap4h")
    assert pix_fmt.startswith("yuv444p")
    # a YUVA video's colours under its alpha mean something: painted as they are, not laid
    # on white as an RGB-family video's are (the warning said white paper for both)
    assert [w for w in warnings if "alpha" in w] == [alpha_warning("in.mov", "out.mov",
                                                                   on_white=False)]
    with av.open(str(tmp_path / "out.mov")) as c:
        left = next(c.decode(video=0)).to_ndarray(format="rgb24")[:, :32]
    assert left.mean() < 200  # the ramp's dark end, not white paper


@pytest.mark.parametrize(("profile", "name", "tag"),
                         [("hq", "HQ", "apch"), ("4444xq", "XQ", "ap4x")])
def test_other_profiles_are_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 profile: str, name: str, tag: str) -> None:
    pix_fmt = "yuv444p10le" if profile.startswith("4444") else "yuv422p10le"
    src = prores_clip(tmp_path / "in.mov", profile, pix_fmt)
    (got, _, got_tag), warnings = render(capsys, src, tmp_path / "out.mov")
    assert (got, got_tag) == (name, tag)
    assert not [w for w in warnings if "alpha" in w]


def test_a_source_not_prores_gets_standard(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    clip = make_clip(tmp_path / "in.mp4", frames=5, audio=False)
    (profile, pix_fmt, tag), _ = render(capsys, clip.path, tmp_path / "out.mov")
    assert (profile, pix_fmt, tag) == ("Standard", "yuv422p10le", "apcn")


def test_a_4444s_alpha_to_a_gif_is_not_said_to_be_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A YUVA video's alpha is never read: written to a GIF the warning said the GIF 'cannot
    keep' it and then '.gif and .png frames keep it' (the stop-59 verifier); the GIF is
    opaque and the warning says the alpha is not read, by any output."""
    from PIL import Image

    src = prores_clip(tmp_path / "in.mov", "4444", "yuva444p10le")
    out = tmp_path / "o.gif"
    assert main(["render", str(src), "-o", str(out), "--style", "adjust"]) == 0
    warnings = [w for w in capsys.readouterr().err.splitlines() if "warning" in w and "alpha" in w]
    assert warnings == [alpha_warning("in.mov", "o.gif", on_white=False)]
    assert "keep it)" not in warnings[0] and "not read" in warnings[0]
    with Image.open(out) as gif:
        assert "transparency" not in gif.info
