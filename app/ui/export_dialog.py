"""The export settings dialog: the command line's options (codec, quality, size, range, audio,
subtitles, tags and chapters, the GPU's encoder and decoder)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from PyQt6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QWidget,
)

from ..media.atomic import probe_writable
from ..media.export import default_codec
from ..media.export_options import fit_frame, resolve_size
from ..media.hw_encoders import HARDWARE
from ..media.image_read import os_reason
from ..media.paths import file_in_the_way, is_part_of
from ..media.video_writer import CODECS, CONTAINERS, EXTENSION_FOR_CODEC, encoded_size
from .settings import ExportMemory

# (name, the standard frame: long x short side; None: the source's size). The picture is
# fitted in the frame turned as it is: a portrait video's 1080p is 1080x1920, not 1920 wide.
SIZES: tuple[tuple[str, tuple[int, int] | None], ...] = (
    ("Same as the source", None), ("4K", (3840, 2160)), ("1080p", (1920, 1080)),
    ("720p", (1280, 720)), ("480p", (854, 480)), ("360p", (640, 360)))
# Each size as remembered for the next export: a rule that fits any video, not its pixels
SIZE_KEYS = tuple("source" if frame is None else name for name, frame in SIZES)
FILTERS = "MP4 video (*.mp4);;Matroska (*.mkv);;QuickTime (*.mov);;WebM (*.webm);;All files (*)"
# The encoder's and decoder's choices (--encoder / --decoder): label, value
CODERS: tuple[tuple[str, str], ...] = (
    ("Automatic: the GPU's where one works", "auto"), ("Software (CPU)", "software"),
    ("GPU only (fails without one)", "hardware"))


def start_at(position: float) -> float:
    """A Start that exports the frame at `position` first: its time to the millisecond above
    (a range starts with the frame on screen at its start, one starting less than a
    millisecond before it named so: frame_range.snapped_start; to the millisecond below,
    the frame before would be on screen there, and exported first for a moment)."""
    return math.ceil(position * 1000 - 1e-6) / 1000


def end_after(position: float) -> float:
    """An End that exports the frame at `position` last: the millisecond after its time (a
    range holds the frames before its end; the next frame is a frame period later)."""
    return start_at(position) + 0.001


@dataclass(frozen=True)
class ExportChoice:
    """What the dialog returns: where, and the export options that differ from defaults."""

    path: Path
    codec: str
    crf: int | None
    size: tuple[int, int] | None  # the upright size painted (--size; None: the source's)
    start: float
    end: float | None
    audio: bool
    encoder: str = "auto"  # hw_encoders.CHOICES
    decoder: str = "auto"  # hw_decoders.CHOICES
    subtitles: bool = True  # False: --no-subtitles
    metadata: bool = True  # False: --no-metadata


Painted = Callable[[tuple[int, int]], tuple[int, int]]


def size_choices(size: tuple[int, int], sar: Fraction = Fraction(1),
                 painted: Painted | None = None, encoded: Painted | None = None
                 ) -> list[tuple[str, tuple[int, int] | None]]:
    """The Size list for a video of upright `size` pixels shaped `sar`, painted by a look
    whose picture for a frame of a size is `painted(size)` (None: the frame's size; an
    upscaler enlarges it, a side-by-side stereo pair doubles its width): each choice's
    label with the size it writes (an enlargement of the source before painting said), and
    the size to paint at for it (--size; None: the source's). A standard size is the file
    written fitted in that frame, whatever the look makes of the frames. `encoded`: the
    size the codec writes a picture at (an odd one padded), said where it pads."""
    def paint(s: tuple[int, int]) -> tuple[int, int]:
        return painted(s) if painted is not None else s

    def padded(s: tuple[int, int]) -> str:
        p = encoded(s) if encoded is not None else s
        return f", padded to {p[0]}x{p[1]}" if p != s else ""

    w, h = size
    shown = resolve_size((-1, h), size, sar) if sar != 1 else size
    natural = paint(size)
    kx, ky = natural[0] / w, natural[1] / h
    choices: list[tuple[str, tuple[int, int] | None]] = []
    for name, frame in SIZES:
        if frame is None:  # its pixels kept, and their shape (non-square: shown otherwise)
            as_shown = f", shown {shown[0]}x{shown[1]}" if shown != size else ""
            written = f", written {natural[0]}x{natural[1]}" if natural != size else ""
            choices.append((f"{name} ({w}x{h}{as_shown}{written}{padded(natural)})", None))
            continue
        if natural == size:
            at = fit_frame(frame, size, sar)
        else:  # the picture written fitted in the frame: painted at that over the look's
            out = fit_frame(frame, natural, sar)
            wide = resolve_size((_even(out[0] / kx), -1), size, sar)
            tall = resolve_size((-1, _even(out[1] / ky)), size, sar)
            fits = [s for s in (wide, tall) if _within(paint(s), out)]
            at = max(fits, key=lambda s: s[0] * s[1]) if fits else min(
                (wide, tall), key=lambda s: s[0] * s[1])
        out = paint(at)
        if at == shown:
            note = ", the source's size" if shown == size else ", the source's size shown"
        elif at[1] > h:  # painted at more lines than the file has
            note = f", enlarged from {w}x{h}"
        else:
            note = ""
        choices.append((f"{name} ({out[0]}x{out[1]}{note}{padded(out)})", at))
    return choices


def _even(x: float) -> int:
    """The even size at most `x` (what is painted fits the frame)."""
    return max(2, math.floor(x / 2 + 1e-9) * 2)


def _within(size: tuple[int, int], box: tuple[int, int]) -> bool:
    return size[0] <= box[0] and size[1] <= box[1]


class ExportDialog(QDialog):
    """Asks where and how to export a video of upright `size` (pixels shaped
    `pixel_aspect`), offering the `remembered` choices of the last export; `choice()` (and
    `memory()`, to remember) after `exec()` returned Accepted."""

    def __init__(self, source: Path, folder: Path, duration: float | None,
                 position: float | None, parent: QWidget | None = None, *,
                 size: tuple[int, int], pixel_aspect: Fraction = Fraction(1),
                 remembered: ExportMemory | None = None,
                 painted: Painted | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Export {source.name}")
        self.source = source
        self.duration = duration
        self.position = position or 0.0
        last = remembered or ExportMemory()
        form = QFormLayout(self)

        suffix = last.container if last.container in CONTAINERS else ".mp4"
        self.path_edit = QLineEdit(str(folder / f"{source.stem}-watercolor{suffix}"), self)
        browse = QPushButton("Browse\u2026", self)
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        form.addRow("File", row)

        self.codec = QComboBox(self)
        for name in CODECS:
            self.codec.addItem(name, name)
        self.codec.currentIndexChanged.connect(self._codec_changed)
        form.addRow("Codec", self.codec)
        self.crf = QSpinBox(self)
        self.crf.setToolTip("Constant rate factor: lower is better quality and larger files")
        form.addRow("Quality (CRF)", self.crf)

        self.size = QComboBox(self)
        self._sized = (size, pixel_aspect, painted)
        self.sizes = size_choices(size, pixel_aspect, painted)
        for (label, _), (_, frame) in zip(self.sizes, SIZES, strict=True):
            self.size.addItem(label, frame[1] if frame else None)  # data: the lines, 1080
        self.size.setToolTip("The standard sizes fit the picture turned as it is (a portrait "
                             "video's 1080p is 1080 wide); one above the source's enlarges "
                             "it before painting")
        form.addRow("Size", self.size)

        self.start = self._time_spin()
        self.end = self._time_spin()
        if duration:
            self.end.setValue(duration)
        form.addRow("Start (s)", self._with_here(self.start, start_at))
        form.addRow("End (s)", self._with_here(self.end, end_after))

        self.audio = QCheckBox("Keep the sound", self)
        self.audio.setChecked(True)
        form.addRow("Audio", self.audio)
        self.subtitles = QCheckBox("Keep the subtitles", self)
        self.subtitles.setChecked(True)
        self.subtitles.setToolTip("Copy the subtitle tracks (converted where the format needs "
                                  "it: mov_text in .mp4/.mov, WebVTT in .webm)")
        form.addRow("Subtitles", self.subtitles)
        self.metadata = QCheckBox("Keep the tags, chapters and cover", self)
        self.metadata.setChecked(True)
        self.metadata.setToolTip("The file's title, comment..., the tracks' languages and names, "
                                 "the chapters and the cover picture")
        form.addRow("Tags", self.metadata)

        self.encoder = self._coders(last.encoder, "Encode H.264 and H.265 on the GPU's encoder "
                                    "(NVENC, Quick Sync, AMF, VideoToolbox, Media "
                                    "Foundation) where one works, else in software")
        form.addRow("Encoder", self.encoder)
        self.decoder = self._coders(last.decoder, "Decode the file on the GPU (NVDEC, VAAPI, "
                                    "D3D11, VideoToolbox) where it decodes its first frame, "
                                    "else in software: the same frames either way")
        form.addRow("Decoder", self.decoder)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel, self)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        if ok is not None:
            ok.setText("Export")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self._offer(last, CONTAINERS[suffix])

    def _offer(self, last: ExportMemory, container: str) -> None:
        """Show the last export's choices, each that still applies (the codec one this kind
        of file holds, the quality one of its range, a size of the list); defaults else (the
        command line's codec: one that keeps a deep source's bits, H.265 Main 10...)."""
        spec = None if last.codec_default else CODECS.get(last.codec)
        if spec is None or container not in spec.containers:
            spec = CODECS[default_codec(self.source, container).name]
        self.codec.blockSignals(True)
        self.codec.setCurrentIndex(self.codec.findData(spec.name))
        self.codec.blockSignals(False)
        self._codec_changed()
        if spec.name == last.codec and last.crf is not None \
                and spec.default_crf is not None and 0 <= last.crf <= spec.max_crf:
            self.crf.setValue(last.crf)
        self.size.setCurrentIndex(SIZE_KEYS.index(last.size) if last.size in SIZE_KEYS else 0)
        self.audio.setChecked(last.audio)
        self.subtitles.setChecked(last.subtitles)
        self.metadata.setChecked(last.metadata)

    def _coders(self, current: str, tip: str) -> QComboBox:
        box = QComboBox(self)
        for label, value in CODERS:
            box.addItem(label, value)
        box.setCurrentIndex(max(0, box.findData(current)))
        box.setToolTip(tip)
        return box

    def _time_spin(self) -> QDoubleSpinBox:
        spin = QDoubleSpinBox(self)
        spin.setDecimals(3)  # a millisecond: every frame's time has a value of its own
        spin.setRange(0.0, self.duration or 1e6)
        spin.setSingleStep(0.5)
        return spin

    def _with_here(self, spin: QDoubleSpinBox, value: Callable[[float], float]
                   ) -> QHBoxLayout:
        here = QPushButton("Current position", self)
        here.setToolTip("The frame on screen: the first one exported (Start), or the last "
                        "(End)")
        here.clicked.connect(lambda: spin.setValue(value(self.position)))
        row = QHBoxLayout()
        row.addWidget(spin, 1)
        row.addWidget(here)
        return row

    def _codec_changed(self) -> None:
        spec = CODECS[self.codec.currentData()]
        self.crf.setEnabled(spec.default_crf is not None)
        if spec.default_crf is not None:
            self.crf.setRange(0, spec.max_crf)
            self.crf.setValue(spec.default_crf)
        # only H.264 and H.265 have GPU encoders: the others are encoded in software
        self.encoder.setEnabled(spec.name in HARDWARE)
        self.sizes = size_choices(*self._sized, lambda s: encoded_size(*s, spec))
        for i, (label, _) in enumerate(self.sizes):  # (an odd size padded, by this codec)
            self.size.setItemText(i, label)
        path = Path(self.path_edit.text())
        if CONTAINERS.get(path.suffix.lower()) not in spec.containers:  # keep what can hold it
            self.path_edit.setText(str(path.with_suffix(EXTENSION_FOR_CODEC[spec.name])))

    def accept(self) -> None:
        """Refuse a range that holds nothing, a name that is the video itself or lies in no
        folder, or a file name whose kind cannot hold the codec, with the dialog still open
        to mend it (after it closed, the choices were lost)."""
        end = self.end.value()
        if 0 < end <= self.start.value():
            QMessageBox.warning(self, "Export", f"The end ({end:.3f} s) must be after the "
                                f"start ({self.start.value():.3f} s).")
            return
        problem = self._place_problem()
        if problem is not None:
            QMessageBox.warning(self, "Export", problem)
            return
        spec = CODECS[self.codec.currentData()]
        suffix = Path(self.path_edit.text()).suffix.lower()
        container = CONTAINERS.get(suffix)
        if container is not None and container not in spec.containers:
            fits = sorted(e for e, c in CONTAINERS.items() if c in spec.containers)
            QMessageBox.warning(self, "Export", f"{self.codec.currentText()} cannot go into "
                                f"{suffix} files: choose another codec, or a name ending "
                                f"{', '.join(fits)}.")
            return
        super().accept()

    def _place_problem(self) -> str | None:
        """What is wrong with the file name asked for, if anything."""
        text = self.path_edit.text().strip()
        if not text:
            return "Name the file to export to."
        dst = output_path(Path(text).expanduser(), self.codec.currentData())
        if is_part_of(dst, self.source):
            return f"{dst.name} is the video being exported: choose another name."
        if not dst.parent.is_dir():
            if (place := file_in_the_way(dst.parent)) is not None:
                return f"{place} is a file, not a folder: choose where to export to."
            return f"The folder {dst.parent} does not exist."
        if dst.is_dir():
            return f"{dst} is a folder: name the file to export to."
        try:
            probe_writable(dst)
        except OSError as e:
            return f"Cannot write into {dst.parent}: {os_reason(e)}."
        return None

    def _browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export to", self.path_edit.text(), FILTERS)
        if path:
            self.path_edit.setText(path)

    def memory(self) -> ExportMemory:
        """The choices to offer the next export (its size as a rule, not this video's)."""
        spec = CODECS[self.codec.currentData()]
        suffix = Path(self.path_edit.text()).suffix.lower()
        container = CONTAINERS[suffix if suffix in CONTAINERS else EXTENSION_FOR_CODEC[spec.name]]
        offered = default_codec(self.source, container).name
        return ExportMemory(
            codec=spec.name, codec_default=spec.name == offered,
            crf=self.crf.value() if spec.default_crf is not None else None,
            size=SIZE_KEYS[self.size.currentIndex()], audio=self.audio.isChecked(),
            subtitles=self.subtitles.isChecked(), metadata=self.metadata.isChecked(),
            container=suffix if suffix in CONTAINERS else "",
            encoder=self.encoder.currentData(), decoder=self.decoder.currentData())

    def choice(self) -> ExportChoice:
        """The dialog's answer."""
        spec = CODECS[self.codec.currentData()]
        end = self.end.value()
        full = self.duration is not None and end >= self.duration - 1e-3
        return ExportChoice(
            path=output_path(Path(self.path_edit.text().strip()).expanduser(), spec.name),
            codec=spec.name,
            crf=self.crf.value() if spec.default_crf is not None else None,
            size=self.sizes[self.size.currentIndex()][1], start=self.start.value(),
            end=None if full or end <= 0 else end, audio=self.audio.isChecked(),
            encoder=self.encoder.currentData() if spec.name in HARDWARE else "auto",
            decoder=self.decoder.currentData(), subtitles=self.subtitles.isChecked(),
            metadata=self.metadata.isChecked())


def output_path(path: Path, codec: str) -> Path:
    """The file a name typed in the dialog stands for: where it has no extension, the one
    of the codec's usual container."""
    return path if path.suffix else path.with_suffix(EXTENSION_FOR_CODEC[codec])
