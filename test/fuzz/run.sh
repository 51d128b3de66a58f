#!/bin/bash
# test/fuzz/run.sh BUILD NAME [SECONDS] - run the libFuzzer target
# BUILD/fuzz/fuzz_NAME, single process, in two steps, each one check:
#
#   replay  every seed of make-seeds.sh (the test vectors, sql/sample.csv
#           and the committed corpus test/fuzz/corpus_NAME, which holds
#           every finding as a regression input), each run once;
#   fuzz    without SECONDS (CI): a fixed amount of work, FUZZ_RUNS inputs
#           (default 20000 for core, 3600 for sql, about 15 s each here)
#           from the seeds alone, in a fresh working corpus, so that the
#           same seed gives the same run on a slow machine or a fast one;
#           with SECONDS (make fuzz): SECONDS of wall time on the working
#           corpus BUILD/fuzz/corpus_NAME, which grows from run to run.
#
# The seed is FUZZ_SEED, default 1 (0: libFuzzer picks one); the seed used
# is printed. The committed corpora are never written to. Crash inputs go
# to BUILD/fuzz/crash-NAME-*. Prints libFuzzer's last status line, then
# "fuzz_NAME: N passed, N failed" (N of the two checks).
set -u
cd "$(dirname "$0")/../.."
build=$1 name=$2 seconds=${3:-}
bin=$build/fuzz/fuzz_$name
seeds=$build/fuzz/seeds/$name
log=$build/fuzz/fuzz_$name.log
seed=${FUZZ_SEED:-1}
case $name in core) runs=${FUZZ_RUNS:-20000} ;; *) runs=${FUZZ_RUNS:-3600} ;; esac
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
bash test/fuzz/make-seeds.sh "$build/fuzz/seeds" >/dev/null
pass=0 fail=0
norand=()

# 1. Replay: the inputs given as files, each run once (libFuzzer stops at
# the first that fails; the "Running:" line before the report names it).
inputs=("$seeds"/*)
"$bin" -runs=1 "${inputs[@]}" >"$log.replay" 2>&1
rc=$?
if [ "$rc" = 0 ]; then
  pass=$((pass + 1))
  echo "fuzz_$name replay: ${#inputs[@]} inputs, none failed"
else
  fail=$((fail + 1))
  echo "fuzz_$name replay: FAILED on $(grep -E '^Running: ' "$log.replay" | tail -1 | cut -c10-) (exit $rc)"
  grep -E 'ERROR|^fuzz_(core|sql):|runtime error|^0x|out-of-memory|timeout' "$log.replay" | head -20
fi

# 2. Fuzz.
if [ -n "$seconds" ]; then
  work=$build/fuzz/corpus_$name
  mkdir -p "$work"
  limit=(-max_total_time="$seconds")
  what="$seconds s"
else
  work=$build/fuzz/ci-corpus_$name      # fresh: the run depends on the seeds only
  rm -rf "$work"; mkdir -p "$work"
  limit=(-runs="$runs" -reload=0)   # no timed corpus reloads
  what="$runs runs"
  # Without address randomization: libFuzzer takes operands of the
  # target's comparisons, pointers among them, into its dictionary, so
  # with ASLR two runs of one seed part after a few hundred inputs.
  if setarch "$(uname -m)" -R true 2>/dev/null; then
    norand=(setarch "$(uname -m)" -R)
  else
    what="$what (ASLR on: setarch -R is not allowed here, runs of one seed may differ)"
  fi
fi
"${norand[@]}" "$bin" "${limit[@]}" -seed="$seed" -print_final_stats=1 -max_len=${FUZZ_MAX_LEN:-4096} \
  -timeout=30 -rss_limit_mb=4096 -artifact_prefix="$build/fuzz/crash-$name-" \
  "$work" "$seeds" >"$log" 2>&1
rc=$?
used=$(grep -oE 'INFO: Seed: [0-9]+' "$log" | head -1 | grep -oE '[0-9]+$')
if [ -n "$seconds" ]; then
  echo "fuzz_$name: $what, seed ${used:-$seed}"
else
  echo "fuzz_$name: $what, seed ${used:-$seed} (FUZZ_SEED=${used:-$seed} repeats it)"
fi
grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$log" | tail -1
grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$log"
if [ "$rc" = 0 ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  grep -E 'ERROR|^fuzz_(core|sql):|runtime error|Test unit written|^0x|out-of-memory|timeout' "$log" | head -20
  echo "fuzz_$name: to replay the input: $bin CRASH-FILE (above); add it to test/fuzz/corpus_$name"
fi
echo "fuzz_$name: $pass passed, $fail failed"
[ "$fail" = 0 ]
