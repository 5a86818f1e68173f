#!/usr/bin/env bash
# Prepare the GPU benchmark kit's carried files on a machine with network (run once, here):
#   .whl/  wheels the GPU machine lacks: moderngl, glcontext, PyAV (for its Python 3.12);
#          numpy, opencv-python-headless and pillow are already there (see the device notes)
#   .skdata/ scikit-image's data files the benchmarks read (the Motorcycle pair, photos)
#   .gl/   the GL vendor-neutral dispatch libraries (libEGL, libOpenGL ... as Debian packages)
# Both folders are ignored by git (.git/info/exclude) and stay under 64 MB together.
set -euo pipefail
cd "$(dirname "$0")/../.."
grep -qx '/.whl/' .git/info/exclude 2>/dev/null || echo '/.whl/' >> .git/info/exclude
grep -qx '/.gl/' .git/info/exclude 2>/dev/null || echo '/.gl/' >> .git/info/exclude
grep -qx '/.skdata/' .git/info/exclude 2>/dev/null || echo '/.skdata/' >> .git/info/exclude
PY=${PY:-python3}
mkdir -p .whl .gl
plat=()
for n in 2_28 2_27 2_17; do plat+=(--platform "manylinux_${n}_x86_64"); done
plat+=(--platform manylinux2014_x86_64)
for pkg in "moderngl==5.13.0" "glcontext==3.0.0" "av==18.1.0"; do
  "$PY" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
    --implementation cp "${plat[@]}" -d .whl "$pkg"
done
o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
mkdir -p /tmp/amd64/partial
apt-get "${o[@]}" update -qq
(cd .gl && apt-get "${o[@]}" download -qq libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
mkdir -p .skdata
skd=$("$PY" -c 'import skimage.data as d; print(d.data_dir)')
(cd "$skd" && cp motorcycle_left.png motorcycle_right.png motorcycle_disp.npz chelsea.png \
  astronaut.png rocket.jpg ihc.png hubble_deep_field.jpg coffee.png "$OLDPWD/.skdata/")
du -sh .whl .gl .skdata
