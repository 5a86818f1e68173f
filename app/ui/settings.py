"""Persistent settings (QSettings): window geometry, sources, style, parameter values."""

from __future__ import annotations

import contextlib
import json
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from PyQt6.QtCore import QByteArray, QSettings

from ..engine.renderer import MAX_VIDEO_LINES, MIN_VIDEO_LINES, VIDEO_LINES
from ..media.hw_encoders import CHOICES
from ..platforms import current_config_dir, current_legacy_settings_files
from .reasons import short_reason

ORGANIZATION = "Aquarelle"
APPLICATION = "Aquarelle"
MAX_RECENT = 8


SETTINGS_FILE = "settings.ini"


@dataclass(frozen=True)
class ExportMemory:
    """The export dialog's last choices, offered again by the next one (which takes its
    default for one that no longer applies: a codec its kind of file cannot hold...)."""

    codec: str = ""  # "": none chosen yet
    # the codec was the one offered for that source (the command line's: H.265 for a 10-bit
    # one): the next export is offered its own source's, not this one's again
    codec_default: bool = False
    crf: int | None = None  # None: the codec's default (or a codec without one)
    size: str = "source"  # a rule, fitted to each video: "source", "4K", "1080p", ...
    audio: bool = True
    subtitles: bool = True
    metadata: bool = True
    container: str = ""  # the file's extension (".mkv"); "": the codec's
    encoder: str = "auto"  # hw_encoders.CHOICES
    decoder: str = "auto"


@dataclass(frozen=True)
class PlacePlayed:
    """Where a video was left: its source (a SourceSpec's text), the time of the frame on
    screen (seconds, as the file's frames are timed), whether it was paused, and the file's
    size and modification time (ns) then: a file changed since starts from its beginning."""

    source: str
    seconds: float
    paused: bool
    size: int
    mtime_ns: int


def default_settings_file() -> Path:
    """The settings file; the first time, a copy of the file earlier versions kept where
    Qt's INI settings go (the user's settings are not lost by the move)."""
    path = current_config_dir() / SETTINGS_FILE
    if not path.exists():
        for old in current_legacy_settings_files():
            if old.is_file():
                with contextlib.suppress(OSError):
                    path.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(old, path)
                break
    return path


def _print_problem(text: str) -> None:
    print(f"aquarelle: {text}", file=sys.stderr)


def _why_unwritable(path: Path) -> str:
    """Why the settings file at `path` cannot be written, in short words, found by trying
    (QSettings says only that it could not)."""
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        return f"{folder} is not a folder"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
        if path.exists():
            with open(path, "ab"):
                pass
    except OSError as e:
        return short_reason(e)
    return "the file could not be written"


class Settings:
    """Typed access to the app's QSettings.

    `path` names an INI file (tests point it at a temporary folder); without it
    settings.ini in the system's folder for Aquarelle's settings, next to the user presets
    (`platforms.config_dir`), taking over an earlier version's file once.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        if path is None:
            path = default_settings_file()
        self.q = QSettings(str(path), QSettings.Format.IniFormat)
        # told "Settings could not be saved to PATH: WHY" once (the window shows it; else
        # stderr), not at every change; again only after a save that worked
        self.on_problem: Callable[[str], None] = _print_problem
        self._told = False

    @property
    def path(self) -> str:
        return self.q.fileName()

    def sync(self) -> None:
        """Write pending changes to disk; a file that cannot be written is told once."""
        self.q.sync()
        if self.q.status() != QSettings.Status.AccessError:
            self._told = False
            return
        if not self._told:
            self._told = True
            self.on_problem(f"Settings could not be saved to {self.path}: "
                            f"{_why_unwritable(Path(self.path))}")

    # -- generic ---------------------------------------------------------------------------
    def _get(self, key: str, default: Any, kind: type) -> Any:
        value = self.q.value(key, default)
        if value is None:
            return default
        try:
            if kind is bool:
                return value if isinstance(value, bool) else str(value).lower() in ("1", "true")
            return kind(value)
        except (TypeError, ValueError):
            return default

    # -- window ----------------------------------------------------------------------------
    def geometry(self) -> QByteArray | None:
        value = self.q.value("window/geometry")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def set_geometry(self, data: QByteArray) -> None:
        self.q.setValue("window/geometry", data)

    def window_state(self) -> QByteArray | None:
        value = self.q.value("window/state")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def set_window_state(self, data: QByteArray) -> None:
        self.q.setValue("window/state", data)

    # -- sources ---------------------------------------------------------------------------
    def last_source(self) -> str | None:
        """"camera:ID", "file:PATH" or "demo"."""
        value = self._get("source/last", "", str)
        return value or None

    def set_last_source(self, spec: str) -> None:
        self.q.setValue("source/last", spec)
        if spec.startswith("file:"):
            recent = [r for r in self.recent_files() if r != spec[5:]]
            self.q.setValue("source/recent", json.dumps([spec[5:]] + recent[:MAX_RECENT - 1]))

    def recent_files(self) -> list[str]:
        try:
            value = json.loads(self._get("source/recent", "[]", str))
        except ValueError:
            return []
        return [str(v) for v in value] if isinstance(value, list) else []

    def forget_recent(self, path: str | None = None) -> None:
        """Take `path` off the recent files (all of them without one)."""
        kept = [r for r in self.recent_files() if path is not None and r != path]
        self.q.setValue("source/recent", json.dumps(kept))

    def position(self) -> PlacePlayed | None:
        """Where the video last shown was left (see PlacePlayed); None for none (a still,
        a camera, or the entry is garbled)."""
        try:
            value = json.loads(self._get("source/position", "", str) or "null")
            place = PlacePlayed(str(value["source"]), float(value["seconds"]),
                                bool(value["paused"]), int(value["size"]),
                                int(value["mtime_ns"]))
        except (ValueError, TypeError, KeyError):
            return None
        if not 0.0 <= place.seconds < 1e9:
            return None  # (also NaN)
        return place

    def set_position(self, place: PlacePlayed | None) -> None:
        """Keep where a video was left (None: nothing to go back to)."""
        self.q.setValue("source/position", "" if place is None else json.dumps(asdict(place)))

    def loop(self) -> bool:
        return self._get("playback/loop", True, bool)

    def set_loop(self, on: bool) -> None:
        self.q.setValue("playback/loop", on)

    def muted(self) -> bool:
        return self._get("playback/muted", False, bool)

    def set_muted(self, on: bool) -> None:
        self.q.setValue("playback/muted", on)

    def last_dir(self, kind: str) -> str:
        """The folder last used for `kind` ("open", "snapshot", "record", "export")."""
        return self._get(f"dirs/{kind}", "", str)

    def set_last_dir(self, kind: str, folder: str | Path) -> None:
        self.q.setValue(f"dirs/{kind}", str(folder))

    # -- rendering -------------------------------------------------------------------------
    def style(self) -> str:
        return self._get("render/style", "watercolor", str)

    def set_style(self, name: str) -> None:
        self.q.setValue("render/style", name)

    def params(self, style: str) -> dict[str, Any]:
        """Saved parameter values of `style` (JSON-friendly: colours as #rrggbb)."""
        try:
            value = json.loads(self._get(f"params/{style}", "{}", str))
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    def set_params(self, style: str, values: dict[str, Any]) -> None:
        self.q.setValue(f"params/{style}", json.dumps(values, sort_keys=True))

    def preset(self, style: str) -> tuple[str | None, bool]:
        """The preset the saved values of `style` came from, and whether they were edited."""
        name = self._get(f"presets/{style}", "", str)
        return (name or None), self._get(f"presets/{style}_modified", True, bool)

    def set_preset(self, style: str, name: str | None, modified: bool) -> None:
        self.q.setValue(f"presets/{style}", name or "")
        self.q.setValue(f"presets/{style}_modified", bool(modified))

    def seed(self) -> int:
        value = self._get("render/seed", 0, int)
        return value if 0 <= value < 2**31 else 0

    def set_seed(self, seed: int) -> None:
        self.q.setValue("render/seed", int(seed))

    def scale(self) -> float:
        value = self._get("render/scale", 1.0, float)
        return value if 0.1 <= value <= 1.0 else 1.0  # also NaN from a garbled file

    def set_scale(self, scale: float) -> None:
        self.q.setValue("render/scale", float(scale))

    def video_lines(self) -> int:
        value = self._get("render/video_lines", VIDEO_LINES, int)
        return value if value == 0 or MIN_VIDEO_LINES <= value <= MAX_VIDEO_LINES \
            else VIDEO_LINES

    def set_video_lines(self, lines: int) -> None:
        self.q.setValue("render/video_lines", int(lines))

    def compare(self) -> str:
        return self._get("view/compare", "off", str)

    def set_compare(self, mode: str) -> None:
        self.q.setValue("view/compare", mode)

    def split(self) -> float:
        """The split compare's divider, a fraction of the view's width."""
        value = self._get("view/split", 0.5, float)
        return value if 0.0 <= value <= 1.0 else 0.5  # also NaN from a garbled file

    def set_split(self, fraction: float) -> None:
        self.q.setValue("view/split", float(fraction))

    def view(self) -> tuple[str, float, tuple[float, float]] | None:
        """The source last shown zoomed, its zoom (%) and the picture's point at the
        view's centre (0..1); None when the picture fitted (or the entry is garbled)."""
        try:
            value = json.loads(self._get("view/zoom", "", str) or "null")
            source, percent, (cx, cy) = value["source"], float(value["percent"]), \
                value["centre"]
            cx, cy = float(cx), float(cy)
        except (ValueError, TypeError, KeyError):
            return None
        if not isinstance(source, str) or not 1.0 <= percent <= 6400.0 \
                or not (-1.0 <= cx <= 2.0 and -1.0 <= cy <= 2.0):
            return None  # (also NaN)
        return source, percent, (cx, cy)

    def set_view(self, source: str | None, percent: float | None = None,
                 centre: tuple[float, float] = (0.5, 0.5)) -> None:
        """Keep a zoomed view of `source` (see view); fitted without a zoom."""
        if source is None or percent is None:
            self.q.setValue("view/zoom", "")
            return
        self.q.setValue("view/zoom", json.dumps(
            {"source": source, "percent": percent, "centre": list(centre)}))

    def theme(self) -> str:
        """"system", "light" or "dark"."""
        return self._get("view/theme", "system", str)

    def set_theme(self, theme: str) -> None:
        self.q.setValue("view/theme", theme)

    # -- export ----------------------------------------------------------------------------
    def coder(self, kind: str) -> str:
        """The export's last "encoder" or "decoder" choice (hw_encoders.CHOICES)."""
        value = str(self._get(f"export/{kind}", "auto", str))
        return value if value in CHOICES else "auto"

    def export_memory(self) -> ExportMemory:
        """The last export's choices (the defaults where none was saved or one is garbled)."""
        crf = self._get("export/crf", -1, int)
        return ExportMemory(
            codec=self._get("export/codec", "", str), crf=crf if crf >= 0 else None,
            codec_default=self._get("export/codec_default", False, bool),
            size=self._get("export/size", "source", str),
            audio=self._get("export/audio", True, bool),
            subtitles=self._get("export/subtitles", True, bool),
            metadata=self._get("export/metadata", True, bool),
            container=self._get("export/container", "", str),
            encoder=self.coder("encoder"), decoder=self.coder("decoder"))

    def set_export_memory(self, memory: ExportMemory) -> None:
        for key, value in asdict(memory).items():
            self.q.setValue(f"export/{key}", "" if value is None else value)

    # -- live ------------------------------------------------------------------------------
    def live_bool(self, key: str, default: bool) -> bool:
        return bool(self._get(f"live/{key}", default, bool))

    def live_float(self, key: str, default: float, lo: float, hi: float) -> float:
        value = self._get(f"live/{key}", default, float)
        return value if lo <= value <= hi else default  # also NaN from a garbled file

    def live_text(self, key: str, default: str) -> str:
        return str(self._get(f"live/{key}", default, str))

    def set_live(self, key: str, value: bool | float | str) -> None:
        self.q.setValue(f"live/{key}", value)
