"""A Dask worker plug-in for the tests: files named ``die_*`` make the worker process exit.

Test-only. ``die_always*`` ends the worker every time it is checked;
``die_once*`` the first time only (a marker file beside it remembers), as a
worker lost mid-sweep to something outside the file would. The plug-in is
registered with the scheduler, so a worker restarted by its nanny gets it too.
"""

from __future__ import annotations

import os

from distributed import WorkerPlugin


class KillOnFile(WorkerPlugin):
    name = "quatlab-test-kill-on-file"

    def setup(self, worker):
        from quatlab.app.commands import check_dir

        real = getattr(check_dir.check_one, "__wrapped__", check_dir.check_one)

        def check_one(path, *args, **kwargs):
            name = os.path.basename(str(path))
            if name.startswith("die_always"):
                os._exit(17)
            if name.startswith("die_once"):
                marker = f"{path}.died"
                if not os.path.exists(marker):
                    open(marker, "w").close()  # noqa: SIM115 - the process ends next line
                    os._exit(17)
            return real(path, *args, **kwargs)

        check_one.__wrapped__ = real
        check_dir.check_one = check_one
