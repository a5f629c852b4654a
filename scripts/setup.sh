#!/usr/bin/env bash
# Installs the Debian packages qnm-predict needs (idempotent; quiet when all is
# there), then configures and builds into build/. Run as root on Debian 12.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake pkg-config
  libeigen3-dev libboost-dev libboost-math-dev libcli11-dev libfccp-dev catch2
  nlohmann-json3-dev libotf2-trace-dev otf2-tools
  gnuplot-nox libgnuplot-iostream-dev libboost-iostreams-dev libboost-filesystem-dev
  libboost-regex-dev
  fontconfig fonts-dejavu-core fonts-liberation
  libopenmpi-dev openmpi-bin
  clang libclang-rt-14-dev
  libarchive-dev libpugixml-dev zlib1g-dev
  libbz2-dev liblzma-dev libzstd-dev liblz4-dev nettle-dev  # libarchive's decompressors and its zip reader's crypto, linked statically with it
  python3
  chromium  # the headless-browser test of the HTML report (tests/report_browser_test.sh)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  # With recommends, as the project is developed and tested (gnuplot's cairo
  # terminals need fonts; OpenMPI's launcher needs its recommended helpers).
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs" 2>&1 | grep -vE '^\[ *[0-9]+%\]|^Consolidate|^Scanning|^Built target' || true
test -x build/qnm-predict
