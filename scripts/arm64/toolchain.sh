#!/usr/bin/env bash
# Debian's Swift for `make arm64`, built once and cached (scripts/arm64/lib.sh has the layout):
#   - a Debian trixie amd64 chroot with Debian's swiftlang 6.0.3 as the compiler, and the project's
#     build and test dependencies (made with mmdebstrap from deb.debian.org);
#   - inside it, an aarch64 sysroot: trixie's arm64 packages extracted (libc, libstdc++, Debian's
#     arm64 Swift runtime and resource directory, the C libraries' -dev packages) — no arm64 program
#     runs to make it;
#   - qemu-aarch64-static (this machine's, a static program) in /usr/local/bin.
# The packages come from scripts/arm64/debian.lock: "exact" ones at that version or the build stops,
# "tracked" ones at the suite's current version (a difference is printed). The cache is rebuilt when
# debian.lock or these scripts change.
#   scripts/arm64/toolchain.sh          build (or reuse) the cache
#   scripts/arm64/toolchain.sh --lock   print debian.lock's lines with the mirror's current versions
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || arm64_die "needs root (mmdebstrap, chroot, mount)"

need=()
command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
if [ ${#need[@]} -gt 0 ]; then
  arm64_log "installing ${need[*]} (Debian's packages)"
  apt-get install -y -qq "${need[@]}" >/dev/null || { apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null; }
fi

# The cache is rebuilt when the lock changes or when this number does (a change to how it is made).
toolchain_format=1
stamp_of() { { cat "$ARM64_LOCK"; echo "format $toolchain_format"; } | sha256sum | cut -c1-16; }

# Idempotent touches, made on every run (cheap; a change here needs no rebuild).
fixups() {
  local s="$arm64_host$arm64_sysroot" d f
  # Debian's alternatives (libblas.so.3, liblapack.so.3 …) are links made by maintainer scripts,
  # which an extracted sysroot never runs: link each to its default implementation's directory.
  for d in blas lapack; do
    for f in "$s/usr/lib/aarch64-linux-gnu/$d"/lib*.so.[0-9]; do
      [ -e "$f" ] || continue
      [ -e "$s/usr/lib/aarch64-linux-gnu/${f##*/}" ] || ln -s "$d/${f##*/}" "$s/usr/lib/aarch64-linux-gnu/${f##*/}"
    done
  done
  # What emulated programs read as /proc/cpuinfo: the CPU qemu emulates (qemu's -L shows a file of
  # the sysroot in place of the machine's; XNNPACK's CPU detection reads it).
  install -D -m 0644 "$arm64_root/scripts/arm64/neoverse-n1.cpuinfo" "$s/proc/cpuinfo"
}
want=$(stamp_of)

if [ "${1:-}" = "--lock" ]; then
  [ -x "$arm64_host/usr/bin/apt-cache" ] || arm64_die "build the toolchain first (scripts/arm64/toolchain.sh)"
  trap arm64_unmount EXIT
  arm64_mount
  chroot "$arm64_host" sh -c 'dpkg --add-architecture arm64; apt-get update -qq' >&2
  while read -r list name version policy; do
    case "$list" in host|sysroot) ;; *) echo "$list $name $version $policy"; continue ;; esac
    arch=amd64; [ "$list" = sysroot ] && arch=arm64
    [ "$name" = linux-libc-dev ] && arch=all
    spec=$name; [ "$arch" != all ] && spec="$name:$arch"
    now=$(chroot "$arm64_host" apt-cache show --no-all-versions "$spec" 2>/dev/null | awk '/^Version:/ { print $2; exit }')
    printf '%-10s %-20s %-32s %s\n' "$list" "$name" "${now:-MISSING}" "$policy"
  done < <(grep -v '^#' "$ARM64_LOCK")
  exit 0
fi

if [ -f "$arm64_env/stamp" ] && [ "$(cat "$arm64_env/stamp")" = "$want" ] && [ -x "$arm64_host/usr/libexec/swift/bin/swift" ]; then
  fixups
  arm64_log "toolchain cached: $arm64_env (Debian trixie, swiftlang $(awk '$1=="host" && $2=="swiftlang" {print $3}' "$ARM64_LOCK"))"
  exit 0
fi

# A previous build of the cache may still have mounts under it (ours, or an interrupted
# mmdebstrap's under .tmp): unmount them, deepest first, and never delete through a mount.
if [ -d "$arm64_host" ]; then arm64_unmount; fi
{ findmnt -rn -o TARGET | grep "^$arm64_env.tmp/" || true; } | sort -r | while IFS= read -r m; do umount -l "$m" || true; done
if findmnt -rn -o TARGET | grep -q "^$ARM64_CACHE"; then
  arm64_die "mounts remain under $ARM64_CACHE (findmnt); unmount them before rebuilding"
fi
rm -rf "$arm64_env" "$arm64_env.tmp"
tmp="$arm64_env.tmp"
mkdir -p "$tmp"

includes() {  # the lock's packages of one list for apt: exact ones with =version
  awk -v want="$1" '$1 == want { printf "%s%s", sep, ($4 == "exact" ? $2 "=" $3 : $2); sep = "," }' "$ARM64_LOCK"
}

arm64_log "Debian trixie amd64 with swiftlang (mmdebstrap, ~2 min)"
mmdebstrap --variant=apt --include="$(includes host)" \
  --customize-hook='chroot "$1" dpkg-query -W -f "\${Package} \${Version}\n" > "$1/../host.versions"' \
  "$ARM64_SUITE" "$tmp/host" "$ARM64_MIRROR" >"$tmp/host.log" 2>&1 || { tail -20 "$tmp/host.log" >&2; arm64_die "mmdebstrap (host) failed; log: $tmp/host.log"; }

arm64_log "aarch64 sysroot: trixie's arm64 packages extracted (~1 min)"
mmdebstrap --arch=arm64 --variant=extract --include="$(includes sysroot)" --skip=cleanup/apt/cache \
  "$ARM64_SUITE" "$tmp/host$arm64_sysroot" "$ARM64_MIRROR" >"$tmp/sysroot.log" 2>&1 || { tail -20 "$tmp/sysroot.log" >&2; arm64_die "mmdebstrap (sysroot) failed; log: $tmp/sysroot.log"; }
# The extracted packages' versions, from the archives' names (name_version_arch.deb, ':' as %3a).
for deb in "$tmp/host$arm64_sysroot"/var/cache/apt/archives/*.deb; do
  base=${deb##*/}; base=${base%.deb}; version=${base#*_}; version=${version%_*}
  echo "${base%%_*} ${version//%3a/:}"
done > "$tmp/sysroot.versions"

# The sysroot holds libraries, headers and Swift's resources only: no arm64 program, configuration
# or data that qemu's -L would show to the emulated tests in place of this machine's.
s="$tmp/host$arm64_sysroot"
rm -rf "$s/etc" "$s/var" "$s/tmp" "$s/dev" "$s/usr/bin" "$s/usr/sbin" "$s/usr/share/doc" "$s/usr/share/man" \
  "$s/usr/libexec/swift/bin" "$s/usr/lib/python3"* "$s/usr/lib/python3.13"
ln -sfn usr/lib "$s/lib"      # merged /usr: libc's linker scripts and the loader's path name /lib/...
install -m 0755 "$(command -v qemu-aarch64-static)" "$tmp/host/usr/local/bin/qemu-aarch64-static"


# The versions installed against the lock: exact ones must match, tracked ones are reported.
status=0
while read -r list name version policy; do
  case "$list" in host|sysroot) ;; *) continue ;; esac
  got=$(awk -v n="$name" '$1 == n { print $2; exit }' "$tmp/$list.versions")
  if [ "$got" != "$version" ]; then
    if [ "$policy" = exact ]; then
      arm64_log "$list $name: got ${got:-nothing}, debian.lock pins $version"; status=1
    else
      arm64_log "$list $name: $got (debian.lock has $version; tracked, so the mirror's is used)"
    fi
  fi
done < <(grep -v '^#' "$ARM64_LOCK")
[ $status = 0 ] || arm64_die "pinned packages differ; see above (the mirror may have moved on: scripts/arm64/toolchain.sh --lock)"

echo "$want" > "$tmp/stamp"
mv "$tmp" "$arm64_env"
fixups
arm64_log "toolchain ready: $arm64_env ($(du -sh "$arm64_env" | cut -f1))"
