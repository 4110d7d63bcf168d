# Sourced by the scripts that need a Python environment: `ensure_venv DIR REQUIREMENTS` creates DIR
# (with $PYTHON, default python3) and installs REQUIREMENTS into it only when they changed since.
ensure_venv() {
  local venv=$1 requirements=$2
  if [ ! -x "$venv/bin/python" ]; then "${PYTHON:-python3}" -m venv "$venv"; fi
  if ! cmp -s "$requirements" "$venv/.requirements.txt"; then
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$venv/.requirements.txt"
  fi
}
