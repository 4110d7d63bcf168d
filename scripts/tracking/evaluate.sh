#!/usr/bin/env bash
# Tracking quality: ours (`vision-tasks track`) vs ByteTrack on the same detections.
#
#   scripts/tracking/evaluate.sh [score.py args, e.g. --strict]
#
# 1. creates/updates .venv-tracking from scripts/tracking/requirements.txt (PyPI);
# 2. generates the synthetic sequences into out/tracking/seq (skipped when up to date),
#    or held-out variant $VARIANT of them;
# 3. runs `$VISION_TASKS_BIN track` on each NAME.mp4, writing NAME.tracks.jsonl and
#    NAME.dets.jsonl into out/tracking/results (it builds nothing: `make build` first);
# 4. scores them with score.py (table, PASS/FAIL, out/tracking/summary.json);
# 5. checks lines, zones and `eval track` on them with zones.py (supervision's LineZone/PolygonZone,
#    the ground truth's crossings and visits, TrackEval and py-motmetrics; out/tracking/zones.json).
#
# Environment: VISION_TASKS_BIN (default .build/release/vision-tasks), VISION_TASKS_ASSETS
# (default ../shared), PYTHON (interpreter for the venv, default python3.11 or python3),
# TRACK_ARGS (extra arguments for the track command), OUT (default out/tracking),
# VARIANT (default 0: the default sequences the tracker was tuned on; K >= 1: held-out
# variant K from generate_sequences.py --variant K; give it its own OUT, e.g.
#   VARIANT=1 OUT=out/tracking-heldout scripts/tracking/evaluate.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/scripts/tracking"
export VISION_TASKS_ASSETS=${VISION_TASKS_ASSETS:-$root/../shared}
bin=${VISION_TASKS_BIN:-$root/.build/release/vision-tasks}
out=${OUT:-$root/out/tracking}
variant=${VARIANT:-0}
venv="$root/.venv-tracking"

case $variant in
  ''|*[!0-9]*) echo "error: VARIANT must be a non-negative integer, not '$variant'" >&2; exit 2 ;;
esac
if [ ! -x "$bin" ]; then
  echo "error: $bin not found or not executable (build it with 'make build', or set VISION_TASKS_BIN)" >&2
  exit 2
fi
command -v ffmpeg >/dev/null || { echo "error: ffmpeg is not installed (scripts/install-system-deps.sh)" >&2; exit 2; }

# 1. Python environment (re-installed only when requirements.txt changes).
source "$root/scripts/venv.sh"
PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3)} ensure_venv "$venv" "$here/requirements.txt"
py="$venv/bin/python"

# 2. Sequences.
echo "sequences: variant $variant -> $out/seq"
"$py" "$here/generate_sequences.py" --out "$out/seq" --assets "$VISION_TASKS_ASSETS" --variant "$variant"

# 3. Our tracker on each sequence, counting on a line down the middle (its ends beyond the frame)
#    and a zone in the lower centre.
line="mid=320,-10,320,370"
zone="centre=192,90,448,90,448,360,192,360"
mkdir -p "$out/results"
read -r -a extra <<< "${TRACK_ARGS:-}"
for video in "$out"/seq/*.mp4; do
  name=$(basename "$video" .mp4)
  echo "track: $name"
  rm -f "$out/results/$name.tracks.jsonl" "$out/results/$name.dets.jsonl"
  if ! "$bin" track "$video" --max-objects 100 --line "$line" --zone "$zone" \
        --jsonl "$out/results/$name.tracks.jsonl" \
        --detections-jsonl "$out/results/$name.dets.jsonl" "${extra[@]}" \
        > "$out/results/$name.log" 2>&1; then
    echo "error: track failed on $name (see $out/results/$name.log):" >&2
    tail -5 "$out/results/$name.log" >&2
  fi
done

# 4. Score (extra arguments go to score.py, e.g. --strict).
status=0
"$py" "$here/score.py" --gt "$out/seq" --results "$out/results" --json "$out/summary.json" "$@" || status=$?

# 5. Lines, zones and eval track against their references (fails on any disagreement).
echo
"$py" "$here/zones.py" --gt "$out/seq" --results "$out/results" --line "$line" --zone "$zone" --bin "$bin" \
  --json "$out/zones.json" || status=$?
exit $status
