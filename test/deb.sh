#!/usr/bin/env bash
# test/deb.sh (make deb): hroe's Debian packages, postgresql-15-hroe and
# hroe-gateway, built from debian/ with dpkg-buildpackage in a copy of the
# tree (the checkout gets no build output), unsigned.  Installs what the
# build needs when it is missing (test/lib.sh: HROE_DEB_PACKAGES).
#
#   HROE_DEB_OUT=DIR   where the packages go (default: a new /tmp/hroe-deb.*)
#
# Prints that directory last, on standard output; the .deb files, the
# source package (.dsc, .tar.xz: debian/source/format is native), the
# .changes and .buildinfo, and the build log (build.log) are there.  The
# build is a full one (source and binaries, not -b) so that lintian, given
# the .changes, checks the source package too (debian/control, copyright).
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
HROE_EXTRA_PACKAGES="${HROE_EXTRA_PACKAGES:-} $HROE_DEB_PACKAGES" ensure_packages

out=${HROE_DEB_OUT:-$(mktemp -d /tmp/hroe-deb.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
version=$(dpkg-parsechangelog -S Version)
work=$(mktemp -d /tmp/hroe-deb-build.XXXXXX)
trap 'rm -rf "$work"' EXIT

# the copy: the files git knows (changes not yet committed included) and
# no build output; outside a git checkout, the whole tree, cleaned
src="$work/hroe-$version"
mkdir "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
		tar -c --null -T - --ignore-failed-read -f - 2>/dev/null | tar -x -C "$src"
else
	tar -c --exclude=.git -f - . | tar -x -C "$src"
	make -s -C "$src" clean >/dev/null 2>&1 || true
fi

echo "hroe: building the packages in $src (log: $out/build.log)" >&2
if ! (cd "$src" && dpkg-buildpackage -us -uc --build=full) >"$out/build.log" 2>&1; then
	tail -40 "$out/build.log" >&2
	echo "hroe: dpkg-buildpackage failed (log: $out/build.log)" >&2
	exit 1
fi
for f in "$work"/*; do
	[ -f "$f" ] && mv "$f" "$out/"
done
echo "$out"
