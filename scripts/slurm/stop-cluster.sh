#!/usr/bin/env bash
# Stop the slurmctld/slurmd started by start-cluster.sh (via their pid files in
# $SLURM_DIR). munged is left running; state/logs stay in $SLURM_DIR for the next start.
set -euo pipefail

SLURM_DIR="${SLURM_DIR:-/tmp/vision-tasks-slurm}"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

for d in slurmd slurmctld; do
  pidf="$SLURM_DIR/$d.pid"
  if [ -s "$pidf" ] && $SUDO kill -0 "$(cat "$pidf")" 2>/dev/null; then
    pid="$(cat "$pidf")"
    echo "[slurm] stopping $d (pid $pid)" >&2
    $SUDO kill -TERM "$pid"
    for _ in $(seq 100); do $SUDO kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if $SUDO kill -0 "$pid" 2>/dev/null; then $SUDO kill -KILL "$pid"; fi   # after 10 s
  else
    echo "[slurm] $d not running" >&2
  fi
  $SUDO rm -f "$pidf"
done
