#!/bin/bash
# test/cluster.sh - utf8ext in a 3-node dqlite cluster on 127.0.0.1
# (make test-cluster; with --demo, make cluster-demo narrates the same run).
#
# The nodes are Debian's dqlite-demo (go-dqlite over libdqlite; it joins
# nodes and promotes them to voters itself), each started with
# $BUILD/cluster/preload.so preloaded, which registers utf8ext in every
# SQLite connection of the process (tools/cluster_preload.c). The client
# is go-dqlite's dqlite shell. Every wait is bounded; every address is on
# 127.0.0.1; every process started here is stopped on every exit path.
# CLUSTER_PORT (default 19101) is the base of the ports used: nodes at
# +1..+3 (+11..+13 for the demo's HTTP API), the lone node at +5 (+15),
# so 19102-19104, 19112-19114, 19106 and 19116 by default.
# Stopped by TERM, INT or HUP, it stops its nodes and exits within seconds:
# it runs itself in a process group of its own (setsid) and, on a signal,
# signals that whole group (nodes and the dqlite client with them, which
# runs under timeout --foreground so that it stays in the group).
# Prints "cluster: N passed, N failed"; --deps installs go-dqlite.
set -u
cd "$(dirname "$0")/.."
top=$PWD
BUILD=${BUILD:-build}
if [ "${1:-}" = --deps ]; then
  need=()
  for p in go-dqlite libsqlite3-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
  done
  if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
  exit 0
fi
if [ -z "${CLUSTER_INNER:-}" ]; then
  CLUSTER_INNER=1 setsid bash "$top/test/cluster.sh" "$@" &
  inner=$!
  trap 'kill -TERM -- -$inner 2>/dev/null' TERM INT HUP
  while :; do wait "$inner"; rc=$?; kill -0 "$inner" 2>/dev/null || exit $rc; done
fi
demo=0; [ "${1:-}" = --demo ] && demo=1
say() { [ "$demo" = 1 ] && printf '%s\n' "$*"; return 0; }
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "cluster: $1 FAILED${2:+: $2}"; }
preload=$top/$BUILD/cluster/preload.so
P=${CLUSTER_PORT:-19101}
tmp=$(mktemp -d)
declare -A pid=()

stop() {  # stop node $1: TERM, then KILL after 5 s
  local p=${pid[$1]:-}; [ -n "$p" ] || return 0
  kill -TERM "$p" 2>/dev/null
  for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; unset "pid[$1]"
}
cleanup() { for n in "${!pid[@]}"; do stop "$n"; done; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
finish() { echo "cluster: $pass passed, $fail failed"; [ "$fail" = 0 ]; exit $?; }

# start N [JOIN] [plain]: node N on 127.0.0.1:P+N; "plain" leaves utf8ext out.
start() {
  local n=$1 join=${2:-} pre=$preload
  [ "${3:-}" = plain ] && pre=
  mkdir -p "$tmp/n$n"
  ( trap '' PIPE
    LD_PRELOAD=$pre exec dqlite-demo -a 127.0.0.1:$((P + 10 + n)) -d 127.0.0.1:$((P + n)) \
      -D "$tmp/n$n" ${join:+-j "$join"} >"$tmp/n$n.log" 2>&1 ) &
  pid[$n]=$!
}
S=127.0.0.1:$((P + 1)),127.0.0.1:$((P + 2)),127.0.0.1:$((P + 3))
q()  { timeout --foreground 20 dqlite -s "${SERVERS:-$S}" utf8 "$1" 2>&1 | grep -v -e '^Usage:' -e '^  dqlite' -e '^Flags:' -e '^  -' -e '^$'; }
# until SECONDS CMD...: retry CMD every 0.2 s until it succeeds or time is up.
until_ok() { local end=$((SECONDS + $1)); shift
  while ! "$@" >/dev/null 2>&1; do [ $SECONDS -ge $end ] && return 1; sleep 0.2; done; }
three_voters() { [ "$(q .cluster | grep -c '|voter$')" = 3 ]; }

[ -f "$preload" ] || { bad "$preload missing (make test-cluster builds it)"; finish; }
command -v dqlite-demo >/dev/null || { bad "dqlite-demo missing (go-dqlite)"; finish; }

say "== three nodes on 127.0.0.1:$((P + 1))-$((P + 3)), utf8ext preloaded in each"
start 1
until_ok 20 timeout --foreground 5 dqlite -s 127.0.0.1:$((P + 1)) utf8 .leader || { bad "node 1 up"; finish; }
start 2 127.0.0.1:$((P + 1)); start 3 127.0.0.1:$((P + 1))
if until_ok 40 three_voters; then ok; else bad "three voters" "$(q .cluster)"; finish; fi
cl=$(q .cluster); say "$cl"
[ -z "$(awk -F'|' '$2 !~ /^127\.0\.0\.1:/' <<<"$cl")" ] && ok || bad "only loopback addresses" "$cl"

say "== a table that refuses ill-formed text"
q "CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT CHECK (utf8_valid(name)))" >/dev/null
q "INSERT INTO people VALUES (1, 'café'), (2, 'plain')" >/dev/null
got=$(q "SELECT count(*) FROM people"); [ "$got" = 2 ] && ok || bad "good INSERT" "$got"
got=$(q "INSERT INTO people VALUES (3, CAST(x'63E9' AS TEXT))")
say "INSERT x'63E9': $got"
[[ $got == *"CHECK constraint failed"* ]] && ok || bad "bad INSERT refused" "$got"

say "== utf8_audit and utf8_repair on the cluster's database"
q "CREATE TABLE imported(id INTEGER PRIMARY KEY, name TEXT)" >/dev/null
q "INSERT INTO imported VALUES (1, CAST(x'63E9' AS TEXT)), (2, 'ok'), (3, CAST(x'C0AF' AS TEXT))" >/dev/null
got=$(q "SELECT count(*) FROM utf8_audit('imported')"); say "audit: $got ill-formed values"
[ "$got" = 2 ] && ok || bad "utf8_audit finds 2" "$got"
got=$(q "SELECT utf8_repair('imported')"); say "repair: $got values changed"
[ "$got" = 2 ] && ok || bad "utf8_repair changes 2" "$got"
got=$(q "SELECT count(*) FROM utf8_audit('imported')")
[ "$got" = 0 ] && ok || bad "audit clean after repair" "$got"
got=$(q "SELECT count(*) FROM utf8_repair_log")
[ "$got" = 2 ] && ok || bad "repair log replicated" "$got"
before=$(q "SELECT id, hex(name) FROM people UNION ALL SELECT id + 100, hex(name) FROM imported ORDER BY 1")

say "== the leader is killed"
leader=$(q .leader); say "leader: $leader"
ln=$(( ${leader##*:} - P ))
if [ -n "${pid[$ln]:-}" ]; then kill -KILL "${pid[$ln]}"; wait "${pid[$ln]}" 2>/dev/null; unset "pid[$ln]"; ok
else bad "leader is one of ours" "$leader"; finish; fi
new_leader() { local l; l=$(q .leader); [ -n "$l" ] && [ "$l" != "$leader" ] && [[ $l == 127.0.0.1:* ]]; }
if until_ok 60 new_leader; then ok; else bad "a new leader within 60 s" "$(q .leader)"; finish; fi
say "new leader: $(q .leader)"
after=$(q "SELECT id, hex(name) FROM people UNION ALL SELECT id + 100, hex(name) FROM imported ORDER BY 1")
[ -n "$before" ] && [ "$after" = "$before" ] && ok || bad "every committed row on the new leader" "$after"
got=$(q "INSERT INTO people VALUES (4, CAST(x'FF' AS TEXT))")
[[ $got == *"CHECK constraint failed"* ]] && ok || bad "new leader refuses a bad INSERT" "$got"
say "$(q "SELECT id, name FROM people ORDER BY id")"
for n in "${!pid[@]}"; do stop "$n"; done

say "== a leader without utf8ext: a lone node with the same table, restarted without it"
L=127.0.0.1:$((P + 5))
start 5
until_ok 20 timeout --foreground 5 dqlite -s $L utf8 .leader || bad "lone node up"
SERVERS=$L q "CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT CHECK (utf8_valid(name)))" >/dev/null
SERVERS=$L q "INSERT INTO people VALUES (1, 'café')" >/dev/null
stop 5
start 5 "" plain
until_ok 20 timeout --foreground 5 dqlite -s $L utf8 .leader || bad "lone node up again"
got=$(SERVERS=$L q "SELECT count(*) FROM people"); say "SELECT count(*): $got"
[ "$got" = 1 ] && ok || bad "reads still work without utf8ext" "$got"
got=$(SERVERS=$L q "INSERT INTO people VALUES (2, 'plain')"); say "INSERT 'plain': $got"
[[ $got == *"unknown function: utf8_valid"* ]] && ok || bad "every INSERT fails without utf8ext" "$got"
stop 5
# The ports docs/cluster.md names are the ones used (checked while node 5 ran).
for port in $((P + 1)) $((P + 2)) $((P + 3)) $((P + 5)) $((P + 11)) $((P + 12)) $((P + 13)) $((P + 15)); do
  [ "$P" != 19101 ] || grep -q "\b$port\b" docs/cluster.md || bad "docs/cluster.md names port $port"
done
[ "$P" != 19101 ] || ! grep -q 'ports start at\|first of the ports' docs/cluster.md || bad "docs/cluster.md says the ports start at the base"
# Stopped with TERM once its nodes are up, a run exits and leaves no node
# within 10 s (it used to wait up to 20 s for a dqlite client).
if [ -z "${CLUSTER_NESTED:-}" ]; then
  env -u CLUSTER_INNER CLUSTER_NESTED=1 CLUSTER_PORT=$((P + 50)) bash test/cluster.sh >/dev/null 2>&1 &
  sub=$!
  until_ok 30 timeout 5 dqlite -s 127.0.0.1:$((P + 51)) utf8 .leader
  sleep 1; t0=$SECONDS; kill -TERM "$sub"
  for _ in $(seq 100); do kill -0 "$sub" 2>/dev/null || break; sleep 0.1; done
  gone=$(kill -0 "$sub" 2>/dev/null && echo "script still running" || true)
  gone+=$(pgrep -f "dqlite-demo .*127.0.0.1:($((P + 51))|$((P + 52))|$((P + 53))|$((P + 55)))" || true)
  [ -z "$gone" ] && ok || bad "TERM stops the run and its nodes within 10 s ($((SECONDS - t0)) s)" "$gone"
  kill -KILL "$sub" 2>/dev/null; wait "$sub" 2>/dev/null
fi
left=$(pgrep -f "dqlite-demo .*-D $tmp/" || true)
[ -z "$left" ] && ok || bad "every node stopped" "$left"
finish
