"""Subcommands of the ``quatlab`` command line, one module each."""
