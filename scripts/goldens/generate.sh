#!/usr/bin/env bash
# Regenerates every golden file in Tests/Goldens with MediaPipe 1.2.2 and ai-edge-litert 2.3.0
# from PyPI, in a virtual environment of its own (.venv-goldens).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
assets=${VISION_TASKS_ASSETS:-$root/../shared}
venv=$root/.venv-goldens
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q -r "$root/scripts/goldens/requirements.txt"
cd "$root/scripts/goldens"
"$venv/bin/python" litert_goldens.py "$assets" > "$root/Tests/Goldens/litert.json"
"$venv/bin/python" mediapipe_image_goldens.py "$assets" > "$root/Tests/Goldens/mediapipe_images.json"
"$venv/bin/python" jpeg_variant_fixtures.py "$assets" "$root/Tests/Fixtures/jpeg" > "$root/Tests/Goldens/mediapipe_jpeg_variants.json"
# The raw-SSD golden runs MediaPipe on a model augmented by our own metadata writer.
(cd "$root" && swift build --product vision-tasks >/dev/null)
face=$(mktemp -d)/face_detection_short_range_detector.tflite
"$root/.build/debug/vision-tasks" metadata --model "$assets/models/face_detection_short_range.tflite" --output "$face" \
  --blazeface-short-range --keypoints 6 --box-scale 128 --no-exp-box-size
"$venv/bin/python" mediapipe_detector_goldens.py "$assets" "$face" > "$root/Tests/Goldens/mediapipe_detector.json"
"$venv/bin/python" mediapipe_classifier_goldens.py "$assets" > "$root/Tests/Goldens/mediapipe_classifier.json"
"$venv/bin/python" mediapipe_timestamp_goldens.py "$assets" > "$root/Tests/Goldens/mediapipe_timestamps.json"
echo "goldens written to $root/Tests/Goldens"
