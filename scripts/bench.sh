#!/usr/bin/env bash
# Release benchmarks, 1 thread, medians, measured side by side in one run:
#   ours (detect end to end) vs the raw LiteRT run of the same model, per stage;
#   with MEDIAPIPE=1, MediaPipe 1.2.2's Python detect on the same model and photo (venv from PyPI).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
assets=${VISION_TASKS_ASSETS:-$root/../shared}
bin="$root/.build/release/vision-tasks"
runs=${RUNS:-100}
mp_py=""
if [ "${MEDIAPIPE:-0}" = 1 ]; then
  venv=$root/.venv-goldens
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r "$root/scripts/goldens/requirements.txt"
  mp_py="$venv/bin/python"
fi
printf '%-58s %-14s %9s %9s %9s %9s %8s %11s %8s\n' model image raw_ms pre_ms post_ms task_ms task/raw mediapipe_ms mp/ours
for pair in "ssd_mobilenet_v1_coco_quant_metadata.tflite dog.jpg" \
            "ssd_mobilenet_v1_coco_quant_metadata.tflite cat_720p.jpg" \
            "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite dog.jpg" \
            "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite dog.jpg --fast-hybrid" \
            "mobilenet_v2_1.0_224_quant.tflite cat_720p.jpg" \
            "mobilenet_v1_0.25_128_quant.tflite cat_720p.jpg" \
            "tf2_mobilenet_v2_1.0_224_ptq.tflite cat_720p.jpg" \
            "mobilenet_v2_1.0_224_inat_bird_quant.tflite bird.png" \
            "aiy_vision_classifier_birds_V1_3.tflite bird.png"; do
  read -r model image extra <<< "$pair"
  json=$("$bin" bench --model "$assets/models/$model" --image "$assets/images/$image" --runs "$runs" --threads 1 --json $extra 2>/dev/null)
  get() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }
  mp="-"; ratio="-"
  if [ -n "$mp_py" ]; then
    task=$(get "$json" task)
    mp=$("$mp_py" "$root/scripts/mediapipe_bench.py" "$assets/models/$model" "$assets/images/$image" "$runs" 5 "$task" 2>/dev/null | python3 -c "import json,sys; print('%.3f' % json.load(sys.stdin)['detect_ms'])")
    ratio=$(python3 -c "print('%.2f' % ($mp / $(get "$json" detect_ms)))")
  fi
  printf '%-58s %-14s %9.3f %9.3f %9.3f %9.3f %8.3f %11s %8s\n' "$model${extra:+ $extra}" "$image" \
    "$(get "$json" raw_ms)" "$(get "$json" preprocess_ms)" "$(get "$json" postprocess_ms)" "$(get "$json" detect_ms)" \
    "$(get "$json" detect_over_raw)" "$mp" "$ratio"
done
