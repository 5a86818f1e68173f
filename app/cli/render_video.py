"""`aquarelle render` for videos and batches (placeholder until the video export lands)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..engine.errors import AquarelleError


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Video-only options of `render`."""


def run(args: argparse.Namespace, src: Path, output: Path) -> int:
    if not src.exists():
        raise AquarelleError(f"no such file: {src}")
    raise AquarelleError(f"{src}: not an image format aquarelle reads")


def run_batch(args: argparse.Namespace, inputs: list[Path], output: Path) -> int:
    raise AquarelleError("batch rendering is not available yet")
