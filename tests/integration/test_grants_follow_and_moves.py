"""Grants follow their object, and a table moves between two catalogs of one deployment in one
step (issue 12, items 3 and 4; docs/authorization.md "Grants follow their object",
docs/moves.md "Within one deployment").

Played as the attacks and accidents they prevent: a principal who was granted one table
reading whatever new table takes its dropped name; a rename that strands a reader's grant on
an empty name another table later takes; a content manager of one catalog pulling another
catalog's table into hers; a catalog deleted while it still holds a moved table's files.
"""
from __future__ import annotations

import json
import subprocess
import uuid

import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import ForbiddenError, NoSuchTableError

import firn_auth
from conftest import FIRN_BINARY
from firn_auth import Management
from helpers import SCHEMA, ids_of, local_path, make_catalogs, referenced_files, rows

pytestmark = pytest.mark.firn_only


@pytest.fixture
def two_catalogs(server_factory, tmp_path):
    """A server with catalogs src and dst (disjoint bases) and a writer on src."""
    srv = server_factory()
    admin = Management(srv.uri)
    tag = uuid.uuid4().hex[:6]
    names = {side: f"{side}_{tag}" for side in ("src", "dst")}
    make_catalogs(admin, tmp_path, names)
    return srv, admin, names, tag


def catalog_as(srv, warehouse: str, creds=None) -> RestCatalog:
    return RestCatalog("c", uri=srv.uri, warehouse=warehouse,
                       **firn_auth.pyiceberg_auth_properties(srv.uri, creds))


def move(admin: Management, catalog: str, ns: str, table: str, body: dict,
         kind: str = "tables") -> requests.Response:
    return admin.request("POST", f"/catalogs/{catalog}/namespaces/{ns}/{kind}/{table}/move",
                         json=body)


def test_grants_follow_a_rename_and_never_pass_to_a_new_table_of_the_old_name(two_catalogs):
    srv, admin, names, tag = two_catalogs
    src = names["src"]
    owner = catalog_as(srv, src)
    owner.create_namespace("db")
    t = owner.create_table("db.salaries", schema=SCHEMA)
    t.append(rows([1, 2, 3]))
    reader = admin.principal_with(f"reader_{tag}", src,
                                  [("TABLE_READ_DATA", ["db"], "salaries", None),
                                   ("TABLE_READ_PROPERTIES", ["db"], "salaries", None)])
    as_reader = catalog_as(srv, src, reader.creds)
    assert ids_of(as_reader.load_table("db.salaries").scan()) == [1, 2, 3]

    owner.rename_table("db.salaries", "db.salaries_2025")
    # The grant went with the table...
    assert ids_of(as_reader.load_table("db.salaries_2025").scan()) == [1, 2, 3]
    grants = admin.grants(src, f"reader_{tag}_cr")
    assert {g.get("tableName") for g in grants} == {"salaries_2025"}, grants
    # ...so the next table called "salaries" is not the reader's to see.
    owner.create_table("db.salaries", schema=SCHEMA).append(rows([99]))
    with pytest.raises(ForbiddenError):
        as_reader.load_table("db.salaries")


def test_a_dropped_tables_grants_go_with_it_and_come_back_with_an_undrop(two_catalogs):
    srv, admin, names, tag = two_catalogs
    src = names["src"]
    owner = catalog_as(srv, src)
    owner.create_namespace("db")
    owner.create_table("db.orders", schema=SCHEMA).append(rows([1]))
    reader = admin.principal_with(f"reader_{tag}", src,
                                  [("TABLE_READ_DATA", ["db"], "orders", None),
                                   ("TABLE_READ_PROPERTIES", ["db"], "orders", None)])
    as_reader = catalog_as(srv, src, reader.creds)
    assert ids_of(as_reader.load_table("db.orders").scan()) == [1]

    owner.drop_table("db.orders")
    assert admin.grants(src, f"reader_{tag}_cr") == []
    # A new table under the dropped name: none of the old grants reach it.
    owner.create_table("db.orders", schema=SCHEMA).append(rows([666]))
    with pytest.raises(ForbiddenError):
        as_reader.load_table("db.orders")

    [dropped] = admin.ok("GET", f"/catalogs/{src}/dropped-objects").json()["droppedObjects"]
    r = admin.request("POST", f"/catalogs/{src}/dropped-objects/{dropped['id']}/undrop",
                      json={"target": {"namespace": ["db"], "name": "orders_restored"}})
    assert r.status_code == 200, r.text
    # The grants came back on the name it was restored to, and only there.
    assert ids_of(as_reader.load_table("db.orders_restored").scan()) == [1]
    with pytest.raises(ForbiddenError):
        as_reader.load_table("db.orders")
    grants = admin.grants(src, f"reader_{tag}_cr")
    assert {g.get("tableName") for g in grants} == {"orders_restored"}, grants


def test_a_dropped_namespaces_grants_do_not_pass_to_its_successor(two_catalogs):
    srv, admin, names, tag = two_catalogs
    src = names["src"]
    owner = catalog_as(srv, src)
    owner.create_namespace("team")
    lister = admin.principal_with(f"lister_{tag}", src,
                                  [("NAMESPACE_READ_PROPERTIES", ["team"], None, None)])
    as_lister = catalog_as(srv, src, lister.creds)
    assert as_lister.load_namespace_properties("team") is not None
    owner.drop_namespace("team")
    owner.create_namespace("team")
    with pytest.raises(ForbiddenError):
        as_lister.load_namespace_properties("team")


def test_a_table_moves_to_another_catalog_with_its_history_and_stays_writable(two_catalogs):
    srv, admin, names, tag = two_catalogs
    src, dst = names["src"], names["dst"]
    a = catalog_as(srv, src)
    a.create_namespace("db")
    t = a.create_table("db.events", schema=SCHEMA)
    t.append(rows([1, 2]))
    t.append(rows([3]))
    t = a.load_table("db.events")
    history = [s.snapshot_id for s in t.snapshots()]
    files = referenced_files(t)
    reader = admin.principal_with(f"reader_{tag}", src,
                                  [("TABLE_READ_DATA", ["db"], "events", None)])
    b = catalog_as(srv, dst)
    b.create_namespace("lake")

    r = move(admin, src, "db", "events", {"toCatalog": dst, "toNamespace": ["lake"]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["from"] == {"catalog": src, "namespace": ["db"], "name": "events"}
    assert body["to"] == {"catalog": dst, "namespace": ["lake"], "name": "events"}
    assert body["metadataLocation"] == t.metadata_location

    # Gone from the source, whole in the target: same file, same snapshots, same rows.
    with pytest.raises(NoSuchTableError):
        a.load_table("db.events")
    moved = b.load_table("lake.events")
    assert moved.metadata_location == t.metadata_location
    assert [s.snapshot_id for s in moved.snapshots()] == history
    assert sorted(ids_of(moved.scan())) == [1, 2, 3]
    # Its grants stayed behind with the source's roles.
    assert admin.grants(src, f"reader_{tag}_cr") == []

    # It keeps committing in the target, beside its files in the source's storage.
    moved.append(rows([4]))
    moved = b.load_table("lake.events")
    assert sorted(ids_of(moved.scan())) == [1, 2, 3, 4]
    assert local_path(moved.metadata_location).is_relative_to(local_path(t.location()))
    audit = admin.ok("GET", "/audit", params={"limit": 1000}).json()
    entries = next(v for v in audit.values() if isinstance(v, list))
    moves = [e for e in entries if e["operation"] == "moveTable"]
    assert {e["catalog"] for e in moves} == {src, dst}, moves

    # The source catalog cannot be deleted from under it, nor can its tables take its place.
    for ns in a.list_namespaces():
        a.drop_namespace(ns)
    r = admin.request("DELETE", f"/catalogs/{src}")
    assert r.status_code == 409, r.text
    assert "holds the files of" in r.text
    a.create_namespace("db")
    squat = requests.post(
        f"{srv.uri}/v1/{src}/namespaces/db/tables", headers=firn_auth.auth_headers(srv.uri),
        json={"name": "squatter", "location": t.location() + "/inner",
              "schema": {"type": "struct", "schema-id": 0, "fields": [
                  {"id": 1, "name": "id", "type": "long", "required": False}]}}, timeout=30)
    assert squat.status_code in (403, 409), squat.text

    # A purge in the target deletes exactly the table's files, from the source's storage.
    expected = files | referenced_files(moved)
    b.purge_table("lake.events")
    mgmt_dropped = admin.ok("GET", f"/catalogs/{dst}/dropped-objects").json()["droppedObjects"]
    for d in mgmt_dropped:
        admin.ok("DELETE", f"/catalogs/{dst}/dropped-objects/{d['id']}", expect=(204,))
    assert not any(f.exists() for f in expected), "a moved table's purge kept its files"


def test_moving_needs_content_management_of_both_catalogs(two_catalogs):
    srv, admin, names, tag = two_catalogs
    src, dst = names["src"], names["dst"]
    a = catalog_as(srv, src)
    a.create_namespace("db")
    a.create_table("db.secret", schema=SCHEMA).append(rows([7]))
    catalog_as(srv, dst).create_namespace("db")
    # She manages the target only: pulling another catalog's table into hers is refused.
    thief = admin.principal_with(f"thief_{tag}", dst, [("CATALOG_MANAGE_CONTENT", None, None, None)])
    as_thief = Management(srv.uri, thief.creds)
    r = move(as_thief, src, "db", "secret", {"toCatalog": dst})
    assert r.status_code == 403, r.text
    # He manages the source only: pushing its table into a catalog he does not manage is too.
    pusher = admin.principal_with(f"pusher_{tag}", src, [("CATALOG_MANAGE_CONTENT", None, None, None)])
    as_pusher = Management(srv.uri, pusher.creds)
    r = move(as_pusher, src, "db", "secret", {"toCatalog": dst})
    assert r.status_code == 403, r.text
    # ...and a catalog that does not exist is refused the same way, not revealed as missing.
    r = move(as_pusher, src, "db", "secret", {"toCatalog": "no_such_catalog"})
    assert r.status_code == 403, r.text
    assert ids_of(a.load_table("db.secret").scan()) == [7]


def test_hostile_or_impossible_moves_are_clear_4xx_and_lose_nothing(two_catalogs):
    srv, admin, names, tag = two_catalogs
    src, dst = names["src"], names["dst"]
    a = catalog_as(srv, src)
    a.create_namespace("db")
    t = a.create_table("db.t", schema=SCHEMA)
    t.append(rows([1]))
    b = catalog_as(srv, dst)
    b.create_namespace("db")
    b.create_table("db.taken", schema=SCHEMA)
    cases = [
        ({}, 400),
        ({"toCatalog": 5}, 400),
        ({"toCatalog": dst, "toNamespace": "db"}, 400),
        ({"toCatalog": dst, "toNamespace": [1]}, 400),
        ({"toCatalog": dst, "surprise": True}, 400),
        ({"toCatalog": src}, 400),                              # same catalog: a rename
        ({"toCatalog": dst, "toName": "bad\x00name"}, 400),
        ({"toCatalog": dst, "toName": "taken"}, 409),
        ({"toCatalog": dst, "toNamespace": ["missing"]}, 404),
        # Authorised by name first: a catalog nobody manages, missing or not, is a 403.
        ({"toCatalog": "no_such_catalog"}, 403),
    ]
    for body, status in cases:
        r = move(admin, src, "db", "t", body)
        assert r.status_code == status, (body, r.status_code, r.text)
        assert r.json()["error"]["code"] == status
    r = admin.request("POST", f"/catalogs/{src}/namespaces/db/tables/t/move", data=b"{not json")
    assert r.status_code == 400, r.text
    assert move(admin, src, "db", "nope", {"toCatalog": dst}).status_code == 404
    assert ids_of(a.load_table("db.t").scan()) == [1]


def test_firn_admin_move_table_moves_while_the_server_serves(two_catalogs):
    srv, admin, names, tag = two_catalogs
    src, dst = names["src"], names["dst"]
    a = catalog_as(srv, src)
    a.create_namespace("db")
    a.create_table("db.t", schema=SCHEMA).append(rows([5, 6]))
    b = catalog_as(srv, dst)
    b.create_namespace("x")

    def admin_move(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(FIRN_BINARY), "admin", "move-table", *args,
                               "--data-dir", str(srv.data_dir)],
                              capture_output=True, text=True, timeout=60)

    bad = admin_move("--table", "t", "--to-catalog", dst)
    assert bad.returncode == 2 and "ns.table" in bad.stderr, bad.stderr
    missing = admin_move("--catalog", src, "--table", "db.nope", "--to-catalog", dst)
    assert missing.returncode == 1, missing.stderr
    done = admin_move("--catalog", src, "--table", "db.t", "--to-catalog", dst, "--to", "x.t2")
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout)
    assert line["to"] == {"catalog": dst, "namespace": ["x"], "name": "t2"}
    # The running server serves it from the target at once, and commits there.
    moved = b.load_table("x.t2")
    assert sorted(ids_of(moved.scan())) == [5, 6]
    moved.append(rows([7]))
    assert sorted(ids_of(b.load_table("x.t2").scan())) == [5, 6, 7]
    with pytest.raises(NoSuchTableError):
        a.load_table("db.t")
