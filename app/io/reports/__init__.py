"""QuatLab's own reports (docs/report.md): the check report's JSON Schema, and JUnit XML.

:mod:`.schema` ships the contract of the one-file report and of a folder's
JSON Lines; :mod:`.junit` turns check results into JUnit XML for CI test
views. Plain dicts in, text or bytes out; no Qt.
"""
