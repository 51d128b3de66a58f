#!/bin/bash
# tools/install-deps.sh - install the Debian packages that building and
# testing utf8ext need, only those that are missing. Root runs apt-get
# itself; anyone else through sudo.
#
# Every check runs the real thing: a C program is compiled, linked and run,
# a Tcl script opens an SQLite database, clang links a libFuzzer target and
# a ThreadSanitizer program, valgrind runs a program, each charset detector
# (uchardet, chardet, charset-normalizer) names the charset of a value. A command's mere
# presence (or tclsh's exit status on a script read from stdin, which is 0
# even after an error) is not taken as proof. After installing, every
# check runs again and any still failing is an error.
#
# Opt-in lists, for targets that are not part of "make test":
#   install-deps.sh cross    mingw-w64, the aarch64 cross compiler, qemu-user
#   install-deps.sh chart    gnuplot (make chart)
#   install-deps.sh fresh    debootstrap (make test-fresh)
#   install-deps.sh demo     only what make demo needs (make, a C compiler,
#                            libsqlite3-dev, sqlite3): no root needed when
#                            they are there
#   install-deps.sh --check  report the checks that fail, install nothing
#
# Not root and no sudo (or sudo refused): it names the missing packages
# and the apt-get line to run as root, and fails; nothing is installed.
set -uo pipefail

check_only=
demo_only=
lists=()
for a in "$@"; do
  case $a in
  --check) check_only=1 ;;
  cross|chart|fresh) lists+=("$a") ;;
  demo) demo_only=1 ;;
  *) echo "install-deps: unknown list '$a' (demo, cross, chart, fresh, --check)" >&2; exit 2 ;;
  esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- the checks: each returns 0 only when the thing works -----------------

cat >"$tmp/ext.c" <<'EOF'
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
int ext_init(sqlite3 *db, char **err, const sqlite3_api_routines *api);
int ext_init(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
  (void)db; (void)err; SQLITE_EXTENSION_INIT2(api); return SQLITE_OK;
}
EOF
cat >"$tmp/sql.c" <<'EOF'
#include <sqlite3.h>
#include <stdio.h>
int main(void) {
  sqlite3 *db; sqlite3_stmt *st; int ok;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) return 1;
  if (sqlite3_prepare_v2(db, "SELECT 40+2", -1, &st, 0) != SQLITE_OK) return 1;
  ok = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 42;
  sqlite3_finalize(st); sqlite3_close(db);
  return ok ? 0 : 1;
}
EOF
cat >"$tmp/hello.c" <<'EOF'
#include <stdio.h>
int main(void) { return puts("ok") < 0; }
EOF
cat >"$tmp/bad.c" <<'EOF'
#include <stdlib.h>
int main(void) { int *p = malloc(sizeof *p); free(p); return p[0] == 12345; }
EOF
cat >"$tmp/fuzz.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return n && d[0] == 1 ? 0 : 0; }
EOF
cat >"$tmp/thread.c" <<'EOF'
#include <pthread.h>
static int x;
static void *run(void *p) { (void)p; __atomic_add_fetch(&x, 1, __ATOMIC_SEQ_CST); return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, run, 0); pthread_join(t, 0); return x != 1; }
EOF
cat >"$tmp/tcl.tcl" <<'EOF'
package require sqlite3
sqlite3 db :memory:
puts [db eval {SELECT hex('utf8ext')}]
db close
EOF

# q COMMAND...: run it silently.
q() { "$@" >/dev/null 2>&1; }

check_cc()        { q cc "$tmp/hello.c" -o "$tmp/hello" && q "$tmp/hello"; }
check_cxx()       { printf 'int main(){return 0;}\n' >"$tmp/x.cc" && q c++ "$tmp/x.cc" -o "$tmp/x"; }
check_make()      { q make --version; }
check_git()       { q git --version; }
check_sqlite_dev(){ q cc -Wall -Werror -c "$tmp/ext.c" -o "$tmp/ext.o" &&
                    q cc "$tmp/sql.c" -lsqlite3 -o "$tmp/sql" && q "$tmp/sql"; }
check_asan()      { q gcc -fsanitize=address,undefined "$tmp/hello.c" -o "$tmp/asan" && q "$tmp/asan"; }
check_sqlite3()   { [ "$(sqlite3 :memory: 'SELECT 40+2' 2>/dev/null)" = 42 ]; }
check_tclsh()     { [ "$(echo 'puts [expr {40+2}]' >"$tmp/t.tcl"; tclsh "$tmp/t.tcl" 2>/dev/null)" = 42 ]; }
# A script file, not stdin: tclsh exits 1 when a script file fails.
check_tcl_sqlite(){ [ "$(tclsh "$tmp/tcl.tcl" 2>/dev/null)" = 75746638657874 ]; }
# test/run-all.sh runs Debian's python3 (its sqlite3 module loads extensions).
check_python()    { q /usr/bin/python3 -c 'import sqlite3; c = sqlite3.connect(":memory:"); c.enable_load_extension(True); assert c.execute("SELECT 40+2").fetchone()[0] == 42'; }
check_clang()     { q clang --version; }
check_fuzzer()    { q clang -fsanitize=fuzzer,address,undefined "$tmp/fuzz.c" -o "$tmp/fuzz" &&
                    "$tmp/fuzz" -runs=10 2>&1 | grep -q 'Done 10 runs'; }
check_tsan()      { q clang -fsanitize=thread "$tmp/thread.c" -lpthread -o "$tmp/tsan" && q "$tmp/tsan"; }
# valgrind must run a clean program and catch a read after free.
check_valgrind()  { q cc "$tmp/hello.c" -o "$tmp/hello" && q cc -O0 "$tmp/bad.c" -o "$tmp/bad" &&
                    [ "$(valgrind -q --error-exitcode=9 "$tmp/hello" 2>/dev/null)" = ok ] &&
                    { q valgrind -q --error-exitcode=9 "$tmp/bad"; [ $? = 9 ]; }; }
check_node()      { [ "$(node -e 'console.log(40+2)' 2>/dev/null)" = 42 ] && q npm --version; }
# node-gyp builds better-sqlite3 against node's own headers (nothing is
# downloaded): Debian ships them in libnode-dev, other node packages inside.
check_node_h()    { [ -f /usr/include/node/node.h ] || [ -f "$(dirname "$(dirname "$(command -v node)")")/include/node/node.h" ]; }
check_debootstrap(){ q debootstrap --version; }
check_mingw()     { q x86_64-w64-mingw32-gcc --version; }
check_aarch64()   { q aarch64-linux-gnu-gcc --version; }
check_aarch64_libc(){ [ -d /usr/aarch64-linux-gnu/lib ]; }
check_qemu()      { q qemu-aarch64 --version; }
check_gnuplot()   { q gnuplot --version; }
# The tools SQLite users already reach for (test/tools.sh).
check_sqlite_utils(){ q sqlite-utils --version; }
check_litecli()   { q litecli --version; }
check_apsw()      { q /usr/bin/python3 -c 'import apsw'; }
# The charset detectors test/guess_eval.py and bench/guess_bench.c compare
# utf8_guess with: each must name the charset of a short legacy value.
check_uchardet()  { q /usr/bin/python3 -c '
import ctypes
u = ctypes.CDLL("libuchardet.so.0")
u.uchardet_new.restype = ctypes.c_void_p
u.uchardet_get_charset.restype = ctypes.c_char_p
for f in ("uchardet_handle_data", "uchardet_data_end", "uchardet_get_charset", "uchardet_delete"):
    getattr(u, f).argtypes = [ctypes.c_void_p] + ([ctypes.c_char_p, ctypes.c_size_t] if f == "uchardet_handle_data" else [])
h = u.uchardet_new()
b = "Съешь же ещё этих мягких французских булок".encode("cp1251")
u.uchardet_handle_data(h, b, len(b)); u.uchardet_data_end(h)
assert u.uchardet_get_charset(h) == b"WINDOWS-1251"
u.uchardet_delete(h)'; }
check_chardet()   { q /usr/bin/python3 -c '
import chardet
assert chardet.detect("Съешь же ещё этих мягких французских булок".encode("koi8_r"))["encoding"] == "KOI8-R"'; }
check_cnorm()     { q /usr/bin/python3 -c '
from charset_normalizer import from_bytes
assert from_bytes("Съешь же ещё этих мягких французских булок, да выпей чаю".encode("cp1251")).best().encoding == "cp1251"'; }

# CHECK PACKAGES...: what make test needs (and make demo, a part of it).
table=(
  "check_make        make"
  "check_cc          gcc libc6-dev"
  "check_cxx         g++"
  "check_git         git"
  "check_sqlite_dev  libsqlite3-dev"
  "check_asan        gcc"
  "check_sqlite3     sqlite3"
  "check_tclsh       tcl"
  "check_tcl_sqlite  libsqlite3-tcl"
  "check_python      python3"
  "check_clang       clang"
  "check_fuzzer      clang libclang-rt-14-dev"
  "check_tsan        clang libclang-rt-14-dev"
  "check_valgrind    valgrind"
  "check_node        nodejs npm"
  "check_sqlite_utils sqlite-utils"
  "check_litecli     litecli"
  "check_apsw        python3-apsw"
  "check_uchardet    libuchardet0"
  "check_chardet     python3-chardet"
  "check_cnorm       python3-charset-normalizer"
)
if [ -n "$demo_only" ]; then
  table=(
    "check_make        make"
    "check_cc          gcc libc6-dev"
    "check_sqlite_dev  libsqlite3-dev"
    "check_sqlite3     sqlite3"
  )
fi
for l in "${lists[@]}"; do
  case $l in
  cross) table+=("check_mingw gcc-mingw-w64-x86-64" "check_aarch64 gcc-aarch64-linux-gnu"
                 "check_aarch64_libc libc6-dev-arm64-cross" "check_qemu qemu-user") ;;
  chart) table+=("check_gnuplot gnuplot-nox") ;;
  fresh) table+=("check_debootstrap debootstrap") ;;
  esac
done

# run_checks: sets failed (the failing checks) and need (their packages).
run_checks() {
  failed=(); need=()
  local row fn pkgs
  for row in "${table[@]}"; do
    read -r fn pkgs <<<"$row"
    if ! $fn; then
      failed+=("$fn")
      for p in $pkgs; do
        case " ${need[*]} " in *" $p "*) ;; *) need+=("$p") ;; esac
      done
    fi
  done
  # Headers for node-gyp: only once node itself works.
  if [ -z "$demo_only" ] && check_node && ! check_node_h; then failed+=(check_node_h); need+=(libnode-dev); fi
}

run_checks
if [ ${#failed[@]} -eq 0 ]; then
  exit 0
fi
if [ -n "$check_only" ]; then
  echo "install-deps: failing: ${failed[*]} (packages: ${need[*]})"
  exit 1
fi
echo "install-deps: failing: ${failed[*]}; installing ${need[*]}"
sudo=
if [ "$(id -u)" != 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-deps: missing: ${need[*]}; not root and no sudo, so nothing was installed." >&2
    echo "install-deps: as root, run: apt-get install ${need[*]}" >&2
    exit 1
  fi
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
# Another apt-get may hold the lock: apt waits for it (up to 10 minutes).
$sudo apt-get -o DPkg::Lock::Timeout=600 update -qq || {
  echo "install-deps: could not run apt-get${sudo:+ through sudo}; as root, run: apt-get install ${need[*]}" >&2
  exit 1; }
$sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need[@]}" \
  >"$tmp/apt.log" 2>&1 || { tail -30 "$tmp/apt.log"; exit 1; }

run_checks
if [ ${#failed[@]} -ne 0 ]; then
  echo "install-deps: still failing after the install: ${failed[*]}" >&2
  exit 1
fi
echo "install-deps: all checks pass"
