"""QuatLab's own reports (docs/report.md): the JSON Schema of ``quatlab check --json``.

:mod:`.schema` ships the contract of the one-file report and of a folder's
JSON Lines. Plain dicts in, text or bytes out; no Qt.
"""
