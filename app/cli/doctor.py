"""`aquarelle doctor`: explain this machine (see aquarelle.diagnostics)."""

from __future__ import annotations

import argparse

from ..diagnostics import diagnose, format_report


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("doctor", help="check what this machine offers: OpenGL, Qt's system "
                                      "libraries, encoders, cameras, Ray (--cluster), the settings "
                                      "and presets folders (presets/STYLE/); exit 1 with "
                                      "the fixes when something does not work")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    report = diagnose()
    print(format_report(report))
    return 0 if report.ok else 1
