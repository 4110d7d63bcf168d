#!/usr/bin/env bash
# The app's pipeline vs a plain sequential loop (`vision-tasks bench --throughput`), release build,
# 1 inference thread, pinned to CPUs 0-1 (the pipeline needs both; the sequential loop uses one).
# Two inputs: the shared photos (9 pictures, listed 4 times: 36 items) and car-detection.mp4 (377
# frames); each with records only, and with annotated output written. Rounds interleaved, medians.
#
# Environment: VISION_TASKS_BIN (default .build/release/vision-tasks), VISION_TASKS_ASSETS, ROUNDS (3).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${VISION_TASKS_BIN:-$root/.build/release/vision-tasks}
assets=${VISION_TASKS_ASSETS:-$root/../shared}
rounds=${ROUNDS:-3}
model="$assets/models/ssd_mobilenet_v1_coco_quant_metadata.tflite"
[ -x "$bin" ] || (cd "$root" && swift build -c release --product vision-tasks >/dev/null)
photos=()
for _ in 1 2 3 4; do for f in "$assets"/images/*.jpg "$assets"/images/*.png; do photos+=("$f"); done; done
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); flags: $(grep -m1 '^flags' /proc/cpuinfo | grep -o 'avx512_vnni\|avx512f\|avx2' | sort -u | xargs)"
for output in "" "--with-output"; do
  echo; echo "== photos (${#photos[@]} items) ${output:-records only}"
  taskset -c 0,1 "$bin" bench --model "$model" --throughput --rounds "$rounds" $output "${photos[@]}"
  echo; echo "== car-detection.mp4 ${output:-records only}"
  taskset -c 0,1 "$bin" bench --model "$model" --throughput --rounds "$rounds" $output "$assets/images/car-detection.mp4"
done
