"""QuatLab's own reports (docs/report.md): the check report's schema, JUnit, HTML, resuming.

:mod:`.schema` ships the contract of the one-file report and of a folder's
JSON Lines; :mod:`.junit` turns check results into JUnit XML for CI test
views and :mod:`.html` into one self-contained page for people, with the
rankings of :mod:`.ranking`; :mod:`.inputs` fingerprints the files a result was read from, so that
``--resume`` can skip what has not changed. Plain dicts in, text or bytes
out; no Qt.
"""
