#!/usr/bin/env bash
# Stream-mode speed on a video (release build, 1 thread, pinned to one CPU): frames per second of
# `vision-tasks track` with per-object classification vs the localizer alone, interleaved runs,
# medians and their ratio (target: ≥ 0.8).
#   scripts/bench/bench-track.sh [VIDEO] [CLASSIFIER] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
assets=${VISION_TASKS_ASSETS:-../shared}
video=${1:-$assets/images/car-detection.mp4}
classifier=${2:-$assets/models/mobilenet_v2_1.0_224_quant.tflite}
runs=${3:-5}
bin=${VISION_TASKS_BIN:-.build/release/vision-tasks}
[ -x "$bin" ] || swift build -c release --product vision-tasks >/dev/null
fps() { taskset -c 1 "$bin" track "$video" --threads 1 --jsonl /dev/null "$@" 2>&1 | sed -n 's/^track: .*(\([0-9.]*\) items\/s).*/\1/p'; }
alone=(); classified=()
for ((i = 0; i < runs; i++)); do
  alone+=("$(fps)")
  classified+=("$(fps --model "$classifier")")
done
python3 - "${alone[*]}" "${classified[*]}" "$video" "$classifier" <<'PY'
import statistics, sys
alone = [float(x) for x in sys.argv[1].split()]
classified = [float(x) for x in sys.argv[2].split()]
a, c = statistics.median(alone), statistics.median(classified)
print(f"video: {sys.argv[3]}\nclassifier: {sys.argv[4]}")
print(f"localizer alone:        {a:6.1f} frames/s  (runs: {alone})")
print(f"with classification:    {c:6.1f} frames/s  (runs: {classified})")
print(f"ratio: {c / a:.2f} (target >= 0.80)")
PY
