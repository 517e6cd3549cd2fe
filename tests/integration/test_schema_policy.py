"""The schema-evolution policy (docs/schema-policy.md) through PyIceberg and raw REST.

By default a commit whose schema change breaks readers (drop, rename, optional -> required, a
type change that is no spec promotion, identifier fields) is refused with 409
CommitFailedException and nothing is written; firn.schema-evolution=spec on the table (as the
commit leaves it), its namespace or its catalog allows it; any other value is a 400.
"""

from __future__ import annotations

import copy

import pyarrow as pa
import pytest
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import BadRequestError, CommitFailedException
from pyiceberg.types import LongType, StringType

from conftest import catalog_properties
from helpers import local_path

pytestmark = pytest.mark.firn_only("Firn's schema-evolution policy")

PROPERTY = "firn.schema-evolution"
HINT = (f"; set the table, namespace or catalog property {PROPERTY}=spec to allow every change "
        "the Iceberg spec allows")
PREFIX = "Schema change refused by the schema-evolution policy: "

SCHEMA = pa.schema([pa.field("id", pa.int32()), pa.field("name", pa.string()),
                    pa.field("extra", pa.string())])


def make_table(catalog, ident, properties=None):
    tbl = catalog.create_table(ident, schema=SCHEMA, properties=properties or {})
    tbl.append(pa.Table.from_pydict({"id": [1], "name": ["a"], "extra": ["x"]}, SCHEMA))
    return catalog.load_table(ident)


def metadata_files(tbl) -> list[str]:
    folder = local_path(tbl.metadata_location).parent
    return sorted(p.name for p in folder.iterdir() if ".metadata.json" in p.name)


def field_names(tbl) -> list[str]:
    return [f.name for f in tbl.schema().fields]


def drop(upd):
    upd.delete_column("extra")


def rename(upd):
    upd.rename_column("name", "full_name")


def require(upd):
    upd.update_column("name", required=True)


REFUSED = {
    "drop": (drop, "column 'extra' (id 3) would be dropped"),
    "rename": (rename, "column 'name' (id 2) would be renamed to 'full_name'"),
    "required": (require, "column 'name' (id 2) would change from optional to required"),
}


def expect_refused(tbl, change, message):
    """The change is refused with the message; no metadata file is written and the table
    still loads at its old schema."""
    files = metadata_files(tbl)
    schema_id = tbl.schema().schema_id
    with pytest.raises(CommitFailedException) as refused:
        with tbl.update_schema(allow_incompatible_changes=True) as upd:
            change(upd)
    assert PREFIX + message + HINT in str(refused.value)
    assert metadata_files(tbl) == files
    return schema_id


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_breaking_changes_are_refused_by_default(catalog, ns, kind):
    tbl = make_table(catalog, f"{ns}.t")
    change, message = REFUSED[kind]
    schema_id = expect_refused(tbl, change, message)
    again = catalog.load_table(f"{ns}.t")
    assert again.schema().schema_id == schema_id
    assert field_names(again) == ["id", "name", "extra"]
    assert again.scan().to_arrow().to_pydict() == {"id": [1], "name": ["a"], "extra": ["x"]}


def raw_commit(api, ns, name, mutate, set_current=-1, add=True):
    """add-schema (the current schema changed by `mutate`) + set-current-schema, over REST."""
    path = f"{api.v1}/namespaces/{ns}/tables/{name}"
    meta = api.get(path).json()["metadata"]
    current = next(s for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"])
    updates = []
    if add:
        schema = copy.deepcopy(current)
        schema.pop("schema-id", None)
        mutate(schema)
        updates.append({"action": "add-schema", "schema": schema})
    updates.append({"action": "set-current-schema", "schema-id": set_current})
    body = {"requirements": [{"type": "assert-current-schema-id",
                              "current-schema-id": meta["current-schema-id"]}],
            "updates": updates}
    return api.post(path, json=body)


def test_a_type_change_that_is_no_promotion_is_refused(catalog, api, ns):
    tbl = make_table(catalog, f"{ns}.t")
    files = metadata_files(tbl)

    def to_string(schema):
        schema["fields"][0]["type"] = "string"

    r = raw_commit(api, ns, "t", to_string)
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert error["type"] == "CommitFailedException"
    assert error["message"] == (PREFIX + "column 'id' (id 1) would change type from int to "
                                "string, which is not a type promotion" + HINT)
    assert metadata_files(tbl) == files
    assert field_names(catalog.load_table(f"{ns}.t")) == ["id", "name", "extra"]


def test_going_back_to_an_older_schema_that_lacks_a_column_is_refused(catalog, api, ns):
    tbl = make_table(catalog, f"{ns}.t")
    old_id = tbl.schema().schema_id
    with tbl.update_schema() as upd:
        upd.add_column("note", StringType())
    tbl = catalog.load_table(f"{ns}.t")
    files = metadata_files(tbl)
    r = raw_commit(api, ns, "t", None, set_current=old_id, add=False)
    assert r.status_code == 409, r.text
    assert "column 'note' (id 4) would be dropped" in r.json()["error"]["message"]
    assert metadata_files(tbl) == files


def test_compatible_changes_commit_by_default(catalog, ns):
    tbl = make_table(catalog, f"{ns}.t")
    with tbl.update_schema() as upd:
        upd.add_column("score", LongType())
        upd.update_column("id", LongType())  # int -> long: a promotion
        upd.update_column("name", doc="the name")
        upd.move_first("extra")
    tbl = catalog.load_table(f"{ns}.t")
    assert field_names(tbl) == ["extra", "id", "name", "score"]
    assert isinstance(tbl.schema().find_field("id").field_type, LongType)


def test_the_table_property_allows_even_when_set_in_the_same_commit(catalog, ns):
    tbl = make_table(catalog, f"{ns}.t")
    with tbl.transaction() as tx:
        tx.set_properties({PROPERTY: "spec"})
        with tx.update_schema() as upd:
            upd.delete_column("extra")
    tbl = catalog.load_table(f"{ns}.t")
    assert field_names(tbl) == ["id", "name"]
    with tbl.update_schema() as upd:
        upd.rename_column("name", "full_name")
    assert field_names(catalog.load_table(f"{ns}.t")) == ["id", "full_name"]
    # `compatible` on the table wins over `spec` on its namespace.
    catalog.update_namespace_properties(ns, updates={PROPERTY: "spec"})
    tbl.transaction().set_properties({PROPERTY: "compatible"}).commit_transaction()
    tbl = catalog.load_table(f"{ns}.t")
    expect_refused(tbl, lambda upd: upd.delete_column("full_name"),
                   "column 'full_name' (id 2) would be dropped")


def test_the_namespace_property_allows(catalog, ns):
    tbl = make_table(catalog, f"{ns}.t")
    catalog.update_namespace_properties(ns, updates={PROPERTY: "spec"})
    with tbl.update_schema() as upd:
        upd.delete_column("extra")
        upd.rename_column("name", "full_name")
    assert field_names(catalog.load_table(f"{ns}.t")) == ["id", "full_name"]
    catalog.update_namespace_properties(ns, removals={PROPERTY})
    tbl = catalog.load_table(f"{ns}.t")
    expect_refused(tbl, lambda upd: upd.delete_column("full_name"),
                   "column 'full_name' (id 2) would be dropped")


def test_the_catalog_property_allows(server, admin, tmp_path, unique_name):
    name = unique_name("cat")
    admin.create_catalog(name, (tmp_path / name).resolve().as_uri(),
                         properties={PROPERTY: "spec"})
    cat = RestCatalog(name, warehouse=name, **catalog_properties(server))
    cat.create_namespace("db")
    tbl = make_table(cat, "db.t")
    with tbl.update_schema() as upd:
        upd.delete_column("extra")
    assert field_names(cat.load_table("db.t")) == ["id", "name"]
    # Back to the default through the management API: refused again.
    current = admin.get_catalog(name)
    props = {k: v for k, v in current["properties"].items() if k != PROPERTY}
    admin.ok("PUT", f"/catalogs/{name}", json={"currentEntityVersion": current["entityVersion"],
                                               "properties": props})
    tbl = RestCatalog(name, warehouse=name, **catalog_properties(server)).load_table("db.t")
    expect_refused(tbl, rename, "column 'name' (id 2) would be renamed to 'full_name'")


def test_unknown_values_are_a_bad_request(catalog, admin, ns, tmp_path, unique_name):
    with pytest.raises(BadRequestError, match="firn.schema-evolution must be 'compatible' or 'spec'"):
        catalog.update_namespace_properties(ns, updates={PROPERTY: "loose"})
    assert PROPERTY not in catalog.load_namespace_properties(ns)
    tbl = make_table(catalog, f"{ns}.t")
    files = metadata_files(tbl)
    with pytest.raises(BadRequestError, match="must be 'compatible' or 'spec'"):
        tbl.transaction().set_properties({PROPERTY: "SPEC"}).commit_transaction()
    assert metadata_files(tbl) == files
    with pytest.raises(BadRequestError):
        catalog.create_table(f"{ns}.u", schema=SCHEMA, properties={PROPERTY: "yes"})
    name = unique_name("cat")
    r = admin.request("POST", "/catalogs", json={"catalog": {
        "type": "INTERNAL", "name": name,
        "properties": {"default-base-location": (tmp_path / name).resolve().as_uri(),
                       PROPERTY: "any"},
        "storageConfigInfo": {"storageType": "FILE"}}})
    assert r.status_code == 400, r.text
    assert "firn.schema-evolution must be 'compatible' or 'spec'" in r.text
    assert name not in admin.list_catalogs()
