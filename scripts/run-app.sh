#!/usr/bin/env bash
# Set up (if needed) and open the Aquarelle desktop app: on the webcam if there is one, else on
# the bundled demo clip. Extra arguments go to `aquarelle` (e.g. a file to open).
# Without a display (a server, CI), the app runs on a virtual screen (Xvfb), and this says
# where and how to look at it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec .venv/bin/aquarelle "$@"
fi

# A free display number: no X socket and no lock file for it.
n=99
while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
size=1600x1000
Xvfb ":$n" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
if [ ! -e "/tmp/.X11-unix/X$n" ]; then
  echo "run-app: no display here, and the virtual screen (Xvfb :$n) did not start" >&2
  exit 1
fi
cat >&2 <<EOF
run-app: no display here (DISPLAY and WAYLAND_DISPLAY are unset), so the app runs on a
run-app: virtual screen, DISPLAY=:$n ($size, Xvfb), which nobody sees as it is. To see it:
run-app:   - from your own computer, with VNC: on this machine  apt-get install x11vnc  and
run-app:     x11vnc -display :$n -localhost -forever ; then  ssh -L 5900:localhost:5900 THIS_HOST
run-app:     and point a VNC viewer at localhost:5900
run-app:   - or start this script over  ssh -X  (or on a desktop): the window opens there
run-app:   - pictures without the window:  .venv/bin/aquarelle render IN -o OUT.png
run-app: Ctrl+C closes the app and the virtual screen.
EOF
DISPLAY=":$n" .venv/bin/aquarelle "$@"
