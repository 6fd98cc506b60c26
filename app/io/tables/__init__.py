"""Rotation tracks as CSV or JSON text (docs/formats.md, "CSV and JSON tracks").

:mod:`.table_io` reads them, with an explicit component order, and writes corrected copies.
"""
