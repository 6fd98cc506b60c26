"""FBX (docs/formats.md, "FBX"): clips, layers, Euler curves, the skeleton and skinned meshes.

:mod:`.worker` runs the ufbx loader in a child process, :mod:`.loader` reads a file through it
into an :class:`~.scene.FbxScene` of plain arrays, :mod:`.curves` and :mod:`.evaluate` play
the curves, layers and node transforms as ufbx does, :mod:`.audit` audits the Euler curves
and the quaternions a runtime receives, and :mod:`.keyframes` is the file as keyframe tracks.
"""
