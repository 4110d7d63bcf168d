#!/usr/bin/env bash
# Fetches LiteRT's runtime library (libLiteRt.so from PyPI's ai-edge-litert 2.3.0) into .litert/lib,
# checks its sha256, and does nothing when it is already there and intact.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/.litert/lib"
lib="$dest/libLiteRt.so"
version=2.3.0
sha=eec47eb35e2924b3166015887e652a58edc9af823ae38e02bf83bef2548300bb

if [ -f "$lib" ] && echo "$sha  $lib" | sha256sum -c --status; then
  exit 0
fi
if [ "$(uname -m)" != x86_64 ]; then
  echo "fetch-litert: the pinned libLiteRt.so (ai-edge-litert $version, sha256 $sha) is for x86_64; on $(uname -m), install" >&2
  echo "  ai-edge-litert for your platform and set LITERT_LIBRARY to its ai_edge_litert/libLiteRt.so" >&2
  exit 1
fi
py=${PYTHON:-python3}
command -v "$py" >/dev/null || { echo "fetch-litert: python3 is needed to download ai-edge-litert from PyPI" >&2; exit 1; }
command -v unzip >/dev/null || {
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then apt-get install -y -qq unzip >/dev/null || { apt-get update -qq && apt-get install -y -qq unzip >/dev/null; }
  else echo "fetch-litert: unzip is needed (apt-get install unzip)" >&2; exit 1; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "fetch-litert: downloading ai-edge-litert==$version from PyPI" >&2
"$py" -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_27_x86_64 \
  --python-version 3.11 "ai-edge-litert==$version" -d "$tmp"
mkdir -p "$dest"
unzip -q -o -j "$tmp"/ai_edge_litert-"$version"-*.whl ai_edge_litert/libLiteRt.so -d "$tmp/lib"
echo "$sha  $tmp/lib/libLiteRt.so" | sha256sum -c --status || {
  echo "fetch-litert: sha256 of libLiteRt.so does not match $sha; refusing to install it" >&2; exit 1; }
mv "$tmp/lib/libLiteRt.so" "$lib"
echo "fetch-litert: installed $lib" >&2
