"""Table lifecycle through PyIceberg: create, append, overwrite, row-level delete."""

from __future__ import annotations

import pyarrow as pa
from pyiceberg.expressions import EqualTo

from helpers import SCHEMA, ids_of, local_path, rows


def test_create_namespace_and_table(catalog, ns, server):
    assert (ns,) in catalog.list_namespaces()
    assert catalog.load_namespace_properties(ns) is not None

    tbl = catalog.create_table(f"{ns}.events", schema=SCHEMA, properties={"owner": "harness"})

    assert catalog.table_exists(f"{ns}.events")
    assert (ns, "events") in catalog.list_tables(ns)
    loaded = catalog.load_table(f"{ns}.events")
    assert [f.name for f in loaded.schema().fields] == ["id", "name"]
    assert loaded.properties.get("owner") == "harness"
    assert loaded.metadata.table_uuid == tbl.metadata.table_uuid
    assert loaded.current_snapshot() is None
    assert ids_of(loaded) == []
    # The metadata file exists in the server's file:// warehouse.
    meta = local_path(loaded.metadata_location)
    assert meta.is_file()
    assert server.warehouse_dir in meta.parents


def test_append(catalog, ns):
    tbl = catalog.create_table(f"{ns}.t", schema=SCHEMA)
    tbl.append(rows([1, 2, 3]))
    tbl.append(rows([4, 5]))

    tbl = catalog.load_table(f"{ns}.t")
    assert ids_of(tbl) == [1, 2, 3, 4, 5]
    assert len(tbl.snapshots()) == 2
    first, second = tbl.snapshots()
    assert second.parent_snapshot_id == first.snapshot_id
    assert tbl.current_snapshot().snapshot_id == second.snapshot_id
    assert second.summary.operation.value == "append"
    assert second.summary["total-records"] == "5"


def test_overwrite(catalog, ns):
    tbl = catalog.create_table(f"{ns}.t", schema=SCHEMA)
    tbl.append(rows([1, 2, 3]))
    tbl.overwrite(rows([10, 11]))

    tbl = catalog.load_table(f"{ns}.t")
    assert ids_of(tbl) == [10, 11]
    assert tbl.current_snapshot().summary.operation.value in ("overwrite", "append")
    # Overwrite with a filter replaces only the matching rows.
    tbl.overwrite(rows([20]), overwrite_filter=EqualTo("id", 10))
    tbl = catalog.load_table(f"{ns}.t")
    assert ids_of(tbl) == [11, 20]


def test_row_delete(catalog, ns):
    tbl = catalog.create_table(f"{ns}.t", schema=SCHEMA)
    tbl.append(rows(range(1, 11)))
    before = tbl.current_snapshot().snapshot_id

    tbl.delete("id >= 4 and id <= 7")

    tbl = catalog.load_table(f"{ns}.t")
    assert ids_of(tbl) == [1, 2, 3, 8, 9, 10]
    assert tbl.current_snapshot().parent_snapshot_id == before
    # The pre-delete snapshot still has all rows.
    assert ids_of(tbl.scan(snapshot_id=before)) == list(range(1, 11))
    # Deleting everything leaves an empty table, not a missing one.
    tbl.delete("id > 0")
    assert ids_of(catalog.load_table(f"{ns}.t")) == []


def test_nullable_and_types_round_trip(catalog, ns):
    schema = pa.schema(
        [
            pa.field("id", pa.int64()),
            pa.field("price", pa.float64()),
            pa.field("flag", pa.bool_()),
            pa.field("note", pa.string()),
        ]
    )
    data = pa.Table.from_pydict(
        {"id": [1, 2], "price": [1.5, None], "flag": [True, False], "note": ["a", None]},
        schema=schema,
    )
    tbl = catalog.create_table(f"{ns}.t", schema=schema)
    tbl.append(data)
    got = catalog.load_table(f"{ns}.t").scan().to_arrow().sort_by("id")
    assert got.to_pydict() == data.to_pydict()
