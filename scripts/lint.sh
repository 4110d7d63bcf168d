#!/usr/bin/env bash
# Checks that need no build: no unsafe build flags (SwiftPM refuses them in a dependency), every
# `@unchecked Sendable` in Sources/ stated with its invariant (a `// @unchecked Sendable:` comment just
# above), no `nonisolated(unsafe)` state. With --build-log FILE: that build printed no warning.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
if grep -n "unsafeFlags" Package.swift; then
  echo "lint: Package.swift uses unsafeFlags: a package that depends on VisionTasks by version could not build" >&2
  status=1
fi
while IFS= read -r file; do
  awk -v file="$file" '
    /@unchecked Sendable/ && !/^[[:space:]]*\/\// {
      ok = 0
      for (i = 1; i <= 6; i++) if (prev[i] ~ /\/\/ @unchecked Sendable: /) ok = 1
      if (!ok) { printf "lint: %s:%d: @unchecked Sendable without a \"// @unchecked Sendable: <invariant>\" comment above\n", file, NR; bad = 1 }
    }
    { for (i = 6; i > 1; i--) prev[i] = prev[i - 1]; prev[1] = $0 }
    END { exit bad }' "$file" >&2 || status=1
done < <(grep -rl "@unchecked Sendable" Sources || true)
if grep -rn "nonisolated(unsafe)" Sources; then
  echo "lint: nonisolated(unsafe) state in Sources (use a Mutex or an Atomic)" >&2
  status=1
fi
if [ "${1:-}" = "--build-log" ]; then
  if grep -E "warning:" "$2" | grep -v "^ld" | sort -u; then
    echo "lint: the build printed warnings ($2)" >&2
    status=1
  fi
fi
[ $status = 0 ] && echo "lint: unsafeFlags 0, $(grep -r "@unchecked Sendable" Sources | grep -vc '// @unchecked Sendable:') @unchecked Sendable (each with its invariant), nonisolated(unsafe) 0"
exit $status
