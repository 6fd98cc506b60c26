"""``python -m quatlab.app``: same as the ``quatlab`` console script."""

import sys

from quatlab.app.commands.cli import main

sys.exit(main())
