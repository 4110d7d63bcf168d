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
[ "$(id -u)" = 0 ] || arm64_die "needs root (mmdebstrap)"
python_root="$ARM64_CACHE/mediapipe-aarch64/root"
site="$ARM64_CACHE/mediapipe-aarch64/site"
out="$arm64_root/Tests/Goldens/aarch64"
if [ ! -x "$python_root/usr/bin/python3.13" ]; then
  arm64_log "Debian trixie's arm64 Python and the libraries MediaPipe's wheel loads (mmdebstrap, extract only)"
  rm -rf "$python_root"
  mkdir -p "$(dirname "$python_root")"
  mmdebstrap --arch=arm64 --variant=extract --skip=cleanup/apt/cache \
    --include=python3.13,python3.13-minimal,libpython3.13,libpython3.13-stdlib,libstdc++6,libgcc-s1,libgomp1,libegl1,libgles2,libgl1 \
    "$ARM64_SUITE" "$python_root" "$ARM64_MIRROR" >"$python_root.log" 2>&1 || arm64_die "mmdebstrap failed: $python_root.log"
  ln -sfn usr/lib "$python_root/lib"
fi
install -D -m 0644 "$arm64_root/scripts/arm64/neoverse-n1.cpuinfo" "$python_root/proc/cpuinfo"
if [ ! -d "$site/mediapipe" ]; then
  arm64_log "MediaPipe 1.2.2's aarch64 wheel and its dependencies (pip, for cp313 aarch64)"
  pip=(python3 -m pip install -q --target "$site" --only-binary=:all: --python-version 3.13 --implementation cp
       --platform manylinux_2_28_aarch64 --platform manylinux2014_aarch64 --platform manylinux_2_17_aarch64)
  "${pip[@]}" mediapipe==1.2.2
  # OpenCV's headless build: the full one loads X11 libraries (MediaPipe's drawing utilities import cv2).
  rm -rf "$site/cv2" "$site"/opencv_contrib_python*
  "${pip[@]}" --no-deps opencv-contrib-python-headless
fi
if [ ! -d "$site/ai_edge_litert" ]; then
  arm64_log "ai-edge-litert 2.3.0's aarch64 wheel (LiteRT's Python interpreter, for litert.json)"
  python3 -m pip install -q --target "$site" --only-binary=:all: --python-version 3.13 --implementation cp \
    --platform manylinux_2_28_aarch64 --platform manylinux_2_27_aarch64 --platform manylinux2014_aarch64 \
    --no-deps ai-edge-litert==2.3.0
fi
py() { qemu-aarch64-static -L "$python_root" -cpu neoverse-n1 -E PYTHONPATH="$site" "$python_root/usr/bin/python3.13" "$@"; }
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
