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


@pytest.fixture(autouse=True)
def own_config(monkeypatch, tmp_path) -> Path:
    """Settings in a throwaway folder: doctor tries the real one for writing."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg"


def test_doctor_on_this_machine_says_everything_works(capsys):
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    for needle in ("Python", "package moderngl", "OpenGL (EGL, headless)", "encoder H.264",
                   "encoder AAC", "config folder", "Everything Aquarelle needs works"):
        assert needle in out
    assert "llvmpipe" in out and "software rendering" in out  # CI has no GPU
    # the extras missing (a GPU encoder, the virtual camera...) are named in the summary,
    # which said everything works where the default command (the app) could not run
    extras = [line[3:].split("  ")[0].strip() for line in out.splitlines()
              if line.startswith("-- ")]
    assert extras and out.rstrip().splitlines()[-1] == (
        "Everything Aquarelle needs works on this machine; not the extras marked --: "
        f"{', '.join(extras)}.")


def test_doctor_names_missing_xcb_libraries_and_their_packages(capsys, monkeypatch):
    monkeypatch.setattr(diagnostics, "_ldd",
                        fake_ldd(["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]))
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "!! Qt platform plugin (xcb)" in out
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1" in out
    assert "apt-get install libxcb-icccm4 libxcb-keysyms1" in out


def test_doctor_says_whether_the_window_can_play_sound(monkeypatch, tmp_path):
    """Without libpulse Qt Multimedia cannot load (the fix: its Debian package); with it,
    a PulseAudio (or PipeWire) socket found means sound, none a window without it."""
    monkeypatch.delenv("PULSE_SERVER", raising=False)
    report = diagnostics.Report()
    diagnostics.sound_output(report, fake_ldd(["libpulse.so.0"]), sockets=[])
    (check,) = report.checks
    assert not check.ok and not check.required and "libpulse.so.0" in check.detail
    assert check.fix == "apt-get install libpulse0"
    report = diagnostics.Report()
    diagnostics.sound_output(report, fake_ldd([]), sockets=[tmp_path / "native"])
    (check,) = report.checks
    assert not check.ok and "no PulseAudio or PipeWire server found" in check.detail
    (tmp_path / "native").touch()
    report = diagnostics.Report()
    diagnostics.sound_output(report, fake_ldd([]), sockets=[tmp_path / "native"])
    (check,) = report.checks
    assert check.ok and str(tmp_path / "native") in check.detail
    monkeypatch.setenv("PULSE_SERVER", f"unix:{tmp_path / 'elsewhere'}")  # (the tests' own)
    report = diagnostics.Report()
    diagnostics.sound_output(report, fake_ldd([]), sockets=[tmp_path / "native"])
    (check,) = report.checks
    assert not check.ok and "no PulseAudio server at" in check.detail


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


def test_doctor_says_which_encoders_keep_ten_bits():
    # "ok encoder VP9 libvpx-vp9" said nothing of this build's libvpx being 8-bit only,
    # where a 10-bit source then loses two bits (the export warns; doctor did not)
    import av

    from aquarelle.media.video_writer import CODECS, deep_format

    report = diagnostics.Report()
    diagnostics.encoders(report)
    lines = {c.name: c.detail for c in report.checks}
    for label, codec in (("H.265", "h265"), ("VP9", "vp9"), ("ProRes", "prores")):
        spec = CODECS[codec]
        formats = {f.name for f in av.codec.Codec(spec.encoder, "w").video_formats or ()}
        ten = spec.deep_pix_fmt in formats
        assert bool(deep_format(spec)) == ten
        assert lines[f"encoder {label}"].startswith(spec.encoder + (
            " (deep sources written 10-bit" if ten else
            " (8-bit only in this build: 10-bit sources lose 2 bits)"))
    assert lines["encoder H.264"] == "libx264"  # written 8-bit always (said on export)


def _without(monkeypatch, *modules: str) -> None:
    """find_spec finds none of `modules`, as where they are not installed."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in modules else real(name, *a))


def test_doctor_says_which_ray_is_installed_without_importing_it():
    import importlib.metadata
    import importlib.util
    import subprocess
    import sys

    code = ("import sys; from aquarelle.cli.main import main; main(['doctor']); "
            "print('imported ray:', 'ray' in sys.modules)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    line = next(x for x in res.stdout.splitlines() if "cluster (Ray)" in x)
    if importlib.util.find_spec("ray") is None:
        assert line.startswith("-- ") and "pip install 'aquarelle[cluster]'" in line
    else:
        assert line.startswith("ok ") and f"ray {importlib.metadata.version('ray')}" in line
        assert ("needs grpcio" in line) == (importlib.util.find_spec("grpc") is None), line
    assert "imported ray: False" in res.stdout  # its metadata says; importing takes seconds


def test_doctor_says_how_to_get_ray_when_it_is_missing(capsys, monkeypatch):
    import tomllib

    _without(monkeypatch, "ray")
    assert main(["doctor"]) == 0  # optional: only --cluster needs it
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "cluster (Ray)" in x)
    assert line.startswith("-- ") and "Ray is not installed" in line
    assert line.endswith("render --cluster needs it): pip install 'aquarelle[cluster]'")
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    extra = pyproject["project"]["optional-dependencies"]["cluster"]  # the extra named
    assert any(r.startswith("ray[client]") for r in extra)


def test_doctor_says_ray_client_needs_grpcio(monkeypatch):
    pytest.importorskip("ray")
    _without(monkeypatch, "grpc")
    report = diagnostics.Report()
    diagnostics.cluster(report)
    (check,) = report.checks
    assert check.ok and not check.required
    assert "not --cluster ray://HOST:PORT: Ray Client needs grpcio " \
           "(pip install 'aquarelle[cluster]')" in check.detail


def test_a_config_folder_that_cannot_be_made_is_a_problem_with_its_fix(capsys, monkeypatch,
                                                                      tmp_path):
    # XDG_CONFIG_HOME at a regular file said "-- ... cannot be created" and still ended with
    # "Everything Aquarelle needs works on this machine." and exit 0
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocker))
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "!! config folder" in out
    assert f"{blocker}/aquarelle cannot be created: {blocker} is a file, not a folder" in out
    assert "\nTo fix:\n" in out and f"  move the file {blocker} away; or set " \
           f"XDG_CONFIG_HOME to a writable folder (now {blocker})" in out
    assert "Everything Aquarelle needs works" not in out


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_folder_that_refuses_new_folders_is_found_by_trying(capsys, monkeypatch):
    # /proc looks writable to root (os.access says yes) but takes no folder: doctor said
    # "ok config folder /proc/xx/aquarelle (will be created on first save)"
    monkeypatch.setenv("XDG_CONFIG_HOME", "/proc/xx")
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "config folder" in x)
    assert line.startswith("!! ") and "/proc/xx/aquarelle cannot be created: /proc takes no " \
                                      "new files or folders" in line
    assert "  /proc takes no new folders: choose a writable place for them" in out
    assert not Path("/proc/xx").exists()


def test_the_folder_probe_leaves_nothing_and_its_failure_is_reported(tmp_path):
    import errno

    ok, detail, fix = diagnostics.folder_state(tmp_path / "a" / "b")
    assert ok and detail == f"{tmp_path / 'a' / 'b'} (will be created on first save)"
    assert not fix and list(tmp_path.iterdir()) == []  # tried, and nothing left behind

    def read_only(folder: Path) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    ok, detail, fix = diagnostics.folder_state(tmp_path, probe=read_only)
    assert not ok and detail == f"{tmp_path} takes no new files or folders (Read-only file " \
                                "system)"
    assert fix == f"{tmp_path} takes no new folders: choose a writable place for them"


def test_doctor_names_the_presets_folder_of_each_style(capsys, own_config):
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    presets = own_config / "aquarelle" / "presets"
    line = next(x for x in out.splitlines() if "user presets" in x)
    assert line.endswith(f"{presets} (will be created on first save); each style's in its own "
                         f"folder: {presets}/STYLE/ (e.g. watercolor/)")
    assert not own_config.exists()
