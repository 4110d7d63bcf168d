#!/usr/bin/env bash
# YOLO detect vs Ultralytics' own predict (scripts/bench/yolo_bench.py), release build, pinned, interleaved.
# Needs the YOLO venv (scripts/yolo/requirements.txt, ~7 GB; made by scripts/yolo/generate.sh or here).
# RUNS (default 100), ROUNDS (default 5), BENCH_CPU (default 1).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${YOLO_VENV:-$root/.venv-yolo}
source "$root/scripts/venv.sh"
PYTHON=${PYTHON:-python3.11} ensure_venv "$venv" "$root/scripts/yolo/requirements.txt"
swift build -c release --product vision-tasks --package-path "$root" >/dev/null
python3 "$root/scripts/bench/yolo_bench.py" --bin "$root/.build/release/vision-tasks" --ultralytics "$venv/bin/python" \
  --runs "${RUNS:-100}" --rounds "${ROUNDS:-5}" --cpu "${BENCH_CPU:-1}"
