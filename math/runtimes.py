"""The catalogue of runtime players: id -> label, engine and version, source, player function.

:data:`RUNTIMES` lists every player of :mod:`quatlab.math.runtime_players`
once, in the order tables show them, each with the source it follows (a
repository path at a commit, or a documentation page) and what of its
behaviour is inferred rather than read; ``docs/runtimes.md`` is the long
form. :data:`REFERENCE` is the glTF 2.0 player every other one is measured
against. Labels and behaviour texts are English, marked for translation
(:mod:`quatlab.math.marks`).

Examples
--------
>>> runtime("three").label
'three.js'
>>> parse_runtimes("gltf, nlerp")
('gltf', 'nlerp')
>>> len(parse_runtimes("all")) == len(RUNTIMES)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from quatlab.math import runtime_players as P
from quatlab.math.marks import N_

__all__ = ["Runtime", "RUNTIMES", "REFERENCE", "runtime", "parse_runtimes", "play"]


@dataclasses.dataclass(frozen=True)
class Runtime:
    """One runtime's player and where its behaviour comes from.

    ``play`` has the signature of :mod:`quatlab.math.runtime_players`;
    ``engine`` names the engine and the version whose source was read;
    ``source`` is that source (repository, path and commit, or a URL);
    ``behaviour`` says in a line what the player does with a rotation
    segment; ``inferred`` says what of it is not in the source (empty when
    everything is).
    """

    id: str
    label: str
    engine: str
    source: str
    behaviour: str
    play: Callable
    inferred: str = ""


_GODOT = ("godotengine/godot scene/resources/animation.cpp @ 51db86d7, "
          "core/math/quaternion.cpp @ 10b812d7")

RUNTIMES: dict[str, Runtime] = {r.id: r for r in (
    Runtime(
        "gltf", N_("glTF reference"), "glTF 2.0 specification",
        "https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html#interpolation-slerp",
        N_("slerp along the shorter arc; STEP holds; CUBICSPLINE normalized"),
        P.play_reference),
    Runtime(
        "three", "three.js", "three.js r17x (src/math/Quaternion.js slerpFlat)",
        "mrdoob/three.js src/math/interpolants/QuaternionLinearInterpolant.js @ 0a76bedf, "
        "src/math/Quaternion.js @ 0053135f",
        N_("slerp with the dot's sign, lerp and normalize for tiny steps"),
        P.play_three),
    Runtime(
        "babylon", "Babylon.js", "Babylon.js 6-7 (Animation, Quaternion.SlerpToRef)",
        "BabylonJS/Babylon.js packages/dev/core/src/Maths/math.vector.ts @ 006be27e",
        N_("slerp with the dot's sign, plain lerp above dot 0.999999"),
        P.play_babylon),
    Runtime(
        "playcanvas", N_("PlayCanvas / glTFast"), "PlayCanvas 2.22 (since 1.27); glTFast 4.4-6.8",
        "playcanvas/engine src/framework/parsers/glb-parser.js, "
        "src/framework/anim/evaluator/anim-cache.js @ 0aaef5e4; "
        "atteneder/glTFast Runtime/Scripts/AnimationUtils.cs @ bf011881",
        N_("signs fixed at load, then the components lerped and normalized"),
        P.play_aligned_lerp),
    Runtime(
        "unity_quat", N_("Unity quaternion curves"), "Unity 2019-6000 AnimationClip",
        "https://docs.unity3d.com/ScriptReference/AnimationClip.EnsureQuaternionContinuity.html",
        N_("one curve per component, keys as stored, normalized"),
        P.play_lerp_stored,
        N_("linear tangents and the normalization after evaluation are inferred; the "
           "documentation gives the per-component curves and that only "
           "EnsureQuaternionContinuity realigns signs")),
    Runtime(
        "unity_euler", N_("Unity Euler curves"),
        "Unity 2018-6000 model import, Resample Curves off",
        "https://docs.unity3d.com/Manual/AnimationEulerCurveImport.html",
        N_("each Euler channel interpolated on its own, applied Z, X, Y"),
        P.play_unity_euler,
        N_("linear channels (the file's tangents are not read); a quaternion track is "
           "written as Euler angles key by key in (-180, 180]")),
    Runtime(
        "unity_euler_rs", N_("Unity Euler, resampled"),
        "Unity 2018-6000 model import, Resample Curves on",
        "https://docs.unity3d.com/Manual/AnimationEulerCurveImport.html",
        N_("Euler curves baked to a quaternion key per frame (30 fps)"),
        P.play_unity_euler_resampled,
        N_("the frame rate, the sign continuity of the baked keys and their "
           "per-component blend are inferred")),
    Runtime(
        "godot", "Godot", "Godot 4.0-4.4 rotation tracks",
        _GODOT,
        N_("Quaternion::slerp with the dot's sign; cubic splines baked at 30 fps"),
        P.play_godot,
        N_("the bake of CUBICSPLINE samplers is read from the glTF importer's weight "
           "tracks")),
    Runtime(
        "godot_comp", N_("Godot, compressed"), "Godot 4.0-4.3 Animation::compress",
        _GODOT,
        N_("keys on 120 fps frames, axis-angle in 16 bits, always slerped (STEP too)"),
        P.play_godot_compressed,
        N_("the keys the compressor adds at page boundaries are not modelled")),
    Runtime(
        "unreal", "Unreal Engine", "Unreal Engine 5.3-5.5 FQuat::FastLerp",
        "https://dev.epicgames.com/documentation/unreal-engine/API/Runtime/Core/Math/TQuat/FastLerp",
        N_("component lerp with the dot's sign, normalized"),
        P.play_unreal,
        N_("the body of FastLerp is quoted from copies of Quat.h in public repositories, "
           "not from Epic's own")),
    Runtime(
        "ozz", "ozz-animation", "ozz-animation 0.16",
        "guillaumeblanc/ozz-animation src/animation/offline/animation_builder.cc, "
        "src/animation/runtime/sampling_job.cc @ 6cbdc790",
        N_("signs fixed offline, 15-bit smallest-three keys, NLerp"),
        P.play_ozz),
    Runtime(
        "acl", "ACL", "ACL 2.1 with rtm 2.3",
        "nfrechette/acl includes/acl/compression/impl/pre_process.transform.h @ 0f855f01; "
        "nfrechette/rtm includes/rtm/quatf.h @ 9fc84712",
        N_("w >= 0, w dropped and rebuilt, lerp with the dot's sign"),
        P.play_acl,
        N_("full-precision drop-w format; the variable bit rates are not modelled")),
    Runtime(
        "nlerp", N_("naive NLERP"), N_("a textbook runtime"),
        "docs/interpolation.md",
        N_("components lerped as stored, normalized: no hemisphere check"),
        P.play_lerp_stored),
    Runtime(
        "slerp", N_("naive SLERP"), N_("a textbook runtime"),
        "docs/interpolation.md",
        N_("slerp of the keys as stored: no hemisphere check"),
        P.play_slerp_stored),
)}

#: The player every other one is measured against.
REFERENCE = "gltf"


def runtime(runtime_id: str) -> Runtime:
    """The :class:`Runtime` called ``runtime_id``, or ValueError naming the ids there are."""
    try:
        return RUNTIMES[runtime_id]
    except KeyError:
        raise ValueError(
            f"unknown runtime {runtime_id!r}; runtimes: {', '.join(RUNTIMES)}") from None


def parse_runtimes(text: str) -> tuple[str, ...]:
    """Runtime ids from ``"all"`` or a comma-separated list (order kept, duplicates dropped).

    Examples
    --------
    >>> parse_runtimes("nlerp,three,nlerp")
    ('nlerp', 'three')
    >>> parse_runtimes("unity")
    Traceback (most recent call last):
    ...
    ValueError: unknown runtime 'unity'; runtimes: gltf, three, babylon, playcanvas, unity_quat, \
unity_euler, unity_euler_rs, godot, godot_comp, unreal, ozz, acl, nlerp, slerp
    """
    text = text.strip()
    if text == "all":
        return tuple(RUNTIMES)
    ids: list[str] = []
    for part in text.split(","):
        name = part.strip()
        runtime(name)
        if name not in ids:
            ids.append(name)
    if not ids:
        raise ValueError("give runtime ids separated by commas, or 'all'")
    return tuple(ids)


def play(runtime_id: str, keys, times, t, **options):
    """Play ``keys`` at ``t`` with runtime ``runtime_id`` (the options of its player).

    Examples
    --------
    >>> import numpy as np
    >>> play("babylon", [[1.0, 0, 0, 0], [0, 0, 0, 1]], [0.0, 1.0], [0.5]).round(4).tolist()
    [[0.7071, 0.0, 0.0, 0.7071]]
    """
    return runtime(runtime_id).play(keys, times, t, **options)

