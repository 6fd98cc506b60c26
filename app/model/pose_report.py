"""The pose of a glTF or FBX file at one time as plain JSON data: what ``quatlab pose`` prints.

The format is described in docs/formats.md ("quatlab pose"). An FBX file
(docs/formats.md, "FBX") has a third player, ``"euler"``, and its node
indices are the loader's (:mod:`quatlab.app.model.fbx_rig`). No Qt.

Examples
--------
>>> import json, os, tempfile
>>> doc = {"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}],
...        "nodes": [{"name": "root", "children": [1], "rotation": [0, 0, 1, 0]},
...                  {"name": "tip", "translation": [0, 1, 0]}]}
>>> path = os.path.join(tempfile.mkdtemp(), "two.gltf")
>>> with open(path, "w") as f:
...     _ = f.write(json.dumps(doc))
>>> report = pose_report(path)            # no animation: the rest pose
>>> [n["name"] for n in report["nodes"]], report["animation"]
(['root', 'tip'], None)
>>> [round(v, 6) + 0.0 for v in report["nodes"][1]["world"][1]]   # 180 deg about Z: tip at -Y
[0.0, -1.0, 0.0, -1.0]
"""

from __future__ import annotations

import os

from quatlab.app.i18n import _
from quatlab.app.io.tracks import KeyframeFileError
from quatlab.app.model.rig import load_rig
from quatlab.app.model.rig_players import PLAYERS, evaluate

__all__ = ["pose_report"]


def pose_report(path, animation=None, time: float = 0.0, player: str = "spec") -> dict:
    """A JSON-serializable pose of a glTF (or FBX) file: what ``quatlab pose`` prints.

    Parameters
    ----------
    path : str or Path
    animation : None, int or str
        Index or name; None takes the first animation (the rest pose when
        the file has none).
    time : float
        Seconds; must lie in the animation's ``[start, end]``.
    player : {"spec", "naive"}, or for FBX also "euler"

    Returns
    -------
    dict
        ``file``, ``animation`` (index, name, start, end or None), ``time``,
        ``player``, ``nodes`` (index, name, parent, ``world`` as a row-major
        4x4 list) in file order and ``skins`` (index, name, ``joints`` with
        node index, name and world ``position``).

    Raises
    ------
    KeyframeFileError
        One line naming the file: unreadable or invalid file, unknown
        animation, time outside the animation, unknown player.
    """
    players = PLAYERS
    if os.fspath(path).lower().endswith(".fbx"):
        from quatlab.app.io.fbx.keyframes import load_fbx_keyframes  # noqa: PLC0415
        from quatlab.app.model.fbx_rig import FBX_PLAYERS, rig_of_fbx  # noqa: PLC0415

        rig, players = rig_of_fbx(load_fbx_keyframes(path)), FBX_PLAYERS
    else:
        rig = load_rig(path)
    if player not in players:
        raise KeyframeFileError(path, _("player must be one of {players}, got {player!r}")
                                .format(players=", ".join(players), player=player))
    anim = None
    if animation is not None or rig.animations:
        anim = rig.animation(0 if animation is None else animation)
    time = float(time)
    if anim is not None and not (anim.start <= time <= anim.end):
        label = repr(anim.name) if anim.name else f"#{anim.index}"
        raise KeyframeFileError(path, _("time {time:g} is outside animation {animation} "
                                        "[{start:g}, {end:g}]").format(
            time=time, animation=label, start=anim.start, end=anim.end))
    pose = evaluate(rig, anim, time, player)
    nodes = []
    for g in range(len(rig)):
        i = int(rig.rig_index[g])
        p = int(rig.parents[i])
        nodes.append({"index": g, "name": rig.names[i],
                      "parent": None if p < 0 else int(rig.gltf_index[p]),
                      "world": pose.world[i].tolist()})
    skins = [{"index": sk.index, "name": sk.name,
              "joints": [{"node": int(rig.gltf_index[j]), "name": rig.names[j],
                          "position": pose.world[j, :3, 3].tolist()} for j in sk.joints]}
             for sk in rig.skins]
    return {
        "file": os.fspath(path),
        "animation": None if anim is None else {
            "index": anim.index, "name": anim.name, "start": anim.start, "end": anim.end},
        "time": time,
        "player": player,
        "nodes": nodes,
        "skins": skins,
    }
