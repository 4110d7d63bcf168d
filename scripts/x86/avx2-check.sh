#!/usr/bin/env bash
# The exact kernels on an AVX2-only x86-64 CPU (an AMD EPYC Milan: AVX2 and FMA3, no AVX-512)
# without one: the debug test bundle run under qemu-x86_64 emulating that CPU. Both sides of every
# comparison then see it — our kernels take their AVX2 paths, and LiteRT's XNNPACK picks its AVX2 and
# FMA3 kernels (which can differ from its AVX-512 ones in arithmetic) — so the CKernels suites check
# the AVX2 paths bit for bit against what XNNPACK computes on such a machine: single ops, and whole
# models (SSD MobileNet v1, FPNLite, the classifiers). A test first checks that the paths taken are
# the AVX2 ones (VISION_TASKS_EXPECT_PATHS).
# Needs the debug test bundle (`make test` builds it). ~5 minutes on 2 cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
bundle=.build/debug/VisionTasksPackageTests.xctest
[ -x "$bundle" ] || { echo "avx2-check: build the tests first (make test)" >&2; exit 1; }
if ! command -v qemu-x86_64-static >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "avx2-check: installing qemu-user-static" >&2
    apt-get install -y -qq qemu-user-static >/dev/null || { apt-get update -qq && apt-get install -y -qq qemu-user-static >/dev/null; }
  else
    echo "avx2-check: needs qemu-user-static (apt-get install qemu-user-static)" >&2; exit 1
  fi
fi
filter=${AVX2_TEST_FILTER:-CKernelsTests}
echo "== x86-64 AVX2 only (qemu-x86_64 -cpu EPYC-Milan): $filter"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# qemu names each feature of the model its translator lacks (none the kernels use): left out.
set +e
VISION_TASKS_EXPECT_PATHS=avx2 CI=true qemu-x86_64-static -cpu EPYC-Milan "$bundle" --testing-library swift-testing --filter "$filter" \
  2>&1 | grep -v "TCG doesn't support requested feature" >"$log"
status=${PIPESTATUS[0]}
set -e
grep -E "✘|Test run with" "$log" | cut -c1-400 | tail -40
exit "$status"
