"""Catalog-level operations through PyIceberg: register, rename, drop, purge."""

from __future__ import annotations

import time

import pytest
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.exceptions import ForbiddenError, NoSuchTableError, TableAlreadyExistsError

from conftest import expunge_dropped
from helpers import SCHEMA, ids_of, local_path, referenced_files, rows


def test_register_table_written_elsewhere(catalog, ns, tmp_path, server):
    # A table written by another catalog (PyIceberg's SqlCatalog) into its own warehouse -- a
    # folder inside Firn's catalog location, since Firn refuses locations outside the catalog's
    # allowed locations (test_register_outside_allowed_locations_is_refused).
    other = SqlCatalog(
        "other",
        uri=f"sqlite:///{tmp_path / 'other.db'}",
        warehouse=(server.catalog_dir / f"imported_{tmp_path.name}").as_uri(),
    )
    other.create_namespace("src")
    src = other.create_table("src.orders", schema=SCHEMA)
    src.append(rows([1, 2]))
    src.append(rows([3]))
    src = other.load_table("src.orders")

    tbl = catalog.register_table(f"{ns}.orders", src.metadata_location)

    assert tbl.metadata_location == src.metadata_location
    loaded = catalog.load_table(f"{ns}.orders")
    assert loaded.metadata_location == src.metadata_location
    assert loaded.metadata.table_uuid == src.metadata.table_uuid
    assert [s.snapshot_id for s in loaded.snapshots()] == [s.snapshot_id for s in src.snapshots()]
    assert ids_of(loaded) == [1, 2, 3]

    # The registered table is a normal table afterwards: commits go through this catalog.
    loaded.append(rows([4]))
    again = catalog.load_table(f"{ns}.orders")
    assert again.metadata_location != src.metadata_location
    assert ids_of(again) == [1, 2, 3, 4]

    with pytest.raises(TableAlreadyExistsError):
        catalog.register_table(f"{ns}.orders", src.metadata_location)


def test_register_outside_allowed_locations_is_refused(catalog, ns, tmp_path):
    outside = SqlCatalog("outside", uri=f"sqlite:///{tmp_path / 'outside.db'}",
                         warehouse=(tmp_path / "outside_wh").as_uri())
    outside.create_namespace("src")
    src = outside.create_table("src.t", schema=SCHEMA)
    with pytest.raises(ForbiddenError, match="is not allowed for catalog"):
        catalog.register_table(f"{ns}.stolen", src.metadata_location)
    with pytest.raises(NoSuchTableError):
        catalog.load_table(f"{ns}.stolen")


def test_rename_within_namespace(catalog, ns):
    tbl = catalog.create_table(f"{ns}.before", schema=SCHEMA)
    tbl.append(rows([1, 2]))
    uuid = tbl.metadata.table_uuid

    catalog.rename_table(f"{ns}.before", f"{ns}.after")

    assert not catalog.table_exists(f"{ns}.before")
    moved = catalog.load_table(f"{ns}.after")
    assert moved.metadata.table_uuid == uuid
    assert ids_of(moved) == [1, 2]
    assert catalog.list_tables(ns) == [(ns, "after")]
    with pytest.raises(NoSuchTableError):
        catalog.load_table(f"{ns}.before")


def test_rename_across_namespaces(catalog, ns, unique_name):
    dest = unique_name("dest")
    catalog.create_namespace(dest)
    tbl = catalog.create_table(f"{ns}.t", schema=SCHEMA)
    tbl.append(rows([7]))

    catalog.rename_table(f"{ns}.t", f"{dest}.t2")

    assert catalog.list_tables(ns) == []
    assert catalog.list_tables(dest) == [(dest, "t2")]
    moved = catalog.load_table(f"{dest}.t2")
    assert ids_of(moved) == [7]
    moved.append(rows([8]))
    assert ids_of(catalog.load_table(f"{dest}.t2")) == [7, 8]


def test_drop_table_keeps_files(catalog, ns):
    tbl = catalog.create_table(f"{ns}.t", schema=SCHEMA)
    tbl.append(rows([1, 2, 3]))
    tbl = catalog.load_table(f"{ns}.t")
    files = referenced_files(tbl)
    assert files and all(f.is_file() for f in files)

    catalog.drop_table(f"{ns}.t")

    assert not catalog.table_exists(f"{ns}.t")
    with pytest.raises(NoSuchTableError):
        catalog.load_table(f"{ns}.t")
    missing = sorted(str(f) for f in files if not f.exists())
    assert missing == [], "drop without purge must leave the files"
    # The same name can be used again.
    catalog.create_table(f"{ns}.t", schema=SCHEMA)


def test_purge_table_removes_files(server, catalog, ns):
    tbl = catalog.create_table(f"{ns}.t", schema=SCHEMA)
    tbl.append(rows([1, 2]))
    tbl.append(rows([3]))
    tbl = catalog.load_table(f"{ns}.t")
    files = referenced_files(tbl)
    assert local_path(tbl.metadata_location) in files
    assert len(files) >= 6  # metadata, 2 manifest lists, >= 2 manifests, 2 data files

    catalog.purge_table(f"{ns}.t")

    assert not catalog.table_exists(f"{ns}.t")
    # Firn keeps a dropped table for its retention (docs/soft-delete.md); the purge runs when
    # it ends, here at once.
    assert all(f.exists() for f in files) or server.reference
    expunge_dropped(server)
    deadline = time.monotonic() + 10  # allow a short asynchronous purge
    while time.monotonic() < deadline and any(f.exists() for f in files):
        time.sleep(0.2)
    remaining = sorted(str(f) for f in files if f.exists())
    assert remaining == [], "purge must delete every file the table referenced"


def test_drop_unknown_table_raises(catalog, ns):
    with pytest.raises(NoSuchTableError):
        catalog.drop_table(f"{ns}.does_not_exist")
