#!/usr/bin/env bash
# Set up (if needed) and open the Aquarelle desktop app: on the webcam if there is one, else on
# the bundled demo clip. Extra arguments go to `aquarelle` (e.g. a file to open).
# Without a display (a server, CI), the app runs inside a virtual X server (Xvfb).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run-app: no display found; running inside Xvfb (xvfb-run)" >&2
  exec xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/aquarelle "$@"
fi
exec .venv/bin/aquarelle "$@"
