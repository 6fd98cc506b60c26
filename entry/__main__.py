"""``python -m quatlab``: the ``quatlab`` command (see quatlab.app.commands.cli)."""

import sys

from quatlab.app.commands.cli import main

sys.exit(main())
