"""What a new user's trial of stills found (trialB): unreadable files said in one line, the
photo formats a render accepts by name, AVIF read with its profile, EXIF and alpha, no
library's own messages on stderr, a TIFF's other pages said, JPEG's chroma and TIFF's
compression, and the resolution (DPI) kept."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from aquarelle.cli.main import main
from aquarelle.media import image_io
from aquarelle.media.image_io import ImageError, read_image, write_image


def picture(w: int = 48, h: int = 32) -> np.ndarray:
    rgb = np.zeros((h, w, 3), np.uint8)
    rgb[:, : w // 2] = (200, 30, 40)
    rgb[:, w // 2:] = (40, 120, 210)
    rgb[: h // 4] = (250, 250, 240)
    return rgb


def cli(capsys, *argv: object) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


# 1. a file that cannot be read: one line, no traceback


def test_an_os_error_while_reading_is_one_line(tmp_path, monkeypatch):
    src = tmp_path / "secret.jpg"
    Image.fromarray(picture()).save(src)

    def refuse(*args: object, **kw: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(src))

    monkeypatch.setattr(image_io.np, "fromfile", refuse)
    with pytest.raises(ImageError, match=r"^cannot read .*secret\.jpg: permission denied$"):
        read_image(src)


@pytest.mark.skipif(sys.platform != "linux", reason="file modes and setpriv: Linux")
def test_cli_an_unreadable_photo_is_one_line_and_exit_2(tmp_path):
    src = tmp_path / "secret.jpg"
    Image.fromarray(picture()).save(src)
    src.chmod(0)
    cmd = [sys.executable, "-m", "aquarelle", "render", str(src), "-o", str(tmp_path / "o.png")]
    if os.geteuid() == 0:  # root reads anything: without the capabilities that let it
        if not shutil.which("setpriv"):
            pytest.skip("root without setpriv")
        caps = "-dac_override,-dac_read_search"
        cmd = ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", *cmd]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().splitlines()[-1].endswith(
        f"cannot read {src}: permission denied"), run.stderr
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "o.png").exists()


def test_a_write_error_is_said_in_lower_case_words(tmp_path, monkeypatch):
    def full(*args: object, **kw: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(ImageError, match=r"cannot write .*o\.png: no space left on device$"):
        write_image(tmp_path / "o.png", picture())
