#!/usr/bin/env bash
# `make arm64`: VisionTasks built with Debian's Swift 6.0.3 (scripts/arm64/toolchain.sh's trixie
# chroot), for x86_64 and, cross-compiled, for aarch64; the aarch64 build run under qemu-aarch64.
#   stages (all by default; ARM64_STAGES="x86 cross test downstream" picks some):
#   x86        swift build --build-tests and the whole test suite, natively, with Debian's 6.0.3
#   cross      the library, the CLI and the test bundle for aarch64-unknown-linux-gnu (debug)
#   test       the aarch64 test bundle under qemu-aarch64 (Neoverse-N1; ARM64_CPU=cortex-a72 emulates a CPU
#              without the dot-product extension, a Raspberry Pi 4's; cortex-a53 and cortex-a55 CPUs whose
#              XNNPACK requantizes uint8 GEMMs by "rndnu16", without and with the dot product), CI=true; goldens from
#              Tests/Goldens/aarch64 where MediaPipe's aarch64 results differ (scripts/arm64/goldens.sh);
#              ARM64_TEST_FILTER=REGEX runs some suites only, ARM64_TEST_SKIP=REGEX skips some (CI's subset),
#              ARM64_TEST_ENV="NAME=VALUE ..." sets variables (VISION_TASKS_CONV1X1_KERNEL=ours: our kernels in debug);
#              by default ServeAppTests is skipped: it times the browser page's live loop (frames per second,
#              answers within its timeouts) against the server, which under qemu answers a frame in ~2.5 s —
#              the page is JavaScript in x86-64 Chromium either way, and the server's API is tested under
#              qemu by ServeTests
#   downstream the seed package (scripts/downstream) depending on this one by version, for aarch64
#   release    (only when named) the CLI for aarch64 in release, as users run it: what scripts/arm64/run runs with
#              ARM64_CONFIG=release and scripts/arm64/insncount.sh counts
# Each stage prints its figures; the first failure stops the run with its log's tail.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
"$arm64_root/scripts/arm64/toolchain.sh"
stages=${ARM64_STAGES:-x86 cross test downstream}
logs="$arm64_root/.build/arm64-logs"
mkdir -p "$logs"
trap arm64_unmount EXIT
arm64_sync
arm64_mount
# (the test stage shows the emulated CPU's /proc/cpuinfo for its run; Neoverse-N1's is the sysroot's otherwise)
install -m 0644 "$arm64_root/scripts/arm64/neoverse-n1.cpuinfo" "$arm64_host$arm64_sysroot/proc/cpuinfo"
has() { [[ " $stages " == *" $1 "* ]]; }

# Runs a stage's command in the chroot, its output in $logs/NAME.log; prints the tail on failure.
stage() {
  local name=$1 cmd=$2 start=$SECONDS
  arm64_log "$name ..."
  if arm64_chroot "$cmd" >"$logs/$name.log" 2>&1; then
    arm64_log "$name: done in $((SECONDS - start)) s (log: $logs/$name.log)"
  else
    tail -40 "$logs/$name.log" >&2
    arm64_die "$name failed after $((SECONDS - start)) s (log: $logs/$name.log)"
  fi
}

# SwiftPM's destination (6.0's --destination): the target triple, the sysroot as SDK (Swift's glibc
# module map is laid over the SDK's headers) and the aarch64 resource directory of Debian's arm64 Swift.
cat > "$arm64_host/opt/aarch64-destination.json" <<EOF
{
  "version": 1,
  "sdk": "$arm64_sysroot",
  "toolchain-bin-dir": "/usr/libexec/swift/bin",
  "target": "aarch64-unknown-linux-gnu",
  "extra-cc-flags": [],
  "extra-swiftc-flags": ["-sdk", "$arm64_sysroot", "-resource-dir", "$arm64_sysroot/usr/libexec/swift/lib/swift",
                         "-use-ld=lld"],
  "extra-cpp-flags": []
}
EOF
cross_env="PKG_CONFIG_LIBDIR=$arm64_sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$arm64_sysroot/usr/share/pkgconfig \
PKG_CONFIG_SYSROOT_DIR=$arm64_sysroot"
cross="swift build --destination /opt/aarch64-destination.json --scratch-path .build-aarch64"
bin_aarch64="$arm64_src/.build-aarch64/aarch64-unknown-linux-gnu/debug"
arm64_cpu=${ARM64_CPU:-neoverse-n1}
qemu="qemu-aarch64-static -L $arm64_sysroot -cpu $(arm64_qemu_cpu "$arm64_cpu")"

# The aarch64 vision-tasks as a program of the chroot's (it runs itself under qemu), for the tests.
cat > "$arm64_host/usr/local/bin/vision-tasks-aarch64" <<EOF
#!/bin/sh
exec $qemu $bin_aarch64/vision-tasks "\$@"
EOF
chmod +x "$arm64_host/usr/local/bin/vision-tasks-aarch64"

if has x86; then
  stage debian-x86_64-build "scripts/fetch-litert.sh >/dev/null && scripts/tools/setup.sh && swift --version && swift build --build-tests"
  { grep -c "warning:" "$logs/debian-x86_64-build.log" || true; } | xargs -I{} echo "arm64: Debian Swift 6.0.3 x86_64 build: {} warning lines" >&2
  stage debian-x86_64-test "CI=true swift test --skip-build"
  grep -E "Test run with|Executed [0-9]+ tests" "$logs/debian-x86_64-test.log" | tail -2 >&2
fi

if has cross; then
  stage aarch64-build "LITERT_ARCH=aarch64 scripts/fetch-litert.sh --dest .litert-aarch64/lib >/dev/null && $cross_env $cross --build-tests"
  file "$arm64_host$bin_aarch64/vision-tasks" | sed 's/^.*: /arm64: vision-tasks: /' >&2
fi

if has release; then
  stage aarch64-release "LITERT_ARCH=aarch64 scripts/fetch-litert.sh --dest .litert-aarch64/lib >/dev/null && $cross_env $cross -c release --product vision-tasks"
  file "$arm64_host$arm64_src/.build-aarch64/aarch64-unknown-linux-gnu/release/vision-tasks" | sed 's/^.*: /arm64: release vision-tasks: /' >&2
fi

skip=${ARM64_TEST_SKIP-ServeAppTests}
if has test; then
  test_stage=aarch64-test${ARM64_CPU:+-$ARM64_CPU}
  # XNNPACK reads the CPU from /proc/cpuinfo (the sysroot's, through qemu's -L): the emulated CPU's, for the run.
  [ -f "$arm64_root/scripts/arm64/$arm64_cpu.cpuinfo" ] || arm64_die "no scripts/arm64/$arm64_cpu.cpuinfo"
  install -m 0644 "$arm64_root/scripts/arm64/$arm64_cpu.cpuinfo" "$arm64_host$arm64_sysroot/proc/cpuinfo"
  stage "$test_stage" "scripts/tools/setup.sh >/dev/null && CI=true ${ARM64_TEST_ENV:-} VISION_TASKS_CLI=/usr/local/bin/vision-tasks-aarch64 LITERT_LIBRARY=$arm64_src/.litert-aarch64/lib/libLiteRt.so \
    VISION_TASKS_SWIFTC_FLAGS='-target aarch64-unknown-linux-gnu -sdk $arm64_sysroot -resource-dir $arm64_sysroot/usr/libexec/swift/lib/swift' \
    $qemu $bin_aarch64/VisionTasksPackageTests.xctest --testing-library swift-testing ${ARM64_TEST_FILTER:+--filter \"$ARM64_TEST_FILTER\"} ${skip:+--skip \"$skip\"}"
  install -m 0644 "$arm64_root/scripts/arm64/neoverse-n1.cpuinfo" "$arm64_host$arm64_sysroot/proc/cpuinfo"
  grep -E "Test run with" "$logs/$test_stage.log" | tail -1 >&2
fi

if has downstream; then
  # By version from the committed HEAD, as a user's package would get it.
  rm -rf "$arm64_host/src/downstream"
  mkdir -p "$arm64_host/src/downstream"
  git clone -q --bare "$arm64_root" "$arm64_host/src/downstream/VisionTasks.git"
  stage aarch64-downstream "scripts/arm64/downstream.sh"
  grep "^downstream:" "$logs/aarch64-downstream.log" >&2 || true
fi
