#!/bin/bash
# test/newcomer.sh - what a new user meets before any SQL: make demo's
# dependency step (tools/install-deps.sh demo) run by a user who is not
# root. With every tool there it must succeed without apt; with sqlite3
# missing (a PATH without it) and no sudo it must fail, install nothing,
# and name the package and the apt-get line. Run as root, it drops to
# nobody (setpriv); run as anyone else, it runs as that user.
# Prints "newcomer: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "newcomer: $1 FAILED${2:+: $2}"; }
tmp=$(mktemp -d); chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
cp tools/install-deps.sh "$tmp/"; chmod 755 "$tmp/install-deps.sh"
as_user=()
[ "$(id -u)" = 0 ] && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)

got=$("${as_user[@]}" env HOME="$tmp" bash "$tmp/install-deps.sh" demo 2>&1); rc=$?
[ "$rc" = 0 ] && [ -z "$got" ] && ok || bad "demo deps, all there, not root: no apt" "rc=$rc $got"

mkdir "$tmp/bin"
for f in /usr/bin/* /usr/sbin/*; do
  case ${f##*/} in sqlite3|sudo) ;; *) [ -e "$tmp/bin/${f##*/}" ] || ln -s "$f" "$tmp/bin/"; esac
done
got=$("${as_user[@]}" env HOME="$tmp" PATH="$tmp/bin" bash "$tmp/install-deps.sh" demo 2>&1); rc=$?
[ "$rc" != 0 ] && [[ $got == *"as root, run: apt-get install sqlite3"* ]] && ok ||
  bad "demo deps, sqlite3 missing, not root, no sudo: the list, not apt" "rc=$rc $got"
echo "newcomer: $pass passed, $fail failed"
[ "$fail" = 0 ]
