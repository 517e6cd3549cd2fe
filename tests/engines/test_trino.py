"""Trino through Firn (issue 15, item 2; docs/engines.md, "Trino"): the Iceberg connector with
Firn as its REST catalog, logged in with OAuth2 client credentials. On a file:// warehouse and
on the S3 test bed with vended credentials (Trino holds no storage key), Trino creates a schema
and a v2 table, inserts, updates, deletes and merges, travels back in time by snapshot, keeps a
view in the catalog, and every change is a commit Firn recorded that PyIceberg reads back."""

from __future__ import annotations

import uuid

import pytest

import firn_auth

pytestmark = pytest.mark.trino

BACKENDS = ["file", "vended"]


def rows_of(trino, catalog: str, sql: str) -> list[tuple]:
    return [tuple(r) for r in trino.query(catalog, sql)]


@pytest.mark.parametrize("which", BACKENDS)
def test_trino_writes_updates_merges_and_time_travels_through_firn(trino, which, request):
    backend = request.getfixturevalue(f"{which}_backend")
    catalog = f"firn_{which}"
    if catalog not in trino.catalogs:
        pytest.fail(f"Trino has no catalog {catalog}")
    s = f"trino_{uuid.uuid4().hex[:8]}"
    q = lambda sql: rows_of(trino, catalog, sql)  # noqa: E731
    q(f"CREATE SCHEMA {s}")
    q(f"CREATE TABLE {s}.orders (id BIGINT, name VARCHAR, amount DOUBLE) "
      "WITH (format_version = 2)")
    q(f"INSERT INTO {s}.orders VALUES (1, 'a', 10.0), (2, 'b', 20.0), (3, 'c', 30.0)")
    [(first,)] = q(f'SELECT snapshot_id FROM {s}."orders$snapshots" '
                   "ORDER BY committed_at DESC LIMIT 1")
    q(f"UPDATE {s}.orders SET amount = amount * 2 WHERE id = 1")
    q(f"DELETE FROM {s}.orders WHERE id = 2")
    q(f"MERGE INTO {s}.orders t USING (VALUES (3, 'c2', 33.0), (4, 'd', 40.0)) "
      "AS m(id, name, amount) ON t.id = m.id "
      "WHEN MATCHED THEN UPDATE SET name = m.name, amount = m.amount "
      "WHEN NOT MATCHED THEN INSERT VALUES (m.id, m.name, m.amount)")
    final = [(1, "a", 20.0), (3, "c2", 33.0), (4, "d", 40.0)]
    assert q(f"SELECT id, name, amount FROM {s}.orders ORDER BY id") == final
    # Time travel to the first insert's snapshot, by id.
    assert q(f"SELECT id, amount FROM {s}.orders FOR VERSION AS OF {first} ORDER BY id") == \
        [(1, 10.0), (2, 20.0), (3, 30.0)]
    # A view kept in the catalog, read by Trino and listed by another client through Firn.
    q(f"CREATE VIEW {s}.big AS SELECT id, name FROM {s}.orders WHERE amount > 25")
    assert q(f"SELECT id, name FROM {s}.big ORDER BY id") == [(3, "c2"), (4, "d")]
    cat = backend.pyiceberg()
    assert (s, "big") in cat.list_views(s)
    # PyIceberg reads what Trino committed, through Firn: the same rows, the same history.
    tbl = cat.load_table(f"{s}.orders")
    got = sorted((r["id"], r["name"], r["amount"]) for r in tbl.scan().to_arrow().to_pylist())
    assert got == final
    snapshots = [snap.snapshot_id for snap in tbl.snapshots()]
    assert first in snapshots and len(snapshots) >= 4, snapshots
    # Every Trino commit was a compare-and-swap Firn recorded, with its pointer chain.
    audit = firn_auth.Management(backend.uri).ok(
        "GET", "/audit", params={"objectPrefix": f"table {s}.orders", "afterId": 0,
                                 "limit": 1000}).json()["entries"]
    commits = [e for e in audit if e["operation"] == "updateTable" and e["outcome"] == "success"]
    assert len(commits) >= 4, [e["operation"] for e in audit]
    for before, after in zip(commits, commits[1:]):
        assert after["oldLocation"] == before["newLocation"], "a gap in the metadata chain"
    assert commits[-1]["newLocation"] == tbl.metadata_location
    q(f"DROP VIEW {s}.big")
    q(f"DROP TABLE {s}.orders")
    q(f"DROP SCHEMA {s}")
    assert (s,) not in [tuple(n) for n in cat.list_namespaces()]


def test_trino_on_vended_credentials_holds_no_storage_key(trino, request):
    if "firn_vended" not in trino.catalogs:
        pytest.fail("Trino has no vended catalog (no S3 test bed)")
    vended = request.getfixturevalue("vended_backend")
    props = trino.catalogs["firn_vended"]
    assert not [k for k in props if "access-key" in k or "secret" in k], props
    assert vended.s3.secret_key not in (trino.work / "etc").joinpath(
        "catalog/firn_vended.properties").read_text()
    s = f"trino_v_{uuid.uuid4().hex[:8]}"
    rows_of(trino, "firn_vended", f"CREATE SCHEMA {s}")
    rows_of(trino, "firn_vended", f"CREATE TABLE {s}.t AS SELECT 7 AS x")
    assert rows_of(trino, "firn_vended", f"SELECT x FROM {s}.t") == [(7,)]
    assert vended.s3.secret_key not in vended.server.log_path.read_text()
    rows_of(trino, "firn_vended", f"DROP TABLE {s}.t")
    rows_of(trino, "firn_vended", f"DROP SCHEMA {s}")
