#!/usr/bin/env bash
# The downstream check: VisionTasks used as a user's package would use it. Makes a bare clone of
# this checkout (HEAD), tags it 1.0.0, creates a fresh Swift 6 package depending on it *by version*
# over a file:// URL (scripts/downstream/SeedApp: seeds 000, 001, 003 and 004's Swift plus the async
# forms, Tasks, an actor and a DispatchQueue), gets the runtime with the documented plugin command,
# builds it in debug and in release with strict concurrency checking — no warning allowed — runs it
# on the shared photos from another directory, and checks its results against MediaPipe's goldens;
# then the debug build again under ThreadSanitizer, which must report nothing. Prints the debug and
# release detect times.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
assets=${VISION_TASKS_ASSETS:-$root/../shared}
work=${DOWNSTREAM_DIR:-$root/.build/downstream}
photos=(dog.jpg cat_720p.jpg pets.jpg giraffe.jpg bird.png)

rm -rf "$work"
mkdir -p "$work"
echo "== downstream: bare clone of $(git -C "$root" rev-parse --short HEAD), tagged 1.0.0"
git clone -q --bare "$root" "$work/VisionTasks.git"
git -C "$work/VisionTasks.git" tag -f 1.0.0 HEAD >/dev/null
app="$work/SeedApp"
cp -R "$root/scripts/downstream/SeedApp" "$app"
sed "s|@VISIONTASKS_URL@|file://$work/VisionTasks.git|" "$app/Package.swift.in" > "$app/Package.swift"
rm "$app/Package.swift.in"
mkdir -p "$app/Sources/SeedApp/Resources"
cp "$assets/models/ssd_mobilenet_v1_coco_quant_metadata.tflite" "$app/Sources/SeedApp/Resources/model.tflite"
cp "$assets/models/mobilenet_v2_1.0_224_quant.tflite" "$app/Sources/SeedApp/Resources/classifier.tflite"

cd "$app"
echo "== downstream: swift package resolve (by version, from: 1.0.0)"
swift package resolve
grep -q '"version" : "1.0.0"' Package.resolved || { echo "downstream: VisionTasks was not resolved by version" >&2; exit 1; }
echo "== downstream: the runtime, as Getting started says"
swift package --allow-writing-to-package-directory --allow-network-connections all fetch-litert
test -f .litert/lib/libLiteRt.so

inputs=()
for p in "${photos[@]}"; do inputs+=("$assets/images/$p"); done
status=0
for config in debug release; do
  echo "== downstream: swift build -c $config -Xswiftc -strict-concurrency=complete"
  swift build -c "$config" -Xswiftc -strict-concurrency=complete 2>&1 | tee "$work/build-$config.log" | grep -E "error|warning|Compiling SeedApp|Build complete" || true
  if grep -q "error:" "$work/build-$config.log" || ! grep -q "Build complete" "$work/build-$config.log"; then
    echo "downstream: the $config build failed" >&2; exit 1
  fi
  if grep -E "warning:" "$work/build-$config.log"; then
    echo "downstream: the $config build printed warnings" >&2; status=1
  fi
  exe="$app/.build/$config/SeedApp"
  # Run from another directory: the library is found from the executable's place in the package.
  (cd / && env -u LITERT_LIBRARY -u LITERT_LIB_DIR "$exe" "${inputs[@]}" --video "$assets/images/car-detection.mp4") > "$work/output-$config.jsonl"
  python3 "$root/scripts/downstream/compare.py" "$work/output-$config.jsonl" "$root/Tests/Goldens" "$config" || status=1
done
echo "== downstream: swift build --sanitize=thread, and the app run under ThreadSanitizer"
swift build --sanitize=thread -Xswiftc -strict-concurrency=complete --build-path .build-tsan 2>&1 | tee "$work/build-tsan.log" | grep -E "error|warning|Build complete" || true
grep -q "Build complete" "$work/build-tsan.log" || { echo "downstream: the ThreadSanitizer build failed" >&2; exit 1; }
if ! (cd / && env -u LITERT_LIBRARY -u LITERT_LIB_DIR TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
      "$app/.build-tsan/debug/SeedApp" "${inputs[0]}" --video "$assets/images/car-detection.mp4") > "$work/output-tsan.jsonl" 2> "$work/tsan.log"; then
  cat "$work/tsan.log" >&2
  echo "downstream: the app failed or ThreadSanitizer reported a race" >&2
  status=1
elif grep -q "ThreadSanitizer" "$work/tsan.log"; then
  cat "$work/tsan.log" >&2; status=1
else
  echo "tsan: clean ($(grep -c . "$work/output-tsan.jsonl") result lines)"
fi
exit $status
