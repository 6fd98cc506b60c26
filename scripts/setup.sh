#!/usr/bin/env bash
# Set up QuatLab: Debian packages Qt and Xvfb need (when missing), then a
# virtual environment in .venv with QuatLab installed (editable) and its test
# extra. Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# What a bare Debian 12 lacks for Qt (xcb) and for Xvfb (docs/environment.md).
DEB_PACKAGES=(libegl1 libgl1 libx11-6 libdbus-1-3 libfontconfig1 libfreetype6 libglib2.0-0
  libxkbcommon0 xvfb xauth libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1
  libxcb-render-util0 libxcb-shape0 libxkbcommon-x11-0 fonts-dejavu-core
  # Simplified Chinese (View > Language, --lang zh_CN) needs a CJK font.
  fonts-noto-cjk)

PYTHON=${PYTHON:-python3}
if command -v dpkg >/dev/null 2>&1; then
  missing=()
  for p in "${DEB_PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  # Debian's own python3 needs python3-venv for `python -m venv` (it brings
  # ensurepip, so the venv gets its own pip and no Debian pip package is needed).
  "$PYTHON" -c "import ensurepip, venv" >/dev/null 2>&1 || missing+=(python3-venv)
  # The Khronos glTF validator (the fix round-trip tests run it) needs node and npm.
  if [ "${QUATLAB_NO_VALIDATOR:-}" != 1 ]; then
    command -v node >/dev/null 2>&1 || missing+=(nodejs)
    command -v npm >/dev/null 2>&1 || missing+=(npm)
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
      echo "setup: please install as root: apt-get install ${missing[*]}" >&2; exit 1; fi
    echo "setup: apt-get update"
    $SUDO apt-get update -q
    # Only what is listed: no Recommends (they would add compilers and ~400 MB).
    # apt prints one line per package, so progress is visible.
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends \
      -o Dpkg::Use-Pty=0 "${missing[@]}" | grep --line-buffered -E '^(Get:|Setting up|Need to get|After this)' || true
  fi
fi

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PYTHON" -m venv .venv
fi
# Install only when pyproject.toml changed since the last install.
stamp=.venv/.quatlab-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "setup: installing QuatLab and its test extra into .venv (about 150 MB; a minute or two)"
  .venv/bin/python -m pip install -q --upgrade pip
  # One line per package downloaded or installed, so a slow network is visible.
  .venv/bin/python -m pip install --progress-bar off -e ".[test]" \
    | grep --line-buffered -E '^(Collecting|Successfully installed|Obtaining)' || true
  [ "${PIPESTATUS[0]}" = 0 ] || { echo "setup: pip install failed" >&2; exit 1; }
  touch "$stamp"
fi
# The Khronos glTF validator, project-local (node_modules/), pinned.
validator=node_modules/gltf-validator/package.json
if [ "${QUATLAB_NO_VALIDATOR:-}" != 1 ] && command -v npm >/dev/null 2>&1 && [ ! -f "$validator" ]; then
  echo "setup: installing the Khronos glTF validator (npm gltf-validator) into node_modules/"
  npm install --no-save --no-audit --no-fund --loglevel=error gltf-validator@2.0.0-dev.3.10 \
    || echo "setup: could not install gltf-validator; the validator tests will be skipped" >&2
fi
