#!/usr/bin/env bash
# Guards the public API of the library products against unintended changes.
#   scripts/api/check.sh          compares each product module's public API with api/<Module>.json:
#                                 exits 1 on a breaking change (swift-api-digester's diagnosis: a removed
#                                 or renamed declaration, a changed type or label, a new protocol
#                                 requirement or enum case, public narrowed to package) and on an
#                                 addition the baseline does not hold yet
#   scripts/api/check.sh update   rewrites api/ from the current sources (a deliberate change: review
#                                 the diff of api/ and commit it)
# Builds as `make test` does (debug, same flags), so after it the build is a no-op.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-check}
modules=(MediaPipeTasksVision MLKit Video VisionAnalytics UIKitCompat)
swift build --build-tests -Xswiftc -strict-concurrency=complete >/dev/null
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The C modules the products import (through the package's modules): their module maps.
maps=()
for map in "$bin"/*.build/module.modulemap Sources/CZlib/module.modulemap Sources/CCrypto/module.modulemap; do
  [ -f "$map" ] && maps+=(-Xcc "-fmodule-map-file=$(realpath "$map")")
done
dump() {
  swift-api-digester -dump-sdk -module "$1" -I "$bin/Modules" "${maps[@]}" \
    -avoid-tool-args -avoid-location -abort-on-module-fail -o "$work/$1.raw.json"
  python3 scripts/api/normalize.py "$work/$1.raw.json" "$2"
}
status=0
for m in "${modules[@]}"; do
  if [ "$mode" = update ]; then
    dump "$m" "api/$m.json"
    echo "api: wrote api/$m.json"
    continue
  fi
  if [ ! -f "api/$m.json" ]; then
    echo "api: no baseline api/$m.json (scripts/api/check.sh update)" >&2
    status=1
    continue
  fi
  dump "$m" "$work/$m.json"
  # -serialize-diagnostics-path makes the digester print "error: API breakage: …" and exit 1 on any.
  if ! swift-api-digester -diagnose-sdk -input-paths "api/$m.json" -input-paths "$work/$m.json" \
    -serialize-diagnostics-path "$work/$m.dia" >"$work/$m.txt" 2>&1; then
    grep -v "^$" "$work/$m.txt" >&2 || true
    echo "api: $m: breaking changes against api/$m.json (above)" >&2
    status=1
  elif ! cmp -s "api/$m.json" "$work/$m.json"; then
    echo "api: $m: the public API differs from api/$m.json without breaking it; additions:" >&2
    python3 scripts/api/normalize.py --added "api/$m.json" "$work/$m.json" >&2 || true
    echo "api: if intended, run scripts/api/check.sh update and commit api/" >&2
    status=1
  else
    echo "api: $m: as api/$m.json"
  fi
done
exit $status
