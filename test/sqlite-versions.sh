#!/bin/bash
# test/sqlite-versions.sh - utf8ext against SQLite versions other than
# Debian's ("make test-sqlite-versions").
#
# npm packages ship SQLite amalgamations: the old "sqlite3" packages carry
# SQLite's autoconf tarball (sqlite3.c, shell.c and the headers),
# better-sqlite3 a current sqlite3.c. For each version:
#   1. the extension is compiled against that version's headers with
#      -Werror (the #ifdef guards for newer API: SQLITE_INNOCUOUS,
#      SQLITE_DIRECTONLY, SQLITE_VTAB_*);
#   2. test/embed_test links it statically with that sqlite3.c, and runs;
#   3. the same program loads ./utf8ext.so (built against Debian's 3.40
#      headers, as it ships) with sqlite3_load_extension: an old library
#      running a module built with new headers;
#   4. when shell.c is shipped, that version's sqlite3 shell loads it.
# Packages are fetched once into build-sqlite/cache with "npm pack".
set -u
cd "$(dirname "$0")/.."
CC=${CC:-cc}
top=build-sqlite
mkdir -p "$top/cache"
pass=0; fail=0
tested=()

# The npm packages and the SQLite each ships (oldest supported first).
sources=(
  "sqlite3@4.0.6 3.26.0"
  "sqlite3@4.1.1 3.30.1"
  "sqlite3@5.0.0 3.31.1"
  "better-sqlite3@12.11.1 3.53.2"
)

# result LINE: add a suite's "N passed, N failed" to the totals.
result() {
  local line p f
  line=$(echo "$1" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1)
  if [ -z "$line" ]; then fail=$((fail + 1)); return; fi
  p=${line%% passed*}; f=${line#*, }; f=${f%% failed}
  pass=$((pass + p)); fail=$((fail + f))
}

for s in "${sources[@]}"; do
  set -- $s; spec=$1 ver=$2
  dir=$top/$ver; src=$dir/src
  tgz=$top/cache/$(echo "${spec%@*}" | tr -d @/)-${spec#*@}.tgz
  if [ ! -f "$tgz" ]; then
    (cd "$top/cache" && npm pack "$spec" --silent >/dev/null 2>&1) || { echo "$spec: npm pack failed"; fail=$((fail + 1)); continue; }
  fi
  if [ ! -f "$src/sqlite3.c" ]; then
    mkdir -p "$src" "$dir/pkg"
    tar -xzf "$tgz" -C "$dir/pkg"
    if auto=$(ls "$dir"/pkg/package/deps/sqlite-autoconf-*.tar.gz 2>/dev/null); then
      tar -xzf "$auto" -C "$src" --strip-components=1 --wildcards '*/sqlite3.c' '*/shell.c' '*/sqlite3.h' '*/sqlite3ext.h'
    else
      cp "$dir"/pkg/package/deps/sqlite3/sqlite3.[ch] "$dir"/pkg/package/deps/sqlite3/sqlite3ext.h "$src/"
    fi
    rm -rf "$dir/pkg"
  fi
  got=$(sed -n 's/^#define SQLITE_VERSION *"\(.*\)"/\1/p' "$src/sqlite3.h")
  if [ "$got" != "$ver" ]; then echo "$spec: ships SQLite $got, not $ver"; fail=$((fail + 1)); continue; fi

  # 1. The extension built against this version's headers, warnings as errors.
  if ! make -s --no-print-directory BUILD="$dir/obj" SO="$dir/utf8ext.so" STATIC="$dir/libutf8ext.a" \
         CC="$CC" CFLAGS="-O2 -Werror -isystem $src" "$dir/utf8ext.so" "$dir/libutf8ext.a" >"$dir/build.log" 2>&1; then
    cat "$dir/build.log"; echo "sqlite $ver: extension does not build against its headers"
    fail=$((fail + 1)); continue
  fi
  pass=$((pass + 1))
  # 2. The amalgamation (unoptimized: it is only a test driver) and the
  #    embedding test linked with it.
  [ -f "$dir/sqlite3.o" ] || $CC -O0 -w -DSQLITE_THREADSAFE=0 -c "$src/sqlite3.c" -o "$dir/sqlite3.o"
  $CC -O2 -Wall -Wextra -I"$src" -I. test/embed_test.c "$dir/libutf8ext.a" "$dir/sqlite3.o" \
      -ldl -lm -o "$dir/embed_test" || { fail=$((fail + 1)); continue; }
  out=$("$dir/embed_test"); echo "$out"; result "$out"
  # 3. The module as shipped (Debian's headers), loaded into this version.
  out=$("$dir/embed_test" --load ./utf8ext); echo "$out"; result "$out"
  # 4. This version's own shell, when the package ships one.
  if [ -f "$src/shell.c" ]; then
    [ -x "$dir/sqlite3" ] || $CC -O0 -w -DSQLITE_THREADSAFE=0 "$src/shell.c" "$dir/sqlite3.o" -ldl -lm -o "$dir/sqlite3"
    out=$("$dir/sqlite3" :memory: ".load ./utf8ext" "SELECT sqlite_version(), hex(utf8_fix(x'61C062')), utf8_valid(x'C080')" 2>&1)
    if [ "$out" = "$ver|61EFBFBD62|0" ]; then pass=$((pass + 1)); echo "shell (SQLite $ver): 1 passed, 0 failed"
    else fail=$((fail + 1)); echo "shell (SQLite $ver): got [$out]"; fi
  fi
  tested+=("$ver")
done

echo "SQLite versions tested: ${tested[*]}"
echo "sqlite-versions: $pass passed, $fail failed"
[ "$fail" = 0 ]
