#!/bin/bash
# test/valgrind.sh [LIB] - run the SQL scripts of sql/ (import, audit,
# repair with each method, mojibake too, undo, constraints, schema) through the real
# sqlite3 shell under valgrind, the way sql/demo.sh and test/sql.test run
# them, with the extension LIB (default ./utf8ext) loaded. Every step must
# finish with no valgrind error and no definitely lost block.
# Prints "valgrind: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
lib=${1:-./utf8ext}
if ! command -v valgrind >/dev/null 2>&1; then
  echo "valgrind is not installed (apt-get install valgrind)"
  echo "valgrind: 0 passed, 1 failed"
  exit 1
fi
db=build/valgrind-$$.db
log=build/valgrind-$$.log
mkdir -p build
rm -f "$db"
pass=0 fail=0

# step NAME ARGS...: run sqlite3 on the scratch database under valgrind.
step() {
  local name=$1; shift
  # The shell's own exit status (1 or 19 after an expected SQL error) is
  # not ours to judge; valgrind's 99 and its reports are. "Possibly lost"
  # blocks of a shell that exits after an error are the shell's.
  # A step still running after VALGRIND_TIMEOUT seconds (default 600; each
  # takes seconds here) failed: a broken build must not hang CI.
  timeout -k 10 "${VALGRIND_TIMEOUT:-600}" valgrind -q --error-exitcode=99 \
    --leak-check=full --errors-for-leak-kinds=definite --log-file="$log" \
    sqlite3 "$db" -cmd ".load $lib" "$@" >/dev/null 2>&1
  rc=$?
  if [ $rc != 99 ] && [ $rc != 124 ] && [ $rc != 137 ] && ! grep -qE 'definitely lost|Invalid (read|write|free)|uninitialised|Mismatched|overlap' "$log"; then
    pass=$((pass+1))
  else
    fail=$((fail+1))
    echo "valgrind: $name (exit $rc):"
    head -40 "$log"
  fi
}

step import       '.read sql/import.sql'
step audit        '.read sql/audit.sql'
step repair       '.read sql/repair.sql'
step audit-again  '.read sql/audit.sql'
step undo         '.read sql/undo.sql'
step repair-cp1252 '.parameter set @method cp1252' '.read sql/repair.sql'
step undo-again   '.read sql/undo.sql'
step repair-mojibake "CREATE TABLE mj(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
                      INSERT INTO mj VALUES ('CafÃ©', 'Itâ€™s'), ('x', CAST(x'C383C2A9FF' AS TEXT))" \
                  '.parameter set @method mojibake' '.read sql/repair.sql' \
                  "SELECT * FROM utf8_audit_summary(NULL)"
step undo-mojibake '.read sql/undo.sql'
step repair-again '.read sql/repair.sql'
step constraints  '.read sql/constraints.sql' \
                  "INSERT INTO imported(name) VALUES (CAST(x'5A6FEB' AS TEXT))"
rm -f "$db"
step schema       '.read sql/schema.sql' "INSERT INTO person(name) VALUES ('Zoë')" \
                  "INSERT INTO person(name) VALUES (CAST(x'5A6FEB' AS TEXT))" \
                  "INSERT INTO import_error(value) VALUES (x'41C0')" \
                  "SELECT name, problem FROM person, import_error"
step functions    "SELECT utf8_valid(x'C080'), utf8_fix(x'61F18080E180C262806380BF64', '?', 'run'),
                   utf8_recode(x'EDA0BDEDB880', 'cesu8'), utf8_length(x'C0'), utf8_error(x'E4BD'),
                   utf8_encode(65, 0x1F600), utf8ext_impl()" \
                  "SELECT * FROM utf8_codepoints(x'41E4BDF09F9880C0')" \
                  "SELECT utf8_check(x'C0')" "SELECT * FROM utf8_audit(NULL)" \
                  "SELECT * FROM utf8_audit('nosuch')" "SELECT utf8_fix('a', x'FF')"
rm -f "$db" "$log"
echo "valgrind: $pass passed, $fail failed"
[ "$fail" = 0 ]
