#!/usr/bin/env bash
# Set up (see setup.sh) and open the QuatLab window on its default example
# (the negated-20 preset). Extra arguments go to `quatlab`, e.g. a glTF file.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run-app: no display; running under Xvfb (use 'quatlab screenshot' to see it)" >&2
  exec xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/quatlab "$@"
fi
exec .venv/bin/quatlab "$@"
