"""Copy the GPU kit's tables into BENCHMARKS.md: each section the kit replaced in its copy
($OUT/BENCHMARKS.md, brought back from the GPU machine) goes under the "GPU figures" chapter
as `gpu-NAME`, next to this machine's (llvmpipe) figures, which stay as they are.

Run: python scripts/gpu-kit/collect.py KIT_COPY.md [--into BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from aquarelle.eval.report import replace_section

SECTIONS = {  # kit section -> heading in the GPU chapter
    "stereo-match": "### Stereo matching on the GPU: `scripts/eval_stereo_match.py`",
    "upscale": "### Super-resolution on the GPU: `scripts/eval_upscale.py`",
    "draft-profile": "### Drafts on the GPU: `scripts/gpu-kit/profile_drafts.py`",
    "frame": "### Still and video frames on the GPU: `aquarelle bench`",
    "filters": "### Image filters on the GPU: `aquarelle bench --filters`",
    "export": "### Video export on the GPU machine: `aquarelle bench-export`",
    "live": "### Live on the GPU machine: `aquarelle bench-live`",
    "yuv": "### Colour conversion for the encoder on the GPU: `scripts/bench_yuv.py`",
}


def section(text: str, name: str) -> str | None:
    tag = re.escape(name)
    m = re.search(rf"<!-- bench:{tag}:begin -->\n(.*?)\n<!-- bench:{tag}:end -->", text, flags=re.S)
    return m.group(1) if m else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kit_copy", type=Path)
    ap.add_argument("--into", type=Path,
                    default=Path(__file__).resolve().parents[2] / "BENCHMARKS.md")
    args = ap.parse_args(argv)
    kit = args.kit_copy.read_text(encoding="utf-8")
    for name, heading in SECTIONS.items():
        body = section(kit, name)
        if body is None or "llvmpipe" in body:  # a table the kit did not make there
            print(f"collect: no GPU table for {name}", file=sys.stderr)
            continue
        replace_section(args.into, f"gpu-{name}", body, heading)
        print(f"collect: {name} -> gpu-{name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
