"""Issue 9's findings, replayed as the attacks they were, against a real `firn serve` on the
embedded default. Each test asserts the attack fails with a 4xx Iceberg ErrorModel and that the
victim's files and table are intact.

1. purge deletes another table's files (set-location onto the catalog base, a `.` table, a
   manifest list and statistics file naming the victim's files);
2. a CATALOG_MANAGE_CONTENT holder widens its catalog to the host; register as an oracle;
4. register skips the `write.metadata.path` check;
5. one table, two owners (the same file registered twice, overlapping catalogs and tables).
(3 and 6 are test_secrets_at_rest.py, test_http_limits.py and test_hostile_input.py.)
"""
from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import pytest
import requests

import firn_auth
from conftest import FIRN_BINARY, expunge_dropped, make_catalog
from helpers import SCHEMA, ids_of, local_path, referenced_files, rows

pytestmark = pytest.mark.firn_only

ICEBERG_SCHEMA = {"type": "struct", "schema-id": 0,
                  "fields": [{"id": 1, "name": "id", "required": False, "type": "long"}]}


class Rest:
    """Raw REST calls on the default catalog (unprefixed routes) as one principal."""

    def __init__(self, srv, creds: firn_auth.Credentials | None = None) -> None:
        self.srv = srv
        self.headers = firn_auth.auth_headers(srv.uri, creds)

    def call(self, method: str, path: str, **kw) -> requests.Response:
        return requests.request(method, f"{self.srv.uri}/v1{path}", headers=self.headers,
                                timeout=30, **kw)

    def commit(self, ns: str, table: str, updates: list[dict]) -> requests.Response:
        return self.call("POST", f"/namespaces/{ns}/tables/{table}",
                         json={"requirements": [], "updates": updates})


def error_of(r: requests.Response, *statuses: int) -> dict:
    assert r.status_code in statuses, (r.status_code, r.text[:400])
    body = r.json()
    assert set(body) == {"error"}, body
    assert body["error"]["code"] == r.status_code
    return body["error"]


@pytest.fixture
def world(server_factory):
    """A fresh server; a victim table with data in namespace `victims`; namespace `att` where
    the attacker holds everything a table owner can hold (so authorisation is never what stops
    the attack: the location rules are)."""
    srv = server_factory()
    admin = firn_auth.Management(srv.uri)
    cat = make_catalog(srv)
    cat.create_namespace("victims")
    cat.create_namespace("att")
    victim = cat.create_table("victims.v", schema=SCHEMA)
    victim.append(rows([1, 2, 3]))
    victim = cat.load_table("victims.v")
    tag = uuid.uuid4().hex[:8]
    attacker = admin.principal_with(f"mallory{tag}", "default", [
        (p, ["att"], None, None)
        for p in ("TABLE_CREATE", "TABLE_WRITE_DATA", "TABLE_DROP", "TABLE_FULL_METADATA",
                  "TABLE_LIST", "NAMESPACE_FULL_METADATA")])
    return srv, admin, cat, victim, Rest(srv, attacker.creds)


def victim_files(victim) -> set[Path]:
    files = referenced_files(victim) | {local_path(victim.metadata_location)}
    assert files and all(f.exists() for f in files)
    return files


def assert_victim_intact(cat, victim, files: set[Path]) -> None:
    missing = sorted(str(f) for f in files if not f.exists())
    assert not missing, f"victim files deleted: {missing}"
    again = cat.load_table("victims.v")
    assert again.metadata_location == victim.metadata_location
    assert ids_of(again) == [1, 2, 3]


def create_attacker_table(rest: Rest, name: str = "t", **extra) -> dict:
    r = rest.call("POST", "/namespaces/att/tables",
                  json={"name": name, "schema": ICEBERG_SCHEMA, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def test_purge_cannot_reach_another_tables_files(world):
    srv, _, cat, victim, rest = world
    files = victim_files(victim)
    create_attacker_table(rest)
    base = srv.catalog_dir.as_uri()
    # Moving onto the catalog base, the victim's location, its namespace or the warehouse root.
    for target, statuses in [(base, (409,)), (victim.location(), (403,)),
                             (f"{base}/victims", (403,)), (srv.warehouse_dir.as_uri(), (403,)),
                             ("file:///", (403,))]:
        err = error_of(rest.commit("att", "t", [{"action": "set-location", "location": target}]),
                       *statuses)
        assert "victims.v" not in err["message"], err  # never names what the caller cannot see
    # Metadata that names the victim's files: accepted as metadata, but never the table's to
    # delete. The manifest list is a victim data file, the statistics file its metadata file.
    data_file = next(f for f in files if f.suffix == ".parquet")
    snapshot = {"snapshot-id": 4242, "sequence-number": 1, "timestamp-ms": 1700000000000,
                "manifest-list": data_file.as_uri(), "summary": {"operation": "append"},
                "schema-id": 0}
    stats = {"snapshot-id": 4242, "statistics-path": local_path(victim.metadata_location).as_uri(),
             "file-size-in-bytes": 1, "file-footer-size-in-bytes": 1, "blob-metadata": []}
    r = rest.commit("att", "t", [{"action": "add-snapshot", "snapshot": snapshot},
                                 {"action": "set-statistics", "snapshot-id": 4242,
                                  "statistics": stats}])
    assert r.status_code == 200, r.text
    r = rest.call("DELETE", "/namespaces/att/tables/t", params={"purgeRequested": "true"})
    assert r.status_code == 204, r.text
    # The purge runs when the dropped table's retention ends: here, at once.
    assert expunge_dropped(srv) == 1
    assert_victim_intact(cat, victim, files)


def test_a_dot_or_slash_table_cannot_take_a_namespace_location(world):
    _, _, cat, victim, rest = world
    files = victim_files(victim)
    for name in (".", "..", "victims/v", "a/../../victims"):
        r = rest.call("POST", "/namespaces/att/tables", json={"name": name, "schema": ICEBERG_SCHEMA})
        error_of(r, 400)
    for raw in ("%2E", "%2E%2E"):
        error_of(rest.call("GET", f"/namespaces/att/tables/{raw}"), 400)
    # A table whose explicit location is the namespace's own (default) location, or the victim's.
    base = rest.srv.catalog_dir.as_uri()
    for location, statuses in [(f"{base}/att", (409,)), (victim.location(), (403,)),
                               (victim.location() + "/data", (403,))]:
        r = rest.call("POST", "/namespaces/att/tables",
                      json={"name": "squat", "schema": ICEBERG_SCHEMA, "location": location})
        error_of(r, *statuses)
    assert_victim_intact(cat, victim, files)


def test_content_manager_cannot_widen_the_catalog_to_the_host(world):
    srv, admin, cat, victim, _ = world
    files = victim_files(victim)
    tag = uuid.uuid4().hex[:8]
    manager = admin.principal_with(f"cm{tag}", "default", [("CATALOG_MANAGE_CONTENT", None)])
    mgmt = firn_auth.Management(srv.uri, manager.creds)
    current = admin.get_catalog("default")
    for change in [{"storageConfigInfo": {"storageType": "FILE", "allowedLocations": ["file:///"]}},
                   {"properties": {**current["properties"], "default-base-location": "file:///"}},
                   {"properties": {**current["properties"],
                                   "firn.unsafe-shared-table-locations": "true"}}]:
        body = {"currentEntityVersion": admin.get_catalog("default")["entityVersion"], **change}
        r = mgmt.request("PUT", "/catalogs/default", json=body)
        err = error_of(r, 403)
        assert "SERVICE_MANAGE_ACCESS" in err["message"], err
    # Not even a service admin may take a catalog outside the operator's storage roots.
    body = {"currentEntityVersion": admin.get_catalog("default")["entityVersion"],
            "storageConfigInfo": {"storageType": "FILE", "allowedLocations": ["file:///"]}}
    err = error_of(admin.request("PUT", "/catalogs/default", json=body), 403)
    assert "storage roots" in err["message"]
    r = admin.request("POST", "/catalogs", json={"catalog": {
        "type": "INTERNAL", "name": f"host{tag}",
        "properties": {"default-base-location": "file:///etc"},
        "storageConfigInfo": {"storageType": "FILE"}}})
    error_of(r, 403)
    assert admin.get_catalog("default")["storageConfigInfo"] == current["storageConfigInfo"]
    assert_victim_intact(cat, victim, files)


def test_register_is_no_oracle_for_host_files(world):
    _, _, _, _, rest = world
    answers = set()
    for location in ("file:///etc/passwd", "file:///etc/no-such-file-here"):
        r = rest.call("POST", "/namespaces/att/register",
                      json={"name": "oracle", "metadata-location": location})
        err = error_of(r, 403)
        answers.add((r.status_code, err["type"], err["message"].replace(location, "<loc>")))
    assert len(answers) == 1, answers  # the same answer whether the file exists or not
    r = rest.call("POST", "/namespaces/att/register",
                  json={"name": "oracle", "metadata-location": "file:///etc/passwd/../shadow"})
    error_of(r, 403)


def test_register_cannot_carry_a_metadata_path_outside_the_catalog(world, tmp_path):
    srv, _, cat, victim, rest = world
    outside = tmp_path / "outside"
    outside.mkdir()
    # A table the attacker created, dropped (files kept): its location is free again.
    created = create_attacker_table(rest, "src")
    assert rest.call("DELETE", "/namespaces/att/tables/src").status_code == 204
    meta_file = local_path(created["metadata-location"])
    doc = json.loads(meta_file.read_text())
    doc["properties"]["write.metadata.path"] = outside.as_uri()
    crafted = meta_file.parent / "crafted.metadata.json"
    crafted.write_text(json.dumps(doc))
    r = rest.call("POST", "/namespaces/att/register",
                  json={"name": "escape", "metadata-location": crafted.as_uri()})
    error_of(r, 403)
    assert error_of(rest.call("GET", "/namespaces/att/tables/escape"), 404)
    assert list(outside.iterdir()) == [], "nothing may be written outside the catalog"
    # A crafted file elsewhere that describes somebody else's location is refused too.
    doc = json.loads(local_path(victim.metadata_location).read_text())
    planted = srv.catalog_dir / "att" / "planted.metadata.json"
    planted.write_text(json.dumps(doc))
    error_of(rest.call("POST", "/namespaces/att/register",
                       json={"name": "borrow", "metadata-location": planted.as_uri()}), 403, 400)


def test_one_table_cannot_have_two_owners(world, tmp_path):
    srv, admin, cat, victim, _ = world
    files = victim_files(victim)
    root = Rest(srv)  # the service admin: sees everything, so conflicts are named (409)
    # The same metadata file under a second name, in the same catalog.
    err = error_of(root.call("POST", "/namespaces/att/register",
                             json={"name": "twin", "metadata-location": victim.metadata_location}),
                   409)
    assert "victims.v" in err["message"]
    # A second catalog on the same base, around it, or inside it.
    base = srv.catalog_dir.as_uri()
    for i, location in enumerate([base, srv.warehouse_dir.as_uri(), f"{base}/victims",
                                  victim.location()]):
        r = admin.request("POST", "/catalogs", json={"catalog": {
            "type": "INTERNAL", "name": f"second{i}",
            "properties": {"default-base-location": location},
            "storageConfigInfo": {"storageType": "FILE"}}})
        error_of(r, 409)
    # A catalog beside it is fine, and cannot register the victim either.
    beside = srv.warehouse_dir / "beside"
    admin.create_catalog("beside", beside.as_uri())
    r = requests.post(f"{srv.uri}/v1/beside/namespaces", headers=root.headers, timeout=30,
                      json={"namespace": ["ns"]})
    assert r.status_code == 200, r.text
    r = requests.post(f"{srv.uri}/v1/beside/namespaces/ns/register", headers=root.headers,
                      timeout=30, json={"name": "twin", "metadata-location": victim.metadata_location})
    error_of(r, 403)  # outside that catalog's allowed locations
    # Tables on the same location, a parent or a child of another, in one catalog.
    for i, location in enumerate([victim.location(), victim.location() + "/child",
                                  f"{base}/victims"]):
        r = root.call("POST", "/namespaces/att/tables",
                      json={"name": f"overlap{i}", "schema": ICEBERG_SCHEMA, "location": location})
        error_of(r, 409)
    # Commits through the one owner still work; the victim has exactly one history.
    victim = cat.load_table("victims.v")
    victim.append(rows([4]))
    assert ids_of(cat.load_table("victims.v")) == [1, 2, 3, 4]
    assert all(f.exists() for f in files)


def test_purge_keeps_another_tables_files_even_where_locations_are_shared(world):
    """A service admin opts the catalog out of the one-owner rule (unsafe, documented): tables
    may then nest. Purging the outer one still deletes nothing the inner one owns."""
    srv, admin, cat, _, _ = world
    root = Rest(srv)
    current = admin.get_catalog("default")
    admin.ok("PUT", "/catalogs/default", json={
        "currentEntityVersion": current["entityVersion"],
        "properties": {**current["properties"], "firn.unsafe-shared-table-locations": "true"}})
    outer_location = srv.catalog_dir.as_uri() + "/shared/outer"
    r = root.call("POST", "/namespaces/att/tables",
                  json={"name": "outer", "schema": ICEBERG_SCHEMA, "location": outer_location})
    assert r.status_code == 200, r.text
    inner = cat.create_table("att.inner", schema=SCHEMA, location=outer_location + "/inner")
    inner.append(rows([7, 8]))
    inner = cat.load_table("att.inner")
    inner_files = referenced_files(inner) | {local_path(inner.metadata_location)}
    data_file = next(f for f in inner_files if f.suffix == ".parquet")
    snapshot = {"snapshot-id": 99, "sequence-number": 1, "timestamp-ms": 1700000000000,
                "manifest-list": data_file.as_uri(), "summary": {"operation": "append"},
                "schema-id": 0}
    stats = {"snapshot-id": 99, "statistics-path": local_path(inner.metadata_location).as_uri(),
             "file-size-in-bytes": 1, "file-footer-size-in-bytes": 1, "blob-metadata": []}
    r = root.commit("att", "outer", [{"action": "add-snapshot", "snapshot": snapshot},
                                     {"action": "set-statistics", "snapshot-id": 99,
                                      "statistics": stats}])
    assert r.status_code == 200, r.text
    assert root.call("DELETE", "/namespaces/att/tables/outer",
                     params={"purgeRequested": "true"}).status_code == 204
    assert expunge_dropped(srv) == 1
    missing = sorted(str(f) for f in inner_files if not f.exists())
    assert not missing, f"the inner table's files were purged: {missing}"
    assert ids_of(cat.load_table("att.inner")) == [7, 8]


def test_an_older_database_is_indexed_and_its_twins_reported(server_factory):
    """Data from before the location index: the same table registered twice (as an earlier
    build allowed). The next start indexes everything without refusing it, logs the overlap, and
    `firn admin locations` names the pair and exits 1 until one of the twins is dropped."""
    import os
    import sqlite3
    import subprocess

    srv = server_factory()
    cat = make_catalog(srv)
    cat.create_namespace("old")
    first = cat.create_table("old.first", schema=SCHEMA)
    cat.create_table("old.second", schema=SCHEMA)
    srv.stop()
    # Make the database look like an earlier build's: the second pointer names the first
    # table's metadata (a twin), and there is no location index yet.
    db = srv.data_dir / "firn.db"
    con = sqlite3.connect(db)
    con.execute("UPDATE objects SET metadata_location = ? WHERE name = 'second'",
                (first.metadata_location,))
    con.execute("DELETE FROM object_locations")
    con.execute("DELETE FROM store_settings")
    con.commit()
    con.close()
    srv.start()
    log = srv.log_path.read_text()
    assert "location index built for existing data" in log
    assert "existing locations overlap" in log
    firn = str(FIRN_BINARY)
    run = subprocess.run([firn, "admin", "locations", "--data-dir", str(srv.data_dir)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1, run.stderr
    lines = [json.loads(l) for l in run.stdout.splitlines()]
    pairs = [l for l in lines if "relation" in l]
    names = {frozenset((p["inner"].get("name"), p["outer"].get("name"))) for p in pairs}
    assert frozenset(("first", "second")) in names, lines
    assert lines[-1]["overlaps"] == len(pairs) >= 1
    # The twins cannot be committed through in a way that adds a third owner, and once one of
    # them is dropped (files kept) and forgotten the report is clean. While it is only dropped,
    # its locations stay held for an undrop (docs/soft-delete.md), and the overlap with them.
    r = Rest(srv).call("DELETE", "/namespaces/old/tables/second")
    assert r.status_code == 204, r.text
    held = subprocess.run([firn, "admin", "locations", "--data-dir", str(srv.data_dir)],
                          capture_output=True, text=True, timeout=60)
    assert held.returncode == 1, (held.stdout, held.stderr)
    assert expunge_dropped(srv) == 1
    run = subprocess.run([firn, "admin", "locations", "--data-dir", str(srv.data_dir)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, (run.stdout, run.stderr)
    assert json.loads(run.stdout.splitlines()[-1])["overlaps"] == 0
