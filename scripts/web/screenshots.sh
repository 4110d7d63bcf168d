#!/usr/bin/env bash
# The Serving article's pictures of the app (Documentation/VisionTasks.docc/Resources/app-*.jpg), made the way a
# person sees it: a built vision-tasks serve with two detectors and a classifier, headless Chromium with a fake camera that
# pans over dog.jpg (FFmpeg made it .y4m), the library given pets.jpg, every check of scripts/web/check_app.py passing on the way.
#   scripts/web/screenshots.sh [VISION_TASKS_BINARY]    (default .build/release/vision-tasks)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
assets=$(cd "${VISION_TASKS_ASSETS:-$root/../shared}" && pwd)
bin=${1:-$root/.build/release/vision-tasks}
[ -x "$bin" ] || { echo "screenshots: build vision-tasks first ($bin)" >&2; exit 1; }
work=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
# The camera: a 640×480 window panning across dog.jpg (768×576) and back, 15 frames/s for 4 s; the
# library's video: 2 s of car-detection.mp4.
ffmpeg -v error -y -loop 1 -i "$assets/images/dog.jpg" -t 4 \
  -vf "crop=640:480:x='64+64*sin(t*1.5)':y=48,fps=15,format=yuv420p" "$work/camera.y4m"
ffmpeg -v error -y -ss 15 -i "$assets/images/car-detection.mp4" -t 2 -c:v libx264 -an "$work/clip.mp4"
m=$assets/models
port=${SCREENSHOTS_PORT:-8097}
"$bin" serve --listen "127.0.0.1:$port" --model "ssd=$m/ssd_mobilenet_v1_coco_quant_metadata.tflite" \
  --model "fpnlite=$m/ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite" \
  --model "mobilenet=$m/mobilenet_v2_1.0_224_quant.tflite" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
"$root/.venv-tools/bin/python" "$root/scripts/web/check_app.py" "http://127.0.0.1:$port" --y4m "$work/camera.y4m" \
  --photo "$assets/images/pets.jpg" --video "$work/clip.mp4" --detectors ssd,fpnlite --classifier mobilenet \
  --screenshots "$work/shots" >"$work/report.json" || { cat "$work/report.json"; exit 1; }
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print("screenshots: %d checks passed; live %s; tracked video %s"
  % (len(d["passed"]), {k: d["figures"]["live"][k] for k in ("answered", "dropped", "inferenceMs")}, d["figures"]["tracked video"]))' "$work/report.json"
for name in camera library settings objects phone; do
  ffmpeg -v error -y -i "$work/shots/app-$name.png" -q:v 4 "$root/Documentation/VisionTasks.docc/Resources/app-$name.jpg"
  echo "Documentation/VisionTasks.docc/Resources/app-$name.jpg"
done
