"""Soft delete (issue 12, item 4; docs/soft-delete.md): a dropped table or view is kept,
invisible, for its catalog's retention (default 7 days; 0 turns it off), listable and
restorable through the management API (`undrop`, to its old name or a new one), and forgotten
when the retention ends, its files purged then only if the drop asked for it.

Played as the mistakes users make: dropping the wrong table, reusing its name at once, taking
its location for another table, dropping with purge and regretting it, and the principal who
may drop tables trying to read or restore what others dropped.
"""
from __future__ import annotations

import time

import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import NoSuchTableError

import firn_auth
from conftest import Api, catalog_name, make_catalog
from helpers import SCHEMA, ids_of, local_path, referenced_files, rows

pytestmark = pytest.mark.firn_only

CLAIM = ".firn-claim.json"


class Dropped:
    """The dropped-objects routes of one catalog, as `creds` (default: the admin)."""

    def __init__(self, srv, catalog: str | None = None, creds=None) -> None:
        self.mgmt = firn_auth.Management(srv.uri, creds)
        self.base = f"/catalogs/{catalog or catalog_name(srv)}/dropped-objects"

    def list(self, **params) -> requests.Response:
        return self.mgmt.request("GET", self.base, params=params)

    def items(self) -> list[dict]:
        r = self.list()
        assert r.status_code == 200, r.text
        return r.json()["droppedObjects"]

    def undrop(self, drop_id: str, target: tuple[list[str], str] | None = None):
        body = {} if target is None else {"target": {"namespace": target[0], "name": target[1]}}
        return self.mgmt.request("POST", f"{self.base}/{drop_id}/undrop", json=body)

    def expunge(self, drop_id: str) -> requests.Response:
        return self.mgmt.request("DELETE", f"{self.base}/{drop_id}")


def files_under(location) -> set:
    return {p for p in local_path(location).rglob("*") if p.is_file() and p.name != CLAIM}


def test_a_dropped_table_is_kept_invisible_and_undrop_restores_it_at_the_same_snapshot(
        fresh_server):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.orders", schema=SCHEMA)
    tbl.append(rows([1, 2]))
    tbl.append(rows([3]))
    tbl = cat.load_table("lake.orders")
    snapshot, metadata = tbl.current_snapshot().snapshot_id, tbl.metadata_location
    files = referenced_files(tbl)
    before = int(time.time() * 1000)  # droppedAt is whole milliseconds

    cat.drop_table("lake.orders")
    assert cat.list_tables("lake") == []
    with pytest.raises(NoSuchTableError):
        cat.load_table("lake.orders")
    assert all(f.exists() for f in files), "a soft drop deleted files"
    [d] = Dropped(fresh_server).items()
    assert (d["kind"], d["namespace"], d["name"]) == ("table", ["lake"], "orders")
    assert d["uuid"] == str(tbl.metadata.table_uuid) and d["metadataLocation"] == metadata
    assert d["purgeRequested"] is False
    week = 7 * 24 * 3600 * 1000
    assert before <= d["droppedAt"] and abs(d["expiresAt"] - d["droppedAt"] - week) < 1000

    r = Dropped(fresh_server).undrop(d["id"])
    assert r.status_code == 200, r.text
    back = cat.load_table("lake.orders")
    assert back.metadata_location == metadata
    assert back.current_snapshot().snapshot_id == snapshot
    assert ids_of(back) == [1, 2, 3]
    assert Dropped(fresh_server).items() == []
    # It is a live table again in every way: writable, and its claim names it.
    back.append(rows([4]))
    assert ids_of(cat.load_table("lake.orders")) == [1, 2, 3, 4]
    assert (local_path(back.metadata.location) / CLAIM).exists()
    # Restoring it twice is a clear 404, not a second table.
    again = Dropped(fresh_server).undrop(d["id"])
    assert again.status_code == 404 and "error" in again.json(), again.text


def test_the_name_is_free_at_once_and_undrop_to_a_new_name_keeps_both(fresh_server):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    old = cat.create_table("lake.t", schema=SCHEMA)
    old.append(rows([1]))
    old_location = cat.load_table("lake.t").metadata.location
    cat.drop_table("lake.t")
    new = cat.create_table("lake.t", schema=SCHEMA)
    new.append(rows([100]))
    # The new table could not take the dropped one's location: it is still held.
    assert new.metadata.location != old_location
    [d] = Dropped(fresh_server).items()
    taken = Dropped(fresh_server).undrop(d["id"])
    assert taken.status_code == 409, taken.text
    assert "already exists" in taken.json()["error"]["message"].lower()
    assert Dropped(fresh_server).items() == [d], "a refused undrop lost the dropped table"
    r = Dropped(fresh_server).undrop(d["id"], (["lake"], "t_restored"))
    assert r.status_code == 200, r.text
    assert (r.json()["namespace"], r.json()["name"]) == (["lake"], "t_restored")
    assert ids_of(cat.load_table("lake.t_restored")) == [1]
    assert ids_of(cat.load_table("lake.t")) == [100]
    claim = (local_path(old_location) / CLAIM).read_text()
    assert '"t_restored"' in claim
    # Into a namespace that does not exist: 404, nothing lost.
    cat.drop_table("lake.t_restored")
    [d2] = Dropped(fresh_server).items()
    missing = Dropped(fresh_server).undrop(d2["id"], (["nowhere"], "x"))
    assert missing.status_code == 404, missing.text
    assert [x["id"] for x in Dropped(fresh_server).items()] == [d2["id"]]


def test_a_dropped_tables_location_is_not_given_to_another_table(fresh_server):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    explicit = f"{fresh_server.catalog_dir.as_uri()}/lake/explicit"
    first = cat.create_table("lake.first", schema=SCHEMA, location=explicit)
    first.append(rows([1]))
    files = files_under(explicit)
    cat.drop_table("lake.first")
    with pytest.raises(Exception) as refused:  # noqa: B017 - PyIceberg's class for a 409 create
        cat.create_table("lake.second", schema=SCHEMA, location=explicit)
    message = str(refused.value)
    [d] = Dropped(fresh_server).items()
    assert "dropped table" in message and d["id"] in message, message
    assert files_under(explicit) == files, "the refused create wrote or removed files"
    # Once expunged (no purge was asked for: the files stay), the location is free.
    assert Dropped(fresh_server).expunge(d["id"]).status_code == 204
    assert all(f.exists() for f in files)
    assert Dropped(fresh_server).items() == []
    second = cat.create_table("lake.second", schema=SCHEMA, location=explicit + "/v2")
    second.append(rows([2]))
    assert ids_of(second) == [2]


def test_a_purge_waits_for_the_retention_and_expunge_runs_it(fresh_server):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.p", schema=SCHEMA)
    for i in range(3):
        tbl.append(rows([i]))
    tbl = cat.load_table("lake.p")
    files = files_under(tbl.metadata.location)
    cat.purge_table("lake.p")
    assert all(f.exists() for f in files), "a purge ran before the retention ended"
    [d] = Dropped(fresh_server).items()
    assert d["purgeRequested"] is True
    # Regretted: undrop brings it back whole.
    assert Dropped(fresh_server).undrop(d["id"]).status_code == 200
    assert ids_of(cat.load_table("lake.p")) == [0, 1, 2]
    cat.purge_table("lake.p")
    [d] = Dropped(fresh_server).items()
    r = Dropped(fresh_server).expunge(d["id"])
    assert r.status_code == 204, r.text
    assert not any(f.exists() for f in files), "expunge of a purged drop left files"
    assert not (local_path(tbl.metadata.location) / CLAIM).exists()
    assert Dropped(fresh_server).items() == []
    assert Dropped(fresh_server).expunge(d["id"]).status_code == 404


def test_retention_ends_by_itself_and_purges_only_what_was_asked(server_factory):
    srv = server_factory(args=["--drop-retention", "2s"])
    cat = make_catalog(srv)
    cat.create_namespace("lake")
    purged = cat.create_table("lake.purged", schema=SCHEMA)
    purged.append(rows([1]))
    kept = cat.create_table("lake.kept", schema=SCHEMA)
    kept.append(rows([2]))
    purged_files = files_under(cat.load_table("lake.purged").metadata.location)
    kept_files = files_under(cat.load_table("lake.kept").metadata.location)
    cat.purge_table("lake.purged")
    cat.drop_table("lake.kept")
    assert len(Dropped(srv).items()) == 2
    deadline = time.monotonic() + 30
    while Dropped(srv).items() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert Dropped(srv).items() == [], "the retention did not end"
    assert not any(f.exists() for f in purged_files)
    assert all(f.exists() for f in kept_files), "a drop without purge lost files at expiry"


def test_a_drop_whose_purge_has_begun_cannot_be_undropped(server_factory):
    # Retention 1 s, and every purge step slowed down: the purge is under way for seconds.
    srv = server_factory(args=["--drop-retention", "1s"],
                         env={"FIRN_TEST_MODE": "on", "FIRN_TEST_TASK_STEP_DELAY_MS": "200"})
    cat = make_catalog(srv)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.big", schema=SCHEMA)
    for i in range(10):
        tbl.append(rows([i]))
    cat.purge_table("lake.big")
    [d] = Dropped(srv).items()
    time.sleep(1.5)  # the retention has ended; the purge is due or running
    listed = Dropped(srv).items()
    assert listed, "the slowed purge finished too soon for this test"
    r = Dropped(srv).undrop(d["id"])
    assert r.status_code == 409 and "purge" in r.json()["error"]["message"], r.text
    with pytest.raises(NoSuchTableError):
        cat.load_table("lake.big")


def test_retention_zero_on_a_catalog_forgets_at_once(fresh_server):
    admin = firn_auth.Management(fresh_server.uri)
    base = fresh_server.warehouse_dir / "hard"
    base.mkdir(parents=True)
    admin.create_catalog("hard", base.as_uri(), properties={"firn.drop.retention": "0"})
    writer = admin.principal_with("hard_writer", "hard",
                                  [("CATALOG_MANAGE_CONTENT", None, None, None)])
    hard = RestCatalog("hard", uri=fresh_server.uri, warehouse="hard",
                       **firn_auth.pyiceberg_auth_properties(fresh_server.uri, writer.creds))
    hard.create_namespace("lake")
    tbl = hard.create_table("lake.t", schema=SCHEMA)
    tbl.append(rows([1]))
    files = files_under(hard.load_table("lake.t").metadata.location)
    assert files
    hard.purge_table("lake.t")
    assert not any(f.exists() for f in files), "retention 0: the purge should run at once"
    assert Dropped(fresh_server, "hard", writer.creds).items() == []
    # An invalid value is refused when the catalog is updated, and the old one stays.
    current = admin.get_catalog("hard")
    body = {"currentEntityVersion": current["entityVersion"],
            "properties": {**current["properties"], "firn.drop.retention": "a week"}}
    r = admin.request("PUT", "/catalogs/hard", json=body)
    assert r.status_code == 400 and "firn.drop.retention" in r.text, r.text
    assert admin.get_catalog("hard")["properties"]["firn.drop.retention"] == "0"


def test_an_invalid_retention_is_refused_at_start(server_factory):
    with pytest.raises(BaseException) as failed:  # noqa: B017 - the fixture fails the start
        server_factory(args=["--drop-retention", "7 days"])
    assert "drop_retention" in str(failed.value) or "drop-retention" in str(failed.value)


def test_register_of_the_same_table_supersedes_its_dropped_entry(fresh_server):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.r", schema=SCHEMA)
    tbl.append(rows([5]))
    current = cat.load_table("lake.r").metadata_location
    cat.drop_table("lake.r")
    assert len(Dropped(fresh_server).items()) == 1
    back = cat.register_table("lake.r2", current)
    assert ids_of(back) == [5]
    assert Dropped(fresh_server).items() == []


def test_views_are_kept_and_restored_too(fresh_server):
    api = Api(fresh_server)
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    cat.create_table("lake.base", schema=SCHEMA)
    view = {
        "name": "v", "schema": {"type": "struct", "schema-id": 0, "fields": [
            {"id": 1, "name": "id", "required": False, "type": "long"}]},
        "view-version": {"version-id": 1, "timestamp-ms": int(time.time() * 1000),
                         "schema-id": 0, "summary": {"engine-name": "test"},
                         "default-namespace": ["lake"],
                         "representations": [{"type": "sql", "sql": "SELECT id FROM base",
                                              "dialect": "spark"}]},
        "properties": {}}
    r = api.post(f"{api.v1}/namespaces/lake/views", json=view)
    assert r.status_code == 200, r.text
    location = r.json()["metadata-location"]
    assert api.delete(f"{api.v1}/namespaces/lake/views/v").status_code == 204
    assert api.get(f"{api.v1}/namespaces/lake/views/v").status_code == 404
    assert local_path(location).exists(), "a soft drop of a view deleted its metadata file"
    [d] = Dropped(fresh_server).items()
    assert d["kind"] == "view"
    assert Dropped(fresh_server).undrop(d["id"]).status_code == 200
    loaded = api.get(f"{api.v1}/namespaces/lake/views/v")
    assert loaded.status_code == 200 and loaded.json()["metadata-location"] == location


def test_only_content_managers_see_or_restore_dropped_objects(fresh_server):
    cat_name = catalog_name(fresh_server)
    admin = firn_auth.Management(fresh_server.uri)
    dropper = admin.principal_with("dropper", cat_name, [
        ("TABLE_FULL_METADATA", ["lake"], None, None),
        ("NAMESPACE_FULL_METADATA", ["lake"], None, None)])
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    cat.create_table("lake.secret", schema=SCHEMA).append(rows([1]))
    cat.drop_table("lake.secret")
    [d] = Dropped(fresh_server).items()
    as_dropper = Dropped(fresh_server, cat_name, dropper.creds)
    for r in (as_dropper.list(), as_dropper.undrop(d["id"]), as_dropper.expunge(d["id"])):
        assert r.status_code == 403, r.text
        assert r.json()["error"]["code"] == 403
    assert Dropped(fresh_server).items() == [d], "a refused caller changed something"
    # A location refusal does not name the dropped table to a caller who may not list it.
    explicit = f"{fresh_server.catalog_dir.as_uri()}/lake/held"
    cat.create_table("lake.held", schema=SCHEMA, location=explicit)
    cat.drop_table("lake.held")
    held_id = [x["id"] for x in Dropped(fresh_server).items() if x["name"] == "held"][0]
    as_dropper_cat = RestCatalog("dropper", uri=fresh_server.uri, warehouse=cat_name,
                                 **firn_auth.pyiceberg_auth_properties(fresh_server.uri,
                                                                      dropper.creds))
    with pytest.raises(Exception) as refused:  # noqa: B017 - 403 or 409, both refuse
        as_dropper_cat.create_table("lake.mine", schema=SCHEMA, location=explicit)
    assert held_id not in str(refused.value), refused.value


@pytest.mark.parametrize("drop_id", ["..%2F..%2Fetc", "0" * 300, "%00", "not-a-drop"])
def test_hostile_drop_ids_are_clear_4xx(fresh_server, drop_id):
    mgmt = firn_auth.Management(fresh_server.uri)
    base = f"/catalogs/{catalog_name(fresh_server)}/dropped-objects/{drop_id}"
    for method, path in (("POST", base + "/undrop"), ("DELETE", base)):
        r = mgmt.request(method, path)
        assert 400 <= r.status_code < 500, (method, path, r.status_code, r.text)
        assert "error" in r.json()


def test_malformed_undrop_bodies_are_400_and_lose_nothing(fresh_server):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    cat.create_table("lake.t", schema=SCHEMA)
    cat.drop_table("lake.t")
    [d] = Dropped(fresh_server).items()
    mgmt = firn_auth.Management(fresh_server.uri)
    path = f"/catalogs/{catalog_name(fresh_server)}/dropped-objects/{d['id']}/undrop"
    for body in ('{"target": 5}', '{"target": {"namespace": "lake", "name": "x"}}',
                 '{"target": {"namespace": [], "name": "x"}}', "[1,2]", "{not json",
                 '{"target": {"namespace": ["lake"], "name": ""}}'):
        r = mgmt.request("POST", path, data=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (body, r.status_code, r.text)
    assert Dropped(fresh_server).items() == [d]
    assert mgmt.request("GET", f"/catalogs/nope/dropped-objects").status_code == 404
    assert Dropped(fresh_server).list(pageSize="0").status_code == 400
