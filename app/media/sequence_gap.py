"""Where an image sequence's file numbers first skip (FFmpeg reads no further)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

from .paths import SEQUENCE_FIELD, sequence_files


@dataclass(frozen=True)
class SequenceGap:
    """Where an image sequence's numbers first skip. FFmpeg's image2 demuxer reads from the
    first number to the first one missing and no further (its numbers are its timestamps:
    frames after a gap cannot follow without closing it or leaving a hole)."""

    pattern: Path
    first: int  # the first number, read
    last: int  # the last number read; the gap follows it
    resumes: int  # the first number after the gap
    after: int  # numbered files after the gap, not read
    names: tuple[str, str, str]  # file names: the last read, first and last missing

    @property
    def read(self) -> int:
        """Files read: the numbers `first` to `last`."""
        return self.last - self.first + 1

    def describe(self, name: str | None = None) -> str:
        """One line for a warning, naming the sequence as `name` (default: its pattern)."""
        last, gap_from, gap_to = self.names
        missing = f"{gap_from} is" if gap_from == gap_to else f"{gap_from} to {gap_to} are"
        after = "the frame after the gap is" if self.after == 1 else \
            f"the {self.after} frames after the gap are"
        return (f"{name or self.pattern} stops at {last}: {missing} missing, and {after} "
                "not read")


def sequence_gap(pattern: str | Path) -> SequenceGap | None:
    """Where the files of an image-sequence pattern stop being numbered one after another
    (None: no gap)."""
    files = sequence_files(pattern)
    for (a, path), (b, _) in itertools.pairwise(files):
        if b > a + 1:
            p = Path(pattern)
            m = SEQUENCE_FIELD.search(p.name)
            assert m is not None
            width = int(m.group(1) or 0)
            named = [p.name[: m.start()] + f"{n:0{width}d}" + p.name[m.end():]
                     for n in (a + 1, b - 1)]
            after = len({n for n, _ in files if n > a})
            return SequenceGap(p, files[0][0], a, b, after, (path.name, *named))
    return None
