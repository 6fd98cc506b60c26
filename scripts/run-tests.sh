#!/usr/bin/env bash
# Set up (see setup.sh), lint with ruff, check the import layers and run every test. The test suite
# starts its own Xvfb when there is no DISPLAY (tests/conftest.py), so this
# works on a bare machine and on a desktop alike.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/ruff check .
# The layer contracts of pyproject.toml (docs/architecture.md).
.venv/bin/lint-imports --no-cache
exec .venv/bin/python -m pytest "$@"
