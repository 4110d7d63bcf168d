#!/usr/bin/env bash
# A batch that outgrows one machine, on a real scheduler: starts a one-node Slurm cluster on this
# machine (scripts/slurm/start-cluster.sh installs slurm-wlm and munge when missing), submits a
# 4-task job array in which each task runs `vision-tasks detect` on its share of the inputs (the
# shard comes from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT), merges the shards' JSONL, and checks
# that the merge equals a single run's records — same records, none lost, none twice.
#
# Environment: VISION_TASKS_BIN (default .build/release/vision-tasks), VISION_TASKS_ASSETS
# (default ../shared), OUT (default out/slurm), TASKS (default 4), KEEP_CLUSTER=1 to leave it up.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${VISION_TASKS_BIN:-$root/.build/release/vision-tasks}")
assets=$(realpath "${VISION_TASKS_ASSETS:-$root/../shared}")
out=$(realpath -m "${OUT:-$root/out/slurm}")
tasks=${TASKS:-4}
model="$assets/models/ssd_mobilenet_v1_coco_quant_metadata.tflite"
[ -x "$bin" ] || { echo "test-slurm: build first (make build): $bin is missing" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out/shards"

# The inputs: the shared photos and the video (every 10th frame), listed in a file the array reads.
find "$assets/images" -type f \( -name '*.jpg' -o -name '*.png' -o -name '*.mp4' \) | sort > "$out/inputs.txt"

eval "$("$root/scripts/slurm/start-cluster.sh")"
[ "${KEEP_CLUSTER:-0}" = 1 ] || trap '"$root/scripts/slurm/stop-cluster.sh" >&2 || true' EXIT

cat > "$out/job.sh" <<JOB
#!/usr/bin/env bash
#SBATCH --job-name=vision-tasks
#SBATCH --cpus-per-task=1
set -euo pipefail
export LITERT_LIBRARY="${LITERT_LIBRARY:-$root/.litert/lib/libLiteRt.so}"
"$bin" detect --model "$model" - --every 10 --max-results 5 \\
    --jsonl "$out/shards/shard-\$SLURM_ARRAY_TASK_ID.jsonl" --progress lines < "$out/inputs.txt"
JOB
chmod +x "$out/job.sh"

echo "test-slurm: sbatch --wait --array=0-$((tasks - 1))" >&2
start=$(date +%s)
sbatch --wait --array=0-$((tasks - 1)) --output="$out/slurm-%a.log" "$out/job.sh" >&2
echo "test-slurm: array finished in $(( $(date +%s) - start )) s" >&2
# sbatch's status alone is not trusted: each task must have written its shard.
for k in $(seq 0 $((tasks - 1))); do
  [ -s "$out/shards/shard-$k.jsonl" ] || { echo "test-slurm: shard $k wrote nothing; its log:" >&2; cat "$out/slurm-$k.log" >&2 || true; exit 1; }
  echo "  shard $k: $(wc -l < "$out/shards/shard-$k.jsonl") records ($(grep -m1 '^shard' "$out/slurm-$k.log" || echo '?'))" >&2
done

# The same inputs in one run, here.
LITERT_LIBRARY="${LITERT_LIBRARY:-$root/.litert/lib/libLiteRt.so}" "$bin" detect --model "$model" - --every 10 --max-results 5 \
    --jsonl "$out/single.jsonl" --quiet < "$out/inputs.txt"

python3 - "$out" "$tasks" <<'PY'
import json, sys, pathlib
out, tasks = pathlib.Path(sys.argv[1]), int(sys.argv[2])
def key(r): return (r["source"], r.get("frame", 0))
single = [json.loads(l) for l in (out / "single.jsonl").read_text().splitlines() if l.strip()]
merged, sources = [], {}
for k in range(tasks):
    for l in (out / "shards" / f"shard-{k}.jsonl").read_text().splitlines():
        if l.strip():
            r = json.loads(l)
            merged.append(r)
            sources.setdefault(r["source"], set()).add(k)
split = [s for s, ks in sources.items() if len(ks) > 1]
assert not split, f"inputs processed by more than one shard: {split}"
keys = [key(r) for r in merged]
assert len(keys) == len(set(keys)), "a record appears twice in the shards"
a = sorted(merged, key=key); b = sorted(single, key=key)
assert len(a) == len(b), f"{len(a)} merged records, {len(b)} in the single run"
assert a == b, "the merged shards differ from the single run"
shares = [sum(1 for s, ks in sources.items() if k in ks) for k in range(tasks)]
print(f"test-slurm: PASS — {len(a)} records from {len(sources)} inputs in {tasks} shards (inputs per shard {shares}) equal the single run")
PY
