#!/bin/bash
# test/run-all.sh BUILD - run every test suite and add up their results.
#
# Each suite prints a line "NAME: N passed, N failed". The C tests of the
# core run once; the Tcl suite runs once per validator implementation
# this CPU supports (UTF8EXT_IMPL=...), so every SQL function is checked
# on every path. The last line is the total.
set -u
cd "$(dirname "$0")/.."
BUILD=${1:-build}
total_pass=0
total_fail=0

# run_suite LABEL COMMAND...: run it, show its output, add up its counts.
run_suite() {
  local label=$1; shift
  local out rc line p f
  out=$("$@" 2>&1); rc=$?
  echo "$out" | grep -v -E '^[a-z0-9_-]+( \([^)]*\))?: [0-9]+ passed, [0-9]+ failed$' || true
  line=$(echo "$out" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1)
  if [ -z "$line" ]; then
    echo "$label: no result line (exit $rc)"
    total_fail=$((total_fail + 1))
    return
  fi
  p=${line%% passed*}
  f=${line#*, }; f=${f%% failed}
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; fi
  echo "$label: $p passed, $f failed"
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
}

# The implementations this CPU runs: those utf8ext_impl() reports as chosen.
impls=()
for impl in scalar sse4 avx2 avx512 neon; do
  got=$(UTF8EXT_IMPL=$impl sqlite3 :memory: ".load ./utf8ext" "SELECT utf8ext_impl()" 2>/dev/null)
  [ "$got" = "$impl" ] && impls+=("$impl")
done
echo "implementations on this CPU: ${impls[*]}"
if [ ${#impls[@]} -eq 0 ]; then
  echo "run-all: ./utf8ext does not load in sqlite3; nothing to test"
  total_fail=$((total_fail + 1))
  impls=(none)
fi

# The core's C tests go through the dispatcher: run them on every path.
for impl in "${impls[@]}"; do
  run_suite "core [$impl]" env UTF8EXT_IMPL="$impl" "$BUILD/test/core_test" ${CORE_TEST_ARGS:-}
done
run_suite context "$BUILD/test/context_test" ${CORE_TEST_ARGS:-}
run_suite mojibake "$BUILD/test/mojibake_test" ${CORE_TEST_ARGS:-}
if [ -x "$BUILD/test/simd_test" ]; then
  run_suite simd "$BUILD/test/simd_test" ${SIMD_TEST_ARGS:-}
fi

# The embedding test (libutf8ext.a with Debian's libsqlite3), when built.
if [ -x "$BUILD/test/embed_test" ]; then
  run_suite embed "$BUILD/test/embed_test"
fi

# The C tests of the SQL layer (test/malloc_test.c, thread_test.c,
# limits_test.c), when built. Under AddressSanitizer they also check for
# leaks (tclsh below cannot).
c_env=()
if [ -n "${ASAN_OPTIONS:-}" ]; then
  c_env=(ASAN_OPTIONS="${ASAN_OPTIONS//detect_leaks=0/detect_leaks=1}")
fi
for t in malloc thread limits; do
  if [ -x "$BUILD/test/${t}_test" ]; then
    run_suite "$t" env "${c_env[@]}" "$BUILD/test/${t}_test"
  fi
done
# A short run of each fuzz target, one after the other (FUZZ_SECONDS
# each, default 15; 0 skips them), when built (they need clang).
if [ "${FUZZ_SECONDS:-15}" != 0 ]; then
  for t in core sql; do
    if [ -x "$BUILD/fuzz/fuzz_$t" ]; then
      run_suite "fuzz_$t" bash test/fuzz/run.sh "$BUILD" "$t" "${FUZZ_SECONDS:-15}"
    fi
  done
fi

# SAN_PRELOAD: sanitizer runtimes that tclsh needs to load a sanitized module.
tclsh_env=()
if [ -n "${SAN_PRELOAD:-}" ]; then tclsh_env=(LD_PRELOAD="$SAN_PRELOAD"); fi
# Bindings beyond Tcl: Debian's Python (its sqlite3 module loads extensions).
if [ -x /usr/bin/python3 ]; then
  run_suite python env "${tclsh_env[@]}" /usr/bin/python3 test/python_test.py
fi
# Install, dist and the static library's names, on a staged install.
# Node.js through better-sqlite3, built from source once (test/node_test.sh).
if [ -z "${SAN_PRELOAD:-}" ]; then
  run_suite install bash test/install_test.sh
  if command -v node >/dev/null && command -v npm >/dev/null; then
    run_suite node bash test/node_test.sh "$BUILD"
    # SQLite 3.26 to 3.53, from amalgamations in npm packages.
    run_suite sqlite-versions bash test/sqlite-versions.sh
  fi
fi

for impl in "${impls[@]}"; do
  for t in test/*.test; do
    run_suite "$(basename "$t" .test) [$impl]" \
      env "${tclsh_env[@]}" UTF8EXT_IMPL="$impl" tclsh "$t"
  done
done

echo "total: $total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
