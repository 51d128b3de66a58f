#!/bin/bash
# tools/npm.sh - build the npm packages (make npm).
#
# Stages packaging/npm/utf8ext and a platform package
# utf8ext-<platform>-<arch> (node's process.platform and process.arch, with
# the module, os and cpu fields) in $BUILD/npm, fills in the version from
# utf8ext.h, and packs both with npm pack into $BUILD/npm/*.tgz.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
so=${SO:-utf8ext.so}
[ -f "$so" ] || { echo "npm: $so missing (run make first)" >&2; exit 1; }
version=$(sed -n 's/.*define UTF8EXT_VERSION "\(.*\)".*/\1/p' utf8ext.h)
os=$(node -p process.platform); cpu=$(node -p process.arch)
plat=$os-$cpu; suffix=.${so##*.}
out=$build/npm
rm -rf "$out"; mkdir -p "$out"
cp -r packaging/npm/utf8ext "$out/utf8ext"
cp -r packaging/npm/platform "$out/utf8ext-$plat"
cp LICENSE "$out/utf8ext/"; cp LICENSE "$out/utf8ext-$plat/"
cp README.md "$out/utf8ext/"
cp "$so" "$out/utf8ext-$plat/utf8ext$suffix"
sed -i -e "s/@VERSION@/$version/g" -e "s/@PLATFORM@/$plat/g" -e "s/@OS@/$os/g" \
       -e "s/@CPU@/$cpu/g" -e "s/@SUFFIX@/$suffix/g" \
       "$out/utf8ext-$plat/package.json" "$out/utf8ext-$plat/README.md" "$out/utf8ext/package.json"
node -e '
const fs = require("fs"), f = process.argv[1];
const p = JSON.parse(fs.readFileSync(f));
p.optionalDependencies = { [process.argv[2]]: p.version };
fs.writeFileSync(f, JSON.stringify(p, null, 2) + "\n");' "$out/utf8ext/package.json" "utf8ext-$plat"
for p in utf8ext "utf8ext-$plat"; do
  (cd "$out/$p" && npm pack --silent --pack-destination .. >/dev/null)
done
ls "$out"/*.tgz
