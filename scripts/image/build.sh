#!/usr/bin/env bash
# `make image`: builds the Containerfile as localhost/vision-tasks:latest and :VERSION with podman, offline
# but for Debian's mirror (the base made from Debian's packages when no registry answers; Debian's
# swiftlang and libraries from deb.debian.org). Stages what the build copies into .image/: LiteRT's
# libLiteRt.so (scripts/fetch-litert.sh, sha256-checked) and the bundled model from the shared assets.
# Prints the image's size. VIDEO=yes adds Debian's FFmpeg libraries (for /v1/video), tagged :latest-video
# and :VERSION-video.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$image_root"
image_podman_setup
scripts/fetch-litert.sh >/dev/null
assets=${VISION_TASKS_ASSETS:-$image_root/../shared}
[ -f "$assets/models/$image_model" ] || image_die "$assets/models/$image_model is missing (VISION_TASKS_ASSETS)"
mkdir -p .image/models
cp -f .litert/lib/libLiteRt.so .image/libLiteRt.so
cp -f "$assets/models/$image_model" .image/models/
scripts/image/base.sh
video=${VIDEO:-no}
suffix=""; [ "$video" = yes ] && suffix=-video
image_log "building $image_name:latest$suffix and :$image_version$suffix (podman build; the first build ~15 min, then incremental)"
started=$(date +%s)
podman build --network host --format docker --layers --build-arg VIDEO="$video" \
  -t "$image_name:latest$suffix" -t "$image_name:$image_version$suffix" -f Containerfile . >.cache/image/build.log 2>&1 \
  || { tail -30 .cache/image/build.log >&2; image_die "podman build failed; log: .cache/image/build.log"; }
size=$(podman image inspect --format '{{.Size}}' "$image_name:latest$suffix")
image_log "built $image_name:$image_version$suffix in $(( $(date +%s) - started )) s: $(awk -v s="$size" 'BEGIN { printf "%.0f MB", s / 1e6 }')"
