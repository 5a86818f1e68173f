"""Measurement reports: replace one marked section of a Markdown file (BENCHMARKS.md)."""

from __future__ import annotations

import re
from pathlib import Path


def replace_section(path: str | Path, name: str, markdown: str, heading: str = "") -> None:
    """Put `markdown` between `<!-- bench:NAME:begin -->` and `<!-- bench:NAME:end -->` in
    `path`, replacing what was there; appends the section (under `heading`) if it is missing."""
    path = Path(path)
    begin, end = f"<!-- bench:{name}:begin -->", f"<!-- bench:{name}:end -->"
    block = f"{begin}\n{markdown}\n{end}"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    if begin in text and end in text:
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, text,
                      flags=re.S)
    else:
        title = f"\n\n{heading}\n\n" if heading else "\n\n"
        text = text.rstrip() + title + block + "\n"
    path.write_text(text, encoding="utf-8")
