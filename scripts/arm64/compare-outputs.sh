#!/usr/bin/env bash
# detect, classify, label and track on the shared photos and video, once with this package's x86_64
# build (.build/debug/vision-tasks) and once with the aarch64 build under qemu-aarch64; the JSON
# documents must be byte-identical. Run inside make arm64's chroot (scripts/arm64/build.sh), or
# anywhere with X86=... AARCH64=... (each a command that runs vision-tasks).
#   scripts/arm64/compare-outputs.sh AARCH64_BINARY
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
assets=${VISION_TASKS_ASSETS:-$root/../shared}
models="$assets/models"
images="$assets/images"
x86=(${X86:-$root/.build/debug/vision-tasks})
aarch64=(${AARCH64:-qemu-aarch64-static -L /sysroot -cpu neoverse-n1 $1})
out="$root/.build/arm64-outputs"
rm -rf "$out"
mkdir -p "$out"
litert_x86=${LITERT_X86:-$root/.litert/lib/libLiteRt.so}
litert_aarch64=${LITERT_AARCH64:-$root/.litert-aarch64/lib/libLiteRt.so}

photos=()
for p in dog.jpg cat_720p.jpg giraffe.jpg owl.jpg person.jpg pets.jpg face.jpg bird.png grace_hopper.png; do
  photos+=("$images/$p")
done

runs=0 same=0
compare() {  # NAME ARGS...: runs both, compares stdout
  local name=$1; shift
  LITERT_LIBRARY=$litert_x86 "${x86[@]}" "$@" >"$out/$name.x86_64.json" 2>"$out/$name.x86_64.err" \
    || { cat "$out/$name.x86_64.err" >&2; echo "outputs: $name failed on x86_64" >&2; exit 1; }
  local start=$SECONDS
  LITERT_LIBRARY=$litert_aarch64 "${aarch64[@]}" "$@" >"$out/$name.aarch64.json" 2>"$out/$name.aarch64.err" \
    || { cat "$out/$name.aarch64.err" >&2; echo "outputs: $name failed on aarch64" >&2; exit 1; }
  runs=$((runs + 1))
  local bytes
  bytes=$(wc -c <"$out/$name.x86_64.json")
  if cmp -s "$out/$name.x86_64.json" "$out/$name.aarch64.json"; then
    same=$((same + 1))
    echo "outputs: $name: identical ($bytes bytes of JSON; qemu $((SECONDS - start)) s)"
  else
    echo "outputs: $name: DIFFERENT (first difference: $(cmp "$out/$name.x86_64.json" "$out/$name.aarch64.json" | head -1))"
  fi
}

compare detect-ssd-v1 detect --model "$models/ssd_mobilenet_v1_coco_quant_metadata.tflite" "${photos[@]}" --json
compare detect-fpnlite detect --model "$models/ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite" "${photos[@]}" --json
compare classify-mobilenet-v2 classify --model "$models/mobilenet_v2_1.0_224_quant.tflite" "${photos[@]}" --json
compare classify-birds classify --model "$models/aiy_vision_classifier_birds_V1_3.tflite" "${photos[@]}" --json
compare classify-tf2-ptq classify --model "$models/tf2_mobilenet_v2_1.0_224_ptq.tflite" "${photos[@]}" --json
compare label-birds label --model "$models/aiy_vision_classifier_birds_V1_3.tflite" "${photos[@]}" --json
compare track-car-video track --model "$models/ssd_mobilenet_v1_coco_quant_metadata.tflite" \
  "$images/car-detection.mp4" --json

echo "outputs: $same of $runs JSON documents identical on aarch64 (qemu) and x86_64"
[ "$same" = "$runs" ]
