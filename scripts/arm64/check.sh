#!/usr/bin/env bash
# arm64 (aarch64) without an arm64 machine: what can be checked here, checked.
# 1. VisionTasks' C kernels compile for aarch64 (-Wall -Werror) and, linked into a probe run under
#    qemu as a Neoverse-N1 and as a Cortex-A72, take the NEON dot-product path for the 8-bit 1×1
#    convolutions where the CPU has udot (else leave them to LiteRT's kernels), and no x86 path.
# 2. The aarch64 libLiteRt.so that `fetch-litert` installs on arm64 (LITERT_ARCH=aarch64, pinned
#    sha256) loads and runs SSD MobileNet v1 and MobileNet v2 (uint8) under qemu-aarch64 (Neoverse-N1),
#    through a C runner that uses our own CLiteRT.h declarations, with outputs byte-identical to the
#    x86_64 library's on the same input.
# The Swift modules on aarch64: scripts/arm64/build.sh (Debian's Swift 6.0.3, cross-built, run under qemu).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
assets=${VISION_TASKS_ASSETS:-$root/../shared}
here="$root/scripts/arm64"
work="$root/.build/arm64"
mkdir -p "$work"

need=()
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
[ -e /usr/aarch64-linux-gnu/lib/libstdc++.so.6 ] || need+=(libstdc++6-arm64-cross)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "arm64: installing ${need[*]}" >&2
    apt-get install -y -qq "${need[@]}" >/dev/null || { apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null; }
  else
    echo "arm64: needs ${need[*]} (apt-get install ${need[*]})" >&2; exit 1
  fi
fi

echo "== arm64: CKernels for aarch64"
objects=()
for c in "$root"/Sources/CKernels/*.c "$here/kernels_probe.c"; do
  o="$work/$(basename "$c" .c).o"
  # clang, as SwiftPM compiles them (the sources use clang's pragmas), against Debian's arm64 headers.
  clang --target=aarch64-linux-gnu -std=gnu11 -O2 -Wall -Werror -fPIC -I "$root/Sources/CKernels/include" -I "$root/Sources/CKernelFormats/include" -I "$root/Sources/CLiteRT/include" -c "$c" -o "$o"
  objects+=("$o")
done
# The JPEG reconstruction (IDCT, upsampling, colour) is plain C too; CJPEG.c itself is a thin
# wrapper over the system libjpeg and needs that library's arm64 headers, which this machine lacks.
clang --target=aarch64-linux-gnu -std=gnu11 -O2 -Wall -Werror -fPIC -I "$root/Sources/CJPEG/include" -c "$root/Sources/CJPEG/Reconstruct.c" -o "$work/Reconstruct.o"
# The preprocessor's sampler: on aarch64 it leaves every row to the Swift path.
clang --target=aarch64-linux-gnu -std=gnu11 -O2 -Wall -Werror -fPIC -I "$root/Sources/CImaging/include" -c "$root/Sources/CImaging/Sample.c" -o "$work/Sample.o"
aarch64-linux-gnu-gcc -o "$work/kernels_probe" "${objects[@]}" -lpthread -lm
for cpu in neoverse-n1 cortex-a72; do qemu-aarch64-static -L /usr/aarch64-linux-gnu -cpu $cpu "$work/kernels_probe" $cpu; done

echo "== arm64: the aarch64 libLiteRt.so, fetched as on an arm64 machine"
LITERT_ARCH=aarch64 "$root/scripts/fetch-litert.sh" --dest "$work/lib"
"$root/scripts/fetch-litert.sh"
aarch64-linux-gnu-gcc -O2 -Wall -Werror -fPIC -shared -o "$work/cpuinfo_shim.so" "$here/cpuinfo_shim.c" -ldl
aarch64-linux-gnu-gcc -O2 -Wall -Werror -I "$root/Sources/CLiteRT/include" -o "$work/litert_run_arm64" "$here/litert_run.c" -ldl
gcc -O2 -Wall -Werror -I "$root/Sources/CLiteRT/include" -o "$work/litert_run_x86_64" "$here/litert_run.c" -ldl

status=0
for model in ssd_mobilenet_v1_coco_quant_metadata.tflite mobilenet_v2_1.0_224_quant.tflite; do
  name=${model%.tflite}
  "$work/litert_run_x86_64" "$root/.litert/lib/libLiteRt.so" "$assets/models/$model" "$work/x86_64-$name" >/dev/null
  start=$(date +%s%N)
  qemu-aarch64-static -cpu neoverse-n1 -L /usr/aarch64-linux-gnu -E LD_PRELOAD="$work/cpuinfo_shim.so" \
    -E CPUINFO_FILE="$here/neoverse-n1.cpuinfo" "$work/litert_run_arm64" "$work/lib/libLiteRt.so" "$assets/models/$model" "$work/aarch64-$name" >/dev/null
  tenths=$(( ($(date +%s%N) - start) / 100000000 ))
  outputs=0
  for out in "$work"/x86_64-"$name".out*.bin; do
    other="$work/aarch64-$name.out${out##*.out}"
    if cmp -s "$out" "$other"; then outputs=$((outputs + 1)); else echo "arm64: $model output ${out##*.out} differs from x86_64's" >&2; status=1; fi
  done
  echo "arm64: $model on aarch64 (qemu, $((tenths / 10)).$((tenths % 10)) s): $outputs outputs byte-identical to x86_64's"
done
exit $status
