"""Qt-free file formats: one sub-package per format, shared reading and writing beside them.

``gltf/``, ``bvh/`` and ``tables/`` (CSV/JSON tracks) each read one family of files;
``tracks``, ``track_audit`` and ``keyframe_files`` are what every format shares (tracks,
findings, the sign fix, opening any file), ``safe_read`` and ``atomic`` the one way to read
and to write. Nothing here imports Qt, pyqtgraph or OpenGL (see docs/formats.md and
docs/architecture.md).
"""
