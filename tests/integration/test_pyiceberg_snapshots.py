"""Snapshots and refs through PyIceberg: time travel, tags, branches, expiry."""

from __future__ import annotations

import pytest
from pyiceberg.table.refs import SnapshotRefType

from helpers import SCHEMA, ids_of, rows


@pytest.fixture
def three_snapshots(catalog, ns):
    tbl = catalog.create_table(f"{ns}.t", schema=SCHEMA)
    for batch in ([1], [2], [3]):
        tbl.append(rows(batch))
    tbl = catalog.load_table(f"{ns}.t")
    return tbl, [s.snapshot_id for s in tbl.snapshots()]


def test_time_travel_by_snapshot_id(three_snapshots):
    tbl, (s1, s2, s3) = three_snapshots
    assert ids_of(tbl.scan(snapshot_id=s1)) == [1]
    assert ids_of(tbl.scan(snapshot_id=s2)) == [1, 2]
    assert ids_of(tbl.scan(snapshot_id=s3)) == [1, 2, 3]
    ts2 = tbl.snapshot_by_id(s2).timestamp_ms
    assert tbl.snapshot_as_of_timestamp(ts2).snapshot_id in (s2, s3)


def test_time_travel_by_tag(catalog, ns, three_snapshots):
    tbl, (s1, s2, _) = three_snapshots
    tbl.manage_snapshots().create_tag(s1, "v1").create_tag(s2, "v2").commit()

    tbl = catalog.load_table(f"{ns}.t")
    assert tbl.refs()["v1"].snapshot_id == s1
    assert tbl.refs()["v1"].snapshot_ref_type == SnapshotRefType.TAG
    assert ids_of(tbl.scan().use_ref("v1")) == [1]
    assert ids_of(tbl.scan().use_ref("v2")) == [1, 2]

    tbl.manage_snapshots().remove_tag("v1").commit()
    tbl = catalog.load_table(f"{ns}.t")
    assert "v1" not in tbl.refs() and "v2" in tbl.refs()


def test_branch_commit_and_fast_forward(catalog, ns, three_snapshots):
    tbl, (_, _, s3) = three_snapshots
    tbl.manage_snapshots().create_branch(s3, "audit").commit()

    tbl = catalog.load_table(f"{ns}.t")
    tbl.append(rows([100, 101]), branch="audit")

    tbl = catalog.load_table(f"{ns}.t")
    audit_head = tbl.refs()["audit"].snapshot_id
    assert tbl.refs()["audit"].snapshot_ref_type == SnapshotRefType.BRANCH
    assert audit_head != s3
    assert tbl.snapshot_by_id(audit_head).parent_snapshot_id == s3
    # main is unchanged by the branch commit
    assert tbl.current_snapshot().snapshot_id == s3
    assert ids_of(tbl) == [1, 2, 3]
    assert ids_of(tbl.scan().use_ref("audit")) == [1, 2, 3, 100, 101]

    # Fast-forward main to the branch head (main is an ancestor of it).
    tbl.manage_snapshots().set_current_snapshot(ref_name="audit").commit()
    tbl = catalog.load_table(f"{ns}.t")
    assert tbl.current_snapshot().snapshot_id == audit_head
    assert tbl.refs()["main"].snapshot_id == audit_head
    assert ids_of(tbl) == [1, 2, 3, 100, 101]

    tbl.manage_snapshots().remove_branch("audit").commit()
    assert "audit" not in catalog.load_table(f"{ns}.t").refs()


def test_expire_snapshots(catalog, ns, three_snapshots):
    tbl, (s1, s2, s3) = three_snapshots
    tbl.manage_snapshots().create_tag(s1, "keep").commit()
    tbl = catalog.load_table(f"{ns}.t")

    tbl.maintenance.expire_snapshots().by_id(s2).commit()

    tbl = catalog.load_table(f"{ns}.t")
    assert {s.snapshot_id for s in tbl.snapshots()} == {s1, s3}
    assert tbl.snapshot_by_id(s2) is None
    assert tbl.current_snapshot().snapshot_id == s3
    assert ids_of(tbl) == [1, 2, 3]  # data of the current snapshot is intact
    assert ids_of(tbl.scan().use_ref("keep")) == [1]
    assert s2 not in [e.snapshot_id for e in tbl.metadata.snapshot_log]
    # The tagged snapshot is protected.
    with pytest.raises(ValueError):
        tbl.maintenance.expire_snapshots().by_id(s1)
