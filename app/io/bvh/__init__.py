"""BVH motion capture (docs/formats.md, "BVH"): one import for the file types and the reader.

The reader and the file types live in :mod:`.file`, the grammar in :mod:`.parse`, the
writer in :mod:`.write`, rotations and transforms in :mod:`.kinematics`, the Euler audit
in :mod:`.euler`, and the file as keyframe tracks in :mod:`.keyframes`. This package
re-exports the public names of :mod:`.file` (which gathers the writer, kinematics and
Euler audit), so ``from quatlab.app.io import bvh`` then ``bvh.read_bvh(path)`` works.
"""

from quatlab.app.io.bvh.file import *  # noqa: F403 (the public face; the list is file.__all__)
from quatlab.app.io.bvh.file import __all__  # noqa: F401
