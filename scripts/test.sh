#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite: lint, engine, CLI, video and GUI tests.
# No GPU or display needed: OpenGL comes from Mesa llvmpipe via EGL; GUI tests run in Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check app tests scripts
exec .venv/bin/python -m pytest "$@"
