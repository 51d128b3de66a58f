#!/bin/bash
# sql/demo.sh - the main job: import the sample CSV into a database, audit
# it, repair it (logging every original), audit it again, and guard the
# table (utf8_guard) so bad text stays out; all in the real sqlite3 shell.
set -euo pipefail
cd "$(dirname "$0")/.."
db=${DEMO_DB:-build/sample.db}
mkdir -p "$(dirname "$db")"
rm -f "$db"
run() { sqlite3 "$db" -cmd '.load ./utf8ext' "$@"; }

echo "== utf8ext $(run 'SELECT utf8ext_version()') ($(run 'SELECT utf8ext_impl()')), SQLite $(run 'SELECT sqlite_version()')"
echo "== importing sql/sample.csv into $db (sql/import.sql)"
run '.read sql/import.sql'
echo "== audit (sql/audit.sql)"
run '.read sql/audit.sql'
echo
echo "== repair (sql/repair.sql)"
run '.read sql/repair.sql'
echo
echo "== audit again"
run '.read sql/audit.sql'
echo
echo "== guard (sql/constraints.sql)"
run '.read sql/constraints.sql'
echo "== an ill-formed INSERT, which the table now refuses"
if out=$(run "INSERT INTO imported(name) VALUES (CAST(x'5A6FEB' AS TEXT))" 2>&1); then
  echo "not refused: the guard is missing" >&2; exit 1
fi
echo "refused, as intended: ${out#Error: }"
