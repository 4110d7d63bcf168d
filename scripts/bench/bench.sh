#!/usr/bin/env bash
# Release benchmarks, 1 thread, medians (scripts/bench/bench.py): ours (task end to end) vs the raw LiteRT run
# of the same model, per stage; with MEDIAPIPE=1, MediaPipe 1.2.2's Python task on the same model and
# photo, interleaved with ours round by round (ABAB…), both processes pinned to CPU $BENCH_CPU (default
# 1), ratio ours/MediaPipe with its spread; with OPENVINO=1, OpenVINO (PyPI, reading the .tflite; 1 thread,
# latency hint) the same way, its chosen precision printed; with LITERT=1, ours again on LiteRT's own
# kernels each round. RUNS (default 100), ROUNDS (default 5), ONLY (model filter).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
assets=${VISION_TASKS_ASSETS:-$root/../shared}
args=(--bin "$root/.build/release/vision-tasks" --assets "$assets" --runs "${RUNS:-100}" --rounds "${ROUNDS:-5}" --cpu "${BENCH_CPU:-1}")
[ -n "${ONLY:-}" ] && args+=(--only "$ONLY")
[ "${LITERT:-0}" = 1 ] && args+=(--litert-kernels)
if [ "${MEDIAPIPE:-0}" = 1 ]; then
  venv=$root/.venv-goldens
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r "$root/scripts/goldens/requirements.txt"
  args+=(--mediapipe "$venv/bin/python")
fi
if [ "${OPENVINO:-0}" = 1 ]; then
  venv=$root/.venv-openvino
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r "$root/scripts/bench/openvino-requirements.txt"
  args+=(--openvino "$venv/bin/python")
fi
python3 "$root/scripts/bench/bench.py" "${args[@]}"
