#!/bin/bash
# test/tools.sh - utf8ext in the tools SQLite users already reach for:
# sqlite-utils (--load-extension), litecli (.load), APSW (python3-apsw).
# Each loads ./utf8ext.so and runs an audit of the same small table, and
# must find exactly its two ill-formed values. DB Browser for SQLite is a
# desktop program: docs/install.md says how to load the module there.
# make test installs the three Debian packages (tools/install-deps.sh); a
# tool that is still missing is a failure, not a silent pass.
# The last line is "tools: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "tools: $1 FAILED: expected [$2], got [$3]"; }
ext=$PWD/utf8ext.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/t.db
sqlite3 "$db" "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT);
  INSERT INTO t(name) VALUES ('ok'), (CAST(x'5A6FEB' AS TEXT)), (CAST(x'C080' AS TEXT));"
query="SELECT count(*) AS n, group_concat(error) AS e FROM utf8_audit('t')"

# sqlite-utils: JSON rows.
want='[{"n": 2, "e": "truncated,overlong"}]'
got=$(sqlite-utils query "$db" "$query" --load-extension "$ext" 2>&1)
[ "$got" = "$want" ] && ok || bad sqlite-utils "$want" "$got"

# litecli: a special command and a query in one --execute.
got=$(litecli "$db" --csv -e ".load $ext; $query" 2>&1 | tr -d '"\r')
want=$'n,e\n2,truncated,overlong'
[ "$got" = "$want" ] && ok || bad litecli "$want" "$got"

# APSW, Debian's python3-apsw.
want="2 truncated,overlong"
got=$(/usr/bin/python3 - "$db" "${ext%.so}" "$query" 2>&1 <<'PY'
import sys, apsw
con = apsw.Connection(sys.argv[1])
con.enableloadextension(True)
con.loadextension(sys.argv[2])
n, e = next(con.cursor().execute(sys.argv[3]))
print(n, e)
PY
)
[ "$got" = "$want" ] && ok || bad apsw "$want" "$got"

echo "tools: $pass passed, $fail failed"
[ "$fail" = 0 ]
