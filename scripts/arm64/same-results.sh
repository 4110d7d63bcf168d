#!/usr/bin/env bash
# Ours' results equal MediaPipe's aarch64 results, exactly: the aarch64 release CLI (as users run it) and
# MediaPipe 1.2.2's own aarch64 wheel (scripts/arm64/mp_results.py), both under qemu-aarch64, on the same
# model and photos; categories, scores and boxes compared as numbers (a classifier's equal scores in any
# order: MediaPipe's sort leaves them in none). Exits 1 when a photo differs, printing both.
#   scripts/arm64/same-results.sh TASK MODEL PHOTO...   (TASK: detect or classify)
#   ARM64_CPU=neoverse-n1   the CPU qemu emulates (the roots' /proc/cpuinfo is Neoverse-N1's unless the caller,
#                           as insncount.sh does, shows another); MediaPipe's side runs as a Neoverse-N1 when it is
#                           a cortex-a72, which its wheel cannot run as (insncount.sh says why that is its A72 result)
#   ARM64_OURS_ENV="K=V ..."  environment for ours (e.g. VISION_TASKS_CONV1X1_KERNEL=ours)
# Needs the release build (ARM64_STAGES=release scripts/arm64/build.sh) and MediaPipe's environment (lib.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 3 ] || arm64_die "usage: scripts/arm64/same-results.sh detect|classify MODEL PHOTO..."
task=$1 model=$2
shift 2
cpu=${ARM64_CPU:-neoverse-n1}
mp_cpu=$(arm64_qemu_cpu "$cpu")
[ "$cpu" != cortex-a72 ] || mp_cpu=neoverse-n1
[ -d "$arm64_mp_site/mediapipe" ] || arm64_mediapipe_env
ours="$arm64_host$arm64_src/.build-aarch64/aarch64-unknown-linux-gnu/release/vision-tasks"
litert="$arm64_host$arm64_src/.litert-aarch64/lib/libLiteRt.so"
[ -x "$ours" ] || arm64_die "no aarch64 release build: ARM64_STAGES=release scripts/arm64/build.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
env=()
for kv in ${ARM64_OURS_ENV:-}; do env+=(-E "$kv"); done
qemu-aarch64 -cpu "$(arm64_qemu_cpu "$cpu")" -L "$arm64_host$arm64_sysroot" -E LD_LIBRARY_PATH=/usr/libexec/swift/lib/swift/linux \
  -E LITERT_LIBRARY="$litert" "${env[@]}" "$ours" "$task" --model "$model" --threads 1 --max-results 5 --sequential --json "$@" \
  >"$work/ours.json" 2>"$work/ours.log" || { tail -5 "$work/ours.log" >&2; arm64_die "ours failed: $task $model"; }
qemu-aarch64 -cpu "$mp_cpu" -L "$arm64_mp_root" -E PYTHONPATH="$arm64_mp_site" "$arm64_mp_root/usr/bin/python3.13" \
  "$arm64_root/scripts/arm64/mp_results.py" "$model" "$task" "$@" >"$work/mediapipe.json" 2>"$work/mp.log" ||
  { tail -5 "$work/mp.log" >&2; arm64_die "MediaPipe failed: $task $model"; }
python3 - "$task" "$work/ours.json" "$work/mediapipe.json" <<'PY'
import json, struct, sys
task, ours, mediapipe = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))

def f32(x):  # a score as the float32 both sides hold (ours prints it shortest, MediaPipe's Python as a double)
    return struct.unpack("<f", struct.pack("<f", x))[0]

def scores(rows):
    return [[row[0], f32(row[1])] + row[2:] for row in rows]

failed = 0
for record in ours["records"]:
    theirs = scores(mediapipe[record["source"]])
    if task == "detect":
        mine = scores([[d["categories"][0]["categoryName"], d["categories"][0]["score"],
                        [d["boundingBox"][k] for k in ("originX", "originY", "width", "height")]] for d in record["detections"]])
    else:
        mine = scores([[c["index"], c["score"]] for c in record["classifications"][0]["categories"]])
        # The same scores, in order, as MediaPipe's top ones, each category with MediaPipe's score for it (the order
        # of equal scores, and which of them make the top 5, is its sort's accident).
        score = dict((i, s) for i, s in theirs)
        if [s for _, s in mine] == [s for _, s in theirs[:len(mine)]] and all(score.get(i) == s for i, s in mine):
            theirs = mine
    if mine != theirs:
        failed += 1
        print("%s: results differ from MediaPipe's aarch64 results:\n ours      %s\n MediaPipe %s"
              % (record["source"], mine, theirs), file=sys.stderr)
if failed or not ours["records"]:
    sys.exit("%d of %d photos differ" % (failed, len(ours["records"])))
print("  results on %d photos, each equal to MediaPipe's aarch64 results" % len(ours["records"]), file=sys.stderr)
PY
