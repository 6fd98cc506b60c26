"""Memory is bounded by a file's real data: tiny files cannot demand gigabytes.

docs/formats.md, "Safety rules for readers and writers": zero-filled
accessors are capped by the file's size, decoded accessors are shared by the
channels that use them, and findings past a limit per track are summarised.
"""

from __future__ import annotations

import json
import tracemalloc

import numpy as np
import pytest
import report_schema
from gltf_forge import data_uri, doc, payload, write

from quatlab.app.commands.cli import main
from quatlab.app.io import keyframe_files as KF
from quatlab.app.io import track_audit as TA
from quatlab.app.io.tracks import KeyframeFileError, Track


def _peak_mb(fn):
    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def test_tiny_file_with_a_huge_zero_filled_accessor_is_refused(tmp_path, capsys):
    d = doc(None, 8)
    d["buffers"] = []
    d["bufferViews"] = []
    d["accessors"] = [
        {"componentType": 5126, "count": 2**24, "type": "SCALAR"},
        {"componentType": 5126, "count": 2**24, "type": "VEC4"},
    ]
    path = write(tmp_path / "zero.gltf", d)
    assert path.stat().st_size < 600
    with pytest.raises(KeyframeFileError, match="too large for an accessor without a bufferView"):
        _peak_mb(lambda: KF.load_keyframes(path))
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "accessors[0].count 16777216" in err


def test_zero_filled_accessors_within_the_cap_still_load(tmp_path):
    d = doc(None, 8)
    d["buffers"], d["bufferViews"] = [], []
    d["accessors"] = [
        {"componentType": 5126, "count": 1000, "type": "SCALAR"},
        {"componentType": 5126, "count": 1000, "type": "VEC4"},
    ]
    kf = KF.load_keyframes(write(tmp_path / "z.gltf", d))
    assert len(kf.tracks[0]) == 1000 and not kf.tracks[0].values.any()


def _flipping_keys(n):
    # Every key stored as -q of a slowly turning rotation: n - 1 sign flips.
    angles = np.linspace(0, 0.5, n)
    q = np.stack([np.zeros(n), np.zeros(n), np.sin(angles / 2), np.cos(angles / 2)], axis=1)
    q[1::2] *= -1
    return q


def test_ten_thousand_channels_sharing_one_accessor(tmp_path):
    n, channels = 1000, 10_000
    data = payload(np.arange(n, dtype=np.float32), _flipping_keys(n))
    d = doc(data_uri(data), len(data), n=n, channels=channels)
    path = write(tmp_path / "shared.gltf", d)

    def work():
        kf = KF.load_keyframes(path)
        reports = TA.audit_file(kf)
        return kf, sum(len(r.findings) for r in reports)

    (kf, total), peak = _peak_mb(work)
    assert len(kf.tracks) == channels and total == channels * (n - 1)
    # One copy of the keys is 32 KB and one set of findings a few hundred KB;
    # a copy per channel would be 320 MB of keys and gigabytes of messages.
    assert peak < 200, f"{peak:.0f} MB"
    assert kf.tracks[0].values is kf.tracks[-1].values


def test_findings_past_the_limit_are_summarised():
    n = 5000
    from quatlab.math.quaternion import from_xyzw

    track = Track(times=np.arange(n, dtype=float), values=from_xyzw(_flipping_keys(n)))
    findings = TA.audit_track(track)
    assert len(findings) == TA.MAX_FINDINGS + 1
    assert all(f.kind == "sign_flip" for f in findings[:-1])
    assert [f.keys for f in findings[:3]] == [(0, 1), (1, 2), (2, 3)]
    more = findings[-1]
    assert more.kind == "more" and f"{n - 1 - TA.MAX_FINDINGS:,} more findings" in more.message
    assert more.keys == (TA.MAX_FINDINGS, n - 2)


def test_check_json_on_a_huge_track_streams_bounded(tmp_path, capsys):
    n = 50_000
    values = _flipping_keys(n)
    text = json.dumps({"order": "xyzw", "times": list(range(n)), "values": values.tolist()})
    (tmp_path / "t.json").write_text(text)
    status, peak = _peak_mb(lambda: main(["check", "--json", str(tmp_path / "t.json")]))
    out = report_schema.file_report(capsys.readouterr().out)
    assert status == 1 and len(out["tracks"][0]["findings"]) == TA.MAX_FINDINGS + 1
    assert peak < 400, f"{peak:.0f} MB"


def _flipping_track(keys: int) -> Track:
    """``keys`` identity keys stored as q, -q, q, ...: every segment is a sign flip."""
    values = np.zeros((keys, 4))
    values[:, 0] = np.where(np.arange(keys) % 2, -1.0, 1.0)
    return Track(times=np.arange(keys, dtype=float), values=values)


def test_finding_messages_are_written_only_when_read(monkeypatch):
    # `quatlab fix` audits the fixed tracks for the kinds and keys left; the
    # messages of a thousand findings cost more than the audit of 10^6 keys.
    made = []
    real = TA._sign_flip_message
    monkeypatch.setattr(TA, "_sign_flip_message", lambda *a: made.append(a) or real(*a))
    findings = TA.audit_track(_flipping_track(5000))
    assert len(findings) == TA.MAX_FINDINGS + 1
    assert [f.keys for f in findings[:2]] == [(0, 1), (1, 2)]
    assert made == []
    first = findings[0].message
    assert len(made) == 1 and first == findings[0].message and len(made) == 1
    assert "opposite hemispheres" in first and "dot(q0, q1) = -1" in first


def test_deferred_findings_equal_pickle_and_hash_as_plain_findings():
    import pickle

    from quatlab.app.io.tracks import Finding

    deferred = TA.audit_track(_flipping_track(3))
    plain = [Finding(f.kind, f.keys, str(f.message)) for f in deferred]
    assert deferred == plain and plain == deferred
    assert {hash(f) for f in deferred} == {hash(f) for f in plain}
    back = pickle.loads(pickle.dumps(deferred))
    assert [type(f) for f in back] == [Finding, Finding] and back == plain
    assert [f.as_dict()["message"] for f in deferred] == [f.message for f in plain]
