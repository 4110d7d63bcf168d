#!/usr/bin/env bash
# make bench-serve: `vision-tasks serve` (release) against what a user would otherwise write —
# MediaPipe 1.2.2 behind FastAPI/uvicorn (scripts/bench/mediapipe_serve.py) — on the same machine,
# model (SSD MobileNet v1), photo and client (wrk, DeepStack's multipart route), loopback only:
#   1. throughput and latency at concurrency 1, 4 and 16, SECONDS_EACH seconds each (default 30),
#      the two servers taking turns;
#   2. a 320×320 JPEG (Frigate's deepstack detector's frame) at concurrency 4: p99 against Frigate's
#      100 ms timeout;
#   3. 10,000 requests (concurrency 4): the server's resident memory after 1,000 and at the end;
#   4. overload (concurrency 64 on --max-queue 8): 503s, and memory.
# Both servers run 2 workers (one per core here). Results: a table on standard output and
# out/bench-serve.json.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
assets=${VISION_TASKS_ASSETS:-$root/../shared}
model=$assets/models/ssd_mobilenet_v1_coco_quant_metadata.tflite
photo=$assets/images/dog.jpg
seconds=${SECONDS_EACH:-30}
command -v wrk >/dev/null || { echo "bench-serve: installing wrk" >&2; ${SUDO:-$( [ "$(id -u)" = 0 ] || echo sudo)} apt-get install -y -qq wrk >/dev/null; }
source scripts/venv.sh
ensure_venv "$root/.venv-serve-bench" scripts/bench/serve-requirements.txt
swift build -c release --product vision-tasks >/dev/null
mkdir -p out
work=$(mktemp -d)
small=$work/dog320.jpg
ffmpeg -v error -y -i "$photo" -vf scale=320:320 -q:v 3 "$small"
ours_port=18181 mp_port=18182 busy_port=18183
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

wait_for() {  # URL: until it answers 200 (at most 120 s)
  for _ in $(seq 1 240); do curl -sf "$1" >/dev/null && return 0; sleep 0.5; done
  echo "bench-serve: $1 never answered" >&2
  exit 1
}
rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }

.build/release/vision-tasks serve --listen 127.0.0.1:$ours_port --model ssd="$model" --workers 2 --max-queue 256 \
  2>"$work/ours.log" &
ours=$!
pids+=("$ours")
MEDIAPIPE_SERVE_MODEL=$model "$root/.venv-serve-bench/bin/uvicorn" --app-dir scripts/bench mediapipe_serve:app \
  --host 127.0.0.1 --port $mp_port --workers 2 --log-level warning 2>"$work/mediapipe.log" &
pids+=("$!")
wait_for "http://127.0.0.1:$ours_port/readyz"
wait_for "http://127.0.0.1:$mp_port/healthz"

run() {  # PORT CONCURRENCY SECONDS PICTURE: one wrk run's JSON line
  WRK_PICTURE=$4 wrk -t1 -c"$2" -d"$3"s --timeout 10s -s scripts/bench/deepstack.lua \
    "http://127.0.0.1:$1/v1/vision/detection" | tail -1
}

results="{"
echo "== throughput and latency (dog.jpg 768×576, DeepStack route, ${seconds} s each; the servers take turns)"
printf "%-12s %5s %10s %9s %9s %9s %8s\n" server conc "ok/s" "p50 ms" "p99 ms" "max ms" errors
for c in 1 4 16; do
  for server in ours mediapipe; do
    port=$([ $server = ours ] && echo $ours_port || echo $mp_port)
    run "$port" "$c" 3 "$photo" >/dev/null  # warm-up
    line=$(run "$port" "$c" "$seconds" "$photo")
    results+="\"${server}_c$c\": $line, "
    python3 - "$server" "$c" "$line" <<'EOF'
import json, sys
r = json.loads(sys.argv[3])
bad = r["requests"] - r["ok"] + r["socketErrors"]
print("%-12s %5s %10.1f %9.1f %9.1f %9.1f %8d" % (sys.argv[1], sys.argv[2], r["okPerSecond"], r["p50"], r["p99"], r["max"], bad))
EOF
  done
done

echo "== Frigate's frame: a 320×320 JPEG at concurrency 4 (Frigate's deepstack timeout: 100 ms)"
for server in ours mediapipe; do
  port=$([ $server = ours ] && echo $ours_port || echo $mp_port)
  run "$port" 4 3 "$small" >/dev/null
  line=$(run "$port" 4 "$seconds" "$small")
  results+="\"${server}_320_c4\": $line, "
  python3 -c 'import json,sys; r=json.loads(sys.argv[2]); print("%-10s ok/s %.1f  p50 %.1f ms  p99 %.1f ms  max %.1f ms" % (sys.argv[1], r["okPerSecond"], r["p50"], r["p99"], r["max"]))' "$server" "$line"
done

echo "== memory over 10,000 requests (concurrency 4)"
"$root/.venv-tools/bin/python" scripts/serve/load_client.py "http://127.0.0.1:$ours_port/v1/vision/detection" "$photo" \
  --multipart --requests 1000 --concurrency 4 >/dev/null
before=$(rss_kib $ours)
memory=$("$root/.venv-tools/bin/python" scripts/serve/load_client.py "http://127.0.0.1:$ours_port/v1/vision/detection" \
  "$photo" --multipart --requests 9000 --concurrency 4)
after=$(rss_kib $ours)
echo "resident memory: $before KiB after 1,000 requests, $after KiB after 10,000 ($(( (after - before) * 100 / before ))%)"
results+="\"memory\": {\"afterWarmupKiB\": $before, \"afterKiB\": $after, \"run\": $memory}, "

echo "== overload: concurrency 64 on a server with --max-queue 8"
.build/release/vision-tasks serve --listen 127.0.0.1:$busy_port --model ssd="$model" --workers 2 --max-queue 8 \
  2>"$work/busy.log" &
busy=$!
pids+=("$busy")
wait_for "http://127.0.0.1:$busy_port/readyz"
run $busy_port 64 3 "$photo" >/dev/null
b0=$(rss_kib $busy)
line=$(run $busy_port 64 "$seconds" "$photo")
b1=$(rss_kib $busy)
python3 -c 'import json,sys; r=json.loads(sys.argv[1]); print("statuses %s, socket errors %d; resident memory %s → %s KiB" % (r["statuses"], r["socketErrors"], sys.argv[2], sys.argv[3]))' "$line" "$b0" "$b1"
results+="\"overload\": {\"run\": $line, \"beforeKiB\": $b0, \"afterKiB\": $b1}, "
kill -TERM $busy

results+="\"cpu\": \"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)\", \"seconds\": $seconds}"
echo "$results" | python3 -m json.tool > out/bench-serve.json
echo "wrote out/bench-serve.json"
