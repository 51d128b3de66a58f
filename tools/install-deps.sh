#!/bin/bash
# tools/install-deps.sh - install the Debian packages that building and
# testing utf8ext need, only those that are missing. Root runs apt-get
# itself; anyone else through sudo.
#
# Opt-in lists, for targets that are not part of "make test":
#   install-deps.sh cross    mingw-w64, the aarch64 cross compiler, qemu-user
#   install-deps.sh chart    gnuplot (make chart)
set -euo pipefail

need=()
for extra in "$@"; do
  case $extra in
  cross)
    command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need+=(gcc-mingw-w64-x86-64)
    command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need+=(gcc-aarch64-linux-gnu)
    [ -d /usr/aarch64-linux-gnu/lib ] || need+=(libc6-dev-arm64-cross)
    command -v qemu-aarch64 >/dev/null 2>&1 || need+=(qemu-user) ;;
  chart)
    command -v gnuplot >/dev/null 2>&1 || need+=(gnuplot-nox) ;;
  *) echo "install-deps: unknown list '$extra' (cross, chart)" >&2; exit 2 ;;
  esac
done
command -v cc >/dev/null 2>&1 || need+=(gcc libc6-dev)
[ -f /usr/include/sqlite3ext.h ] || need+=(libsqlite3-dev)
command -v sqlite3 >/dev/null 2>&1 || need+=(sqlite3)
command -v tclsh >/dev/null 2>&1 || need+=(tcl)
if ! echo 'package require sqlite3' | tclsh >/dev/null 2>&1; then
  need+=(libsqlite3-tcl)
fi
command -v python3 >/dev/null 2>&1 || need+=(python3)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${need[*]}"
sudo=
if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
