#!/bin/bash
# sql/demo.sh - the main job: import the sample CSV into a database, audit
# it, repair it, audit it again; all in the real sqlite3 shell.
set -euo pipefail
cd "$(dirname "$0")/.."
db=${DEMO_DB:-build/sample.db}
mkdir -p "$(dirname "$db")"
rm -f "$db"
run() { sqlite3 "$db" -cmd '.load ./utf8ext' "$@"; }

echo "== utf8ext $(run 'SELECT utf8ext_version()') ($(run 'SELECT utf8ext_impl()')), SQLite $(run 'SELECT sqlite_version()')"
echo "== importing sql/sample.csv into $db"
run '.read sql/import.sql'
echo "== audit"
run '.read sql/audit.sql'
echo
echo "== repair"
run '.read sql/repair.sql'
echo
echo "== audit again"
run '.read sql/audit.sql'
