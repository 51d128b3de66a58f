#!/bin/bash
# test/deb_test.sh - the Debian packages, built, linted, installed, used,
# purged (make test-deb).
#
# Builds libsqlite3-mod-utf8ext and libutf8ext-dev (tools/deb.sh), runs
# lintian on them (no error or warning may remain), installs them into the
# running system with dpkg, loads the module by its bare name from the
# sqlite3 shell and from Debian's Python, builds a program from the -dev
# package with pkg-config, and purges both again, on every exit path.
# Needs root. Prints "deb: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "deb: $1 FAILED${2:+: $2}"; }
PKGS="libsqlite3-mod-utf8ext libutf8ext-dev"
version=$(sed -n 's/.*define UTF8EXT_VERSION "\(.*\)".*/\1/p' utf8ext.h)
tmp=$(mktemp -d)
installed=0
cleanup() {
  if [ "$installed" = 1 ]; then
    dpkg --purge $PKGS >/dev/null 2>&1 || echo "deb: purge failed" >&2
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
finish() { echo "deb: $pass passed, $fail failed"; [ "$fail" = 0 ]; exit $?; }

if [ "$(id -u)" != 0 ]; then bad "needs root (dpkg -i)"; finish; fi
for p in $PKGS; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
    bad "$p is already installed; not touching it"; finish
  fi
done
timeout 300 bash tools/deb.sh --deps || { bad "installing debhelper, lintian"; finish; }
timeout 300 bash tools/deb.sh >"$tmp/deb.log" 2>&1 || { cat "$tmp/deb.log"; bad "make deb"; finish; }
ok
out=$BUILD/deb
mod=$(ls "$out"/libsqlite3-mod-utf8ext_"$version"_*.deb 2>/dev/null)
dev=$(ls "$out"/libutf8ext-dev_"$version"_*.deb 2>/dev/null)
[ -f "$mod" ] && [ -f "$dev" ] && ok || { bad "both .deb files" "$(ls "$out")"; finish; }

# lintian: no error, no warning (info and pedantic tags are not counted).
if timeout 300 lintian --fail-on error,warning --suppress-tags-from-file /dev/null \
     "$out"/*.changes >"$tmp/lintian" 2>&1; then ok
else bad "lintian" "$(grep -E '^[EW]:' "$tmp/lintian" | tr '\n' ' ')"; fi

# The contents: module in the multiarch library directory, scripts, licence.
dpkg-deb -c "$mod" | awk '{print $6}' >"$tmp/mod.list"
dpkg-deb -c "$dev" | awk '{print $6}' >"$tmp/dev.list"
for f in '^\./usr/lib/[^/]+/utf8ext\.so$' '^\./usr/share/utf8ext/sql/audit\.sql$' \
         '^\./usr/share/doc/libsqlite3-mod-utf8ext/copyright$'; do
  grep -Eq "$f" "$tmp/mod.list" && ok || bad "module package holds $f"
done
for f in '^\./usr/lib/[^/]+/libutf8ext\.a$' '^\./usr/include/utf8ext\.h$' \
         '^\./usr/lib/[^/]+/pkgconfig/utf8ext\.pc$' '^\./usr/share/doc/libutf8ext-dev/copyright$'; do
  grep -Eq "$f" "$tmp/dev.list" && ok || bad "-dev package holds $f"
done

# Install into the running system; from here on the trap purges.
installed=1
if timeout 120 dpkg -i "$mod" "$dev" >"$tmp/dpkg.log" 2>&1; then ok
else cat "$tmp/dpkg.log"; bad "dpkg -i"; finish; fi
grep -q 'Expat' /usr/share/doc/libsqlite3-mod-utf8ext/copyright && ok || bad "copyright names the licence"

# Loaded by its bare name, from a directory holding no utf8ext.so, with no
# search path set: only the installed package can answer.
cd "$tmp"
got=$(env -u LD_LIBRARY_PATH timeout 30 sqlite3 :memory: ".load utf8ext" \
      "SELECT utf8_valid(x'FF'), utf8ext_version()" 2>&1)
[ "$got" = "0|$version" ] && ok || bad "sqlite3 .load utf8ext" "$got"
got=$(env -u LD_LIBRARY_PATH timeout 30 /usr/bin/python3 -c '
import sqlite3
c = sqlite3.connect(":memory:")
c.enable_load_extension(True)
c.load_extension("utf8ext")
print(c.execute("SELECT utf8_fix(?, ?), utf8ext_version()", (b"caf\xe9", "?")).fetchone())
' 2>&1)
[ "$got" = "('caf?', '$version')" ] && ok || bad "python3 load_extension('utf8ext')" "$got"
got=$(timeout 30 sqlite3 :memory: ".load utf8ext" ".read /usr/share/utf8ext/sql/schema.sql" \
      "SELECT 1" 2>&1 | tail -1)
[ "$got" = 1 ] && ok || bad "sql/schema.sql from /usr/share runs" "$got"

# The -dev package: a program linked with libutf8ext.a, found by pkg-config.
cat >"$tmp/prog.c" <<'EOT'
#include <sqlite3.h>
#include <stdio.h>
#include <utf8ext.h>
static int row(void *a, int n, char **v, char **c){ (void)a; (void)n; (void)c; puts(v[0]); return 0; }
int main(void){
  sqlite3 *db;
  sqlite3_auto_extension((void(*)(void))sqlite3_utf8ext_init);
  if( sqlite3_open(":memory:", &db) ) return 1;
  return sqlite3_exec(db, "SELECT utf8_valid(x'C0AF') || '|' || utf8ext_version()", row, 0, 0);
}
EOT
if cc -Wall -Wextra prog.c $(pkg-config --cflags --libs utf8ext) -lsqlite3 -o prog >"$tmp/cc.log" 2>&1; then
  got=$(./prog 2>&1); [ "$got" = "0|$version" ] && ok || bad "static program runs" "$got"
else cat "$tmp/cc.log"; bad "program builds from the -dev package"; fi
got=$(pkg-config --modversion utf8ext 2>&1); [ "$got" = "$version" ] && ok || bad "pkg-config version" "$got"
md=$(pkg-config --variable=moduledir utf8ext 2>/dev/null)
[ -f "$md/utf8ext.so" ] && ok || bad "pkg-config moduledir" "$md"

# What the package tells users works with what it ships: every docs/ link
# of the README resolves beside it, the README.Debian demo runs from the
# installed scripts (import.sql finds its CSV), and it says how to remove.
doc=/usr/share/doc/libsqlite3-mod-utf8ext
missing=
for l in $(grep -o '](docs/[a-z]*\.md' "$doc/README.md" | sed 's/^](//' | sort -u); do
  [ -f "$doc/$l" ] || missing+=" $l"
done
[ -z "$missing" ] && ok || bad "README's docs/ links resolve in $doc" "$missing"
[ -f "$doc/README.Debian" ] && grep -q 'apt remove libsqlite3-mod-utf8ext' "$doc/README.Debian" &&
  ok || bad "README.Debian says how to remove the package"
got=$(cd /usr/share/utf8ext && timeout 60 sqlite3 "$tmp/sample.db" -cmd '.load utf8ext' '.read sql/import.sql' \
      '.read sql/audit.sql' '.read sql/repair.sql' '.read sql/undo.sql' 2>&1)
[[ $got == *"values repaired"* && $got == *"restored"* ]] && ! grep -q '^Error' <<<"$got" && ok ||
  bad "README.Debian's demo runs from /usr/share/utf8ext" "$(head -5 <<<"$got")"

# Purge, and the module must be gone.
cd - >/dev/null
if dpkg --purge $PKGS >"$tmp/purge.log" 2>&1; then installed=0; ok
else cat "$tmp/purge.log"; bad "dpkg --purge"; fi
got=$(cd "$tmp" && sqlite3 :memory: ".load utf8ext" "SELECT 1" 2>&1)
[ "$got" != 1 ] && ok || bad "module gone after purge"
[ ! -e /usr/share/utf8ext ] && ok || bad "/usr/share/utf8ext gone after purge"
finish
