#!/usr/bin/env bash
# The GPU benchmark kit: on a machine with an NVIDIA GPU and no network, install the carried
# wheels (.whl) and GL libraries (.gl), open an EGL context on the GPU, and print the tables
# BENCHMARKS.md uses: still and video frame times with per-pass GPU times at 1280x720,
# 1920x1080 and 3840x2160, export frames per second, the live table (bench-live) and every
# style (filters, stereo, upscale) against its OpenCV equivalent (bench --filters).
# Results also go to $OUT (if set).
#
#   bash scripts/gpu-kit/run.sh            # on the GPU machine (carry .whl and .gl)
#   SIZES=1280x720 RUNS=3 bash scripts/gpu-kit/run.sh   # a quick proof anywhere (llvmpipe)
set -uo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-python3}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
SIZES=${SIZES:-1280x720,1920x1080,3840x2160}
RUNS=${RUNS:-20}
EXPORT_SECONDS=${EXPORT_SECONDS:-4}
LIVE_SECONDS=${LIVE_SECONDS:-20}

if [ -d .gl ] && ls .gl/*.deb >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
nv=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$nv" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nv
site=$(mktemp -d)
if ls .whl/*.whl >/dev/null 2>&1; then
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target "$site" .whl/*.whl || exit 1
fi
# The package from this checkout, without building it: app/ is the import package aquarelle
# (resources.py finds shaders/ and assets/ beside it).
ln -s "$PWD/app" "$site/aquarelle"
export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1

"$PY" - <<'PY' || exit 1
from aquarelle.engine import create_headless_context, renderer_string
ctx = create_headless_context()
print("GL renderer:", renderer_string(ctx))
PY
"$PY" -m aquarelle bench --runs "$RUNS" --sizes "$SIZES" 2>&1 | tee "$OUT/bench.md"
"$PY" -m aquarelle bench-export --seconds "$EXPORT_SECONDS" 2>&1 | tee "$OUT/bench-export.md"
"$PY" -m aquarelle bench-live --seconds "$LIVE_SECONDS" 2>&1 | tee "$OUT/bench-live.md"
"$PY" -m aquarelle bench --filters --runs "$RUNS" 2>&1 | tee "$OUT/bench-filters.md"
echo "kit: tables in $OUT"
