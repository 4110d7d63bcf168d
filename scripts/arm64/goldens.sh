#!/usr/bin/env bash
# The aarch64 goldens: MediaPipe 1.2.2's own aarch64 build (the manylinux_2_28_aarch64 wheel from
# PyPI) run under qemu-aarch64 (Neoverse-N1) on Debian trixie's arm64 Python, through the same
# scripts as the x86_64 goldens (scripts/goldens/). LiteRT's aarch64 kernels compute quantized and
# float ops with other roundings than its x86_64 ones (requantization, FMA order), so on arm64
# MediaPipe's results — and ours — differ from the x86_64 goldens; the test suite built for arm64
# reads Tests/Goldens/aarch64/NAME where it exists (VisionTestSupport's Goldens). A golden equal to
# its x86_64 twin is not kept.
#   scripts/arm64/goldens.sh          writes Tests/Goldens/aarch64/*.json (~15 min under qemu)
#   ARM64_GOLDENS="litert.json ..."  only these
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arm64_mediapipe_env
out="$arm64_root/Tests/Goldens/aarch64"
py() { qemu-aarch64-static -L "$arm64_mp_root" -cpu neoverse-n1 -E PYTHONPATH="$arm64_mp_site" "$arm64_mp_root/usr/bin/python3.13" "$@"; }
py -c 'import mediapipe, platform; print("arm64: MediaPipe", mediapipe.__version__, "on", platform.machine())' 2>/dev/null

mkdir -p "$out"
cd "$arm64_root/scripts/goldens"
# The raw-SSD golden's model gets our metadata (the x86_64 build's writer; its bytes are the same anywhere).
(cd "$arm64_root" && swift build --product vision-tasks >/dev/null)
face=$(mktemp -d)/face_detection_short_range_detector.tflite
"$arm64_root/.build/debug/vision-tasks" metadata --model "$ARM64_ASSETS/models/face_detection_short_range.tflite" \
  --output "$face" --blazeface-short-range --keypoints 6 --box-scale 128 --no-exp-box-size
run() {  # NAME SCRIPT ARGS...
  local name=$1 start=$SECONDS; shift
  [ -z "${ARM64_GOLDENS:-}" ] || [[ " $ARM64_GOLDENS " == *" $name "* ]] || return 0
  py "$@" > "$out/$name.tmp" 2>"$out/$name.log" || { tail -20 "$out/$name.log" >&2; arm64_die "$name failed"; }
  rm -f "$out/$name.log"
  if cmp -s "$out/$name.tmp" "$arm64_root/Tests/Goldens/$name"; then
    rm -f "$out/$name.tmp" "$out/$name"
    arm64_log "$name: the same as x86_64's ($((SECONDS - start)) s)"
  else
    mv "$out/$name.tmp" "$out/$name"
    arm64_log "$name: aarch64's own, written ($((SECONDS - start)) s)"
  fi
}
run litert.json litert_goldens.py "$ARM64_ASSETS"
run mediapipe_images.json mediapipe_image_goldens.py "$ARM64_ASSETS"
run mediapipe_classifier.json mediapipe_classifier_goldens.py "$ARM64_ASSETS"
run mediapipe_timestamps.json mediapipe_timestamp_goldens.py "$ARM64_ASSETS"
run mediapipe_detector.json mediapipe_detector_goldens.py "$ARM64_ASSETS" "$face"
