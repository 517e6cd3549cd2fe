"""End to end across restarts: everything a client saw before a graceful restart is unchanged
after it (tables, snapshots, refs, schemas, properties, data), and writing continues."""

from __future__ import annotations

import pyarrow as pa
from pyiceberg.types import StringType

from conftest import make_catalog
from helpers import SCHEMA, ids_of, rows


def snapshot_of_state(catalog, ns: str) -> dict:
    """Everything observable about namespace `ns` and its tables."""
    state = {
        "namespaces": sorted(n for n in catalog.list_namespaces() if n[0] == ns),
        "ns_props": catalog.load_namespace_properties(ns),
        "tables": {},
    }
    for ident in sorted(catalog.list_tables(ns)):
        tbl = catalog.load_table(ident)
        md = tbl.metadata
        state["tables"][ident] = {
            "metadata_location": tbl.metadata_location,
            "uuid": str(md.table_uuid),
            "snapshots": [(s.snapshot_id, s.parent_snapshot_id, s.manifest_list) for s in md.snapshots],
            "current": md.current_snapshot_id,
            "refs": {k: (v.snapshot_id, v.snapshot_ref_type) for k, v in md.refs.items()},
            "schemas": [s.model_dump_json() for s in md.schemas],
            "current_schema": md.current_schema_id,
            "specs": [s.model_dump_json() for s in md.partition_specs],
            "properties": dict(md.properties),
            "rows": tbl.scan().to_arrow().sort_by("id").to_pydict(),
            "metadata_log": [e.metadata_file for e in md.metadata_log],
        }
    return state


def test_state_survives_restart(server, ns):
    catalog = make_catalog(server)
    catalog.update_namespace_properties(ns, updates={"team": "lake", "tier": "gold"})

    a = catalog.create_table(f"{ns}.a", schema=SCHEMA, properties={"p": "1"})
    a.append(rows([1, 2]))
    a.append(rows([3]))
    a = catalog.load_table(f"{ns}.a")
    first = a.snapshots()[0].snapshot_id
    a.manage_snapshots().create_tag(first, "t1").create_branch(first, "b1").commit()
    with a.transaction() as tx:
        tx.set_properties(p="2", q="x")
    with catalog.load_table(f"{ns}.a").update_schema() as upd:
        upd.add_column("note", StringType())

    b = catalog.create_table(f"{ns}.b", schema=SCHEMA)
    b.append(rows([10]))
    b.delete("id = 10")

    before = snapshot_of_state(catalog, ns)
    assert before["tables"][(ns, "a")]["rows"]["id"] == [1, 2, 3]

    code = server.restart()
    assert code in server.graceful_exit_codes(), f"SIGTERM exit code {code}"

    catalog = make_catalog(server)
    after = snapshot_of_state(catalog, ns)
    assert after == before

    # Writing continues from the same state, and survives a second restart.
    a = catalog.load_table(f"{ns}.a")
    with_note = pa.schema([*SCHEMA, pa.field("note", pa.string())])
    a.append(pa.Table.from_pydict({"id": [4], "name": ["n4"], "note": ["after"]}, with_note))
    assert catalog.load_table(f"{ns}.a").current_snapshot().parent_snapshot_id == before["tables"][(ns, "a")]["current"]

    mid = snapshot_of_state(catalog, ns)
    code = server.restart()
    assert code in server.graceful_exit_codes(), f"SIGTERM exit code {code}"
    catalog = make_catalog(server)
    assert snapshot_of_state(catalog, ns) == mid
    assert ids_of(catalog.load_table(f"{ns}.a")) == [1, 2, 3, 4]
    assert ids_of(catalog.load_table(f"{ns}.a").scan().use_ref("t1")) == [1, 2]
    assert ids_of(catalog.load_table(f"{ns}.b")) == []
