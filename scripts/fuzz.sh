#!/usr/bin/env bash
# Builds the libFuzzer targets with Swift's -sanitize=fuzzer,address (C code with clang's
# -fsanitize=fuzzer-no-link,address) and runs each for SECONDS seconds (default 60):
#   model     — FlatBuffer verifier, model reader, semantic verifier, metadata, zip, SSD options
#   metadata  — TFLite/detector metadata, FlexBuffers, zips, label and calibration files
#   picture   — JPEG/PNG decoding, EXIF, preprocessing
#   video     — video files through the FFmpeg C layer (probing, decoding, colour conversion)
#   serve     — the serve protocols: Frigate's ZMQ requests and tensors, the JSON API's query arguments
#   http      — raw HTTP connections through libmicrohttpd and our layer (headers, bodies, multipart)
# Seed corpora come from the shared assets and the test fixtures; crashes are written to
# .build/fuzz/crashes/<target>/ and the run fails. Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(model metadata picture video serve http)
export VISION_TASKS_ASSETS=${VISION_TASKS_ASSETS:-$root/../shared}
scripts/install-system-deps.sh
out=$root/.build/fuzz
mkdir -p "$out"
flags=(-parse-as-library -sanitize=fuzzer,address -O -g -package-name VisionTasks)
maps=(-Xcc "-fmodule-map-file=$root/Sources/CZlib/module.modulemap" -Xcc "-fmodule-map-file=$root/Sources/CCrypto/module.modulemap")

module() {  # name, sources…: a static library and its module, instrumented
  local name=$1; shift
  swiftc "${flags[@]}" -emit-library -static -emit-module -module-name "$name" -I "$out" "${maps[@]}" \
    -emit-module-path "$out/$name.swiftmodule" -o "$out/lib$name.a" "$@"
}

cmodule() {  # name: Sources/<name>/*.c as an instrumented static library with its module map
  local name=$1 objects=() c
  for c in Sources/$name/*.c; do
    clang -O1 -g -fsanitize=fuzzer-no-link,address -ISources/$name/include -c "$c" -o "$out/$name-$(basename "$c" .c).o"
    objects+=("$out/$name-$(basename "$c" .c).o")
  done
  rm -f "$out/lib$name.a"
  ar rcs "$out/lib$name.a" "${objects[@]}"
  mkdir -p "$out/$name"
  printf 'module %s {\n  header "%s/Sources/%s/include/%s.h"\n  export *\n}\n' "$name" "$root" "$name" "$name" > "$out/$name/module.modulemap"
  maps+=(-Xcc "-fmodule-map-file=$out/$name/module.modulemap")
}

build() {
  module FileInput $(find Sources/FileInput -name "*.swift" | sort)
  # The custom ops' options formats TFLiteModel's rewrites write: a header of constants, no code.
  mkdir -p "$out/CKernelFormats"
  printf 'module CKernelFormats {\n  header "%s/Sources/CKernelFormats/include/KernelFormats.h"\n  export *\n}\n' "$root" \
    > "$out/CKernelFormats/module.modulemap"
  maps+=(-Xcc "-fmodule-map-file=$out/CKernelFormats/module.modulemap")
  module TFLiteModel $(find Sources/TFLiteModel -name "*.swift" | sort)
  # The C layers (over libjpeg, over FFmpeg), instrumented, each with a module map of its own;
  # the libraries below them are not instrumented.
  cmodule CJPEG
  cmodule CPNG
  cmodule CImaging
  module Locking $(find Sources/Locking -name "*.swift" | sort)
  module Imaging $(find Sources/Imaging -name "*.swift" | sort)
  cmodule CFFmpeg
  link=(-L "$out" -lTFLiteModel -lFileInput -lz -lcrypto)
  swiftc "${flags[@]}" -I "$out" "${maps[@]}" -o "$out/fuzz-model" Fuzz/FuzzSeeds.swift Fuzz/ModelSeeds.swift Fuzz/ModelFuzz.swift "${link[@]}"
  swiftc "${flags[@]}" -I "$out" "${maps[@]}" -o "$out/fuzz-metadata" Fuzz/FuzzSeeds.swift Fuzz/ModelSeeds.swift Fuzz/MetadataFuzz.swift "${link[@]}"
  swiftc "${flags[@]}" -I "$out" "${maps[@]}" -o "$out/fuzz-picture" Fuzz/FuzzSeeds.swift Fuzz/PictureSeeds.swift Fuzz/PictureFuzz.swift \
    -L "$out" -lImaging -lLocking -lCJPEG -lCPNG -lCImaging -lFileInput -ljpeg -lpng16 -ldeflate -lz -lcrypto
  swiftc "${flags[@]}" -I "$out" "${maps[@]}" -o "$out/fuzz-video" Fuzz/FuzzSeeds.swift Fuzz/VideoSeeds.swift Fuzz/VideoFuzz.swift \
    -L "$out" -lCFFmpeg -ldl
  module ServeProtocol $(find Sources/ServeProtocol -name "*.swift" | sort)
  swiftc "${flags[@]}" -I "$out" "${maps[@]}" -o "$out/fuzz-serve" Fuzz/FuzzSeeds.swift Fuzz/ServeFuzz.swift -L "$out" -lServeProtocol
  # C only: our layer over libmicrohttpd, instrumented, with the library itself.
  clang -O1 -g -fsanitize=fuzzer,address -ISources/CHTTPServer/include -o "$out/fuzz-http" \
    Fuzz/HTTPFuzz.c Sources/CHTTPServer/CHTTPServer.c -lmicrohttpd -lpthread
}

if [ ! -f "$out/.built" ] || [ -n "$(find Sources/FileInput Sources/CCrypto Sources/CKernelFormats Sources/TFLiteModel Sources/Locking Sources/Imaging Sources/CJPEG Sources/CPNG Sources/CImaging Sources/CFFmpeg Sources/ServeProtocol Sources/CHTTPServer Fuzz -newer "$out/.built" -type f | head -1)" ]; then
  echo "== building fuzz targets (log: $out/build.log)"
  # (set -e does not reach into a function run as a condition: each target is looked for afterwards.)
  for t in model metadata picture video serve http; do rm -f "$out/fuzz-$t"; done
  build >"$out/build.log" 2>&1 || true
  missing=$(for t in model metadata picture video serve http; do [ -x "$out/fuzz-$t" ] || echo "$t"; done)
  if [ -n "$missing" ]; then
    echo "fuzz: could not build: $(echo $missing)" >&2
    grep -E "error" "$out/build.log" | head -20 >&2
    exit 1
  fi
  touch "$out/.built"
fi

status=0
for target in "${targets[@]}"; do
  corpus=$out/corpus/$target crashes=$out/crashes/$target
  mkdir -p "$corpus" "$crashes"
  [ -n "$(ls -A "$corpus")" ] || ASAN_OPTIONS=detect_leaks=0 FUZZ_WRITE_SEEDS="$corpus" "$out/fuzz-$target" >/dev/null
  # Regression inputs found earlier are part of every run.
  [ -d "Tests/Fixtures/fuzz/$target" ] && cp -n Tests/Fixtures/fuzz/$target/* "$corpus"/ 2>/dev/null || true
  echo "== fuzzing $target for ${seconds}s ($(ls "$corpus" | wc -l) inputs in the corpus)"
  if ! ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 "$out/fuzz-$target" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 \
       -timeout=10 -max_len=1048576 -artifact_prefix="$crashes/" -print_final_stats=1 2>"$out/$target.log"; then
    echo "!! $target: crash or sanitizer report; input in $crashes, log in $out/$target.log"
    tail -40 "$out/$target.log"
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$out/$target.log" | sed "s/^/   $target /"
done
exit $status
