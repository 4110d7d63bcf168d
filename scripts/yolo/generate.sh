#!/usr/bin/env bash
# Regenerates the YOLO test models (Tests/Fixtures/yolo) and Ultralytics' predictions on them
# (Tests/Goldens/ultralytics_yolo.json) with Ultralytics' own trainer and exporter, pinned in
# scripts/yolo/requirements.txt (into .venv-yolo: about 7 GB, PyPI's torch being the CUDA build).
# Not part of CI. Offline: Ultralytics downloads nothing here (no weights: models are trained from
# its model definitions on the shared photos).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="$root/.venv-yolo"
source "$root/scripts/venv.sh"
PYTHON=${PYTHON:-python3.11} ensure_venv "$venv" "$root/scripts/yolo/requirements.txt"
"$venv/bin/python" "$root/scripts/yolo/make_fixtures.py" "$@"
"$venv/bin/python" "$root/scripts/yolo/letterbox_goldens.py"
