#!/usr/bin/env bash
# Start a private one-node Slurm cluster (no systemd needed).
#   eval "$(scripts/slurm/start-cluster.sh)"   # sets SLURM_CONF
# Idempotent: re-running while the cluster is up (or after stop-cluster.sh) is fine.
# All progress goes to stderr; the only stdout line is the final `export SLURM_CONF=...`.
set -euo pipefail

SLURM_DIR="${SLURM_DIR:-/tmp/vision-tasks-slurm}"
CONF="$SLURM_DIR/slurm.conf"
TIMEOUT="${SLURM_START_TIMEOUT:-60}"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
log() { echo "[slurm] $*" >&2; }
die() {   # error message + daemon log tails, exit 1
  log "ERROR: $*"
  for f in "$SLURM_DIR"/log/slurmctld.log "$SLURM_DIR"/log/slurmd.log; do
    echo "--- tail $f" >&2; $SUDO tail -n 20 "$f" >&2 2>/dev/null || true
  done
  exit 1
}
alive() { [ -s "$1" ] && $SUDO kill -0 "$(cat "$1")" 2>/dev/null; }   # pid file -> running?

# 1. Packages (only when missing). The postinsts' service starts are skipped or no-ops
#    (policy-rc.d / no /etc/slurm/slurm.conf); we start the daemons ourselves below.
if [ "$(dpkg-query -W -f='${db:Status-Abbrev}\n' slurm-wlm munge 2>/dev/null | grep -c '^ii')" != 2 ]; then
  log "installing slurm-wlm munge"
  apt=($SUDO env DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=300)
  "${apt[@]}" update >&2   # (lock timeout: wait for other apt runs instead of failing)
  "${apt[@]}" install -y --no-install-recommends slurm-wlm munge >&2
fi

# 2. Munge key + daemon (munged runs as the munge user; /run/munge is normally made by systemd).
as_munge() { if [ -z "$SUDO" ]; then runuser -u munge -- "$@"; else sudo -u munge "$@"; fi; }
if ! $SUDO test -s /etc/munge/munge.key; then
  log "creating /etc/munge/munge.key"
  $SUDO dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
$SUDO chown munge:munge /etc/munge/munge.key; $SUDO chmod 0400 /etc/munge/munge.key
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  log "starting munged"
  $SUDO install -d -o munge -g munge -m 0755 /run/munge
  $SUDO install -d -o munge -g munge -m 0700 /var/log/munge /var/lib/munge
  as_munge /usr/sbin/munged
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
fi

# 3. Private slurm.conf. proctrack/linuxproc + task/none avoid every cgroup plugin: with
#    proctrack/cgroup, slurmstepd fails here ("cgroup namespace 'freezer' not mounted"),
#    the job is marked COMPLETED without running and the node drains.
HOST="$(hostname -s)"
CPUS="$(nproc)"
MEM="$(free -m | awk '/^Mem:/{print int($2*0.9)}')"   # 90% of total: below what slurmd detects
mkdir -p "$SLURM_DIR"/{state,spool,log}
cat >"$CONF.tmp" <<EOF
ClusterName=vision-tasks
SlurmctldHost=$HOST
SlurmUser=root
AuthType=auth/munge
MpiDefault=none
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/log/slurmctld.log
SlurmdLogFile=$SLURM_DIR/log/slurmd.log
NodeName=$HOST CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=debug Default=YES Nodes=ALL State=UP MaxTime=INFINITE
EOF
mv "$CONF.tmp" "$CONF"
export SLURM_CONF="$CONF"

# 4. Daemons (skipped if their pid file points at a live process). Ports 6817/6818 are
#    fixed, so a slurmctld/slurmd from another SLURM_DIR would make sinfo answer for it.
for d in slurmctld slurmd; do
  if alive "$SLURM_DIR/$d.pid"; then log "$d already running"; continue; fi
  other="$(ps -C "$d" -o pid=,stat= | awk '$2 !~ /^Z/ {print $1}' | xargs || true)"
  [ -z "$other" ] || die "$d already running as pid $other, not from $SLURM_DIR (stop it first)"
  log "starting $d"; $SUDO "/usr/sbin/$d" -f "$CONF" || die "$d failed"
done

# 5. Wait for the node to be idle ("idle*" = not responding yet). ReturnToService=2
#    clears a stale DOWN; a DRAIN left over from an earlier failure is resumed once.
t0=$SECONDS; state=""; resumed=""
while [ $((SECONDS - t0)) -lt "$TIMEOUT" ]; do
  state="$(sinfo -h -N -n "$HOST" -o '%T' 2>/dev/null | head -1 || true)"
  [ "$state" = "idle" ] && break
  case "$state" in drain*|down) if [ -z "$resumed" ]; then resumed=1
    log "node is $state, resuming"; $SUDO env SLURM_CONF="$CONF" scontrol update NodeName="$HOST" State=RESUME >&2 || true; fi;; esac
  sleep 0.5
done
[ "$state" = "idle" ] || die "node $HOST not idle after ${TIMEOUT}s (state='${state:-no answer}')"
log "node $HOST idle (${CPUS} CPUs, ${MEM} MB) after $((SECONDS - t0))s"
echo "export SLURM_CONF=$CONF"
