#!/bin/bash
# test/model_check.sh CORPUS - the committed model of real text
# (core/model_tables.c and .h) is exactly what tools/gen-model.py makes of
# the corpus that tools/corpus.py fetched into CORPUS: the tables are
# generated files, and this is the proof. Prints "model: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
corpus=${1:-build/corpus}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
if ! python3 tools/gen-model.py "$corpus/train" "$out"; then
  echo "model: tools/gen-model.py failed"
  echo "model: 0 passed, 1 failed"
  exit 1
fi
for f in model_tables.c model_tables.h; do
  if cmp -s "$out/$f" "core/$f"; then
    echo "ok: core/$f is what tools/gen-model.py makes of $corpus/train"
    pass=$((pass+1))
  else
    echo "FAIL: core/$f differs from what tools/gen-model.py makes of $corpus/train:"
    diff "$out/$f" "core/$f" | head -5
    fail=$((fail+1))
  fi
done
echo "model: $pass passed, $fail failed"
[ "$fail" = 0 ]
