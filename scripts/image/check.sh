#!/usr/bin/env bash
# CI's image check: builds the image when missing or out of date (scripts/image/build.sh; incremental),
# then runs it with podman and checks it as its users would (scripts/image/check.py): Frigate's
# deepstack post and pydoods get `detect`'s rows, the key from a mounted file, /healthz and the
# HEALTHCHECK, SIGTERM, the default command, /v1/video refused without FFmpeg. With VIDEO=yes, the
# image with FFmpeg (:VERSION-video), whose /v1/video runs a clip. Needs a built vision-tasks (for
# detect's rows).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$image_root"
image_podman_setup
scripts/image/build.sh
binary=${1:-.build/debug/vision-tasks}
[ -x "$binary" ] || image_die "$binary is missing: build vision-tasks first"
assets=${VISION_TASKS_ASSETS:-$image_root/../shared}
video=()
suffix=""
if [ "${VIDEO:-no}" = yes ]; then
  suffix=-video
  clip=.cache/image/clip.mp4
  ffmpeg -loglevel error -y -i "$assets/images/car-detection.mp4" -t 1 -an "$clip"
  video=(--video "$clip")
fi
.venv-tools/bin/python scripts/image/check.py "$image_name:$image_version$suffix" --binary "$binary" \
  --model "$assets/models/$image_model" --picture "$assets/images/dog.jpg" "${video[@]}"
