"""Schema, partition-spec and sort-order evolution through PyIceberg, with data read back."""

from __future__ import annotations

import pyarrow as pa
from pyiceberg.expressions import EqualTo
from pyiceberg.table.sorting import SortDirection
from pyiceberg.transforms import BucketTransform, IdentityTransform
from pyiceberg.types import DoubleType, IntegerType, LongType

from helpers import ids_of


def test_schema_evolution(catalog, ns):
    v0 = pa.schema(
        [pa.field("id", pa.int32()), pa.field("name", pa.string()), pa.field("extra", pa.string())]
    )
    # Rename, drop and a promotion in one change: every change the spec allows, so the table
    # opts out of Firn's default compatible schema-evolution policy (docs/schema-policy.md).
    tbl = catalog.create_table(f"{ns}.t", schema=v0, properties={"firn.schema-evolution": "spec"})
    assert isinstance(tbl.schema().find_field("id").field_type, IntegerType)
    tbl.append(pa.Table.from_pydict({"id": [1, 2], "name": ["a", "b"], "extra": ["x", "y"]}, v0))
    old_schema_id = tbl.schema().schema_id
    name_field_id = tbl.schema().find_field("name").field_id

    with tbl.update_schema() as upd:
        upd.add_column("score", DoubleType())
        upd.rename_column("name", "full_name")
        upd.delete_column("extra")
        upd.update_column("id", LongType())

    tbl = catalog.load_table(f"{ns}.t")
    schema = tbl.schema()
    assert schema.schema_id != old_schema_id
    assert [f.name for f in schema.fields] == ["id", "full_name", "score"]
    assert isinstance(schema.find_field("id").field_type, LongType)
    assert schema.find_field("full_name").field_id == name_field_id  # a rename keeps the id
    assert len(tbl.schemas()) == 2

    v1 = pa.schema(
        [pa.field("id", pa.int64()), pa.field("full_name", pa.string()), pa.field("score", pa.float64())]
    )
    tbl.append(pa.Table.from_pydict({"id": [3], "full_name": ["c"], "score": [0.5]}, v1))

    got = catalog.load_table(f"{ns}.t").scan().to_arrow().sort_by("id")
    assert got.column_names == ["id", "full_name", "score"]
    assert got.schema.field("id").type == pa.int64()
    assert got.to_pydict() == {"id": [1, 2, 3], "full_name": ["a", "b", "c"], "score": [None, None, 0.5]}


def test_partition_evolution(catalog, ns):
    schema = pa.schema([pa.field("id", pa.int64()), pa.field("category", pa.string())])
    tbl = catalog.create_table(f"{ns}.t", schema=schema)
    assert tbl.spec().is_unpartitioned()
    tbl.append(pa.Table.from_pydict({"id": [1, 2], "category": ["a", "b"]}, schema))

    with tbl.update_spec() as upd:
        upd.add_identity("category")
        upd.add_field("id", BucketTransform(4), "id_bucket")

    tbl = catalog.load_table(f"{ns}.t")
    spec = tbl.spec()
    assert spec.spec_id == 1
    assert [(f.name, str(f.transform)) for f in spec.fields] == [
        ("category", "identity"),
        ("id_bucket", "bucket[4]"),
    ]
    assert len(tbl.specs()) == 2

    tbl.append(pa.Table.from_pydict({"id": [3, 4, 5], "category": ["a", "b", "a"]}, schema))
    tbl = catalog.load_table(f"{ns}.t")
    assert ids_of(tbl) == [1, 2, 3, 4, 5]
    assert ids_of(tbl.scan(row_filter=EqualTo("category", "a"))) == [1, 3, 5]
    files = tbl.inspect.files().to_pydict()
    assert sorted(set(files["spec_id"])) == [0, 1]
    # The new files are partitioned: three rows, at least two distinct partitions.
    new_parts = [p for p, s in zip(files["partition"], files["spec_id"]) if s == 1]
    assert len({tuple(sorted(p.items())) for p in new_parts}) >= 2


def test_replace_sort_order(catalog, ns):
    schema = pa.schema([pa.field("id", pa.int64()), pa.field("name", pa.string())])
    tbl = catalog.create_table(f"{ns}.t", schema=schema)
    assert tbl.sort_order().is_unsorted

    with tbl.update_sort_order() as upd:
        upd.asc("id", IdentityTransform())
    first = catalog.load_table(f"{ns}.t").sort_order()
    assert [(f.source_id, f.direction) for f in first.fields] == [
        (tbl.schema().find_field("id").field_id, SortDirection.ASC)
    ]

    tbl = catalog.load_table(f"{ns}.t")
    with tbl.update_sort_order() as upd:
        upd.desc("name", IdentityTransform())
        upd.asc("id", IdentityTransform())

    tbl = catalog.load_table(f"{ns}.t")
    order = tbl.sort_order()
    assert order.order_id != first.order_id
    assert [(f.source_id, f.direction) for f in order.fields] == [
        (tbl.schema().find_field("name").field_id, SortDirection.DESC),
        (tbl.schema().find_field("id").field_id, SortDirection.ASC),
    ]
    assert tbl.metadata.default_sort_order_id == order.order_id
    assert len(tbl.sort_orders()) == 3  # unsorted, first, second
