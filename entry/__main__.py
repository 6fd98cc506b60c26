"""``python -m quatlab``: the ``quatlab`` command (see quatlab.app.commands.cli)."""

from quatlab.app.commands.cli import entry

# Guarded: a process started with "spawn" (Dask's workers under `quatlab check --dask
# local`) imports the parent's main module again and must not run the command twice.
if __name__ == "__main__":
    entry()
