# Shared by scripts/arm64/*: where the Debian toolchain lives and how to run commands inside it.
# Sourced, not run. Needs root (chroot, mount).
#
# Layout (cached between runs, outside the clone so that a fresh clone reuses it):
#   $ARM64_CACHE/trixie-swift-6.0.3/host      Debian trixie amd64 with Debian's swiftlang 6.0.3 (the chroot)
#   $ARM64_CACHE/trixie-swift-6.0.3/host/sysroot   Debian trixie arm64 libraries and Swift resources
#   $ARM64_CACHE/trixie-swift-6.0.3/host/src/VisionTasks   this project's files, copied in
#   $ARM64_CACHE/trixie-swift-6.0.3/host/src/shared        the shared models and photos (read-only bind)
# The project is copied, not bind-mounted: its .build, .litert and .venv-tools inside the chroot are
# Debian's (glibc 2.41, Python 3.13), not this machine's.

arm64_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ARM64_CACHE=${ARM64_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vision-tasks/arm64}
ARM64_ASSETS=$(cd "${VISION_TASKS_ASSETS:-$arm64_root/../shared}" && pwd)
ARM64_LOCK="$arm64_root/scripts/arm64/debian.lock"
ARM64_MIRROR=${ARM64_MIRROR:-http://deb.debian.org/debian}
ARM64_SUITE=trixie
arm64_env="$ARM64_CACHE/trixie-swift-6.0.3"
arm64_host="$arm64_env/host"
# Inside the chroot.
arm64_src=/src/VisionTasks
arm64_shared=/src/shared
arm64_sysroot=/sysroot

arm64_log() { echo "arm64: $*" >&2; }
arm64_die() { echo "arm64: $*" >&2; exit 1; }
# qemu-aarch64's -cpu for the CPU named by ARM64_CPU (scripts/arm64/<cpu>.cpuinfo is what the run is shown as
# /proc/cpuinfo). qemu 7.2 has no Cortex-A55: a Neoverse-N1 stands in (ARMv8.2, the dot product, as an A55 r1+
# has), and XNNPACK takes the A55's microarchitecture — its uint8 GEMM's "rndnu16" — from the cpuinfo shown.
arm64_qemu_cpu() { case $1 in cortex-a55) echo neoverse-n1 ;; *) echo "$1" ;; esac; }

# The pinned packages of one list of debian.lock ("host" or "sysroot"), as name=version.
arm64_pins() {
  awk -v want="$1" '$1 == want { print $2 "=" $3 }' "$ARM64_LOCK"
}

# Mounts what the chroot needs (idempotent); arm64_unmount undoes it.
arm64_mount() {
  local r=$arm64_host
  mountpoint -q "$r/proc" || mount -t proc proc "$r/proc"
  mountpoint -q "$r/dev" || mount --bind /dev "$r/dev"
  mkdir -p "$r/dev/pts" "$r/dev/shm"
  mountpoint -q "$r/dev/pts" || mount -t devpts devpts "$r/dev/pts" 2>/dev/null || true
  mountpoint -q "$r/dev/shm" || mount -t tmpfs -o size=2g tmpfs "$r/dev/shm"
  mountpoint -q "$r/sys" || mount --bind /sys "$r/sys" 2>/dev/null || true
  mkdir -p "$r$arm64_shared"
  if ! mountpoint -q "$r$arm64_shared"; then
    mount --bind "$ARM64_ASSETS" "$r$arm64_shared"
    mount -o remount,bind,ro "$r$arm64_shared"
  fi
  cp -L /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
  # This machine's own certificate authorities (a proxy's, say), trusted inside as outside.
  local ca changed=0
  for ca in /usr/local/share/ca-certificates/*.crt; do
    [ -f "$ca" ] || continue
    cmp -s "$ca" "$r$ca" || { mkdir -p "$r/usr/local/share/ca-certificates"; cp "$ca" "$r$ca"; changed=1; }
  done
  [ $changed = 0 ] || chroot "$r" update-ca-certificates >/dev/null 2>&1 || true
}

arm64_unmount() {
  local r=$arm64_host m
  for m in "$r$arm64_shared" "$r/sys" "$r/dev/shm" "$r/dev/pts" "$r/dev" "$r/proc"; do
    mountpoint -q "$m" && umount -l "$m"
  done
  return 0
}

# Runs a bash command inside the chroot, in the project's copy, with the environment a build needs.
arm64_chroot() {
  chroot "$arm64_host" /usr/bin/env -i \
    HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    TERM="${TERM:-dumb}" CI="${CI:-}" VISION_TASKS_ASSETS="$arm64_shared" \
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt PIP_DISABLE_PIP_VERSION_CHECK=1 \
    ${PIP_INDEX_URL:+PIP_INDEX_URL="$PIP_INDEX_URL"} ${http_proxy:+http_proxy="$http_proxy"} \
    ${https_proxy:+https_proxy="$https_proxy"} \
    bash -c "cd $arm64_src 2>/dev/null || cd /; $1"
}

# Copies the project's files (tracked and untracked, not ignored) into the chroot's copy, keeping
# modification times (incremental builds) and removing files that are gone; the copy's own .build,
# .litert and .venv-tools stay.
arm64_sync() {
  local dest="$arm64_host$arm64_src" list
  mkdir -p "$dest"
  list=$(mktemp)
  (cd "$arm64_root" && git ls-files -co --exclude-standard | while IFS= read -r f; do [ -e "$f" ] && printf '%s\n' "$f"; done | sort) > "$list"
  (cd "$arm64_root" && tar -cf - -T "$list") | (cd "$dest" && tar -xf -)
  (cd "$dest" && find . \( -path ./.build -o -path ./.litert -o -path ./.venv-tools -o -path ./.venv-serve-bench \
      -o -path ./out -o -path ./.swiftpm -o -path ./.build-aarch64 -o -path ./.litert-aarch64 \) -prune -o -type f -print | sed 's|^\./||' | sort) \
    | comm -23 - "$list" | (cd "$dest" && while IFS= read -r f; do rm -f -- "$f"; done)
  rm -f "$list"
}

# MediaPipe 1.2.2's own aarch64 build, to run under qemu-aarch64: Debian trixie's arm64 Python and the libraries
# the wheel loads (mmdebstrap, extract only) in $arm64_mp_root, the wheels (MediaPipe, OpenCV headless,
# ai-edge-litert 2.3.0) in $arm64_mp_site; made once, cached. For the aarch64 goldens and the instruction counts.
arm64_mp_root="$ARM64_CACHE/mediapipe-aarch64/root"
arm64_mp_site="$ARM64_CACHE/mediapipe-aarch64/site"
arm64_mediapipe_env() {
  [ "$(id -u)" = 0 ] || arm64_die "needs root (mmdebstrap)"
  if [ ! -x "$arm64_mp_root/usr/bin/python3.13" ]; then
    arm64_log "Debian trixie's arm64 Python and the libraries MediaPipe's wheel loads (mmdebstrap, extract only)"
    rm -rf "$arm64_mp_root"
    mkdir -p "$(dirname "$arm64_mp_root")"
    mmdebstrap --arch=arm64 --variant=extract --skip=cleanup/apt/cache \
      --include=python3.13,python3.13-minimal,libpython3.13,libpython3.13-stdlib,libstdc++6,libgcc-s1,libgomp1,libegl1,libgles2,libgl1 \
      "$ARM64_SUITE" "$arm64_mp_root" "$ARM64_MIRROR" >"$arm64_mp_root.log" 2>&1 || arm64_die "mmdebstrap failed: $arm64_mp_root.log"
    ln -sfn usr/lib "$arm64_mp_root/lib"
  fi
  install -D -m 0644 "$arm64_root/scripts/arm64/neoverse-n1.cpuinfo" "$arm64_mp_root/proc/cpuinfo"
  if [ ! -d "$arm64_mp_site/mediapipe" ]; then
    arm64_log "MediaPipe 1.2.2's aarch64 wheel and its dependencies (pip, for cp313 aarch64)"
    local pip=(python3 -m pip install -q --target "$arm64_mp_site" --only-binary=:all: --python-version 3.13 --implementation cp
         --platform manylinux_2_28_aarch64 --platform manylinux2014_aarch64 --platform manylinux_2_17_aarch64)
    "${pip[@]}" mediapipe==1.2.2
    # OpenCV's headless build: the full one loads X11 libraries (MediaPipe's drawing utilities import cv2).
    rm -rf "$arm64_mp_site/cv2" "$arm64_mp_site"/opencv_contrib_python*
    "${pip[@]}" --no-deps opencv-contrib-python-headless
  fi
  if [ ! -d "$arm64_mp_site/ai_edge_litert" ]; then
    arm64_log "ai-edge-litert 2.3.0's aarch64 wheel (LiteRT's Python interpreter, for litert.json)"
    python3 -m pip install -q --target "$arm64_mp_site" --only-binary=:all: --python-version 3.13 --implementation cp \
      --platform manylinux_2_28_aarch64 --platform manylinux_2_27_aarch64 --platform manylinux2014_aarch64 \
      --no-deps ai-edge-litert==2.3.0
  fi
}
