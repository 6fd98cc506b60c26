"""Peak memory of a ``quatlab`` command in a child process, measured so the parent does not count.

Linux keeps a process's peak resident set across ``exec``, and Python's
``subprocess`` starts children with ``vfork``: a child started straight from
a big process (pytest, a benchmark holding a generated file) reports at
least the parent's own peak. So the command runs under a small launcher
(``python -c``, a few megabytes), which starts it and reports its
``ru_maxrss`` from ``wait4``.
"""

from __future__ import annotations

import subprocess
import sys

LAUNCHER = (
    "import os, subprocess, sys\n"
    "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
    "_pid, status, usage = os.wait4(p.pid, 0)\n"
    "print(usage.ru_maxrss, os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime)\n"
)


def run_quatlab(argv: list[str]) -> tuple[float, float, int, str]:
    """``(CPU seconds, peak resident MiB, exit status, stderr)`` of ``quatlab ARGV``.

    CPU time (user + system), not wall time: on a shared machine the wall
    clock measures the neighbours too.
    """
    proc = subprocess.run(
        [sys.executable, "-c", LAUNCHER, sys.executable, "-m", "quatlab.app.commands.cli",
         *argv], capture_output=True, text=True, check=True)
    maxrss_kib, status, cpu = proc.stdout.split()
    return float(cpu), int(maxrss_kib) / 1024, int(status), proc.stderr
