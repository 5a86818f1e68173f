#!/usr/bin/env bash
# Installs what Aquarelle needs on a fresh Debian machine (Python 3.11, root, maybe no display,
# no GPU): system GL/EGL/X libraries, a virtualenv in .venv, the package and test tools.
# Idempotent: a second run only checks. Used by scripts/run-app.sh and scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libegl1 libgl1 libgl1-mesa-dri libglx-mesa0 libxcb-cursor0 libxkbcommon-x11-0
          libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0
          libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libfontconfig1 libdbus-1-3 xvfb xauth
          libpulse0)  # (Qt Multimedia's sound output: the window plays a file's sound)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing Debian packages: ${missing[*]} (run as root, or install them)" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=.venv/.aquarelle-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[test]"
  touch "$stamp"
fi
