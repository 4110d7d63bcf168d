#!/usr/bin/env bash
# The aarch64 inner loops on paper: llvm-mca's cycle estimates (Debian's llvm) for each loop of scripts/arm64/mca/ on
# Neoverse-N1 and Cortex-A72 (a loop marked "dotprod" only where the CPU has the dot-product extension), printed
# per 64 multiply-adds: the cycles and the instructions, beside XNNPACK's own loop for the same tile. Estimates from
# LLVM's scheduling models, not timings on hardware.
#   scripts/arm64/mca.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$(dirname "$0")/mca"
command -v llvm-mca >/dev/null || { echo "arm64: needs llvm-mca (apt-get install llvm)" >&2; exit 1; }
# Ours as compiled: the 1×1 kernel's NEON dot-product loop (4 rows × 16 columns × 16 input bytes) and its plain
# NEON loop (2 rows × 16 columns × 4 input bytes, umull + uadalp), out of clang's aarch64 assembly of Conv1x1.c
# (-DVT_MCA marks them).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clang --target=aarch64-linux-gnu -std=gnu11 -O2 -DVT_MCA -I "$root/Sources/CKernels/include" -I "$root/Sources/CKernelFormats/include" \
  -I "$root/Sources/CLiteRT/include" -S "$root/Sources/CKernels/Conv1x1.c" -o "$work/Conv1x1.asm"
python3 "$root/scripts/arm64/mca_loop.py" "$work/Conv1x1.asm" conv1x1_neon_dot_4x16 1024 dotprod >"$work/ours_conv1x1_neon_dot_4x16.s"
python3 "$root/scripts/arm64/mca_loop.py" "$work/Conv1x1.asm" conv1x1_neon_mull_2x16 128 >"$work/ours_conv1x1_neon_mull_2x16.s"
printf '%-28s %-12s %14s %18s\n' loop cpu "cycles / 64 MAC" "instructions / 64 MAC"
for loop in *.s "$work"/*.s; do
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
    awk -v l="$(basename "${loop%.s}")" -v c="$cpu" -v cy="$cycles" -v n="$insns" -v m="$macs" \
      'BEGIN { printf "%-28s %-12s %14.2f %18.2f\n", l, c, cy / 1000 * 64 / m, n / 1000 * 64 / m }'
  done
done
