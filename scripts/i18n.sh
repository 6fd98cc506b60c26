#!/usr/bin/env bash
# Translation catalogs (docs/architecture.md, "Translations"): extract every
# marked string from the code, merge it into each language's .po, compile .mo.
#   scripts/i18n.sh            extract + update + compile
#   scripts/i18n.sh compile    compile only (after editing a .po)
set -euo pipefail
cd "$(dirname "$0")/.."
BABEL=.venv/bin/pybabel
LOCALE=assets/locale
if [ "${1:-}" != compile ]; then
  "$BABEL" extract -F babel.cfg -k _ -k N_ -k ngettext:1,2 --no-location --sort-output \
    --project QuatLab --copyright-holder "QuatLab developers" \
    -o "$LOCALE/quatlab.pot" app math rendering 2>/dev/null
  "$BABEL" update -i "$LOCALE/quatlab.pot" -d "$LOCALE" -D quatlab --no-fuzzy-matching \
    --ignore-obsolete 2>/dev/null
fi
"$BABEL" compile -d "$LOCALE" -D quatlab --statistics
