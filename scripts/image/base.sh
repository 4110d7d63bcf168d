#!/usr/bin/env bash
# Makes docker.io/library/debian:trixie-slim in podman's store from Debian's own packages when it is not
# there and no registry can be reached (these machines reach Debian's mirror and PyPI only): a minbase
# trixie from deb.debian.org (mmdebstrap), slimmed as Debian's -slim images are (no manuals, docs
# beyond copyrights, or translations; the rule stays in /etc/dpkg/dpkg.cfg.d for later installs).
# An ordinary `FROM debian:trixie-slim` then builds here unchanged, and anywhere else from the registry.
set -euo pipefail
image=docker.io/library/debian:trixie-slim
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
if podman image exists "$image"; then exit 0; fi
if timeout 20 podman pull -q "$image" >/dev/null 2>&1; then exit 0; fi
command -v mmdebstrap >/dev/null || { apt-get install -y -qq mmdebstrap >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq mmdebstrap >/dev/null; }; }
echo "image: making $image from Debian's packages (mmdebstrap, $mirror)" >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mmdebstrap --variant=minbase --quiet \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
  --dpkgopt='path-exclude=/usr/share/lintian/*' --dpkgopt='path-exclude=/usr/share/groff/*' \
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin "$1"/var/log/*.log' \
  trixie "$tmp/rootfs.tar" "$mirror"
podman import --quiet --change 'CMD ["bash"]' "$tmp/rootfs.tar" "$image" >/dev/null
echo "image: $image made ($(podman image inspect --format '{{.Size}}' "$image" | awk '{ printf "%.0f MB", $1 / 1e6 }'))" >&2
