#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite: lint, engine, CLI, video and GUI tests.
# No GPU or display needed: OpenGL comes from Mesa llvmpipe via EGL; GUI tests run in Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check app tests scripts
# Test modules are shared between worker processes, a module to a worker, in the collected
# order (GUI modules first: tests/conftest.py); AQUARELLE_TEST_WORKERS=0 runs in one process.
# One worker more than the cores (at most 4): a worker waiting on a child process, a played
# clip's pace or a paint leaves its core idle (2 workers on 2 cores: 180% of the CPU with 3;
# the whole suite 590 -> 547 s on a fresh clone here).
workers=$(( $(nproc) + 1 ))
exec .venv/bin/python -m pytest -n "${AQUARELLE_TEST_WORKERS:-$(( workers < 4 ? workers : 4 ))}" \
  --dist loadfile --no-loadscope-reorder "$@"
