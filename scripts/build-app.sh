#!/usr/bin/env bash
# Build the Aquarelle desktop app for this machine's platform with PyInstaller:
#   Linux: dist/Aquarelle/ (run dist/Aquarelle/Aquarelle), macOS: dist/Aquarelle.app.
# Needs the project's virtualenv (.venv, made by `python3.11 -m venv .venv` and
# `.venv/bin/pip install -e .`, or by scripts/setup.sh on Debian); installs PyInstaller into it
# if missing. Options: --clean (forget PyInstaller's cache first). See docs/packaging.md.
set -euo pipefail
cd "$(dirname "$0")/.."

PYINSTALLER_VERSION=6.22.3
PY=${AQUARELLE_PYTHON:-.venv/bin/python}

if [ ! -x "$PY" ]; then
  echo "build-app: no virtualenv at .venv; make one first:" >&2
  echo "  python3.11 -m venv .venv && .venv/bin/pip install -e ." >&2
  exit 1
fi
if ! "$PY" -c "import aquarelle" 2>/dev/null; then
  echo "build-app: aquarelle is not installed in $PY; run: $PY -m pip install -e ." >&2
  exit 1
fi
installed=$("$PY" -c "import PyInstaller; print(PyInstaller.__version__)" 2>/dev/null || true)
if [ "$installed" != "$PYINSTALLER_VERSION" ]; then
  echo "build-app: installing pyinstaller==$PYINSTALLER_VERSION into $PY" >&2
  "$PY" -m pip install -q "pyinstaller==$PYINSTALLER_VERSION"
fi

args=(--noconfirm --distpath dist --workpath build/pyinstaller)
if [ "${1:-}" = "--clean" ]; then
  args+=(--clean)
fi
rm -rf dist/Aquarelle dist/Aquarelle.app
"$PY" -m PyInstaller "${args[@]}" scripts/packaging/aquarelle.spec

if [ "$(uname)" = "Darwin" ]; then
  out=dist/Aquarelle.app
  exe=$out/Contents/MacOS/Aquarelle
else
  out=dist/Aquarelle
  exe=$out/Aquarelle
fi
echo "build-app: built $out ($(du -sh "$out" | cut -f1)); try: $exe --help" >&2
