#!/bin/bash
# test/fresh.sh - "make test-fresh": the README's two commands on a fresh
# Debian 12. debootstrap --variant=minbase into a temporary directory,
# only make and git installed in it, a clone of HEAD (through a git bundle,
# cloned by the chroot's own git), then "make demo" and "make test" in a
# chroot. /proc, /dev and /dev/pts are mounted for the run and unmounted on
# every way out (trap), before the directory is removed.
#
# The Debian mirror is read now from this machine's apt sources
# (/etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list), and
# those Debian sources and apt's Acquire settings are copied in; nothing of
# the kind is kept in the repository.
#
# It passes when both commands pass and every suite's count equals this
# machine's last "make test" of the same commit ($BUILD/run-all.results,
# written by test/run-all.sh; make test is run first when there is none).
# A suite skipped on the fresh machine is named with its reason. The last
# line is "fresh: N passed, N failed", N passed being the fresh total.
# KEEP_FRESH=1 keeps the directory (unmounted) for a look afterwards.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
suite=bookworm

fail() { echo "test-fresh: $*"; echo "fresh: 0 passed, 1 failed"; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (debootstrap, mount, chroot)"
command -v debootstrap >/dev/null || fail "debootstrap is not installed (bash tools/install-deps.sh fresh)"
head=$(git rev-parse HEAD) || fail "not a git checkout"

# ---- the normal run to compare with ----------------------------------------
# FRESH_EXPECTED=FILE compares with a results file of another run (its
# commit is printed) instead of this machine's make test of HEAD.
if [ -n "${FRESH_EXPECTED:-}" ]; then
  [ -f "$FRESH_EXPECTED" ] || fail "no $FRESH_EXPECTED"
  echo "test-fresh: comparing with $FRESH_EXPECTED ($(grep '^commit:' "$FRESH_EXPECTED"), HEAD is $head)"
  cp "$FRESH_EXPECTED" "$BUILD/fresh-expected.results.new"
  mv "$BUILD/fresh-expected.results.new" "$BUILD/fresh-expected.results"
else
  if ! grep -qx "commit: $head" "$BUILD/run-all.results" 2>/dev/null; then
    echo "test-fresh: no make test results of $head here; running make test first"
    make --no-print-directory test </dev/null || fail "make test fails on this machine"
  fi
  cp "$BUILD/run-all.results" "$BUILD/fresh-expected.results"
fi

# ---- the mirror, from this machine's apt sources ----------------------------
sources=
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  sources=/etc/apt/sources.list.d/debian.sources
  # The first URIs of a stanza whose Suites name the release itself.
  mirror=$(awk -v s="$suite" '
    /^$/ { if (uri != "" && ok) { print uri; exit } uri = ""; ok = 0; next }
    /^URIs:/ { uri = $2 }
    /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) ok = 1 }
    END { if (uri != "" && ok) print uri }' "$sources" | head -1)
elif [ -f /etc/apt/sources.list ]; then
  sources=/etc/apt/sources.list
  mirror=$(awk -v s="$suite" '$1 == "deb" && $3 == s { print $2; exit }' "$sources" | sed 's/^\[.*\] *//')
fi
[ -n "${mirror:-}" ] || fail "no Debian $suite mirror found in this machine's apt sources"

# ---- the chroot ---------------------------------------------------------------
root=$(mktemp -d "${TMPDIR:-/tmp}/utf8ext-fresh.XXXXXX")
# mktemp makes it 0700; as the chroot's / it must let every user in, as a
# machine's / does (test/newcomer.sh runs a step as nobody)
chmod 755 "$root"
log=$BUILD/fresh.log
mkdir -p "$BUILD"; : >"$log"
mounted=()
cleanup() {
  local i
  # A second signal (make sends its child one more SIGTERM) must not cut
  # the unmounting short.
  trap '' INT TERM HUP
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null || true
  done
  mounted=()
  for i in 1 2 3; do
    findmnt -rn -o TARGET | grep "^$root/" | sort -r | xargs -r -n1 umount -l 2>/dev/null
  done
  # Anything still mounted under it (a process left behind): never remove.
  if findmnt -rn -o TARGET | grep -q "^$root/"; then
    echo "test-fresh: $root still has mounts; left in place" >&2
  elif [ "${KEEP_FRESH:-0}" = 1 ]; then
    echo "test-fresh: kept $root (unmounted)"
  else
    rm -rf --one-file-system "$root"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

t0=$SECONDS
echo "test-fresh: debootstrap --variant=minbase $suite into $root"
debootstrap --variant=minbase "$suite" "$root" "$mirror" >>"$log" 2>&1 \
  || { tail -20 "$log"; fail "debootstrap failed (log: $log)"; }
echo "test-fresh: debootstrap took $((SECONDS - t0))s"

# This machine's Debian sources and apt settings; DNS.
if [ "$sources" = /etc/apt/sources.list.d/debian.sources ]; then
  cp "$sources" "$root/etc/apt/sources.list.d/debian.sources"
  : >"$root/etc/apt/sources.list"
else
  grep -E '^deb .*debian' "$sources" >"$root/etc/apt/sources.list"
fi
for f in /etc/apt/apt.conf.d/*; do
  grep -q '^Acquire::' "$f" 2>/dev/null && grep '^Acquire::' "$f" >"$root/etc/apt/apt.conf.d/$(basename "$f")"
done
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# This machine's TLS trust (its local CAs and the CA files its environment
# names, for npm and git), so the fresh machine reaches what this one does.
ca_env=()
if [ -d /usr/local/share/ca-certificates ]; then
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp -rL /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
fi
for v in NODE_EXTRA_CA_CERTS SSL_CERT_FILE SSL_CERT_DIR GIT_SSL_CAINFO CURL_CA_BUNDLE; do
  f=${!v:-}
  [ -n "$f" ] && [ -e "$f" ] || continue
  mkdir -p "$root$(dirname "$f")"
  if [ -d "$f" ]; then mkdir -p "$root$f"; cp -rL "$f/." "$root$f/" 2>/dev/null
  else cp -L "$f" "$root$f"; fi
  ca_env+=("$v=$f")
done

mnt() { mount "$@" && mounted+=("${!#}"); }
mnt -t proc proc "$root/proc" || fail "cannot mount /proc"
mnt --bind /dev "$root/dev" || fail "cannot bind /dev"
mnt --bind /dev/pts "$root/dev/pts" || fail "cannot bind /dev/pts"

git bundle create "$root/tmp/utf8ext.bundle" HEAD >>"$log" 2>&1 || fail "git bundle failed"

# in_chroot COMMAND: run it as root in a clean environment.
in_chroot() {
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive CI="${CI:-}" "${ca_env[@]}" /bin/bash -c "$1" </dev/null
}

t1=$SECONDS
in_chroot 'apt-get update -qq && apt-get install -y -qq --no-install-recommends make git' >>"$log" 2>&1 \
  || { tail -20 "$log"; fail "installing make and git failed"; }
in_chroot "git clone -q /tmp/utf8ext.bundle /root/utf8ext && cd /root/utf8ext && git checkout -q $head" >>"$log" 2>&1 \
  || { tail -20 "$log"; fail "git clone of HEAD failed"; }
echo "test-fresh: make and git installed, HEAD cloned in $((SECONDS - t1))s"

t2=$SECONDS
echo "test-fresh: make demo"
in_chroot 'cd /root/utf8ext && make demo' >"$BUILD/fresh-demo.log" 2>&1
demo_rc=$?
tail -5 "$BUILD/fresh-demo.log"
echo "test-fresh: make demo exit $demo_rc in $((SECONDS - t2))s (log: $BUILD/fresh-demo.log)"

t3=$SECONDS
echo "test-fresh: make test"
in_chroot 'cd /root/utf8ext && make test' >"$BUILD/fresh-test.log" 2>&1
test_rc=$?
grep -E '^[^ ].*: [0-9]+ passed, [0-9]+ failed|^skipped: |^total: ' "$BUILD/fresh-test.log"
echo "test-fresh: make test exit $test_rc in $((SECONDS - t3))s (log: $BUILD/fresh-test.log)"
cp "$root/root/utf8ext/$BUILD/run-all.results" "$BUILD/fresh-got.results" 2>/dev/null \
  || : >"$BUILD/fresh-got.results"

# ---- compare, suite by suite ----------------------------------------------------
mismatch=0
while IFS= read -r l; do
  case $l in commit:*|skipped:*|total:*) continue ;; esac
  name=${l%%: *}
  got=$(awk -v n="$name: " 'index($0, n) == 1' "$BUILD/fresh-got.results" | head -1)
  if [ "$got" = "$l" ]; then continue; fi
  why=$(awk -v n="skipped: $name (" 'index($0, n) == 1' "$BUILD/fresh-got.results" | head -1)
  if [ -n "$why" ]; then
    echo "test-fresh: $name skipped on the fresh machine: ${why#skipped: $name }"
  else
    echo "test-fresh: $name differs: here [$l], fresh [${got:-none}]"
    mismatch=$((mismatch + 1))
  fi
done <"$BUILD/fresh-expected.results"
want=$(grep '^total:' "$BUILD/fresh-expected.results")
have=$(grep '^total:' "$BUILD/fresh-got.results")
echo "test-fresh: this machine's make test: ${want#total: }"
echo "test-fresh: the fresh machine's:      ${have#total: }"
echo "test-fresh: whole run $((SECONDS - t0))s"

line=${have#total: }
p=${line%% passed*}; p=${p:-0}
f=${line#*, }; f=${f%% failed*}; [ -n "$have" ] || f=1
[ "$demo_rc" = 0 ] || f=$((f + 1))
[ "$test_rc" = 0 ] || [ "$f" != 0 ] || f=1
f=$((f + mismatch))
echo "fresh: $p passed, $f failed"
[ "$f" = 0 ]
