"""How the 3D labels are laid out together, on hand-worked scenes (no GL view needed).

Rules of :mod:`quatlab.rendering.labels` that each mended a reviewed
picture: two leaders that cross are uncrossed by swapping their plates
(SQUAD at 1024x768 at 150 %); where no place is both free and reachable by
a leader that crosses no label, the least covered reachable one is taken
(the engines' "Unity Euler curves" lay on the Unity quaternion ring).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from PyQt6 import QtCore

from quatlab.rendering import labels as L
from quatlab.rendering.label_place import Segments, costs, crossings, meets

VIEW = QtCore.QRectF(0.0, 0.0, 400.0, 200.0)


def _placed(anchor: tuple[float, float], centre: tuple[float, float],
            width: float = 60.0) -> L._Placed:
    """A one-line label anchored at ``anchor`` whose plate (``width`` x 20) is centred on
    ``centre``."""
    plate = QtCore.QRectF(centre[0] - width / 2, centre[1] - 10.0, width, 20.0)
    box = plate.adjusted(4.0, 3.0, -4.0, -3.0).translated(-plate.left() - 4.0,
                                                          -plate.bottom() + 3.0)
    x, y = plate.left() + 4.0 - box.left(), plate.top() + 3.0 - box.top()
    unit = L.PlateUnit([L.Label(font=None, offset=(0.0, 0.0), text="x")], QtCore.QPointF(*anchor))
    return L._Placed(unit, unit.members, box, [0.0], [box.top()], x, y, plate)


def _line(leader) -> list[tuple[float, float]]:
    return [(p.x(), p.y()) for p in leader]


def test_a_placed_label_keeps_its_text_on_its_plate():
    done = _placed((100.0, 150.0), (250.0, 40.0))
    assert done.box.translated(done.x, done.y).adjusted(-4, -3, 4, 3) == done.plate
    assert done.leader is not None
    assert (done.leader[1].x(), done.leader[1].y()) == (220.0, 50.0)  # the plate's corner


def test_crossing_leaders_are_uncrossed_by_swapping_the_plates():
    # Anchors left and right along y = 150; each plate above the OTHER anchor.
    a = _placed((100.0, 150.0), (300.0, 40.0))
    b = _placed((300.0, 150.0), (100.0, 40.0))
    assert crossings([_line(a.leader)], [_line(b.leader)])[0] == 1
    drawn = [a, b]
    L._uncross(drawn, Segments(np.empty((0, 2, 2))), VIEW)
    assert drawn[0].plate.center() == QtCore.QPointF(100.0, 40.0)
    assert drawn[1].plate.center() == QtCore.QPointF(300.0, 40.0)
    assert crossings([_line(drawn[0].leader)], [_line(drawn[1].leader)])[0] == 0
    assert drawn[0].unit is a.unit and drawn[1].unit is b.unit


def test_plates_of_unequal_widths_swap_to_the_pairs_outer_edges():
    """Centred in the narrow one's place by the view's edge, the wide plate ran into
    the narrow one (the engines' "glTF reference" and "three.js" at 1024x768 at
    150 %): each goes to the pair's outer edge on the other's side instead."""
    a = _placed((60.0, 150.0), (215.0, 40.0), width=190.0)  # 120-310
    b = _placed((200.0, 150.0), (45.0, 40.0))                # 15-75
    assert crossings([_line(a.leader)], [_line(b.leader)])[0] == 1
    drawn = [a, b]
    L._uncross(drawn, Segments(np.empty((0, 2, 2))), VIEW)
    assert (drawn[0].plate.left(), drawn[0].plate.right()) == (15.0, 205.0)
    assert (drawn[1].plate.left(), drawn[1].plate.right()) == (250.0, 310.0)
    assert not L._cross(drawn[0].leader or _far(drawn[0]), drawn[1].leader or _far(drawn[1]))


def _far(done: L._Placed):
    """The line from a label's anchor to its plate, drawn or not."""
    return done.unit.anchor, L._nearest(done.unit.anchor, done.plate)


def test_a_swap_that_would_cover_a_line_is_not_made():
    a = _placed((100.0, 150.0), (300.0, 40.0), width=160.0)
    b = _placed((300.0, 150.0), (100.0, 40.0))
    # A line right of b's plate (70-130) that a's, 160 wide, would cover there:
    # centred (20-180) or from the pair's left edge (70-230).
    segs = Segments([[(150.0, 30.0), (150.0, 50.0)]])
    drawn = [a, b]
    L._uncross(drawn, segs, VIEW)
    assert drawn == [a, b]
    L._uncross(drawn, Segments(np.empty((0, 2, 2))), VIEW)  # without the line, swapped
    assert drawn[0].plate.center() == QtCore.QPointF(100.0, 40.0)


def test_leaders_from_one_point_fan_out_and_do_not_count_as_crossing():
    # Two chains in one pose (4 px apart): their leaders cross just above the root.
    a = _placed((200.0, 150.0), (300.0, 40.0))
    b = _placed((204.0, 150.0), (100.0, 40.0))
    assert crossings([_line(a.leader)], [_line(b.leader)])[0] == 1
    assert not L._cross(a.leader, b.leader)


def test_where_every_free_place_is_behind_a_label_the_least_covered_reachable_one_wins():
    """The anchor lies among five long lines (a trail) between two rows of labels;
    the free places beyond the rows are reachable only through a label. Before,
    the nearest free place was returned all the same, and the caller fell back
    to a spot over the lines next to the anchor, whatever it covered."""
    anchor = QtCore.QPointF(200.0, 100.0)
    segs = np.array([[(0.0, y), (400.0, y)] for y in (80.0, 90.0, 100.0, 110.0, 120.0)])
    placed = [QtCore.QRectF(0.0, 50.0, 400.0, 14.0), QtCore.QRectF(0.0, 136.0, 400.0, 14.0)]
    box = QtCore.QRectF(0.0, -10.0, 50.0, 12.0)
    plate0 = L._plate_at(box, 0.0, 0.0)
    x, y = L._free_place(anchor, plate0, placed, segs, VIEW)
    plate = box.translated(x, y).adjusted(-4.0, -3.0, 4.0, 3.0)  # as drawn
    assert not any(plate.intersects(r) for r in placed)
    end = L._nearest(anchor, plate)
    assert not meets([[(anchor.x(), anchor.y()), (end.x(), end.y())]], L._shrunk(placed)).any()
    # Between the rows every place covers lines: the plate with the gap kept round
    # it (24 px) covers two of them at least, and that is all it covers.
    hits = meets(segs, [(plate.left(), plate.top(), plate.right(), plate.bottom())])
    assert hits.sum() <= 2


def test_a_plate_nearer_another_chain_than_its_own_reads_as_naming_that_one():
    """SQUAD at 1280x720 in Chinese: "分段 NLERP" stood right of its chain's tip, its end
    6 px from the piecewise-SLERP chain and 15 px from its own; it read as that
    chain's name. Such a spot costs more than a free one (labels._MISREAD)."""
    box = QtCore.QRectF(0.0, -10.0, 90.0, 12.0)  # the text; the plate is 4 px and 3 px out
    own = np.array([(180.0, 190.0), (215.0, 185.0), (240.0, 250.0)])
    other = np.array([(330.0, 160.0), (350.0, 150.0), (380.0, 220.0)])
    # Right of the tip (plate 226-320 x 149-165): the other chain is 10 px off, its own 22.
    right, left = (230.0, 162.0), (110.0, 172.0)
    assert L._nearer_another(box, [right, left], own, [other]).tolist() == [True, False]
    # Chains in one pose are as near: no cost.
    assert not L._nearer_another(box, [right], own, [own + 1.0])[0]
    # A label with no body (a note, an angle) is never misread.
    assert not L._nearer_another(box, [right], None, [other])[0]


def test_a_label_beside_another_chain_takes_a_free_place_by_its_own_within_reach():
    """The engines' row at 1280x720: the spot right of "glTF reference"'s tip was free
    but over the three.js chain, the one left of it on a line, and the label took
    the first; the free place above its own chain reads right."""
    box = QtCore.QRectF(0.0, -10.0, 90.0, 12.0)
    anchor = QtCore.QPointF(100.0, 100.0)
    own = np.array([(80.0, 140.0), (100.0, 100.0), (120.0, 140.0)])
    other = np.array([(200.0, 90.0), (200.0, 130.0)])
    spots = [(9.0, -4.0), (-9.0, -4.0)]
    line = Segments(np.array([[[60.0, 80.0], [60.0, 100.0]]]))  # under the left spot
    x, y = L._place(anchor, box, spots, [], line, VIEW, (), own, [other])
    assert not L._nearer_another(box, [(x, y)], own, [other])[0], (x, y)
    plate = L._plate_at(box, x, y)
    assert costs([L._edges(plate)], line)[0] == 0.0, (x, y)
    assert L._reach(anchor, box, (x, y)) <= L._MISREAD_REACH


def test_a_plate_as_near_two_chains_by_its_edges_names_the_one_it_is_centred_over():
    """The engines at 1280x720: "Unreal Engine" stood over the Unity-Euler chain, 12 px
    from each chain by its edges, and counted as by its own."""
    box = QtCore.QRectF(0.0, -10.0, 92.0, 8.0)
    corner = (104.0, 93.0)  # plate (100, 80) to (200, 94), centre (150, 87)
    under = np.array([(150.0, 104.0)])  # 10 px below, under its centre
    aside = np.array([(210.0, 97.0)])  # 10.4 px off its corner, 61 px from its centre
    assert L._nearer_another(box, [corner], aside, [under])[0]
    assert not L._nearer_another(box, [corner], under, [aside])[0]


def test_misread_spots_cost_and_the_next_clear_spot_wins():
    box = QtCore.QRectF(0.0, -10.0, 90.0, 12.0)
    anchor = QtCore.QPointF(215.0, 185.0)
    own = np.array([(180.0, 190.0), (215.0, 185.0), (240.0, 250.0)])
    # The next chain's bone reaches under the end of the spot right of the tip.
    other = np.array([(316.0, 178.0), (340.0, 170.0), (380.0, 220.0)])
    spots = [(9.0, -4.0), (-9.0, -4.0)]  # right of the tip first, as a chain label asks
    empty = Segments(np.empty((0, 2, 2)))
    first = L._place(anchor, box, spots, [], empty, VIEW)
    assert first[0] > anchor.x()  # no bodies given: its own spot
    x, _ = L._place(anchor, box, spots, [], empty, VIEW, (), own, [other])
    assert x + box.right() < anchor.x()  # left of the tip


def test_a_plate_as_near_another_chain_within_its_height_names_the_one_its_middle_is_by():
    """The blend tab at 1024x768 at 150 %: "align to first" stood 13 px from its chain's
    tip, its middle over the naive sum's chain 28 px below; it read as between the two.
    Another chain no farther than the plate's own gap and height competes; one farther
    does not (the engines' "PlayCanvas / glTFast" under its chain, 47 px from Unity's)."""
    box = QtCore.QRectF(0.0, -20.0, 154.0, 20.0)  # the plate is 162 x 26
    corner = (304.0, 263.0)  # plate (300, 240) to (462, 266), centre (381, 253)
    own = np.array([(470.0, 236.0), (480.0, 226.0)])  # 8.9 px off its corner, 90.6 from its centre
    under = np.array([(380.0, 292.0)])  # 26 px below its middle: within 8.9 + 26
    lower = np.array([(380.0, 310.0)])  # 44 px below: farther than that
    assert L._nearer_another(box, [corner], own, [under])[0]
    assert not L._nearer_another(box, [corner], own, [lower])[0]


def test_a_label_may_cross_its_own_trail_to_stay_by_its_chain():
    """The Euler tab at 1024x768 at 150 %: the hand trails ring the gimbal, and "Euler
    angles, lerped" took the nearest place clear of them, 133 px below its chain.
    Where its own trail may be crossed (``own``), a place that near over it wins."""
    anchor = QtCore.QPointF(200.0, 100.0)
    box = QtCore.QRectF(0.0, -10.0, 50.0, 12.0)  # the plate is 58 x 18, 64 x 24 with its gap
    # Its trail through the anchor; two other lines 50 px either side: beside the
    # trail (50 px) a plate does not fit, across it (100 px) it does.
    segs = Segments(np.array([[(200.0, 0.0), (200.0, 200.0)], [(150.0, 0.0), (150.0, 200.0)],
                              [(250.0, 0.0), (250.0, 200.0)]]))
    own = np.array([True, False, False])
    spots = [(9.0, -4.0), *L._SPOTS]
    far = L._place(anchor, box, spots, [], segs, VIEW)
    near = L._place(anchor, box, spots, [], segs, VIEW, own=own)
    assert costs([L._edges(L._plate_at(box, *far))], segs)[0] == 0.0
    assert L._reach(anchor, box, far) > L._NEAR_REACH
    assert L._reach(anchor, box, near) <= L._NEAR_REACH
    plate = L._drawn(box, [near])[0]
    assert meets(segs.segs, [plate])[:, 0].tolist() == [True, False, False]


@given(st.lists(st.integers(-4, 4), min_size=8, max_size=8), st.sampled_from([1.5, 7.0, 0.3]))
def test_two_leaders_cross_as_crossings_has_it(coords, scale):
    # Small integer grids give the touching, collinear and shared-end cases.
    a1, a2, b1, b2 = (QtCore.QPointF(scale * coords[i], scale * coords[i + 1])
                      for i in range(0, 8, 2))
    fan = abs(a1.x() - b1.x()) <= L._MERGE and abs(a1.y() - b1.y()) <= L._MERGE
    want = not fan and bool(crossings([[(a1.x(), a1.y()), (a2.x(), a2.y())]],
                                      [[(b1.x(), b1.y()), (b2.x(), b2.y())]])[0])
    assert L._cross((a1, a2), (b1, b2)) is want
