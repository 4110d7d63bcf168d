#!/usr/bin/env bash
# Regenerates the evaluation and counting references (Tests/Fixtures/eval, Tests/Goldens/
# pycocotools_eval.json, tracking_eval.json, supervision_zones.json) with the pinned Python tools:
# pycocotools, TrackEval, py-motmetrics, supervision (scripts/eval/requirements.txt, into .venv-eval).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="$root/.venv-eval"
if [ ! -x "$venv/bin/python" ]; then "${PYTHON:-python3}" -m venv "$venv"; fi
if ! cmp -s "$root/scripts/eval/requirements.txt" "$venv/.requirements.txt"; then
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$root/scripts/eval/requirements.txt"
  cp "$root/scripts/eval/requirements.txt" "$venv/.requirements.txt"
fi
for script in coco_goldens tracking_goldens zone_goldens; do
  echo "== $script"
  "$venv/bin/python" "$root/scripts/eval/$script.py"
done
