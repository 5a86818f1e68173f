"""A video's frames painted at most `max_lines` lines (Renderer.work_scale, VIDEO_LINES):
the painting style's draft at the limit's scale, its finish laying the paper at full size;
stills, styles without a draft finish and frames within the limit are painted as they come."""

from __future__ import annotations

import numpy as np
import pytest
import skimage.data
from test_video_cli import run_cli
from videoclips import decode_video, make_clip

from aquarelle.engine.errors import AquarelleError
from aquarelle.engine.renderer import VIDEO_LINES, Renderer
from aquarelle.media.export import ExportOptions


@pytest.fixture(autouse=True)
def _shared_context_current_again(gl_ctx):
    """Each CLI run makes its own GL context; make the session's current again after."""
    yield
    gl_ctx.__enter__()


def test_the_limit_sets_the_scale_of_a_painting_style_only(pipeline):
    p = pipeline()
    assert p.max_lines == 0 and p.work_scale((3840, 2160)) == 1.0  # a still: every line
    p.max_lines = VIDEO_LINES
    assert p.work_scale((3840, 2160)) == pytest.approx(0.5)
    assert p.work_scale((2160, 3840)) == pytest.approx(0.5)  # the short side, upright too
    assert p.work_scale((1920, 1080)) == 1.0
    p.scale = 0.25  # a smaller scale asked for wins
    assert p.work_scale((3840, 2160)) == 0.25
    blur = pipeline(style="blur")  # no draft finish: enlarging would lose what it keeps
    blur.max_lines = 120
    assert blur.work_scale((640, 480)) == 1.0
    with pytest.raises(AquarelleError):
        p.max_lines = -1
    assert ExportOptions().video_lines == VIDEO_LINES


def test_a_frame_over_the_limit_is_painted_as_at_the_limits_scale(gl_ctx):
    frame = np.ascontiguousarray(skimage.data.coffee()[80:320, 100:420])  # 320x240
    with Renderer(gl_ctx, "watercolor") as limited, \
            Renderer(gl_ctx, "watercolor", scale=0.5) as half:
        limited.max_lines = 120
        a, b = limited.render_array(frame), half.render_array(frame)
        full = Renderer(gl_ctx, "watercolor")
        c = full.render_array(frame)
        full.release()
    assert a.shape == c.shape == frame.shape  # the output keeps every line
    np.testing.assert_array_equal(a, b)
    assert np.abs(a.astype(int) - c).mean() > 0.5  # and it is painted smaller


def test_an_export_paints_at_the_limit_and_says_so(tmp_path, capsys):
    clip = make_clip(tmp_path / "in.mp4", size=(320, 240), frames=3)
    code, _, err = run_cli(capsys, clip.path, "-o", tmp_path / "lines.mkv", "--codec", "h264",
                           "--crf", "0", "--video-lines", "120")
    assert code == 0, err
    assert "painted at 120 lines" in err
    code, _, err = run_cli(capsys, clip.path, "-o", tmp_path / "half.mkv", "--codec", "h264",
                           "--crf", "0", "--scale", "0.5")
    assert code == 0, err
    assert "painted at" not in err  # a scale asked for is not the limit's
    a, _, _ = decode_video(tmp_path / "lines.mkv")
    b, _, _ = decode_video(tmp_path / "half.mkv")
    assert len(a) == len(b) == 3 and a[0].shape == (240, 320, 3)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)
