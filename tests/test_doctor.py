"""`aquarelle doctor` and the app's "cannot start" path: what is missing, and what to install."""

from __future__ import annotations

from pathlib import Path

import pytest

from aquarelle import diagnostics
from aquarelle.cli.main import main


def fake_ldd(missing: list[str]):
    def ldd(library: Path) -> str:
        lines = ["\tlinux-vdso.so.1 (0x00007ffd)", "\tlibQt6Gui.so.6 => /x/libQt6Gui.so.6 (0x1)"]
        lines += [f"\t{name} => not found" for name in missing]
        return "\n".join(lines) + "\n"
    return ldd


def test_doctor_on_this_machine_says_everything_works(capsys):
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    for needle in ("Python", "package moderngl", "OpenGL (EGL, headless)", "encoder H.264",
                   "encoder AAC", "config folder", "Everything Aquarelle needs works"):
        assert needle in out
    assert "llvmpipe" in out and "software rendering" in out  # CI has no GPU


def test_doctor_names_missing_xcb_libraries_and_their_packages(capsys, monkeypatch):
    monkeypatch.setattr(diagnostics, "_ldd",
                        fake_ldd(["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]))
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "!! Qt platform plugin (xcb)" in out
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1" in out
    assert "apt-get install libxcb-icccm4 libxcb-keysyms1" in out


def test_the_app_says_which_package_instead_of_aborting(capsys, monkeypatch):
    from aquarelle.ui import app

    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(diagnostics, "_ldd", fake_ldd(["libxcb-cursor.so.0"]))
    monkeypatch.setattr(app, "create_application",
                        lambda: pytest.fail("Qt must not be started: it would abort"))
    assert app.run(None) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "apt-get install libxcb-cursor0" in err
    assert "aquarelle doctor" in err


def test_a_missing_encoder_is_a_fix_when_required(monkeypatch):
    import av

    real = av.codec.Codec

    def codec(name: str, mode: str = "r"):
        if name == "libx264":
            raise av.FFmpegError(0, "not found")
        return real(name, mode)

    monkeypatch.setattr(av.codec, "Codec", codec)
    report = diagnostics.Report()
    diagnostics.encoders(report)
    assert not report.ok and any("libx264" in c.detail for c in report.checks if not c.ok)
