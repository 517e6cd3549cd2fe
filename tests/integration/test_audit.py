"""The audit trail (issue 5): every commit and every management change is recorded with the
principal, realm, client, operation, object, old and new metadata location and outcome, and is
listed by `firn admin audit` and GET /api/management/v1/audit.

The exact output layout is the server's; these tests look for the facts (names, locations) in
each listed entry, so they hold for JSON objects and for one-line text alike."""

from __future__ import annotations

import json
import os
import subprocess
import uuid

import pytest
from pyiceberg.catalog.rest import RestCatalog

import firn_auth
from conftest import REPO_ROOT
from firn_auth import Management
from helpers import rows


def firn_bin() -> str:
    return os.environ.get("FIRN_BIN", str(REPO_ROOT / "build/release/src/cli/firn"))


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
    entries = _entries(admin.ok("GET", "/audit").json())
    text = [json.dumps(e) for e in entries]
    commit = [e for e in text if audited["new"] in e]
    assert commit, f"no audit entry names the new metadata location; {len(entries)} entries"
    assert any(audited["old"] in e and audited["writer"].name in e and "events" in e
               for e in commit), commit
    assert any(f"writer_{tag}" in e and "rincipal" in e for e in text), \
        "the principal's creation is not in the audit trail"
    assert any(f"aud_{tag}" in e and "atalog" in e for e in text), "catalog creation missing"


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
    p = subprocess.run([firn_bin(), "admin", "audit", "--db", db], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    lines = [l for l in p.stdout.splitlines() if audited["new"] in l]
    assert lines, p.stdout[-2000:]
    assert any(audited["writer"].name in l and audited["old"] in l for l in lines), lines
    for s in (audited["writer"].client_secret, firn_auth.admin_credentials().client_secret):
        assert s not in p.stdout
