#!/bin/bash
# test/fuzz/make-seeds.sh DIR - write the seed corpora of the fuzz targets
# into DIR/core and DIR/sql: every test vector of test/core_test.c (the
# input column, hex) as one file, the lines of sql/sample.csv, and the
# committed seeds of test/fuzz/corpus_core and corpus_sql.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/fuzz/seeds}
mkdir -p "$out/core" "$out/sql"
i=0
grep -oE '^ *\{ "[^"]+", "[0-9A-Fa-f]*"' test/core_test.c | sed -E 's/.*, "([0-9A-Fa-f]*)"$/\1/' |
while read -r hexin; do
  i=$((i+1))
  bytes=$(printf '%s' "$hexin" | sed 's/../\\x&/g')   # \xHH escapes, for printf
  printf "$bytes" > "$out/core/vector-$i"
  # fuzz_sql reads "VALUE \0 R \0 RULE \0 ENC" (see fuzz_sql.c).
  { printf "$bytes"; printf '\0?\0run\0mutf8'; } > "$out/sql/vector-$i"
done
n=0
while IFS= read -r line; do
  n=$((n+1))
  printf '%s' "$line" > "$out/core/sample-$n"
  printf '%s\0\0byte\0latin1' "$line" > "$out/sql/sample-$n"
done < sql/sample.csv
cp test/fuzz/corpus_core/* "$out/core/" 2>/dev/null || true
cp test/fuzz/corpus_sql/* "$out/sql/" 2>/dev/null || true
echo "seeds: $(ls "$out/core" | wc -l) core, $(ls "$out/sql" | wc -l) sql in $out"
