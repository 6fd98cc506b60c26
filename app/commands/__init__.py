"""The ``quatlab`` command line: the entry point (:mod:`.cli`) and one module per subcommand."""
