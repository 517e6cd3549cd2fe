"""DuckDB 1.5.5 (iceberg extension over REST) against Firn, on file:// and s3:// warehouses."""

from __future__ import annotations

import uuid

import pyarrow as pa
import pytest
from engines_util import duckdb_rows, pyiceberg_rows, snapshot_chain


def test_duckdb_ddl_and_dml_read_back_by_duckdb_and_pyiceberg(backend):
    schema = f"duck_{uuid.uuid4().hex[:8]}"
    con = backend.duckdb()
    cat = backend.pyiceberg()

    con.execute(f"CREATE SCHEMA ice.{schema}")
    assert (schema,) in cat.list_namespaces()

    t = f"ice.{schema}.people"
    con.execute(f"CREATE TABLE {t} (id BIGINT, name VARCHAR)")
    con.execute(f"INSERT INTO {t} VALUES (1, 'ann'), (2, 'bob'), (3, 'cid'), (4, 'dee')")
    assert con.execute(f"UPDATE {t} SET name = 'BOB' WHERE id = 2").fetchone() == (1,)
    assert con.execute(f"DELETE FROM {t} WHERE id = 3").fetchone() == (1,)
    merged = con.execute(
        f"""MERGE INTO {t} AS t
            USING (SELECT * FROM (VALUES (1, 'ANN'), (5, 'eve')) v(id, name)) AS s
            ON t.id = s.id
            WHEN MATCHED THEN UPDATE SET name = s.name
            WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.name)"""
    ).fetchone()
    assert merged == (2,)
    con.execute(f"ALTER TABLE {t} ADD COLUMN score INTEGER")
    con.execute(f"INSERT INTO {t} VALUES (6, 'fay', 60)")

    want = [(1, "ANN", None), (2, "BOB", None), (4, "dee", None), (5, "eve", None), (6, "fay", 60)]
    assert duckdb_rows(con, f"SELECT id, name, score FROM {t}") == want
    # A second, fresh DuckDB sees the same committed state.
    assert duckdb_rows(backend.duckdb(), f"SELECT id, name, score FROM {t}") == want
    # PyIceberg reads what DuckDB wrote, delete files included.
    assert pyiceberg_rows(cat, f"{schema}.people", ["id", "name", "score"]) == want

    # Five data statements (insert, update, delete, merge, insert; DuckDB's MERGE commits a
    # delete and an append): one linear history in Firn, every snapshot on it.
    meta = backend.load_table_json(schema, "people")["metadata"]
    chain = snapshot_chain(meta)
    assert len(chain) == len(meta["snapshots"]) >= 5
    assert [f["name"] for f in meta["schemas"][-1]["fields"]] == ["id", "name", "score"]

    con.execute(f"DROP TABLE {t}")
    assert not cat.table_exists(f"{schema}.people")
    con.execute(f"DROP SCHEMA ice.{schema}")
    assert (schema,) not in cat.list_namespaces()


def test_duckdb_reads_pyiceberg_table_and_its_history(backend, ns):
    cat = backend.pyiceberg()
    arrow_schema = pa.schema([("id", pa.int64()), ("name", pa.string()), ("v", pa.float64())])
    tbl = cat.create_table(f"{ns}.from_pyiceberg", schema=arrow_schema)
    tbl.append(pa.table({"id": [1, 2, 3], "name": ["a", "b", "c"], "v": [1.5, 2.5, 3.5]}, arrow_schema))
    first = tbl.current_snapshot().snapshot_id
    tbl.append(pa.table({"id": [4], "name": ["d"], "v": [4.5]}, arrow_schema))
    tbl.delete("id = 2")

    con = backend.duckdb()
    got = duckdb_rows(con, f"SELECT id, name, v FROM ice.{ns}.from_pyiceberg")
    assert got == [(1, "a", 1.5), (3, "c", 3.5), (4, "d", 4.5)]
    # Time travel to PyIceberg's first snapshot.
    old = duckdb_rows(con, f"SELECT id FROM ice.{ns}.from_pyiceberg AT (VERSION => {first})")
    assert old == [(1,), (2,), (3,)]
    snaps = con.execute(f"SELECT snapshot_id FROM iceberg_snapshots(ice.{ns}.from_pyiceberg)").fetchall()
    assert {s for (s,) in snaps} == {s.snapshot_id for s in cat.load_table(f"{ns}.from_pyiceberg").snapshots()}


def test_pyiceberg_reads_duckdb_table_and_duckdb_sees_pyiceberg_appends(backend, ns):
    con = backend.duckdb()
    t = f"ice.{ns}.from_duckdb"
    con.execute(f"CREATE TABLE {t} (id BIGINT, tag VARCHAR)")
    con.execute(f"INSERT INTO {t} SELECT i, 'r' || i FROM range(100) t(i)")
    con.execute(f"UPDATE {t} SET tag = 'even' WHERE id % 2 = 0")
    con.execute(f"DELETE FROM {t} WHERE id >= 90")

    cat = backend.pyiceberg()
    want = sorted((i, "even" if i % 2 == 0 else f"r{i}") for i in range(90))
    assert pyiceberg_rows(cat, f"{ns}.from_duckdb", ["id", "tag"]) == want

    tbl = cat.load_table(f"{ns}.from_duckdb")
    tbl.append(pa.table({"id": pa.array([500], pa.int64()), "tag": ["py"]}))
    # The same DuckDB connection picks up the commit PyIceberg made after it last read.
    assert con.execute(f"SELECT count(*), max(id) FROM {t}").fetchone() == (91, 500)
    assert con.execute(f"SELECT tag FROM {t} WHERE id = 500").fetchone() == ("py",)
