"""Qt widgets: the main window, editors, scrubber and one module per tab (docs/architecture.md)."""
