#!/bin/bash
# tools/install-deps.sh - install the Debian packages that building and
# testing utf8ext need, only those that are missing. Root runs apt-get
# itself; anyone else through sudo.
set -euo pipefail

need=()
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
