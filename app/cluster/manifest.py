"""The record of finished, verified chunks in a job's work folder, so that `--resume` skips
them. A manifest belongs to one source file (path, size, modification time), one plan and
one look and encoder: any difference starts the job afresh."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..media.atomic import atomic_output

MANIFEST = "manifest.json"
VERSION = 1


def source_facts(path: str | Path) -> dict[str, Any]:
    """What identifies the source: resolved path, size, modification time."""
    p = Path(path)
    st = p.stat()
    return {"path": str(p.resolve()), "bytes": st.st_size, "mtime_ns": st.st_mtime_ns}


@dataclass
class Manifest:
    """Finished chunks of one job: chunk index -> {file, frames, bytes}."""

    folder: Path
    key: dict[str, Any]
    chunks: dict[int, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, folder: str | Path, key: dict[str, Any]) -> Manifest:
        """The manifest in `folder` if it was made for `key`, else an empty one."""
        folder = Path(folder)
        try:
            data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
            if data.get("version") != VERSION or data.get("key") != _plain(key):
                return cls(folder, key)
            chunks = {int(k): dict(v) for k, v in data.get("chunks", {}).items()}
        except (OSError, ValueError, AttributeError, TypeError):
            return cls(folder, key)
        return cls(folder, key, chunks)

    def finished(self, index: int) -> dict[str, Any] | None:
        """The record of a chunk whose file is still there, unchanged in size."""
        rec = self.chunks.get(index)
        if rec is None:
            return None
        f = self.folder / rec["file"]
        try:
            if f.stat().st_size != rec["bytes"]:
                return None
        except OSError:
            return None
        return rec

    def add(self, index: int, file: Path, frames: int, missing: list[int] | None = None
            ) -> None:
        """Record a verified chunk (`missing`: the timestamps its source could not decode)
        and write the manifest (atomically)."""
        self.chunks[index] = {"file": file.name, "frames": frames,
                              "bytes": file.stat().st_size, "missing": missing or []}
        self.save()

    def forget(self, index: int) -> None:
        if self.chunks.pop(index, None) is not None:
            self.save()

    def save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        data = {"version": VERSION, "key": _plain(self.key),
                "chunks": {str(k): v for k, v in sorted(self.chunks.items())}}
        with atomic_output(self.folder / MANIFEST) as tmp:
            tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
            os.chmod(tmp, 0o644)


def _plain(value: Any) -> Any:
    """JSON's view of a value (tuples as lists, keys as strings): what a reload compares."""
    return json.loads(json.dumps(value, default=str))
