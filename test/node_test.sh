#!/bin/bash
# test/node_test.sh - utf8ext from Node.js, through better-sqlite3.
#
# better-sqlite3 normally fetches a prebuilt binary from outside the npm
# registry; here it is built from source instead (--build-from-source),
# against node's own headers (/usr/include/node, so node-gyp downloads
# nothing) and the SQLite amalgamation the package ships. The package is
# installed once into build/node (about 90 s: the amalgamation compiles)
# and reused after. Then test/node_test.js runs.
# BETTER_SQLITE3 pins the version tested.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
spec=better-sqlite3@${BETTER_SQLITE3:-12.11.1}
dir=$BUILD/node

if ! [ -f "$dir/node_modules/better-sqlite3/build/Release/better_sqlite3.node" ] ||
   ! grep -q "\"version\": \"${spec#*@}\"" "$dir/node_modules/better-sqlite3/package.json"; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name": "utf8ext-node-test", "private": true}' >"$dir/package.json"
  if [ -f /usr/include/node/node.h ]; then export npm_config_nodedir=/usr; fi
  echo "node: installing $spec from source into $dir (once)"
  if ! npm install --prefix "$dir" --no-save --build-from-source --no-audit --no-fund \
         "$spec" >"$dir/install.log" 2>&1; then
    tail -20 "$dir/install.log"
    echo "node: 0 passed, 1 failed"
    exit 1
  fi
fi
NODE_PATH=$dir/node_modules exec node test/node_test.js
