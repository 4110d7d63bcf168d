#!/usr/bin/env bash
# Prints "MODEL IMAGE" for the demo. Uses the shared assets ($VISION_TASKS_ASSETS, default ../shared)
# when they are there; otherwise (or with ONLINE=1) downloads MediaPipe's pinned official SSD
# MobileNet v1 model and sample photo (model-zoo.md), checks their sha256 and caches them in .cache/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
assets=${VISION_TASKS_ASSETS:-$root/../shared}
model="$assets/models/ssd_mobilenet_v1_coco_quant_metadata.tflite"
image="$assets/images/dog.jpg"
if [ "${ONLINE:-0}" != 1 ] && [ -f "$model" ] && [ -f "$image" ]; then
  echo "$model $image"; exit 0
fi
cache="$root/.cache/demo"
mkdir -p "$cache"
fetch() {  # url sha256 file
  if [ -f "$3" ] && echo "$2  $3" | sha256sum -c --status; then return 0; fi
  python3 - "$1" "$3.part" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=30) as r, open(sys.argv[2], "wb") as f:
    f.write(r.read())
PY
  echo "$2  $3.part" | sha256sum -c --status || { echo "demo-assets: sha256 mismatch for $1" >&2; rm -f "$3.part"; return 1; }
  mv "$3.part" "$3"
}
base=https://storage.googleapis.com/mediapipe-assets/tasks/testdata/vision
if fetch "$base/coco_ssd_mobilenet_v1_1.0_quant_2018_06_29.tflite?generation=1782184535239215" \
         61d598093ed03ed41aa47c3a39a28ac01e960d6a810a5419b9a5016a1e9c469b "$cache/coco_ssd_mobilenet_v1_1.0_quant_2018_06_29.tflite" &&
   fetch "$base/cats_and_dogs.jpg?generation=1782184491144775" \
         a2eaa7ad3a1aae4e623dd362a5f737e8a88d122597ecd1a02b3e1444db56df9c "$cache/cats_and_dogs.jpg"; then
  echo "$cache/coco_ssd_mobilenet_v1_1.0_quant_2018_06_29.tflite $cache/cats_and_dogs.jpg"; exit 0
fi
if [ -f "$model" ] && [ -f "$image" ]; then echo "$model $image"; exit 0; fi
echo "demo-assets: no model: neither $assets (set VISION_TASKS_ASSETS) nor the official download is available" >&2
exit 1
