"""Spark 4.0.1 with Iceberg 1.10.1's SparkCatalog (type rest) against Firn, on file:// and s3://.

One Spark session serves the whole run (conftest `spark`); each test keeps its data tiny.
"""

from __future__ import annotations

import os
import time
import uuid
from datetime import datetime, timedelta

import pyarrow as pa
from conftest import CATALOG_NAME, expunge_dropped
from engines_util import duckdb_rows, pyiceberg_rows, snapshot_chain, spark_rows

MOR = (
    "'format-version'='2', 'write.delete.mode'='merge-on-read', "
    "'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read'"
)


def test_spark_dml_read_back_by_spark_pyiceberg_and_duckdb(backend, spark, ns):
    c = backend.spark_catalog(spark)
    t = f"{c}.{ns}.orders"
    spark.sql(f"CREATE TABLE {t} (id BIGINT, item STRING, qty INT) USING iceberg TBLPROPERTIES ({MOR})")
    spark.sql(f"INSERT INTO {t} VALUES (1, 'apple', 1), (2, 'pear', 2), (3, 'fig', 3), (4, 'kiwi', 4)")
    spark.sql(
        f"""MERGE INTO {t} t
            USING (SELECT 1L AS id, 'apple' AS item, 10 AS qty UNION ALL SELECT 5L, 'lime', 5) s
            ON t.id = s.id
            WHEN MATCHED THEN UPDATE SET t.qty = s.qty
            WHEN NOT MATCHED THEN INSERT *"""
    )
    spark.sql(f"UPDATE {t} SET item = 'PEAR' WHERE id = 2")
    spark.sql(f"DELETE FROM {t} WHERE id = 3")

    want = [(1, "apple", 10), (2, "PEAR", 2), (4, "kiwi", 4), (5, "lime", 5)]
    assert spark_rows(spark, f"SELECT id, item, qty FROM {t}") == want
    assert pyiceberg_rows(backend.pyiceberg(), f"{ns}.orders", ["id", "item", "qty"]) == want
    assert duckdb_rows(backend.duckdb(), f"SELECT id, item, qty FROM ice.{ns}.orders") == want

    meta = backend.load_table_json(ns, "orders")["metadata"]
    ops = [s["summary"]["operation"] for s in snapshot_chain(meta)]
    assert ops[0] == "append" and len(ops) == len(meta["snapshots"]) == 4
    # merge-on-read really wrote delete files, which the other engines honoured above.
    deletes = spark.sql(f"SELECT count(*) FROM {t}.delete_files").collect()[0][0]
    assert deletes >= 1


def test_spark_schema_and_partition_evolution(backend, spark, ns):
    c = backend.spark_catalog(spark)
    t = f"{c}.{ns}.events"
    spark.sql(f"CREATE TABLE {t} (id BIGINT, kind STRING) USING iceberg")
    spark.sql(f"INSERT INTO {t} VALUES (1, 'a'), (2, 'b')")
    spark.sql(f"ALTER TABLE {t} ADD COLUMN weight DOUBLE")
    spark.sql(f"ALTER TABLE {t} ADD PARTITION FIELD kind")
    spark.sql(f"ALTER TABLE {t} ADD PARTITION FIELD bucket(4, id) AS id_bucket")
    spark.sql(f"INSERT INTO {t} VALUES (3, 'a', 0.5), (4, 'c', 1.5), (5, 'c', 2.5)")

    want = [(1, "a", None), (2, "b", None), (3, "a", 0.5), (4, "c", 1.5), (5, "c", 2.5)]
    assert spark_rows(spark, f"SELECT id, kind, weight FROM {t}") == want
    assert spark_rows(spark, f"SELECT id FROM {t} WHERE kind = 'c'") == [(4,), (5,)]

    tbl = backend.pyiceberg().load_table(f"{ns}.events")
    assert [f.name for f in tbl.schema().fields] == ["id", "kind", "weight"]
    assert len(tbl.specs()) == 3  # unpartitioned, +kind, +id_bucket
    assert [(f.name, str(f.transform)) for f in tbl.spec().fields] == [
        ("kind", "identity"),
        ("id_bucket", "bucket[4]"),
    ]
    # Old files keep spec 0, new ones are written with the evolved spec.
    specs = spark_rows(spark, f"SELECT DISTINCT spec_id FROM {t}.files")
    assert specs == [(0,), (tbl.spec().spec_id,)]
    assert pyiceberg_rows(backend.pyiceberg(), f"{ns}.events", ["id", "kind", "weight"]) == want
    assert duckdb_rows(backend.duckdb(), f"SELECT id, kind, weight FROM ice.{ns}.events") == want


def test_spark_branches_and_tags(backend, spark, ns):
    c = backend.spark_catalog(spark)
    t = f"{c}.{ns}.refs"
    spark.sql(f"CREATE TABLE {t} (id BIGINT) USING iceberg")
    spark.sql(f"INSERT INTO {t} VALUES (1), (2)")
    spark.sql(f"ALTER TABLE {t} CREATE TAG v1")
    spark.sql(f"ALTER TABLE {t} CREATE BRANCH dev")
    spark.sql(f"INSERT INTO {t}.branch_dev VALUES (3)")
    spark.sql(f"INSERT INTO {t} VALUES (4)")

    assert spark_rows(spark, f"SELECT id FROM {t}") == [(1,), (2,), (4,)]
    assert spark_rows(spark, f"SELECT id FROM {t} VERSION AS OF 'dev'") == [(1,), (2,), (3,)]
    assert spark_rows(spark, f"SELECT id FROM {t} VERSION AS OF 'v1'") == [(1,), (2,)]

    meta = backend.load_table_json(ns, "refs")["metadata"]
    refs = meta["refs"]
    assert {k: v["type"] for k, v in refs.items()} == {"main": "branch", "dev": "branch", "v1": "tag"}
    assert refs["main"]["snapshot-id"] == meta["current-snapshot-id"]
    by_id = {s["snapshot-id"]: s for s in meta["snapshots"]}
    # dev and main both grew from the tagged snapshot.
    assert by_id[refs["dev"]["snapshot-id"]]["parent-snapshot-id"] == refs["v1"]["snapshot-id"]
    assert by_id[refs["main"]["snapshot-id"]]["parent-snapshot-id"] == refs["v1"]["snapshot-id"]

    # PyIceberg reads the branch by its ref through Firn's metadata.
    tbl = backend.pyiceberg().load_table(f"{ns}.refs")
    dev_ids = tbl.scan(snapshot_id=tbl.metadata.refs["dev"].snapshot_id).to_arrow()["id"].to_pylist()
    assert sorted(dev_ids) == [1, 2, 3]


def _orphan_path(location: str) -> str:
    return f"{location.rstrip('/')}/data/orphan-{uuid.uuid4().hex}.parquet"


def test_spark_maintenance_procedures(backend, spark, ns):
    c = backend.spark_catalog(spark)
    t = f"{c}.{ns}.maint"
    spark.sql(f"CREATE TABLE {t} (id BIGINT, s STRING) USING iceberg")
    for i in range(4):  # four commits, four small files
        spark.sql(f"INSERT INTO {t} VALUES ({i}, 's{i}')")
    want = [(i, f"s{i}") for i in range(4)]

    r = spark.sql(
        f"CALL {c}.system.rewrite_data_files(table => '{ns}.maint', "
        "options => map('min-input-files', '2'))"
    ).collect()[0]
    assert (r.rewritten_data_files_count, r.added_data_files_count) == (4, 1)
    assert spark_rows(spark, f"SELECT id, s FROM {t}") == want

    r = spark.sql(
        f"CALL {c}.system.expire_snapshots(table => '{ns}.maint', "
        "older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)"
    ).collect()[0]
    assert r.deleted_data_files_count == 4
    meta = backend.load_table_json(ns, "maint")["metadata"]
    assert len(meta["snapshots"]) == 1
    assert meta["snapshots"][0]["summary"]["operation"] == "replace"
    assert len(snapshot_chain(meta)) == 1

    tbl = backend.pyiceberg().load_table(f"{ns}.maint")
    orphan = _orphan_path(tbl.location())
    with tbl.io.new_output(orphan).create() as f:
        f.write(b"not referenced by any snapshot")
    if backend.name == "file":
        # The procedure refuses cut-offs under 24 h; back-date the orphan instead.
        old = time.time() - 5 * 86400
        os.utime(orphan.removeprefix("file://"), (old, old))
        cutoff = datetime.now() - timedelta(days=2)
        r = spark.sql(
            f"CALL {c}.system.remove_orphan_files(table => '{ns}.maint', "
            f"older_than => TIMESTAMP '{cutoff:%Y-%m-%d %H:%M:%S}')"
        ).collect()
        removed = [row.orphan_file_location for row in r]
        assert len(removed) == 1 and removed[0].endswith(orphan.rsplit("/", 1)[1])
        assert not tbl.io.new_input(orphan).exists()
    else:
        # An object store cannot back-date: list the table's prefix through S3FileIO (Hadoop
        # has no s3 filesystem here; dry run, minimum cut-off) and check that the fresh orphan
        # is left alone.
        cutoff = datetime.now() - timedelta(hours=25)
        r = spark.sql(
            f"CALL {c}.system.remove_orphan_files(table => '{ns}.maint', "
            f"older_than => TIMESTAMP '{cutoff:%Y-%m-%d %H:%M:%S}', dry_run => true, "
            "prefix_listing => true)"
        ).collect()
        assert r == []
        assert tbl.io.new_input(orphan).exists()
    assert spark_rows(spark, f"SELECT id, s FROM {t}") == want
    assert pyiceberg_rows(backend.pyiceberg(), f"{ns}.maint", ["id", "s"]) == want


def test_spark_reads_and_extends_pyiceberg_and_duckdb_tables(backend, spark, ns):
    c = backend.spark_catalog(spark)
    cat = backend.pyiceberg()
    schema = pa.schema([("id", pa.int64()), ("name", pa.string())])
    py_tbl = cat.create_table(f"{ns}.by_pyiceberg", schema=schema)
    py_tbl.append(pa.table({"id": [1, 2, 3], "name": ["a", "b", "c"]}, schema))
    py_tbl.delete("id = 2")

    con = backend.duckdb()
    con.execute(f"CREATE TABLE ice.{ns}.by_duckdb (id BIGINT, name VARCHAR)")
    con.execute(f"INSERT INTO ice.{ns}.by_duckdb VALUES (10, 'x'), (11, 'y'), (12, 'z')")
    con.execute(f"UPDATE ice.{ns}.by_duckdb SET name = 'Y' WHERE id = 11")
    con.execute(f"DELETE FROM ice.{ns}.by_duckdb WHERE id = 12")

    assert spark_rows(spark, f"SELECT id, name FROM {c}.{ns}.by_pyiceberg") == [(1, "a"), (3, "c")]
    assert spark_rows(spark, f"SELECT id, name FROM {c}.{ns}.by_duckdb") == [(10, "x"), (11, "Y")]

    # Spark commits on top of DuckDB's history; DuckDB and PyIceberg see it.
    spark.sql(f"INSERT INTO {c}.{ns}.by_duckdb VALUES (13, 'spark')")
    want = [(10, "x"), (11, "Y"), (13, "spark")]
    assert duckdb_rows(con, f"SELECT id, name FROM ice.{ns}.by_duckdb") == want
    assert pyiceberg_rows(cat, f"{ns}.by_duckdb", ["id", "name"]) == want


def test_spark_ctas_rtas_rename_and_views(backend, spark, ns):
    c = backend.spark_catalog(spark)
    cat = backend.pyiceberg()
    # CTAS and RTAS go through staged create / replace transactions.
    spark.sql(f"CREATE TABLE {c}.{ns}.ctas USING iceberg AS SELECT id, CAST(id AS STRING) AS s FROM range(5)")
    assert spark_rows(spark, f"SELECT id, s FROM {c}.{ns}.ctas") == [(i, str(i)) for i in range(5)]
    # The replacement drops column s: allowed because the replace itself sets `spec` (Firn's
    # default schema-evolution policy refuses drops; docs/schema-policy.md).
    spark.sql(f"REPLACE TABLE {c}.{ns}.ctas USING iceberg "
              "TBLPROPERTIES ('firn.schema-evolution' = 'spec') AS SELECT id * 10 AS id FROM range(3)")
    assert pyiceberg_rows(cat, f"{ns}.ctas", ["id"]) == [(0,), (10,), (20,)]
    meta = backend.load_table_json(ns, "ctas")["metadata"]
    assert [f["name"] for f in meta["schemas"][meta["current-schema-id"]]["fields"]] == ["id"]
    assert len(meta["snapshots"]) == 2  # the replaced history is kept, main starts afresh
    assert snapshot_chain(meta)[0].get("parent-snapshot-id") is None

    spark.sql(f"ALTER TABLE {c}.{ns}.ctas RENAME TO {ns}.renamed")
    assert not cat.table_exists(f"{ns}.ctas")
    assert duckdb_rows(backend.duckdb(), f"SELECT id FROM ice.{ns}.renamed") == [(0,), (10,), (20,)]

    spark.sql(f"CREATE VIEW {c}.{ns}.big AS SELECT id FROM {c}.{ns}.renamed WHERE id > 0")
    assert spark_rows(spark, f"SELECT id FROM {c}.{ns}.big") == [(10,), (20,)]
    assert (ns, "big") in cat.list_views(ns)
    spark.sql(f"DROP VIEW {c}.{ns}.big")
    assert (ns, "big") not in cat.list_views(ns)

    location = cat.load_table(f"{ns}.renamed").location()
    spark.sql(f"DROP TABLE {c}.{ns}.renamed PURGE")
    assert not cat.table_exists(f"{ns}.renamed")
    if backend.name == "file":  # purgeRequested: Firn deletes the table's files
        # ... when the dropped table's retention ends (docs/soft-delete.md): here, at once.
        assert os.path.isdir(location.removeprefix("file://"))
        assert expunge_dropped(backend.server, CATALOG_NAME) >= 1
        left = [f for _, _, fs in os.walk(location.removeprefix("file://")) for f in fs]
        assert left == []
