"""``python -m quatlab.app``: same as the ``quatlab`` console script."""

from quatlab.app.commands.cli import entry

# Guarded: a process started with "spawn" (Dask's workers under `quatlab check --dask
# local`) imports the parent's main module again and must not run the command twice.
if __name__ == "__main__":
    entry()
