#!/usr/bin/env bash
# Creates .venv-tools (Python packages the tests use: jsonschema) when missing or out of date.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="$root/.venv-tools"
req="$root/scripts/tools/requirements.txt"
stamp="$venv/.requirements"
if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && cmp -s "$req" "$stamp"; then exit 0; fi
echo "tools: creating $venv" >&2
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r "$req"
cp "$req" "$stamp"
