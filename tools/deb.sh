#!/bin/bash
# tools/deb.sh - build the Debian packages (make deb).
#
# Copies the sources (the tracked files as they are in the work tree, or
# every file outside git) to $BUILD/deb/utf8ext-VERSION, puts
# packaging/debian there as debian/, writes debian/changelog from
# UTF8EXT_VERSION (utf8ext.h stays the one place the version is written),
# and runs dpkg-buildpackage. The .deb files land in $BUILD/deb/.
# Needs debhelper (tools/deb.sh --deps installs it with apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
if [ "${1:-}" = --deps ]; then
  need=()
  for p in debhelper dpkg-dev fakeroot libsqlite3-dev lintian; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
  done
  if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${need[@]}" >/dev/null
  fi
  exit 0
fi
version=$(sed -n 's/.*define UTF8EXT_VERSION "\(.*\)".*/\1/p' utf8ext.h)
out=$build/deb
src=$out/utf8ext-$version
rm -rf "$out"; mkdir -p "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$src"
  # untracked packaging files being worked on come too
  tar -cf - packaging LICENSE | tar -xf - -C "$src"
else
  tar --exclude=.git --exclude-vcs-ignores -cf - . | tar -xf - -C "$src"
fi
cp -r packaging/debian "$src/debian"
# The changelog's date is the last commit's, so a rebuild is the same.
when=$(git log -1 --format=%cD 2>/dev/null || date -R)
cat > "$src/debian/changelog" <<EOT
utf8ext ($version) unstable; urgency=medium

  * Upstream version $version; the changes are in CHANGELOG.md.

 -- utf8ext authors <utf8ext@example.org>  $when
EOT
(cd "$src" && dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1 || {
  tail -40 "$out/build.log" >&2; echo "deb: dpkg-buildpackage failed (log: $out/build.log)" >&2; exit 1; }
ls "$out"/*.deb
