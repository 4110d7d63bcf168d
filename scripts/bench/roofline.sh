#!/usr/bin/env bash
# The multiply-add roofline of the core this runs on, and how far each model's inference is from it:
# the exact kernels' inner loops alone (roofline/peak.c, pinned to one CPU, medians of 9), each shared
# model's multiply-adds (roofline/macs.py) and the time it would take at that peak (compare with the
# inference `bench` measures). Usage: scripts/bench/roofline.sh [CPU] (default 1).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
assets=${VISION_TASKS_ASSETS:-../shared}
cpu=${1:-1}
out=.build/roofline
mkdir -p "$out"
clang -O2 -o "$out/peak" scripts/bench/roofline/peak.c
echo "== peak of the kernels' inner loops (CPU $cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
peaks=$(taskset -c "$cpu" "$out/peak")
echo "$peaks"
peak=$(echo "$peaks" | head -1 | awk '{print $2}')
# The flatbuffer schema from PyPI, in the OpenVINO column's environment (its requirements pin it).
venv=.venv-openvino
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q -r scripts/bench/openvino-requirements.txt
echo "== multiply-adds per inference"
"$venv/bin/python" scripts/bench/roofline/macs.py --peak "$peak" "$assets"/models/*.tflite Tests/Fixtures/yolo/yolov8t_int8.tflite
