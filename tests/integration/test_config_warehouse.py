"""First contact (issue 14, item 7): /v1/config?warehouse= takes a catalog name or a location
inside a catalog's base location (Spark and PyIceberg users often pass a path), and an unknown
warehouse's 404 names the catalogs the caller may list — and no other."""
from __future__ import annotations

import uuid

import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog

import firn_auth
from firn_auth import Management
from helpers import SCHEMA, make_catalogs, rows

pytestmark = pytest.mark.firn_only("warehouse resolution (issue 14)")


def config(srv, creds, warehouse: str) -> requests.Response:
    return requests.get(f"{srv.uri}/v1/config", params={"warehouse": warehouse},
                        headers=firn_auth.auth_headers(srv.uri, creds), timeout=30)


@pytest.fixture
def two_catalogs(server_factory, tmp_path):
    srv = server_factory()
    admin = Management(srv.uri)
    tag = uuid.uuid4().hex[:6]
    names = {"loc0": f"sales_{tag}", "loc1": f"hr_{tag}"}
    bases = {names[k]: path for k, path in make_catalogs(admin, tmp_path, names).items()}
    reader = admin.principal_with(f"reader_{tag}", f"sales_{tag}",
                                  [("CATALOG_MANAGE_CONTENT", None, None, None)])
    return srv, tag, bases, reader


def test_a_location_inside_a_catalog_finds_that_catalog(two_catalogs):
    srv, tag, bases, reader = two_catalogs
    sales = f"sales_{tag}"
    for warehouse in (sales, bases[sales].as_uri(), bases[sales].as_uri() + "/",
                      (bases[sales] / "db" / "events").as_uri()):
        r = config(srv, firn_auth.admin_credentials(), warehouse)
        assert r.status_code == 200, (warehouse, r.text)
        assert r.json()["overrides"]["prefix"] == sales, warehouse
    # PyIceberg given the path works as written.
    cat = RestCatalog("p", uri=srv.uri, warehouse=bases[sales].as_uri(),
                      **firn_auth.pyiceberg_auth_properties(srv.uri, reader.creds))
    cat.create_namespace("db")
    cat.create_table("db.events", schema=SCHEMA).append(rows([1]))
    assert (bases[sales] / "db" / "events").exists()
    # A location in no catalog, or one merely sharing a prefix, is not a warehouse.
    outside = bases[sales].parent / (bases[sales].name + "x")
    assert config(srv, firn_auth.admin_credentials(), outside.as_uri()).status_code == 404


def test_an_unknown_warehouse_names_only_the_catalogs_the_caller_may_list(two_catalogs):
    srv, tag, bases, reader = two_catalogs
    r = config(srv, reader.creds, "nope")
    assert r.status_code == 404
    err = r.json()["error"]
    assert err["type"] == "NoSuchWarehouseException"
    assert f"sales_{tag}" in err["message"], err
    assert f"hr_{tag}" not in err["message"], "named a catalog the caller may not list"
    admin = config(srv, firn_auth.admin_credentials(), "nope").json()["error"]["message"]
    assert f"sales_{tag}" in admin and f"hr_{tag}" in admin
    # A path does not reveal a catalog the caller may not list.
    hr = config(srv, reader.creds, bases[f"hr_{tag}"].as_uri())
    assert hr.status_code == 404 and f"hr_{tag}" not in hr.text, hr.text
