"""Finding families: which colour and legend entry each audit finding kind is drawn with. No Qt.

The Keyframes tab draws every finding (the dope sheet, the timeline, the
tables' tints) in the colour of its *family*, and its legend names each
family, so what a mark means is read off the legend, never guessed:

* ``sign_flip``: keys in opposite hemispheres, a naive runtime turns the long way;
* ``half_turn``: keys half a turn apart, the direction hangs on rounding;
* ``euler_wrap``: an Euler channel jumps by about 360 deg between frames (BVH, FBX);
* ``euler_flip``: the channels switch to the other angle triple of the same rotation;
* ``gimbal``: the middle angle at +-90 deg, the other two channels unstable;
* ``broken``: times out of order, and keys that are zero, not finite or not unit;
* ``other``: the count of findings past a track's first thousand, and kinds this
  build does not know (a newer reader's).

A finding whose ``keys`` are two keys marks the segment between them; one
key marks that key (:func:`is_key_mark`).

>>> family_of("sign_flip"), family_of("gimbal_lock"), family_of("zero"), family_of("new_kind")
('sign_flip', 'gimbal', 'broken', 'other')
>>> primary(["euler_wrap", "sign_flip"])
'sign_flip'
"""

from __future__ import annotations

from quatlab.app.i18n import N_

__all__ = ["FAMILIES", "IMPORTANCE", "FAMILY_OF", "FAMILY_NAMES", "EULER_FAMILIES", "family_of",
           "primary", "is_key_mark"]

#: The families, in legend order.
FAMILIES = ("sign_flip", "half_turn", "euler_wrap", "euler_flip", "gimbal", "broken", "other")
#: ... and by importance (:func:`primary`): the long way first, then keys no player can use.
IMPORTANCE = ("sign_flip", "broken", "half_turn", "euler_wrap", "euler_flip", "gimbal", "other")

#: The family of each finding kind (kinds not listed are ``"other"``).
FAMILY_OF = {
    "sign_flip": "sign_flip",
    "frame_sign_flip": "sign_flip",   # FBX: a sign flip between frames of the evaluated curve
    "half_turn": "half_turn",
    "euler_wrap": "euler_wrap",
    "euler_range": "euler_wrap",      # FBX: a curve beyond +-180 deg at a key
    "euler_flip": "euler_flip",
    "gimbal_lock": "gimbal",
    "time_order": "broken",
    "zero": "broken",
    "non_finite": "broken",
    "non_unit": "broken",
    "more": "other",
}

#: The families of the Euler channels as stored (BVH, FBX): drawn in a lane of their own
#: where a file has both kinds, so a sign flip and a wrap at the same frame both show.
EULER_FAMILIES = ("euler_wrap", "euler_flip", "gimbal")

#: What the legend calls each family (translated where shown; its tooltip says more).
FAMILY_NAMES = {
    "sign_flip": N_("sign flip"),
    "half_turn": N_("half turn"),
    "euler_wrap": N_("Euler wrap"),
    "euler_flip": N_("Euler flip"),
    "gimbal": N_("gimbal lock"),
    "broken": N_("time order or broken key"),
    "other": N_("other findings"),
}


def family_of(kind: str) -> str:
    """The family a finding of ``kind`` is drawn in (module docs)."""
    return FAMILY_OF.get(kind, "other")


def primary(kinds) -> str | None:
    """The most important family among findings of ``kinds`` (:data:`IMPORTANCE`), or None."""
    found = {family_of(k) for k in kinds}
    return next((f for f in IMPORTANCE if f in found), None)


def is_key_mark(kind: str, keys) -> bool:
    """Whether a finding marks one key (a tick) rather than a stretch of time.

    >>> is_key_mark("gimbal_lock", (4,)), is_key_mark("sign_flip", (3, 4))
    (True, False)
    """
    return len(keys) < 2 and kind != "more"
