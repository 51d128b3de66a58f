#!/bin/bash
# test/npm_test.sh - the npm packages, built and used (make test-npm).
#
# Packs utf8ext and utf8ext-<platform>-<arch> (tools/npm.sh), installs both
# tarballs with libsql (from the npm registry) into a fresh directory and
# runs test/npm_test.js there. better-sqlite3 is tested too when
# test/node_test.sh (make test) has already built it from source in
# $BUILD/node; it is not built here, to keep this target short. A second
# fresh directory holds utf8ext without its platform package: getLoadablePath
# must fail with the clear error. Temporary directories are removed on every
# exit path. Prints "npm: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
top=$PWD
BUILD=${BUILD:-build}
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "npm: $1 FAILED${2:+: $2}"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP
finish() { echo "npm: $pass passed, $fail failed"; [ "$fail" = 0 ]; exit $?; }
version=$(sed -n 's/.*define UTF8EXT_VERSION "\(.*\)".*/\1/p' utf8ext.h)
LIBSQL=${LIBSQL:-libsql@0.5}
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

command -v npm >/dev/null || { timeout 300 bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm' >/dev/null 2>&1 || { bad "installing nodejs, npm"; finish; }; }
timeout 120 make -s all >"$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; bad "make"; finish; }
timeout 120 env BUILD="$BUILD" bash tools/npm.sh >"$tmp/pack.log" 2>&1 || { cat "$tmp/pack.log"; bad "make npm"; finish; }
plat=$(node -p 'process.platform + "-" + process.arch')
main=$top/$BUILD/npm/utf8ext-$version.tgz
platpkg=$top/$BUILD/npm/utf8ext-$plat-$version.tgz
[ -f "$main" ] && [ -f "$platpkg" ] && ok || { bad "both tarballs" "$(ls "$BUILD/npm")"; finish; }

mkdir "$tmp/app" && cd "$tmp/app" && echo '{"name":"app","private":true}' >package.json
if timeout 300 npm install --no-save --silent "$LIBSQL" "$platpkg" "$main" >"$tmp/install.log" 2>&1; then ok
else cat "$tmp/install.log"; bad "npm install $LIBSQL and the tarballs"; finish; fi
better=
[ -f "$top/$BUILD/node/node_modules/better-sqlite3/build/Release/better_sqlite3.node" ] && better=$top/$BUILD/node
cp "$top/test/npm_test.js" . && out=$(env -u NODE_PATH timeout 60 node npm_test.js "$version" "$better" "$top" 2>&1)
last=$(tail -1 <<<"$out")
if [[ $last =~ ^npm\ \(node\):\ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  pass=$((pass + BASH_REMATCH[1])); fail=$((fail + BASH_REMATCH[2]))
  [ "${BASH_REMATCH[2]}" = 0 ] || sed '$d' <<<"$out"
else echo "$out"; bad "test/npm_test.js ran"; fi

# Without the platform package: a clear error naming it.
mkdir "$tmp/bare" && cd "$tmp/bare" && echo '{"name":"bare","private":true}' >package.json
if timeout 120 npm install --no-save --silent --omit=optional "$main" >"$tmp/bare.log" 2>&1; then
  got=$(env -u NODE_PATH node -e 'try { require("utf8ext").getLoadablePath(); console.log("no error"); } catch (e) { console.log(e.message); }' 2>&1)
  [[ $got == *"utf8ext-$plat"*"is not installed"* ]] && ok || bad "clear error without the platform package" "$got"
  # It names the local tarballs, never a registry name anyone could take.
  [[ $got == *"make npm"*"./build/npm/utf8ext-$plat-"*".tgz"* && $got != *"npm install utf8ext"* ]] && ok ||
    bad "the error points at the local tarballs, not the registry" "$got"
else cat "$tmp/bare.log"; bad "npm install utf8ext alone"; fi
finish
