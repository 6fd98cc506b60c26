"""Property tests of the USD helpers that need no usd-core: Euler ops, packages, asset paths.

docs/formats.md, "USD". Oracles: scipy's ``Rotation`` for the rotate ops (an
independent Euler implementation), Python's ``zipfile`` for the packages, and
``posixpath`` normalisation worked by hand for package members.
"""

from __future__ import annotations

import io
import posixpath
import zipfile

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from quatlab.app.io.usd import euler_ops
from quatlab.app.io.usd import package as P
from quatlab.math import quaternion as Q

ORDERS = ("xyz", "xzy", "yxz", "yzx", "zxy", "zyx")
angles = st.floats(-720.0, 720.0, allow_nan=False, allow_infinity=False)


@settings(max_examples=60, deadline=None)
@given(order=st.sampled_from(ORDERS), rows=st.lists(st.tuples(angles, angles, angles),
                                                    min_size=1, max_size=12))
def test_rotate_op_rotations_are_scipys_extrinsic_euler(order, rows):
    values = np.array(rows)                 # stored (x, y, z) components
    seq = euler_ops.sequence(values, order)
    want = Rotation.from_euler(order, seq, degrees=True).as_matrix()
    np.testing.assert_allclose(Q.to_matrix(euler_ops.rotations(values, order)), want, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(order=st.sampled_from(ORDERS + ("x", "y", "z")),
       rows=st.lists(st.tuples(angles, angles, angles), min_size=2, max_size=12))
def test_the_euler_filter_keeps_every_rotation_and_leaves_no_wrap(order, rows):
    values = np.array(rows)
    if len(order) == 1:
        values = values[:, :1]
    filtered = euler_ops.filtered_values(values, order)
    a = Q.to_matrix(euler_ops.rotations(values, order))
    b = Q.to_matrix(euler_ops.rotations(filtered, order))
    np.testing.assert_allclose(b, a, atol=1e-9)
    if len(order) == 1:
        assert euler_ops.single_axis_wraps(filtered).size == 0


names = st.lists(st.from_regex(r"[a-z]{1,6}(/[a-z]{1,6}){0,2}\.(usda|usdc|png)", fullmatch=True),
                 min_size=1, max_size=6, unique=True)


@settings(max_examples=40, deadline=None)
@given(members=names, sizes=st.lists(st.integers(0, 300), min_size=6, max_size=6))
def test_written_packages_are_stored_aligned_and_pass_the_check(members, sizes):
    members = ["root.usda", *[m for m in members if m != "root.usda"]]
    data = [(m, bytes([65 + k % 26]) * sizes[k % 6]) for k, m in enumerate(members)]
    blob = P.write_package(data)
    archive = zipfile.ZipFile(io.BytesIO(blob))
    for info, (name, payload) in zip(archive.infolist(), data, strict=True):
        assert info.filename == name and info.compress_type == zipfile.ZIP_STORED
        start = info.header_offset + 30 + len(name.encode()) + len(info.extra)
        assert start % 64 == 0 and blob[start:start + len(payload)] == payload
    assert P.check_package_bytes(blob).members == tuple(members)


@given(base=st.from_regex(r"([a-z]{1,3}/){0,3}[a-z]{1,3}\.usda", fullmatch=True),
       asset=st.from_regex(r"(\.\./|\./|[a-z]{1,3}/){0,5}[a-z]{1,3}\.usda", fullmatch=True))
def test_package_members_never_leave_the_package(base, asset):
    got = P.normalized_member(base, asset)
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(base), asset))
    if got is None:
        assert joined.startswith("..")
    else:
        assert got == joined and not got.startswith("..") and not got.startswith("/")
