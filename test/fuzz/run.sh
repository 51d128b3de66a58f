#!/bin/bash
# test/fuzz/run.sh BUILD NAME SECONDS - run the libFuzzer target
# BUILD/fuzz/fuzz_NAME for SECONDS seconds, single process, on a working
# corpus under BUILD/fuzz/corpus_NAME seeded from make-seeds.sh (the
# committed corpora are never written to). Crash inputs go to
# BUILD/fuzz/crash-NAME-*. Prints libFuzzer's last status line, then
# "fuzz_NAME: 1 passed, 0 failed" when nothing was found, else
# "fuzz_NAME: 0 passed, 1 failed".
set -u
cd "$(dirname "$0")/../.."
build=$1 name=$2 seconds=$3
bin=$build/fuzz/fuzz_$name
work=$build/fuzz/corpus_$name
log=$build/fuzz/fuzz_$name.log
bash test/fuzz/make-seeds.sh "$build/fuzz/seeds" >/dev/null
mkdir -p "$work"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
  "$bin" -max_total_time="$seconds" -print_final_stats=1 -max_len=${FUZZ_MAX_LEN:-4096} \
  -timeout=30 -rss_limit_mb=4096 -artifact_prefix="$build/fuzz/crash-$name-" \
  "$work" "$build/fuzz/seeds/$name" >"$log" 2>&1
rc=$?
grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$log" | tail -1
grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$log"
if [ "$rc" = 0 ]; then
  echo "fuzz_$name: 1 passed, 0 failed"
else
  grep -E 'INFO: Seed:|ERROR|fuzz_core:|fuzz_sql:|runtime error|Test unit written|^0x|out-of-memory|timeout' "$log" | head -20
  echo "fuzz_$name: 0 passed, 1 failed"
fi
exit $rc
