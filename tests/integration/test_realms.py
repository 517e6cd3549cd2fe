"""Realms (issue 5): chosen per request by the Polaris-Realm header; each realm has its own
principals, keys, catalogs and grants; a token from one realm is refused in another.

A second realm is made with `firn bootstrap --realm R --admin NAME` on the server's database
(credentials supplied through FIRN_BOOTSTRAP_CREDENTIALS, so nothing is parsed from output);
the running server picks it up without a restart."""

from __future__ import annotations

import os
import secrets
import time
import subprocess
from pathlib import Path

import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog

import firn_auth
from conftest import FIRN_BINARY
from firn_auth import Credentials, Management, new_secret, request_token

pytestmark = pytest.mark.firn_only("authentication and authorisation (issue 5)")


def bootstrap_realm(srv, realm: str, admin: str) -> Credentials:
    creds = Credentials(realm, f"{realm}adm{secrets.token_hex(4)}", new_secret())
    env = {**os.environ, "FIRN_BOOTSTRAP_CREDENTIALS": creds.bootstrap_value()}
    db = f"sqlite://{srv.data_dir.resolve()}/firn.db"
    cmd = [str(FIRN_BINARY), "bootstrap", "--realm", realm, "--admin", admin, "--db", db, "--no-catalog"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 0, f"firn bootstrap: {p.returncode}\n{p.stdout}\n{p.stderr}"
    assert creds.client_secret not in p.stdout + p.stderr, "supplied secret echoed"
    # Idempotent: a second run changes nothing and succeeds.
    again = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    assert again.returncode == 0, again.stderr
    return creds


def _token(srv, creds: Credentials) -> str:
    r = request_token(srv.uri, creds.client_id, creds.client_secret, realm=creds.realm)
    assert r.status_code == 200, r.text
    return r.json()["access_token"]


def _get(srv, path, token, realm):
    headers = {"Authorization": f"Bearer {token}"}
    if realm is not None:
        headers[firn_auth.REALM_HEADER] = realm
    return requests.get(srv.uri + path, headers=headers, timeout=30)


@pytest.fixture
def two_realms(server_factory, tmp_path):
    srv = server_factory()
    a = firn_auth.admin_credentials()
    b = bootstrap_realm(srv, "blue", "blue_admin")
    # Another process wrote realm B: the server sees it at its next access-snapshot refresh
    # (a second or two). Token requests are fast enough now to ask before that. At most 9
    # tries, a second apart: below the 10 failures that lock a client out from one address.
    for _ in range(9):
        if request_token(srv.uri, b.client_id, b.client_secret, realm=b.realm).status_code == 200:
            break
        time.sleep(1)
    return srv, a, b


def test_token_from_one_realm_is_refused_in_another(two_realms):
    srv, a, b = two_realms
    ta, tb = _token(srv, a), _token(srv, b)
    assert _get(srv, "/api/management/v1/principals", ta, a.realm).status_code == 200
    assert _get(srv, "/api/management/v1/principals", tb, b.realm).status_code == 200
    assert _get(srv, "/api/management/v1/principals", ta, b.realm).status_code == 401
    assert _get(srv, "/api/management/v1/principals", tb, a.realm).status_code == 401
    assert _get(srv, "/v1/config", tb, None).status_code == 401  # default realm is A


def test_credentials_are_per_realm(two_realms):
    srv, a, b = two_realms
    r = request_token(srv.uri, b.client_id, b.client_secret, realm=a.realm)
    assert r.status_code == 401 and r.json()["error"] == "invalid_client", r.text
    r = request_token(srv.uri, a.client_id, a.client_secret, realm=b.realm)
    assert r.status_code == 401, r.text
    r = request_token(srv.uri, a.client_id, a.client_secret, realm="no_such_realm")
    assert r.status_code in (400, 401), r.text


def test_principals_and_catalogs_are_separate(two_realms, tmp_path):
    srv, a, b = two_realms
    ma, mb = Management(srv.uri, a), Management(srv.uri, b)
    wa, wb = (tmp_path / "wa").resolve(), (tmp_path / "wb").resolve()
    wa.mkdir()
    wb.mkdir()
    ma.create_catalog("shared_name", wa.as_uri())
    mb.create_catalog("shared_name", wb.as_uri())
    mb.create_catalog("blue_only", (tmp_path / "wb-blue").resolve().as_uri())
    assert ma.get_catalog("shared_name")["properties"]["default-base-location"] == wa.as_uri()
    assert mb.get_catalog("shared_name")["properties"]["default-base-location"] == wb.as_uri()
    assert "blue_only" not in ma.list_catalogs()
    assert ma.request("GET", "/catalogs/blue_only").status_code in (403, 404)
    pa, pb = ma.create_principal("alice"), mb.create_principal("alice")
    assert pa.client_id != pb.client_id
    assert request_token(srv.uri, pa.client_id, pa.client_secret, realm=b.realm
                         ).status_code == 401
    names_b = [p["name"] for p in mb.ok("GET", "/principals").json()["principals"]]
    assert a.client_id not in str(mb.ok("GET", "/principals").json())
    assert "alice" in names_b

    # Catalog content is per realm too.
    ca = RestCatalog("a", uri=srv.uri, warehouse="shared_name",
                     **firn_auth.pyiceberg_auth_properties(srv.uri, a))
    cb = RestCatalog("b", uri=srv.uri, warehouse="shared_name",
                     **firn_auth.pyiceberg_auth_properties(srv.uri, b))
    ca.create_namespace("red_ns")
    cb.create_namespace("blue_ns")
    assert ("red_ns",) in ca.list_namespaces() and ("blue_ns",) not in ca.list_namespaces()
    assert ("blue_ns",) in cb.list_namespaces() and ("red_ns",) not in cb.list_namespaces()


def test_grants_are_per_realm(two_realms, tmp_path):
    srv, a, b = two_realms
    ma, mb = Management(srv.uri, a), Management(srv.uri, b)
    for m, realm in ((ma, "a"), (mb, "b")):
        base = (tmp_path / f"g{realm}").resolve()
        base.mkdir()
        m.create_catalog("gcat", base.as_uri())
    ca = RestCatalog("a", uri=srv.uri, warehouse="gcat",
                     **firn_auth.pyiceberg_auth_properties(srv.uri, a))
    ca.create_namespace("only")
    pb = mb.principal_with("reader", "gcat", [("NAMESPACE_LIST", None, None, None)])
    cb = RestCatalog("pb", uri=srv.uri, warehouse="gcat",
                     **firn_auth.pyiceberg_auth_properties(srv.uri, pb.creds))
    assert ("only",) not in cb.list_namespaces()  # its grant is on blue's gcat, not red's


def test_every_route_takes_the_realm_from_the_configured_header_only(server_factory):
    """Catalog, management and token routes agree on the realm (issue 10): with another realm
    header configured, Polaris-Realm is ignored on every route, and the configured header moves
    every route alike."""
    srv = server_factory(args=["--realm-header", "X-Firn-Realm"])
    a = firn_auth.admin_credentials()
    b = bootstrap_realm(srv, "blue", "blue_admin")
    token_url = srv.uri + firn_auth.TOKEN_PATH

    def token(creds, headers):
        return requests.post(token_url, headers=headers, timeout=30, data={
            "grant_type": "client_credentials", "client_id": creds.client_id,
            "client_secret": creds.client_secret, "scope": "PRINCIPAL_ROLE:ALL"})

    # The token endpoint: Polaris-Realm is not the realm header here, so blue's client is
    # unknown (the default realm); X-Firn-Realm finds it.
    assert token(b, {"Polaris-Realm": "blue"}).status_code == 401
    r = token(b, {"X-Firn-Realm": "blue"})
    assert r.status_code == 200, r.text
    tb = r.json()["access_token"]
    ta = _token(srv, a)
    blue_answers = {"/api/management/v1/principals": 200, "/v1/config": 200,
                    "/v1/namespaces": 404}  # blue has no catalog: it did land in blue
    for path, in_blue in blue_answers.items():
        def get(tok, headers):
            return requests.get(srv.uri + path, timeout=30,
                                headers={"Authorization": f"Bearer {tok}", **headers})
        assert get(ta, {"Polaris-Realm": "blue"}).status_code == 200, path
        assert get(tb, {"Polaris-Realm": "blue"}).status_code == 401, path
        assert get(tb, {"X-Firn-Realm": "blue"}).status_code == in_blue, path
        assert get(ta, {"X-Firn-Realm": "blue"}).status_code == 401, path
