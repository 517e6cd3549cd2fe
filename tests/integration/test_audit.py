"""The audit trail (issue 5): every commit and every management change is recorded with the
principal, realm, client, operation, object, old and new metadata location and outcome, and is
listed by `firn admin audit` and GET /api/management/v1/audit.

The exact output layout is the server's; these tests look for the facts (names, locations) in
each listed entry, so they hold for JSON objects and for one-line text alike."""

from __future__ import annotations

import json
import subprocess
import uuid

import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog

import firn_auth
from conftest import FIRN_BINARY
from firn_auth import Management
from helpers import rows

pytestmark = pytest.mark.firn_only("authentication and authorisation (issue 5)")


def _entries(body) -> list:
    if isinstance(body, list):
        return body
    for value in body.values():
        if isinstance(value, list):
            return value
    raise AssertionError(f"no list of audit entries in {str(body)[:300]}")


@pytest.fixture
def audited(server_factory, tmp_path):
    srv = server_factory()
    admin = Management(srv.uri)
    tag = uuid.uuid4().hex[:6]
    base = (tmp_path / "wh").resolve()
    base.mkdir()
    admin.create_catalog(f"aud_{tag}", base.as_uri())
    writer = admin.principal_with(f"writer_{tag}", f"aud_{tag}",
                                  [("CATALOG_MANAGE_CONTENT", None, None, None)])
    cat = RestCatalog("w", uri=srv.uri, warehouse=f"aud_{tag}",
                      **firn_auth.pyiceberg_auth_properties(srv.uri, writer.creds))
    cat.create_namespace("db")
    t = cat.create_table("db.events", schema=rows([]).schema)
    old = t.metadata_location
    t.append(rows(range(3)))
    new = cat.load_table("db.events").metadata_location
    assert old != new
    return {"srv": srv, "tag": tag, "writer": writer, "old": old, "new": new,
            "catalog": f"aud_{tag}"}


def test_audit_endpoint_lists_commits_and_management_changes(audited):
    srv, tag = audited["srv"], audited["tag"]
    admin = Management(srv.uri)
    entries = _entries(admin.ok("GET", "/audit", params={"limit": 1000}).json())
    commits = [e for e in entries if e.get("newLocation") == audited["new"]]
    assert len(commits) == 1, f"{len(commits)} entries with the new location among {entries}"
    c = commits[0]
    assert c["oldLocation"] == audited["old"]
    assert c["principal"] == audited["writer"].name
    assert c["operation"] in ("updateTable", "commitTransaction"), c
    assert "db.events" in c["object"] and c["catalog"] == audited["catalog"], c
    assert c["outcome"] == "success" and c["realm"] == firn_auth.DEFAULT_REALM, c
    assert "PyIceberg" in c["client"], c  # User-Agent / X-Client-Version
    ops = {(e["operation"], e["outcome"]) for e in entries}
    for op in ("createCatalog", "createPrincipal", "createPrincipalRole", "assignPrincipalRole",
               "createCatalogRole", "assignCatalogRoleToPrincipalRole", "addGrantToCatalogRole"):
        assert (op, "success") in ops, f"{op} missing from the audit trail: {sorted(ops)}"
    created = [e for e in entries if e["operation"] == "createPrincipal"
               and f"writer_{tag}" in e["object"]]
    assert created and audited["writer"].client_secret not in json.dumps(entries)


def test_audit_endpoint_filters_by_principal(audited):
    srv = audited["srv"]
    admin = Management(srv.uri)
    everything = _entries(admin.ok("GET", "/audit").json())
    mine = _entries(admin.ok("GET", "/audit", params={"principal": audited["writer"].name}
                             ).json())
    assert mine and len(mine) < len(everything)
    assert all(audited["writer"].name in json.dumps(e) for e in mine)


def test_audit_is_refused_without_privilege(audited):
    srv = audited["srv"]
    r = Management(srv.uri, audited["writer"].creds).request("GET", "/audit")
    assert r.status_code == 403, r.text


def test_firn_admin_audit_lists_the_commit(audited):
    srv = audited["srv"]
    srv.stop()
    db = f"sqlite://{srv.data_dir.resolve()}/firn.db"
    p = subprocess.run([str(FIRN_BINARY), "admin", "audit", "--db", db], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    lines = [l for l in p.stdout.splitlines() if audited["new"] in l]
    assert lines, p.stdout[-2000:]
    assert any(audited["writer"].name in l and audited["old"] in l for l in lines), lines
    for s in (audited["writer"].client_secret, firn_auth.admin_credentials().client_secret):
        assert s not in p.stdout


def test_catalog_and_management_routes_record_the_same_client_and_realm(server_factory):
    """One request pipeline (issue 10): the same headers give the same audit client and realm
    whether the request is a catalog write or a management write."""
    srv = server_factory()
    tag = uuid.uuid4().hex[:6]
    headers = {**firn_auth.auth_headers(srv.uri), "User-Agent": "pipeline-probe/1.0",
               "X-Client-Name": "probe", "X-Client-Pad": "p" * 600}
    r = requests.post(srv.uri + "/v1/namespaces", json={"namespace": [f"pipe_{tag}"]},
                      headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    r = requests.post(srv.uri + firn_auth.MGMT_PATH + "/principals",
                      json={"principal": {"name": f"pipe_{tag}"}}, headers=headers, timeout=30)
    assert r.status_code == 201, r.text
    entries = _entries(Management(srv.uri).ok("GET", "/audit", params={"limit": 1000}).json())
    ns = [e for e in entries if e["operation"] == "createNamespace" and f"pipe_{tag}" in e["object"]]
    pr = [e for e in entries if e["operation"] == "createPrincipal" and f"pipe_{tag}" in e["object"]]
    assert len(ns) == 1 and len(pr) == 1, entries
    assert ns[0]["client"] == pr[0]["client"], (ns[0]["client"], pr[0]["client"])
    assert ns[0]["client"].startswith("pipeline-probe/1.0; X-Client-Name=probe; X-Client-Pad=pp")
    assert len(ns[0]["client"]) == 512
    assert ns[0]["realm"] == pr[0]["realm"] == firn_auth.DEFAULT_REALM
