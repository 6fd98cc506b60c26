#!/usr/bin/env bash
# Set up (see setup.sh) and open the QuatLab window on its default example
# (the negated-20 preset). Extra arguments go to `quatlab`, e.g. a glTF file.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  # A window on a virtual display would run invisibly until killed: say what
  # works here instead.
  cat >&2 <<'MSG'
run-app: no display (DISPLAY and WAYLAND_DISPLAY are unset), so the window cannot be shown here.
  On a desktop session, run scripts/run-app.sh there.
  Over ssh, use `ssh -X` (or -Y) so the window opens on your screen.
  To see what it looks like on this machine, render a picture under a virtual display:
    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/quatlab screenshot -o quatlab.png
  The headless commands need no display: .venv/bin/quatlab check|fix|curves|presets ...
MSG
  exit 2
fi
exec .venv/bin/quatlab "$@"
