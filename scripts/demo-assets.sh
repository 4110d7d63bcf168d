#!/usr/bin/env bash
# Prints "MODEL IMAGE" for the demo. When the machine is online (its resolver knows MediaPipe's asset
# host), it uses MediaPipe's pinned official SSD MobileNet v1 model and sample photo (model-zoo.md),
# sha256-checked and cached in .cache/demo; otherwise — or with OFFLINE=1, or if the download fails —
# the shared assets ($VISION_TASKS_ASSETS, default ../shared): the same model with metadata, and dog.jpg.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
assets=${VISION_TASKS_ASSETS:-$root/../shared}
host=storage.googleapis.com
cache="$root/.cache/demo"
official_model="$cache/coco_ssd_mobilenet_v1_1.0_quant_2018_06_29.tflite"
official_image="$cache/cats_and_dogs.jpg"
fetch() {  # url sha256 file
  if [ -f "$3" ] && echo "$2  $3" | sha256sum -c --status; then return 0; fi
  mkdir -p "$cache"
  python3 - "$1" "$3.part" <<'PY' || return 1
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=30) as r, open(sys.argv[2], "wb") as f:
    f.write(r.read())
PY
  echo "$2  $3.part" | sha256sum -c --status || { echo "demo-assets: sha256 mismatch for $1" >&2; rm -f "$3.part"; return 1; }
  mv "$3.part" "$3"
}
if [ "${OFFLINE:-0}" != 1 ] && timeout 3 getent hosts "$host" >/dev/null 2>&1; then
  base="https://$host/mediapipe-assets/tasks/testdata/vision"
  if fetch "$base/coco_ssd_mobilenet_v1_1.0_quant_2018_06_29.tflite?generation=1782184535239215" \
           61d598093ed03ed41aa47c3a39a28ac01e960d6a810a5419b9a5016a1e9c469b "$official_model" &&
     fetch "$base/cats_and_dogs.jpg?generation=1782184491144775" \
           a2eaa7ad3a1aae4e623dd362a5f737e8a88d122597ecd1a02b3e1444db56df9c "$official_image"; then
    echo "$official_model $official_image"; exit 0
  fi
  echo "demo-assets: could not download the official assets; using $assets" >&2
fi
model="$assets/models/ssd_mobilenet_v1_coco_quant_metadata.tflite"
image="$assets/images/dog.jpg"
if [ -f "$model" ] && [ -f "$image" ]; then echo "$model $image"; exit 0; fi
echo "demo-assets: no model: offline, and $assets has none (set VISION_TASKS_ASSETS to the shared folder)" >&2
exit 1
