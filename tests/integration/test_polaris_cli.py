"""The Polaris CLI (`polaris`, PyPI apache-polaris, pinned in scripts/requirements-test.txt)
drives Firn's management API: a FILE catalog, a principal, a principal role, a catalog role and
grants; then PyIceberg works as that principal and is refused (403) beyond its grants.

The CLI gets its credentials from CLIENT_ID / CLIENT_SECRET in its environment (never argv),
except in the test that checks the common `--client-id/--client-secret` usage. It fetches a
token from /api/catalog/v1/oauth/tokens (scope PRINCIPAL_ROLE:ALL) and calls
/api/management/v1. Spark and DuckDB as such a principal: tests/engines/test_auth_engines.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import uuid

import pytest
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import ForbiddenError

import firn_auth
from firn_auth import Credentials
from helpers import rows

pytestmark = pytest.mark.firn_only("authentication and authorisation (issue 5)")


def polaris_cli() -> str:
    try:
        return firn_auth.polaris_cli()
    except FileNotFoundError as e:
        pytest.fail(str(e))


def run_polaris(srv, *args: str, creds: Credentials | None = None, realm: str | None = None,
                check: bool = True) -> subprocess.CompletedProcess:
    polaris_cli()
    return firn_auth.run_polaris(srv.uri, *args, creds=creds, realm=realm, check=check,
                                 home=srv.data_dir / ".polaris-cli")


def _as(srv, warehouse: str, creds: Credentials) -> RestCatalog:
    return RestCatalog(f"cli_{creds.client_id}", uri=srv.uri, warehouse=warehouse,
                       **firn_auth.pyiceberg_auth_properties(srv.uri, creds))


@pytest.fixture
def cli_world(server, tmp_path):
    """Catalog, principal alice, roles and grants, all made by the Polaris CLI."""
    tag = uuid.uuid4().hex[:8]
    cat, alice = f"cli_{tag}", f"alice_{tag}"
    base = (tmp_path / "warehouse").resolve()
    base.mkdir()
    run_polaris(server, "catalogs", "create", "--storage-type", "FILE",
                "--default-base-location", base.as_uri(), "--allowed-location", base.as_uri(),
                cat)
    out = run_polaris(server, "principals", "create", alice).stdout
    cred = json.loads(out.strip().splitlines()[-1])
    alice_creds = Credentials(firn_auth.DEFAULT_REALM, cred["clientId"], cred["clientSecret"])
    run_polaris(server, "principal-roles", "create", f"analyst_{tag}")
    run_polaris(server, "principal-roles", "grant", "--principal", alice, f"analyst_{tag}")
    run_polaris(server, "catalog-roles", "create", "--catalog", cat, f"reader_{tag}")
    run_polaris(server, "catalog-roles", "grant", "--catalog", cat, "--principal-role",
                f"analyst_{tag}", f"reader_{tag}")
    run_polaris(server, "privileges", "catalog", "grant", "--catalog", cat, "--catalog-role",
                f"reader_{tag}", "NAMESPACE_LIST")
    run_polaris(server, "privileges", "namespace", "grant", "--catalog", cat, "--catalog-role",
                f"reader_{tag}", "--namespace", "sales", "TABLE_READ_DATA")
    # The admin puts data in place.
    admin = _as(server, cat, firn_auth.admin_credentials())
    admin.create_namespace("sales")
    admin.create_namespace("hr")
    t = admin.create_table("sales.orders", schema=rows([]).schema)
    t.append(rows(range(3)))
    admin.create_table("hr.salaries", schema=rows([]).schema).append(rows(range(2)))
    return {"catalog": cat, "alice": alice, "creds": alice_creds, "tag": tag, "base": base}


def test_cli_lists_what_it_created(server, cli_world):
    cat, tag = cli_world["catalog"], cli_world["tag"]
    cats = run_polaris(server, "catalogs", "list").stdout
    assert cat in cats
    got = json.loads(run_polaris(server, "catalogs", "get", cat).stdout)
    assert got["storageConfigInfo"]["storageType"] == "FILE"
    assert got["properties"]["default-base-location"] == cli_world["base"].as_uri()
    assert cli_world["alice"] in run_polaris(server, "principals", "list").stdout
    assert f"analyst_{tag}" in run_polaris(server, "principal-roles", "list").stdout
    assert f"reader_{tag}" in run_polaris(server, "catalog-roles", "list", cat).stdout
    grants = run_polaris(server, "privileges", "list", "--catalog", cat, "--catalog-role",
                         f"reader_{tag}").stdout
    assert "NAMESPACE_LIST" in grants and "TABLE_READ_DATA" in grants


def test_pyiceberg_works_as_the_principal_within_its_grants(server, cli_world):
    alice = _as(server, cli_world["catalog"], cli_world["creds"])
    assert {("sales",), ("hr",)} <= set(alice.list_namespaces())
    t = alice.load_table("sales.orders")
    assert sorted(t.scan().to_arrow()["id"].to_pylist()) == [0, 1, 2]


def test_pyiceberg_is_refused_beyond_its_grants(server, cli_world):
    alice = _as(server, cli_world["catalog"], cli_world["creds"])
    with pytest.raises(ForbiddenError):
        alice.load_table("hr.salaries")
    with pytest.raises(ForbiddenError):
        alice.create_namespace("alice_was_here")
    t = alice.load_table("sales.orders")
    with pytest.raises(ForbiddenError):
        t.append(rows([99]))
    with pytest.raises(ForbiddenError):
        alice.drop_table("sales.orders")
    admin = _as(server, cli_world["catalog"], firn_auth.admin_credentials())
    assert sorted(admin.load_table("sales.orders").scan().to_arrow()["id"].to_pylist()) == [0, 1, 2]
    assert ("alice_was_here",) not in admin.list_namespaces()


def test_cli_grant_and_revoke_change_what_the_principal_may_do(server, cli_world):
    cat, tag = cli_world["catalog"], cli_world["tag"]
    grant = ["--catalog", cat, "--catalog-role", f"reader_{tag}", "--namespace", "sales",
             "--table", "orders", "TABLE_WRITE_DATA"]
    run_polaris(server, "privileges", "table", "grant", *grant)
    alice = _as(server, cat, cli_world["creds"])
    alice.load_table("sales.orders").append(rows([7]))
    run_polaris(server, "privileges", "table", "revoke", *grant)
    with pytest.raises(ForbiddenError):
        alice.load_table("sales.orders").append(rows([8]))
    admin = _as(server, cat, firn_auth.admin_credentials())
    assert sorted(admin.load_table("sales.orders").scan().to_arrow()["id"].to_pylist()) == [
        0, 1, 2, 7]


def test_cli_as_the_principal_cannot_administer(server, cli_world):
    p = run_polaris(server, "principals", "list", creds=cli_world["creds"], check=False)
    assert p.returncode != 0, p.stdout
    p = run_polaris(server, "principals", "create", "mallory", creds=cli_world["creds"],
                    check=False)
    assert p.returncode != 0, p.stdout
    assert "mallory" not in run_polaris(server, "principals", "list").stdout


def test_cli_with_a_wrong_secret_fails(server):
    a = firn_auth.admin_credentials()
    bad = Credentials(a.realm, a.client_id, a.client_secret + "x")
    p = run_polaris(server, "catalogs", "list", creds=bad, check=False)
    assert p.returncode != 0
    assert a.client_secret not in p.stdout + p.stderr


def test_cli_rotate_credentials(server, cli_world):
    out = run_polaris(server, "principals", "rotate-credentials", cli_world["alice"]).stdout
    new = json.loads(out.strip().splitlines()[-1])
    assert new["clientId"] == cli_world["creds"].client_id
    assert new["clientSecret"] != cli_world["creds"].client_secret
    r = firn_auth.request_token(server.uri, new["clientId"], new["clientSecret"])
    assert r.status_code == 200, r.text


def test_cli_client_id_flag_does_not_leak_into_new_principals(server):
    """`polaris --client-id X principals create p` sends principal.clientId = X (the caller's
    own id, an output-only field): Firn must ignore it and generate a fresh client id."""
    a = firn_auth.admin_credentials()
    name = f"flagged_{uuid.uuid4().hex[:8]}"
    p = subprocess.run([polaris_cli(), "--base-url", server.uri, "--client-id", a.client_id,
                        "--client-secret", a.client_secret, "principals", "create", name],
                       capture_output=True, text=True, timeout=120,
                       env={**os.environ, "POLARIS_HOME": str(server.data_dir / ".polaris-cli")})
    assert p.returncode == 0, p.stdout + p.stderr
    cred = json.loads(p.stdout.strip().splitlines()[-1])
    assert cred["clientId"] != a.client_id
    r = firn_auth.request_token(server.uri, a.client_id, a.client_secret)
    assert r.status_code == 200, "the admin's credentials must still be the admin's"
