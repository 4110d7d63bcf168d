#!/usr/bin/env bash
# The downstream check for aarch64, inside make arm64's chroot: the seed package
# (scripts/downstream/SeedApp) depends on VisionTasks by version (a bare clone of the committed HEAD
# at $DOWNSTREAM_GIT, tagged 1.0.0), gets the aarch64 runtime with the documented plugin command
# (LITERT_ARCH=aarch64), is cross-built with Debian's Swift 6.0.3 in debug and release, runs under
# qemu-aarch64 on the shared photos and video, and its results are checked against MediaPipe's
# goldens, as on x86_64 (scripts/downstream/check.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
assets=${VISION_TASKS_ASSETS:-$root/../shared}
git_dir=${DOWNSTREAM_GIT:-/src/downstream/VisionTasks.git}
work=/src/downstream
sysroot=${ARM64_SYSROOT:-/sysroot}
photos=(dog.jpg cat_720p.jpg pets.jpg giraffe.jpg bird.png)

[ -d "$git_dir" ] || { echo "downstream: no bare clone at $git_dir" >&2; exit 1; }
git config --global --add safe.directory '*'
git -C "$git_dir" tag -f 1.0.0 HEAD >/dev/null
app="$work/SeedApp"
rm -rf "$app"
cp -R "$root/scripts/downstream/SeedApp" "$app"
sed "s|@VISIONTASKS_URL@|file://$git_dir|" "$app/Package.swift.in" > "$app/Package.swift"
rm "$app/Package.swift.in"
mkdir -p "$app/Sources/SeedApp/Resources"
cp "$assets/models/ssd_mobilenet_v1_coco_quant_metadata.tflite" "$app/Sources/SeedApp/Resources/model.tflite"
cp "$assets/models/mobilenet_v2_1.0_224_quant.tflite" "$app/Sources/SeedApp/Resources/classifier.tflite"

cd "$app"
swift package resolve
grep -q '"version" : "1.0.0"' Package.resolved || { echo "downstream: VisionTasks was not resolved by version" >&2; exit 1; }
# The runtime for the target (cross-compiling): LITERT_ARCH picks the wheel.
LITERT_ARCH=aarch64 swift package --allow-writing-to-package-directory --allow-network-connections all fetch-litert
file -L .litert/lib/libLiteRt.so | grep -q "ARM aarch64" || { echo "downstream: .litert/lib/libLiteRt.so is not aarch64" >&2; exit 1; }

inputs=()
for p in "${photos[@]}"; do inputs+=("$assets/images/$p"); done
export PKG_CONFIG_LIBDIR="$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$sysroot"
for config in debug release; do
  swift build -c "$config" --destination /opt/aarch64-destination.json 2>&1 | tee "$work/build-$config.log" | grep -E "error|warning:|Build complete" || true
  grep -q "Build complete" "$work/build-$config.log" || { echo "downstream: the aarch64 $config build failed" >&2; exit 1; }
  exe="$app/.build/aarch64-unknown-linux-gnu/$config/SeedApp"
  file "$exe" | grep -q "ARM aarch64" || { echo "downstream: $exe is not an aarch64 program" >&2; exit 1; }
  # Run from another directory: the library is found from the executable's place in the package.
  (cd / && env -u LITERT_LIBRARY qemu-aarch64-static -L "$sysroot" -cpu neoverse-n1 "$exe" "${inputs[@]}" \
    --video "$assets/images/car-detection.mp4") > "$work/output-$config.jsonl"
  python3 "$root/scripts/downstream/compare.py" "$work/output-$config.jsonl" "$root/Tests/Goldens" "aarch64 $config" aarch64 \
    | sed 's/^/downstream: /'
done
