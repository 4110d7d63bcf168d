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
# Beside ours as users run it: ours with LiteRT's own kernels for every op (VISION_TASKS_*_KERNEL=builtin),
# which says what our kernels take off.
#   ARM64_CPU=neoverse-n1           the CPU qemu emulates for ours (the dot-product class; the default), cortex-a72 or
#                                   cortex-a55 (a Neoverse-N1 shown an A55's /proc/cpuinfo: XNNPACK's rndnu16, both sides).
#                                   MediaPipe 1.2.2's wheel cannot run as a Cortex-A72 (a Raspberry Pi 4): it stops at once,
#                                   "compiled with lse enabled" (ARMv8.1's atomics). Its side then runs as a Neoverse-N1
#                                   with the Cortex-A72's /proc/cpuinfo: for these uint8 models XNNPACK takes the same
#                                   kernels on both (its QU8 GEMM and depthwise choices do not depend on the dot product;
#                                   docs/aarch64-xnnpack.md), so the count is the one a Cortex-A72 would run.
#   ARM64_INSN_ONLY=REGEX           only the models whose name matches
#   ARM64_OURS_ENV="K=V ..."        environment for ours' default side (e.g. VISION_TASKS_CONV1X1_KERNEL=ours)
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
qemu=(qemu-aarch64 -plugin "$plugin" -d plugin -cpu "$(arm64_qemu_cpu "$cpu")")
mp_cpu=$(arm64_qemu_cpu "$cpu")
[ "$cpu" != cortex-a72 ] || mp_cpu=neoverse-n1
# Ours runs --sequential, one photo after another as MediaPipe's loop does: the pipelined runner (decoding
# ahead on other threads) is for throughput, and counted ~14 M more instructions per photo (its threads' work).
# KERNELS (ours: the default; builtin: LiteRT's for every op) TASK MODEL PHOTO...: ours on these photos, one after another.
run_ours() {
  local kernels=$1 task=$2 model=$3; shift 3
  local env=()
  if [ "$kernels" = ours ]; then for kv in ${ARM64_OURS_ENV:-}; do env+=(-E "$kv"); done; fi
  [ "$kernels" = ours ] || for k in CONV1X1 HYBRID HYBRID_CONV DEPTHWISE POSTPROCESS REQUANTIZE FUSED INT8_SPATIAL; do
    [ "$k" = FUSED ] && env+=(-E VISION_TASKS_FUSED_KERNELS=builtin) || env+=(-E "VISION_TASKS_${k}_KERNEL=builtin")
  done
  count "${qemu[@]}" -L "$arm64_host$arm64_sysroot" -E LD_LIBRARY_PATH=/usr/libexec/swift/lib/swift/linux \
    -E LITERT_LIBRARY="$litert" "${env[@]}" "$ours" "$task" --model "$model" --threads 1 --max-results 5 --sequential "$@"
}
# TASK MODEL PHOTO N: MediaPipe on the photo N times.
run_mediapipe() {
  count qemu-aarch64 -plugin "$plugin" -d plugin -cpu "$mp_cpu" -L "$arm64_mp_root" -E PYTHONPATH="$arm64_mp_site" "$arm64_mp_root/usr/bin/python3.13" \
    "$tool/mp_loop.py" "$2" "$3" "$4" "$1"
}
# NAME TASK MODEL PHOTO
models=(
  "ssd_mobilenet_v1 detect ssd_mobilenet_v1_coco_quant_metadata.tflite dog.jpg"
  "mobilenet_v2_quant classify mobilenet_v2_1.0_224_quant.tflite dog.jpg"
)
mkdir -p "$arm64_root/out"
printf '%-20s %-10s %-12s %16s %16s %16s %8s\n' model photo cpu "ours (insns)" "LiteRT's kernels" "MediaPipe" "ratio" >&2
for entry in "${models[@]}"; do
  read -r name task model photo <<<"$entry"
  [ -z "${ARM64_INSN_ONLY:-}" ] || [[ $name =~ $ARM64_INSN_ONLY ]] || continue
  m="$ARM64_ASSETS/models/$model"
  ARM64_CPU=$cpu "$arm64_root/scripts/arm64/same-results.sh" "$task" "$m" "$ARM64_ASSETS"/images/*.jpg "$ARM64_ASSETS"/images/*.png ||
    arm64_die "$name: not MediaPipe's results"
  copies=()
  for i in $(seq -w 1 11); do ln -sf "$ARM64_ASSETS/images/$photo" "$work/p$i-$photo"; copies+=("$work/p$i-$photo"); done
  o1=$(run_ours ours "$task" "$m" "${copies[0]}"); o11=$(run_ours ours "$task" "$m" "${copies[@]}")
  b1=$(run_ours builtin "$task" "$m" "${copies[0]}"); b11=$(run_ours builtin "$task" "$m" "${copies[@]}")
  p1=$(run_mediapipe "$task" "$m" "$ARM64_ASSETS/images/$photo" 1)
  p11=$(run_mediapipe "$task" "$m" "$ARM64_ASSETS/images/$photo" 11)
  python3 - "$name" "$photo" "$cpu" "$mp_cpu" "$o1" "$o11" "$b1" "$b11" "$p1" "$p11" "$arm64_root/out/arm64-insncount.jsonl" <<'PY'
import datetime, json, sys
name, photo, cpu, mp_cpu = sys.argv[1:5]
o1, o11, b1, b11, p1, p11 = map(int, sys.argv[5:11])
ours, builtin, mp = (o11 - o1) / 10, (b11 - b1) / 10, (p11 - p1) / 10
row = {"date": datetime.date.today().isoformat(), "cpu": cpu, "mediapipeCpu": mp_cpu, "model": name, "photo": photo,
       "oursPerPhoto": ours, "litertKernelsPerPhoto": builtin, "mediapipePerPhoto": mp, "ratio": round(ours / mp, 3),
       "counts": {"ours1": o1, "ours11": o11, "litertKernels1": b1, "litertKernels11": b11, "mediapipe1": p1, "mediapipe11": p11}}
with open(sys.argv[11], "a") as f:
    f.write(json.dumps(row) + "\n")
print("%-20s %-10s %-12s %14.1f M %14.1f M %14.1f M %8.3f" % (name, photo, cpu, ours / 1e6, builtin / 1e6, mp / 1e6, ours / mp))
PY
done
