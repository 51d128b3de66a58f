#!/bin/bash
# tools/wheel.sh - build the Python wheel (make wheel).
#
# Stages packaging/python in $BUILD/wheel/src with the module (./utf8ext.so,
# built by make), utf8ext.h (the version), LICENSE and README.md, and runs
# Debian's python3 -m build --wheel --no-isolation there: setuptools and
# wheel come from Debian packages, nothing from PyPI. The wheel lands in
# $BUILD/wheel/dist. tools/wheel.sh --deps installs python3-build,
# python3-venv and python3-pip with apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
PY=${PYTHON:-/usr/bin/python3}
if [ "${1:-}" = --deps ]; then
  need=()
  for p in python3 python3-build python3-setuptools python3-wheel python3-venv python3-pip; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
  done
  if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${need[@]}" >/dev/null
  fi
  exit 0
fi
so=${SO:-utf8ext.so}
[ -f "$so" ] || { echo "wheel: $so missing (run make first)" >&2; exit 1; }
version=$(sed -n 's/.*define UTF8EXT_VERSION "\(.*\)".*/\1/p' utf8ext.h)
out=$build/wheel
rm -rf "$out"; mkdir -p "$out"
cp -r packaging/python "$out/src"
cp "$so" "$out/src/utf8ext/"
cp utf8ext.h LICENSE README.md "$out/src/"
sed -i "s/@VERSION@/$version/" "$out/src/utf8ext/__init__.py"
(cd "$out/src" && "$PY" -m build --wheel --no-isolation --outdir ../dist) >"$out/build.log" 2>&1 || {
  tail -30 "$out/build.log" >&2; echo "wheel: build failed (log: $out/build.log)" >&2; exit 1; }
ls "$out"/dist/*.whl
