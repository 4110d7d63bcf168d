#!/usr/bin/env bash
# arm64 speed by proxy, without an arm64 machine: the instructions one photo costs, file → result, 1 thread,
# counted under qemu-aarch64 by a TCG plugin that counts every guest instruction executed
# ($VISION_TASKS_ASSETS/tools/arm64-insncount) — ours (the aarch64 release CLI, as users run it) against
# MediaPipe 1.2.2's own aarch64 wheel (the same model and photo; tools/arm64-insncount/mp_loop.py), per model.
# Per photo: (the count with 11 photos − the count with 1) / 10, so start-up and model loading cancel out.
# Each model's results on every shared photo must be MediaPipe's aarch64 results, exactly
# (scripts/arm64/same-results.sh), or the script fails: a count of wrong work is no count.
# Instructions are not cycles: a proxy for speed, to compare builds of like code, not a timing.
#   scripts/arm64/insncount.sh      (make arm64-insncount) prints a table, appends out/arm64-insncount.jsonl
#   ARM64_CPU=neoverse-n1           the CPU qemu emulates (the dot-product class; the default); as a cortex-a72,
#                                   MediaPipe 1.2.2's wheel stops at once ("compiled with lse enabled": it needs ARMv8.1's
#                                   atomics, which a Cortex-A72 — a Raspberry Pi 4 — lacks), so there is nothing to compare
#   ARM64_INSN_ONLY=REGEX           only the models whose name matches
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cpu=${ARM64_CPU:-neoverse-n1}
tool="$ARM64_ASSETS/tools/arm64-insncount"
[ -f "$tool/insncount.c" ] || arm64_die "no $tool/insncount.c (the shared tools)"
if ! command -v qemu-aarch64 >/dev/null; then  # the dynamic qemu: the static one cannot load plugins
  [ "$(id -u)" = 0 ] || arm64_die "needs qemu-aarch64 (apt-get install qemu-user)"
  apt-get install -y -qq qemu-user >/dev/null || { apt-get update -qq && apt-get install -y -qq qemu-user >/dev/null; }
fi
plugin="$ARM64_CACHE/insncount/libinsncount.so"
if [ ! -f "$plugin" ] || [ "$tool/insncount.c" -nt "$plugin" ]; then
  mkdir -p "$(dirname "$plugin")"
  cc -O2 -shared -fPIC -o "$plugin" "$tool/insncount.c"
fi

ARM64_STAGES=release "$arm64_root/scripts/arm64/build.sh"
arm64_mediapipe_env
ours="$arm64_host$arm64_src/.build-aarch64/aarch64-unknown-linux-gnu/release/vision-tasks"
litert="$arm64_host$arm64_src/.litert-aarch64/lib/libLiteRt.so"
work=$(mktemp -d)
# XNNPACK reads the CPU from /proc/cpuinfo (each root's, through qemu's -L): the emulated CPU's for the counts.
[ -f "$arm64_root/scripts/arm64/$cpu.cpuinfo" ] || arm64_die "no scripts/arm64/$cpu.cpuinfo"
cpuinfo() { install -m 0644 "$arm64_root/scripts/arm64/$1.cpuinfo" "$arm64_host$arm64_sysroot/proc/cpuinfo"
            install -m 0644 "$arm64_root/scripts/arm64/$1.cpuinfo" "$arm64_mp_root/proc/cpuinfo"; }
cpuinfo "$cpu"
trap 'rm -rf "$work"; cpuinfo neoverse-n1' EXIT

# The instructions COMMAND... executes under qemu (the plugin prints "insns N" at exit, on standard error).
count() {
  local log="$work/run.log"
  "$@" >/dev/null 2>"$log" || { tail -5 "$log" >&2; arm64_die "failed under qemu: $*"; }
  awk '/^insns /{n=$2} END{if (n == "") exit 1; print n}' "$log" || arm64_die "no count from the plugin: $*"
}
qemu=(qemu-aarch64 -plugin "$plugin" -d plugin -cpu "$cpu")
# Ours runs --sequential, one photo after another as MediaPipe's loop does: the pipelined runner (decoding
# ahead on other threads) is for throughput, and counted ~14 M more instructions per photo (its threads' work).
# TASK MODEL PHOTO...: ours on these photos, one after another.
run_ours() {
  local task=$1 model=$2; shift 2
  count "${qemu[@]}" -L "$arm64_host$arm64_sysroot" -E LD_LIBRARY_PATH=/usr/libexec/swift/lib/swift/linux \
    -E LITERT_LIBRARY="$litert" "$ours" "$task" --model "$model" --threads 1 --max-results 5 --sequential "$@"
}
# TASK MODEL PHOTO N: MediaPipe on the photo N times.
run_mediapipe() {
  count "${qemu[@]}" -L "$arm64_mp_root" -E PYTHONPATH="$arm64_mp_site" "$arm64_mp_root/usr/bin/python3.13" \
    "$tool/mp_loop.py" "$2" "$3" "$4" "$1"
}
# NAME TASK MODEL PHOTO
models=(
  "ssd_mobilenet_v1 detect ssd_mobilenet_v1_coco_quant_metadata.tflite dog.jpg"
  "mobilenet_v2_quant classify mobilenet_v2_1.0_224_quant.tflite dog.jpg"
)
mkdir -p "$arm64_root/out"
printf '%-20s %-10s %16s %16s %8s\n' model photo "ours (insns)" "MediaPipe" "ratio" >&2
for entry in "${models[@]}"; do
  read -r name task model photo <<<"$entry"
  [ -z "${ARM64_INSN_ONLY:-}" ] || [[ $name =~ $ARM64_INSN_ONLY ]] || continue
  m="$ARM64_ASSETS/models/$model"
  ARM64_CPU=$cpu "$arm64_root/scripts/arm64/same-results.sh" "$task" "$m" "$ARM64_ASSETS"/images/*.jpg "$ARM64_ASSETS"/images/*.png ||
    arm64_die "$name: not MediaPipe's results"
  copies=()
  for i in $(seq -w 1 11); do ln -sf "$ARM64_ASSETS/images/$photo" "$work/p$i-$photo"; copies+=("$work/p$i-$photo"); done
  o1=$(run_ours "$task" "$m" "${copies[0]}"); o11=$(run_ours "$task" "$m" "${copies[@]}")
  p1=$(run_mediapipe "$task" "$m" "$ARM64_ASSETS/images/$photo" 1)
  p11=$(run_mediapipe "$task" "$m" "$ARM64_ASSETS/images/$photo" 11)
  python3 - "$name" "$photo" "$cpu" "$o1" "$o11" "$p1" "$p11" "$arm64_root/out/arm64-insncount.jsonl" <<'PY'
import datetime, json, sys
name, photo, cpu = sys.argv[1:4]
o1, o11, p1, p11 = map(int, sys.argv[4:8])
ours, mp = (o11 - o1) / 10, (p11 - p1) / 10
row = {"date": datetime.date.today().isoformat(), "cpu": cpu, "model": name, "photo": photo,
       "oursPerPhoto": ours, "mediapipePerPhoto": mp, "ratio": round(ours / mp, 3),
       "counts": {"ours1": o1, "ours11": o11, "mediapipe1": p1, "mediapipe11": p11}}
with open(sys.argv[8], "a") as f:
    f.write(json.dumps(row) + "\n")
print("%-20s %-10s %14.1f M %14.1f M %8.3f" % (name, photo, ours / 1e6, mp / 1e6, ours / mp))
PY
done
