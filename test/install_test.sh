#!/bin/bash
# test/install_test.sh - what "make install" and "make dist" deliver.
#
# A staged install (DESTDIR, PREFIX=/usr) must hold the module, header,
# static library, pkg-config file, docs and scripts; the installed module
# must load in the sqlite3 shell and export only its two entry points; a
# program must build from the installed header and library alone; the
# static library must define no global name outside utf8ext's own
# prefixes; uninstall must remove it all. The dist tarball must hold
# exactly the tracked files, and repacking it outside git must give the
# same list. Prints "install: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
pass=0; fail=0
ok()   { pass=$((pass + 1)); }
bad()  { fail=$((fail + 1)); echo "install: $1 FAILED${2:+: $2}"; }
# check NAME COMMAND...: the command must succeed.
check() { local n=$1; shift; if "$@" >/dev/null 2>&1; then ok; else bad "$n"; fi; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
stage=$tmp/stage
version=$(sed -n 's/.*define UTF8EXT_VERSION "\(.*\)".*/\1/p' utf8ext.h)

if ! make -s install DESTDIR="$stage" PREFIX=/usr >"$tmp/log" 2>&1; then
  cat "$tmp/log"; bad "make install"
fi
for f in lib/sqlite3/utf8ext.so include/utf8ext.h lib/libutf8ext.a \
         lib/pkgconfig/utf8ext.pc share/doc/utf8ext/README.md \
         share/doc/utf8ext/CHANGELOG.md share/utf8ext/sql/audit.sql; do
  check "installed $f" test -f "$stage/usr/$f"
done
check "pc version" grep -qx "Version: $version" "$stage/usr/lib/pkgconfig/utf8ext.pc"
check "pc prefix" grep -qx "moduledir=/usr/lib/sqlite3" "$stage/usr/lib/pkgconfig/utf8ext.pc"

got=$(sqlite3 :memory: ".load $stage/usr/lib/sqlite3/utf8ext" "SELECT utf8_valid(x'FF'), utf8ext_version()" 2>&1)
[ "$got" = "0|$version" ] && ok || bad "load installed module" "$got"

got=$(nm -D --defined-only "$stage/usr/lib/sqlite3/utf8ext.so" | awk '{print $3}' | sort | tr '\n' ' ')
[ "$got" = "sqlite3_utf8ext_init sqlite3_utfext_init " ] && ok || bad "module exports" "$got"

# Every global name of the static library is utf8ext's: the entry points,
# utf8ext_*, and the core's utf8_*. Anything else could clash in a host.
got=$(nm -g --defined-only "$stage/usr/lib/libutf8ext.a" | awk 'NF==3 {print $3}' \
      | grep -vE '^(sqlite3_utf8?ext_init|utf8ext_[a-z0-9_]+|utf8_[a-z0-9_]+)$' | tr '\n' ' ')
[ -z "$got" ] && ok || bad "static library names" "$got"

# A program built from the installed header and library only.
if cc -Wall -Wextra -I"$stage/usr/include" test/embed_test.c -L"$stage/usr/lib" \
      -lutf8ext -lsqlite3 -o "$tmp/embed" 2>"$tmp/log"; then
  out=$("$tmp/embed"); [ $? = 0 ] && ok || bad "installed embed" "$out"
else
  cat "$tmp/log"; bad "build against installed files"
fi

make -s uninstall DESTDIR="$stage" PREFIX=/usr >/dev/null 2>&1
left=$(find "$stage" -type f | sed "s|$stage||" | tr '\n' ' ')
[ -z "$left" ] && ok || bad "uninstall" "left: $left"

# dist: exactly the tracked files; the fallback outside git agrees.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  DIST_DIR=$tmp bash tools/dist.sh "$version" >/dev/null 2>&1
  tarball=$tmp/utf8ext-$version.tar.gz
  tar -tzf "$tarball" | grep -v '/$' | sed "s|^utf8ext-$version/||" | sort >"$tmp/dist.list"
  git ls-files | sort >"$tmp/git.list"
  if diff -q "$tmp/dist.list" "$tmp/git.list" >/dev/null; then ok
  else bad "dist contents" "$(diff "$tmp/dist.list" "$tmp/git.list" | head -5 | tr '\n' ' ')"; fi
  mkdir "$tmp/unpacked"; tar -xzf "$tarball" -C "$tmp/unpacked"
  (cd "$tmp/unpacked/utf8ext-$version" && DIST_DIR=$tmp/re bash -c 'mkdir -p "$DIST_DIR"; bash tools/dist.sh '"$version") >/dev/null 2>&1
  tar -tzf "$tmp/re/utf8ext-$version.tar.gz" | grep -v '/$' | sed "s|^utf8ext-$version/||" | sort >"$tmp/re.list"
  if diff -q "$tmp/re.list" "$tmp/git.list" >/dev/null; then ok
  else bad "dist fallback" "$(diff "$tmp/re.list" "$tmp/git.list" | head -5 | tr '\n' ' ')"; fi
fi

echo "install: $pass passed, $fail failed"
[ "$fail" = 0 ]
