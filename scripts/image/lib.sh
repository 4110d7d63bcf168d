# Shared by scripts/image/*.sh: podman as it runs on these machines (see ../shared/docs/containers-podman.md),
# the image's names, and where its inputs are staged.
# Podman's defaults fail here (crun cannot set RLIMIT_NOFILE; hybrid cgroups): runc, cgroupfs and no
# default ulimits, from a containers.conf of our own — unless the caller names one.
image_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
image_name=localhost/vision-tasks
image_version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' "$image_root/Sources/VisionPipeline/Output/BuildInfo.swift")
image_model=ssd_mobilenet_v1_coco_quant_metadata.tflite
image_log() { echo "image: $*" >&2; }
image_die() { echo "image: $*" >&2; exit 1; }

image_podman_setup() {
  local need=()
  command -v podman >/dev/null || need+=(podman)
  command -v runc >/dev/null || need+=(runc)
  if [ ${#need[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || image_die "install ${need[*]} (apt-get install ${need[*]}) or run as root"
    image_log "installing ${need[*]} (Debian's packages)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null; }
  fi
  if [ -z "${CONTAINERS_CONF:-}" ]; then
    mkdir -p "$image_root/.cache/image"
    export CONTAINERS_CONF="$image_root/.cache/image/containers.conf"
    cat > "$CONTAINERS_CONF" <<'CONF'
[containers]
default_ulimits = []
[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
CONF
  fi
}
