#!/usr/bin/env bash
# The aarch64 inner loops on paper: llvm-mca's cycle estimates (Debian's llvm) for each loop of scripts/arm64/mca/ on
# Neoverse-N1 and Cortex-A72 (a loop marked "dotprod" only where the CPU has the dot-product extension), printed
# per 64 multiply-adds: the cycles and the instructions, beside XNNPACK's own loop for the same tile. Estimates from
# LLVM's scheduling models, not timings on hardware.
#   scripts/arm64/mca.sh
set -euo pipefail
cd "$(dirname "$0")/mca"
command -v llvm-mca >/dev/null || { echo "arm64: needs llvm-mca (apt-get install llvm)" >&2; exit 1; }
printf '%-28s %-12s %14s %18s\n' loop cpu "cycles / 64 MAC" "instructions / 64 MAC"
for loop in *.s; do
  read -r _ _ macs dot < <(grep -m1 '^// MACS ' "$loop")
  for cpu in neoverse-n1 cortex-a72; do
    attr=()
    if [ "${dot:-}" = dotprod ]; then
      [ "$cpu" = neoverse-n1 ] || continue
      attr=(-mattr=+dotprod)
    fi
    report=$(llvm-mca -mtriple=aarch64 -mcpu="$cpu" "${attr[@]}" -iterations=1000 "$loop")
    cycles=$(awk '/^Total Cycles:/ {print $3}' <<<"$report")
    insns=$(awk '/^Instructions:/ {print $2; exit}' <<<"$report")
    awk -v l="${loop%.s}" -v c="$cpu" -v cy="$cycles" -v n="$insns" -v m="$macs" \
      'BEGIN { printf "%-28s %-12s %14.2f %18.2f\n", l, c, cy / 1000 * 64 / m, n / 1000 * 64 / m }'
  done
done
