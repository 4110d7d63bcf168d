#!/usr/bin/env bash
# Regenerates the evaluation and counting references (Tests/Fixtures/eval, Tests/Goldens/
# pycocotools_eval.json, tracking_eval.json, supervision_zones.json) with the pinned Python tools:
# pycocotools, TrackEval, py-motmetrics, supervision (scripts/eval/requirements.txt, into .venv-eval).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="$root/.venv-eval"
source "$root/scripts/venv.sh"
ensure_venv "$venv" "$root/scripts/eval/requirements.txt"
for script in coco_goldens tracking_goldens zone_goldens; do
  echo "== $script"
  "$venv/bin/python" "$root/scripts/eval/$script.py"
done
