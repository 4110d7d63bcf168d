#!/usr/bin/env bash
# Fetches LiteRT's runtime library — libLiteRt.so from PyPI's ai-edge-litert 2.3.0, for this machine's
# architecture (x86_64 or aarch64) — checks its sha256, and installs it as DEST/libLiteRt.so (default:
# this checkout's .litert/lib). Does nothing when an intact copy is already there.
#   scripts/fetch-litert.sh [--dest DIR]
# A package that depends on VisionTasks runs it through the package plugin:
#   swift package --allow-writing-to-package-directory --allow-network-connections all fetch-litert
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/.litert/lib"
while [ $# -gt 0 ]; do
  case "$1" in
    --dest) dest=${2:?--dest needs a directory}; shift 2 ;;
    *) echo "fetch-litert: unknown argument '$1' (usage: fetch-litert.sh [--dest DIR])" >&2; exit 2 ;;
  esac
done
version=2.3.0
arch=${LITERT_ARCH:-$(uname -m)}
case "$arch" in
  x86_64|amd64) platform=manylinux_2_27_x86_64; sha=eec47eb35e2924b3166015887e652a58edc9af823ae38e02bf83bef2548300bb ;;
  aarch64|arm64) platform=manylinux_2_27_aarch64; sha=b57687dc234d2b8b0598aef5a9c961ed24263df8f8b3f56adbee1cff618e544b ;;
  *) echo "fetch-litert: ai-edge-litert $version has no Linux build for $arch (x86_64 and aarch64 only)" >&2; exit 1 ;;
esac
lib="$dest/libLiteRt.so"

if [ -f "$lib" ] && echo "$sha  $lib" | sha256sum -c --status; then
  exit 0
fi
py=${PYTHON:-python3}
command -v "$py" >/dev/null || { echo "fetch-litert: python3 (with pip) is needed to download ai-edge-litert from PyPI" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "fetch-litert: downloading ai-edge-litert==$version ($platform) from PyPI" >&2
"$py" -m pip download -q --no-deps --only-binary=:all: --platform "$platform" \
  --python-version 3.11 "ai-edge-litert==$version" -d "$tmp"
wheel=$(ls "$tmp"/ai_edge_litert-"$version"-*.whl)
# A wheel is a zip: Python's zipfile extracts the one member (no unzip needed).
"$py" - "$wheel" "$tmp/libLiteRt.so" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open("ai_edge_litert/libLiteRt.so") as src, open(sys.argv[2], "wb") as out:
    shutil.copyfileobj(src, out)
PY
echo "$sha  $tmp/libLiteRt.so" | sha256sum -c --status || {
  echo "fetch-litert: sha256 of libLiteRt.so does not match $sha; refusing to install it" >&2; exit 1; }
mkdir -p "$dest"
mv "$tmp/libLiteRt.so" "$lib"
echo "fetch-litert: installed $lib (ai-edge-litert $version, $arch)" >&2
