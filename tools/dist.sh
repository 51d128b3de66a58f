#!/bin/bash
# tools/dist.sh VERSION - write utf8ext-VERSION.tar.gz, the source tarball.
#
# It holds exactly the tracked sources, under the directory utf8ext-VERSION/:
# in a git checkout that is "git archive" of the committed HEAD (so an
# uncommitted edit is not shipped by accident; we say so when there is one).
# Outside git (an unpacked tarball being repacked) it is every file here less
# what .gitignore names as build output. DIST_DIR (default: here) is where
# the tarball goes.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: tools/dist.sh VERSION}
name=utf8ext-$version
out=${DIST_DIR:-.}/$name.tar.gz

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "dist: note: uncommitted changes are not in $out (it packs HEAD)" >&2
  fi
  git archive --format=tar.gz --prefix="$name/" -o "$out" HEAD
else
  tar --exclude=.git --exclude-vcs-ignores --exclude="$name.tar.gz" \
      --transform "s,^\.,$name," --sort=name -czf "$out.tmp" .
  mv "$out.tmp" "$out"
fi
echo "dist: $out ($(tar -tzf "$out" | grep -vc '/$') files)"
