#!/usr/bin/env bash
# Set up QuatLab: Debian packages Qt and Xvfb need (when missing), then a
# virtual environment in .venv with QuatLab installed (editable) and its test
# extra. Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# design.md s6: what a bare Debian 12 lacks for Qt (xcb) and for Xvfb.
DEB_PACKAGES=(libegl1 libgl1 libx11-6 libdbus-1-3 libfontconfig1 libfreetype6 libglib2.0-0
  libxkbcommon0 xvfb xauth libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1
  libxcb-render-util0 libxcb-shape0 libxkbcommon-x11-0 fonts-dejavu-core)

PYTHON=${PYTHON:-python3}
if command -v dpkg >/dev/null 2>&1; then
  missing=()
  for p in "${DEB_PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  # Debian's own python3 needs python3-venv for `python -m venv`.
  "$PYTHON" -c "import ensurepip, venv" >/dev/null 2>&1 || missing+=(python3-venv python3-pip)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
      echo "setup: please install as root: apt-get install ${missing[*]}" >&2; exit 1; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PYTHON" -m venv .venv
fi
# Install only when pyproject.toml changed since the last install.
stamp=.venv/.quatlab-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "setup: installing QuatLab and its test extra into .venv"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[test]"
  touch "$stamp"
fi
