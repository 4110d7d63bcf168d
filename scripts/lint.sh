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
  # The invariant is stated in the comment block right above the declaration (doc comments included).
  awk -v file="$file" '
    /^[[:space:]]*\/\// { if ($0 ~ /\/\/ @unchecked Sendable: /) stated = 1; next }
    /@unchecked Sendable/ {
      if (!stated) { printf "lint: %s:%d: @unchecked Sendable without a \"// @unchecked Sendable: <invariant>\" comment above\n", file, NR; bad = 1 }
    }
    { stated = 0 }
    END { exit bad }' "$file" >&2 || status=1
done < <(grep -rl "@unchecked Sendable" Sources || true)
if ! python3 scripts/tools/long-lines.py Sources Tests Plugins scripts/downstream/SeedApp/Sources >&2; then
  echo "lint: lines over 120 characters" >&2
  status=1
fi
if ! python3 scripts/tools/architecture.py --check >&2; then
  status=1
fi
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
[ $status = 0 ] && echo "lint: lines ≤ 120 characters, docs/architecture.md = Package.swift, unsafeFlags 0, $(grep -r "@unchecked Sendable" Sources | grep -vc '// @unchecked Sendable:') @unchecked Sendable (each with its invariant), nonisolated(unsafe) 0"
exit $status
