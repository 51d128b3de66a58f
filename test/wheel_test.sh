#!/bin/bash
# test/wheel_test.sh - the Python wheel, built and used (make test-wheel).
#
# Builds the wheel (tools/wheel.sh), installs it into a fresh venv of
# Debian's python3 with "pip install --no-index" (no index is reached), and
# runs test/wheel_test.py with it from an empty directory. If another
# python3 is on PATH whose sqlite3 cannot load extensions (pyenv builds
# often cannot), the wheel is installed there too and load() must fail with
# the clear error. Everything lives in a temporary directory, removed on
# every exit path. Prints "wheel: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
top=$PWD
BUILD=${BUILD:-build}
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "wheel: $1 FAILED${2:+: $2}"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP
finish() { echo "wheel: $pass passed, $fail failed"; [ "$fail" = 0 ]; exit $?; }
version=$(sed -n 's/.*define UTF8EXT_VERSION "\(.*\)".*/\1/p' utf8ext.h)

timeout 300 bash tools/wheel.sh --deps || { bad "installing python3-build, python3-venv"; finish; }
timeout 120 make -s all >"$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; bad "make"; finish; }
timeout 300 env BUILD="$BUILD" bash tools/wheel.sh >"$tmp/wheel.log" 2>&1 || { cat "$tmp/wheel.log"; bad "make wheel"; finish; }
whl=$(ls "$BUILD"/wheel/dist/utf8ext-"$version"-py3-none-linux_*.whl 2>/dev/null)
[ -f "$whl" ] && ok || { bad "platform wheel built" "$(ls "$BUILD"/wheel/dist)"; finish; }
whl=$top/$whl

timeout 120 /usr/bin/python3 -m venv "$tmp/venv" >"$tmp/venv.log" 2>&1 || { cat "$tmp/venv.log"; bad "venv"; finish; }
if timeout 120 env PIP_DISABLE_PIP_VERSION_CHECK=1 "$tmp/venv/bin/pip" install -q --no-index "$whl" \
     >"$tmp/pip.log" 2>&1; then ok
else cat "$tmp/pip.log"; bad "pip install --no-index"; finish; fi

mkdir "$tmp/empty"
out=$(cd "$tmp/empty" && env -u PYTHONPATH -u LD_LIBRARY_PATH timeout 60 \
      "$tmp/venv/bin/python" "$top/test/wheel_test.py" "$version" 2>&1)
last=$(tail -1 <<<"$out")
if [[ $last =~ ^wheel\ \(python\):\ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  pass=$((pass + BASH_REMATCH[1])); fail=$((fail + BASH_REMATCH[2]))
  [ "${BASH_REMATCH[2]}" = 0 ] || sed '$d' <<<"$out"
else echo "$out"; bad "test/wheel_test.py ran"; fi

# From a directory holding utf8ext.so, as the repository root does after
# make: plain "import utf8ext" takes that file (docs/install.md says so);
# with -P, as the docs say, the installed package is imported and loads.
mkdir -p "$tmp/root" && cp "$top/${SO:-utf8ext.so}" "$tmp/root/utf8ext.so"
got=$(cd "$tmp/root" && "$tmp/venv/bin/python" -c 'import utf8ext' 2>&1)
[[ $got == *PyInit_utf8ext* ]] && ok || bad "plain import from beside utf8ext.so fails as docs/install.md says" "$got"
got=$(cd "$tmp/root" && "$tmp/venv/bin/python" -P -c 'import sqlite3, utf8ext; c = sqlite3.connect(":memory:"); utf8ext.load(c); print(utf8ext.__file__.startswith(__import__("sys").prefix), c.execute("SELECT utf8_valid(x'"'"'ff'"'"')").fetchone()[0])' 2>&1)
[ "$got" = "True 0" ] && ok || bad "python -P imports the installed package beside utf8ext.so" "$got"
grep -q "python3 -m venv .venv" docs/install.md && grep -q -- "-P -c 'import sqlite3, utf8ext" docs/install.md &&
  ok || bad "docs/install.md shows the venv and -P"

# A real Python without extension loading, when this machine has one.
other=$(command -v python3)
if [ -n "$other" ] && [ "$(readlink -f "$other")" != "$(readlink -f /usr/bin/python3)" ] &&
   "$other" -c 'import sqlite3,sys; sys.exit(hasattr(sqlite3.Connection,"enable_load_extension"))' 2>/dev/null &&
   "$other" -m venv "$tmp/venv2" >/dev/null 2>&1 &&
   PIP_DISABLE_PIP_VERSION_CHECK=1 "$tmp/venv2/bin/pip" install -q --no-index "$whl" >/dev/null 2>&1; then
  got=$(cd "$tmp/empty" && "$tmp/venv2/bin/python" -c '
import sqlite3, utf8ext
try:
    utf8ext.load(sqlite3.connect(":memory:"))
except RuntimeError as e:
    print(e)' 2>&1)
  [[ $got == *"cannot load extensions"* ]] && ok || bad "clear error on a Python without extension loading" "$got"
fi
finish
