#!/usr/bin/env bash
# Regenerates the YOLO test models (Tests/Fixtures/yolo) and Ultralytics' predictions on them
# (Tests/Goldens/ultralytics_yolo.json) with Ultralytics' own trainer and exporter, pinned in
# scripts/yolo/requirements.txt (into .venv-yolo: about 7 GB, PyPI's torch being the CUDA build).
# Not part of CI. Offline: Ultralytics downloads nothing here (no weights: models are trained from
# its model definitions on the shared photos).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="$root/.venv-yolo"
if [ ! -x "$venv/bin/python" ]; then "${PYTHON:-python3.11}" -m venv "$venv"; fi
if ! cmp -s "$root/scripts/yolo/requirements.txt" "$venv/.requirements.txt"; then
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$root/scripts/yolo/requirements.txt"
  cp "$root/scripts/yolo/requirements.txt" "$venv/.requirements.txt"
fi
"$venv/bin/python" "$root/scripts/yolo/make_fixtures.py" "$@"
