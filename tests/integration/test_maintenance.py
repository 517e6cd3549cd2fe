"""Catalog-side maintenance (issue 12, item 6; docs/maintenance.md): expire snapshots and remove
orphan files, per table through the management API or scheduled by a catalog or namespace
policy, each with a dry run that lists what would go.

Played as the ways maintenance goes wrong: expiring a snapshot a tag still needs, deleting a
file a writer has not committed yet, a file an older metadata file still names, a file another
table shares (PyIceberg's add_files), a table another catalog writes to (fenced), and a catalog
that lets tables share locations.
"""
from __future__ import annotations

import json
import os
import subprocess
import time

import pyarrow.parquet as pq
import pytest

import firn_auth
from conftest import FIRN_BINARY, Api, catalog_name, expunge_dropped, make_catalog
from helpers import SCHEMA, ids_of, local_path, referenced_files, rows

pytestmark = pytest.mark.firn_only

DAY = 24 * 3600


def maintain(srv, table: str, creds=None, catalog: str | None = None, **body):
    ns, name = table.rsplit(".", 1)
    mgmt = firn_auth.Management(srv.uri, creds)
    path = (f"/catalogs/{catalog or catalog_name(srv)}/namespaces/{ns}/tables/{name}"
            "/maintenance")
    return mgmt.request("POST", path, json=body)


def backdate(path, days: float) -> None:
    t = time.time() - days * DAY
    os.utime(path, (t, t))


def orphan_parquet(location: str, name: str, ids) -> str:
    path = local_path(location) / "data" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(rows(ids), path)
    return path.as_uri()


def test_expire_snapshots_dry_run_then_run_respects_refs_and_retention(fresh_server):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.events", schema=SCHEMA)
    for i in range(5):
        tbl.overwrite(rows([i]))  # each overwrite leaves the previous data file to old snapshots
    tbl = cat.load_table("lake.events")
    snapshots = [s.snapshot_id for s in tbl.metadata.snapshots]
    assert len(snapshots) >= 5
    # A tag keeps the second snapshot whatever its age.
    tagged = tbl.metadata.snapshots[1].snapshot_id
    tagged_rows = ids_of(tbl.scan(snapshot_id=tagged))
    tbl.manage_snapshots().create_tag(tagged, "audit-2026").commit()
    tbl = cat.load_table("lake.events")
    before = referenced_files(tbl)
    metadata_before = tbl.metadata_location

    plan = maintain(fresh_server, "lake.events", action="expire-snapshots", dryRun=True,
                    olderThan="0", retainLast=2)
    assert plan.status_code == 200, plan.text
    p = plan.json()
    current = tbl.current_snapshot().snapshot_id
    expected = sorted(set(snapshots) - {tagged, current, tbl.metadata.snapshots[-2].snapshot_id})
    assert sorted(p["expiredSnapshots"]) == expected, p
    assert p["fileCount"] > 0 and p["deleted"] == 0
    assert cat.load_table("lake.events").metadata_location == metadata_before, "dry run committed"
    assert all(f.exists() for f in before), "dry run deleted files"

    done = maintain(fresh_server, "lake.events", action="expire-snapshots", olderThan="0",
                    retainLast=2)
    assert done.status_code == 200, done.text
    d = done.json()
    assert sorted(d["expiredSnapshots"]) == expected and d["finished"] is True, d
    after = cat.load_table("lake.events")
    kept = {s.snapshot_id for s in after.metadata.snapshots}
    assert kept == set(snapshots) - set(expected)
    assert after.metadata.refs["audit-2026"].snapshot_id == tagged
    # Every file the kept snapshots need is there; the current data and the tag still read.
    assert all(f.exists() for f in referenced_files(after))
    assert ids_of(after) == [4]
    assert ids_of(after.scan(snapshot_id=tagged)) == tagged_rows
    gone = [f for f in before if not f.exists()]
    assert len(gone) == d["deleted"] > 0
    assert set(map(str, gone)) <= {str(local_path(f)) for f in d["files"]}


def test_remove_orphan_files_keeps_young_chain_and_shared_files(fresh_server):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.t", schema=SCHEMA)
    tbl.append(rows([1]))
    tbl.append(rows([2]))
    tbl = cat.load_table("lake.t")
    location = tbl.metadata.location
    referenced = referenced_files(tbl)
    for f in referenced:
        backdate(f, 10)  # old, but referenced: never an orphan
    old_orphan = orphan_parquet(location, "old-orphan.parquet", [9])
    backdate(local_path(old_orphan), 10)
    young_orphan = orphan_parquet(location, "in-flight.parquet", [8])  # a writer's, not committed
    # A file another table took in with add_files: referenced elsewhere, kept.
    shared = orphan_parquet(location, "shared.parquet", [7])
    backdate(local_path(shared), 10)
    other = cat.create_table("lake.other", schema=SCHEMA)
    other.add_files([shared])
    # A stray metadata file of another writer: fence evidence, never deleted here.
    stray = local_path(location) / "metadata" / "00099-deadbeef-0000-0000-0000-000000000000.metadata.json"
    stray.write_text("{}")
    backdate(stray, 10)

    plan = maintain(fresh_server, "lake.t", action="remove-orphan-files", dryRun=True,
                    olderThan="3d")
    assert plan.status_code == 200, plan.text
    p = plan.json()
    assert p["files"] == [old_orphan], p
    assert p["keptReferencedElsewhere"] == 1 and p["deleted"] == 0
    assert local_path(old_orphan).exists()

    done = maintain(fresh_server, "lake.t", action="remove-orphan-files", olderThan="3d")
    assert done.status_code == 200, done.text
    assert done.json()["deleted"] == 1, done.json()
    assert not local_path(old_orphan).exists()
    for keep in (young_orphan, shared):
        assert local_path(keep).exists(), keep
    assert stray.exists()
    assert all(f.exists() for f in referenced)
    assert ids_of(cat.load_table("lake.t")) == [1, 2]
    assert ids_of(cat.load_table("lake.other")) == [7]
    # Below the floor of one hour: refused, nothing deleted.
    r = maintain(fresh_server, "lake.t", action="remove-orphan-files", olderThan="10m")
    assert r.status_code == 400 and "1h" in r.json()["error"]["message"], r.text


def test_files_an_older_metadata_file_names_are_not_orphans(fresh_server):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.tt", schema=SCHEMA)
    tbl.append(rows([1]))
    tbl.append(rows([2]))
    tbl = cat.load_table("lake.tt")
    first = tbl.metadata.snapshots[0]
    everything = referenced_files(tbl)
    # A client's own expire that removed the first snapshot but never deleted its files: they
    # are named only by the older metadata files of the chain now (time travel to those files
    # still needs them).
    api = Api(fresh_server)
    r = api.post(f"{api.v1}/namespaces/lake/tables/tt",
                 json={"requirements": [], "updates": [
                     {"action": "remove-snapshots", "snapshot-ids": [first.snapshot_id]}]})
    assert r.status_code == 200, r.text
    assert local_path(first.manifest_list) in everything
    for f in everything:
        backdate(f, 10)
    for f in (local_path(tbl.metadata.location) / "metadata").glob("*"):
        backdate(f, 10)
    r = maintain(fresh_server, "lake.tt", action="remove-orphan-files", dryRun=True,
                 olderThan="1d")
    assert r.status_code == 200, r.text
    assert r.json()["files"] == [], "a file the chain still names was called an orphan"


def test_maintenance_refuses_fenced_and_shared_location_tables(fresh_server):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.f", schema=SCHEMA)
    tbl.append(rows([1]))
    tbl = cat.load_table("lake.f")
    # Another catalog commits next to Firn's chain; Firn's next commit fences the table.
    meta_dir = local_path(tbl.metadata.location) / "metadata"
    version = len(list(meta_dir.glob("*.metadata.json")))
    foreign = meta_dir / f"{version:05d}-11111111-2222-4333-8444-555555555555.metadata.json"
    foreign.write_text(local_path(tbl.metadata_location).read_text())
    with pytest.raises(Exception):  # noqa: B017 - the fenced commit's 409
        tbl.append(rows([2]))
    for action in ("expire-snapshots", "remove-orphan-files"):
        r = maintain(fresh_server, "lake.f", action=action, dryRun=True, olderThan="3d")
        assert r.status_code == 409 and "fenced" in r.json()["error"]["message"], r.text

    admin = firn_auth.Management(fresh_server.uri)
    current = admin.get_catalog(catalog_name(fresh_server))
    admin.ok("PUT", f"/catalogs/{catalog_name(fresh_server)}", json={
        "currentEntityVersion": current["entityVersion"],
        "properties": {**current["properties"], "firn.unsafe-shared-table-locations": "true"}})
    cat.create_table("lake.s", schema=SCHEMA).append(rows([1]))
    r = maintain(fresh_server, "lake.s", action="remove-orphan-files", dryRun=True,
                 olderThan="3d")
    assert r.status_code == 409 and "share locations" in r.json()["error"]["message"], r.text


def test_a_purge_spares_files_another_table_references(fresh_server):
    """Table `shared` took one of `owner`'s data files in with add_files. Purging `owner`
    deletes the rest of its files, never that one: `shared` still reads it."""
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    owner = cat.create_table("lake.owner", schema=SCHEMA)
    owner.append(rows([1]))
    owner.append(rows([2]))
    owner = cat.load_table("lake.owner")
    data = sorted(f for f in referenced_files(owner) if f.suffix == ".parquet")
    shared = cat.create_table("lake.shared", schema=SCHEMA)
    shared.add_files([data[0].as_uri()])
    others = referenced_files(owner) - {data[0]}
    cat.purge_table("lake.owner")
    assert expunge_dropped(fresh_server) == 1
    assert data[0].exists(), "the purge deleted a file another table references"
    assert not any(f.exists() for f in others), [str(f) for f in others if f.exists()]
    assert ids_of(cat.load_table("lake.shared")) == sorted(ids_of_file(data[0]))


def ids_of_file(path) -> list[int]:
    return pq.read_table(path)["id"].to_pylist()


def test_maintenance_needs_write_and_metadata_rights_and_checks_its_input(fresh_server):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    cat.create_table("lake.r", schema=SCHEMA).append(rows([1]))
    admin = firn_auth.Management(fresh_server.uri)
    reader = admin.principal_with("reader", catalog_name(fresh_server),
                                  [("TABLE_READ_DATA", ["lake"], "r", None)])
    r = maintain(fresh_server, "lake.r", reader.creds, action="expire-snapshots", dryRun=True)
    assert r.status_code == 403, r.text
    for body in ({}, {"action": "compact"}, {"action": "expire-snapshots", "dryRun": "yes"},
                 {"action": "expire-snapshots", "olderThan": "forever"},
                 {"action": "expire-snapshots", "retainLast": 0},
                 {"action": "remove-orphan-files", "retainLast": 3},
                 {"action": "expire-snapshots", "extra": 1}):
        r = maintain(fresh_server, "lake.r", **body)
        assert r.status_code == 400, (body, r.text)
        assert "error" in r.json()
    assert maintain(fresh_server, "lake.nope", action="expire-snapshots").status_code == 404


def test_a_namespace_policy_expires_snapshots_by_itself(server_factory):
    srv = server_factory(env={"FIRN_TEST_MODE": "on", "FIRN_TEST_MAINTENANCE_SWEEP_MS": "1000"})
    cat = make_catalog(srv)
    cat.create_namespace("auto", properties={"firn.maintenance.expire-snapshots": "on",
                                             "firn.maintenance.interval": "1s"})
    cat.create_namespace("manual")
    props = {"history.expire.max-snapshot-age-ms": "0"}
    auto = cat.create_table("auto.t", schema=SCHEMA, properties=props)
    manual = cat.create_table("manual.t", schema=SCHEMA, properties=props)
    for i in range(4):
        auto.append(rows([i]))
        manual.append(rows([i]))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if len(cat.load_table("auto.t").metadata.snapshots) == 1:
            break
        time.sleep(0.5)
    assert len(cat.load_table("auto.t").metadata.snapshots) == 1
    assert ids_of(cat.load_table("auto.t")) == [0, 1, 2, 3]
    assert len(cat.load_table("manual.t").metadata.snapshots) == 4, "no policy, no expiry"
    out = subprocess.run([str(FIRN_BINARY), "admin", "tasks", "--data-dir", str(srv.data_dir),
                          "--kind", "expire-snapshots"], capture_output=True, text=True,
                         timeout=60)
    tasks = [json.loads(line) for line in out.stdout.splitlines()]
    assert tasks and all(t["object"] == "table auto.t" for t in tasks), tasks
