#!/bin/bash
# test/tsan.sh BUILD - the runs of "make test-tsan": test/thread_test.c
# built with ThreadSanitizer and the extension linked in, then the same
# program loading the instrumented BUILD/utf8ext.so (its sqlite3_api
# pointer). A data race stops a run (halt_on_error, exit 66); so does
# TSAN_TIMEOUT seconds (default 600: a run takes under a minute here), so a
# broken build that loops fails instead of hanging CI. Prints each run's
# line and "tsan: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
build=${1:-build-tsan}
pass=0 fail=0

# run LABEL ENV...: one run of thread_test with 5 rounds.
run() {
  local label=$1 out rc line p f; shift
  out=$(timeout -k 10 "${TSAN_TIMEOUT:-600}" env TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$@" \
        "$build/test/thread_test" 5 2>&1); rc=$?
  line=$(echo "$out" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1)
  if [ "$rc" != 0 ] || [ -z "$line" ]; then
    echo "$out" | tail -40
    p=${line%% passed*}; p=${p:-0}
    echo "tsan $label: $p passed, 1 failed (exit $rc)"
    pass=$((pass + p)); fail=$((fail + 1))
    return
  fi
  p=${line%% passed*}; f=${line#*, }; f=${f%% failed}
  echo "tsan $label: $p passed, $f failed"
  pass=$((pass + p)); fail=$((fail + f))
}

run linked
run loaded UTF8EXT_LOAD="$build/utf8ext.so"
echo "tsan: $pass passed, $fail failed"
[ "$fail" = 0 ]
