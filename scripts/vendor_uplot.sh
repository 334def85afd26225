#!/bin/sh
# Vendor uPlot from the npm registry into static/vendor/uplot (README.md there says why).
# Usage: scripts/vendor_uplot.sh 1.6.32
set -eu
version="${1:?usage: $0 VERSION}"
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack "uplot@$version" >/dev/null
# npm pack checks the tarball against the registry's sha512 integrity; print it for the log.
npm view "uplot@$version" dist.integrity
tar xzf "uplot-$version.tgz"
dest="$here/static/vendor/uplot"
cp package/dist/uPlot.iife.min.js package/dist/uPlot.min.css "$dest/"
cp package/LICENSE "$dest/LICENSE.txt"
echo "uPlot $version copied to $dest: update the version in its README.md"
