"""PyInstaller runtime hook: give a windowed executable (Windows' Aquarelle.exe, which has no
console) somewhere to write.

There, sys.stdout and sys.stderr are None and any print() would raise; stdout goes to the null
device and stderr to a log file (%LOCALAPPDATA%\\Aquarelle\\aquarelle.log) so that a crash leaves
a trace. Where a console exists (Linux, macOS, aquarelle-cli.exe) this does nothing.
"""

import os
import sys
import tempfile


def _log_file():
    base = os.environ.get("LOCALAPPDATA") or tempfile.gettempdir()
    try:
        folder = os.path.join(base, "Aquarelle")
        os.makedirs(folder, exist_ok=True)
        return open(os.path.join(folder, "aquarelle.log"), "a", encoding="utf-8", buffering=1)
    except OSError:
        return open(os.devnull, "w", encoding="utf-8")


if sys.stdout is None:
    sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the whole run
if sys.stderr is None:
    sys.stderr = _log_file()
