"""glTF 2.0 (``.gltf``, ``.glb``; docs/formats.md, "glTF"): rotation channels and the scene.

:mod:`.accessors` decodes the binary layout, :mod:`.document` builds pygltflib's model,
:mod:`.read` loads the rotation channels as keyframe tracks, :mod:`.write` writes a
corrected copy, and :mod:`.scene` reads the node forest, skins and meshes for the rig.
"""
