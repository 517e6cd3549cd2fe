"""Issue 5, item 7: JWTs from an external OpenID Connect issuer, validated against its JWKS
(a file here), with configurable subject and roles claims mapped to a principal and principal
roles that were never created as principals in Firn.

The issuer is simulated with the openssl CLI (Ed25519 key, EdDSA JWS): no extra Python package.
The admin creates only a principal role and its grants; the external user "carol" exists only in
the token. PyIceberg uses the external token directly (`token` property).
"""

from __future__ import annotations

import base64
import json
import subprocess
import time
import uuid
from pathlib import Path

import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import ForbiddenError

import firn_auth

ISSUER = "https://idp.example.test/realms/firn"
AUDIENCE = "firn-catalog"

pytestmark = pytest.mark.firn_only


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Issuer:
    """An Ed25519 signing key with its JWKS; signs compact JWS tokens via `openssl pkeyutl`."""

    def __init__(self, directory: Path, kid: str) -> None:
        self.dir = directory
        self.kid = kid
        self.key = directory / f"{uuid.uuid4().hex}.pem"
        subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(self.key)],
                       check=True, capture_output=True)
        der = subprocess.run(["openssl", "pkey", "-in", str(self.key), "-pubout", "-outform", "DER"],
                             check=True, capture_output=True).stdout
        self.jwk = {"kty": "OKP", "crv": "Ed25519", "x": b64url(der[-32:]), "kid": kid,
                    "use": "sig", "alg": "EdDSA"}

    def sign(self, claims: dict) -> str:
        header = {"alg": "EdDSA", "typ": "JWT", "kid": self.kid}
        signing_input = (b64url(json.dumps(header).encode()) + "." +
                         b64url(json.dumps(claims).encode()))
        data = self.dir / f"{uuid.uuid4().hex}.in"
        data.write_bytes(signing_input.encode())
        sig = subprocess.run(["openssl", "pkeyutl", "-sign", "-inkey", str(self.key), "-rawin",
                              "-in", str(data)], check=True, capture_output=True).stdout
        return signing_input + "." + b64url(sig)


def claims(sub: str, groups: list[str], **overrides) -> dict:
    now = int(time.time())
    base = {"iss": ISSUER, "aud": AUDIENCE, "preferred_username": sub, "sub": str(uuid.uuid4()),
            "groups": groups, "iat": now, "exp": now + 600}
    base.update(overrides)
    return base


@pytest.fixture
def oidc(server_factory, tmp_path):
    issuer = Issuer(tmp_path, "idp-key-1")
    stranger = Issuer(tmp_path, "idp-key-1")  # same kid, different key: must not verify
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps({"keys": [issuer.jwk]}))
    srv = server_factory(args=["--oidc-issuer", ISSUER, "--oidc-jwks-file", str(jwks),
                               "--oidc-audience", AUDIENCE,
                               "--oidc-subject-claim", "preferred_username",
                               "--oidc-roles-claim", "groups"])
    admin = firn_auth.Management(srv.uri)
    catalog = admin.list_catalogs()[0]
    ns = f"oidc_{uuid.uuid4().hex[:6]}"
    headers = {**firn_auth.auth_headers(srv.uri), "Content-Type": "application/json"}
    requests.post(srv.uri + "/v1/namespaces", json={"namespace": [ns]}, headers=headers,
                  timeout=30).raise_for_status()
    schema = {"type": "struct", "schema-id": 0,
              "fields": [{"id": 1, "name": "id", "type": "long", "required": False}]}
    requests.post(srv.uri + f"/v1/namespaces/{ns}/tables", json={"name": "t", "schema": schema},
                  headers=headers, timeout=30).raise_for_status()
    # Only roles: no principal named carol is ever created.
    admin.create_principal_role("analysts")
    admin.create_catalog_role(catalog, "ns_reader")
    admin.assign_catalog_role("analysts", catalog, "ns_reader")
    admin.grant(catalog, "ns_reader", "TABLE_READ_DATA", namespace=[ns])
    return srv, issuer, stranger, ns, catalog


def get(srv, path: str, token: str) -> requests.Response:
    return requests.get(srv.uri + path, headers={"Authorization": f"Bearer {token}"}, timeout=30)


def test_external_token_maps_subject_and_roles_claims(oidc):
    srv, issuer, _, ns, _ = oidc
    token = issuer.sign(claims("carol", ["analysts"]))
    r = get(srv, f"/v1/namespaces/{ns}/tables/t", token)
    assert r.status_code == 200, r.text
    # A role the admin never granted anything to: authenticated, but no privilege.
    other = issuer.sign(claims("dave", ["marketing"]))
    r = get(srv, f"/v1/namespaces/{ns}/tables/t", other)
    assert r.status_code == 403, r.text
    assert "dave" in r.json()["error"]["message"]
    # Reading is granted, creating is not.
    r = requests.post(srv.uri + f"/v1/namespaces/{ns}/tables",
                      json={"name": "x", "schema": {"type": "struct", "fields": []}},
                      headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert r.status_code == 403, r.text


def test_external_tokens_with_wrong_issuer_audience_key_or_expiry_are_401(oidc):
    srv, issuer, stranger, ns, _ = oidc
    path = f"/v1/namespaces/{ns}/tables/t"
    now = int(time.time())
    bad = {
        "wrong issuer": issuer.sign(claims("carol", ["analysts"], iss="https://evil.test")),
        "wrong audience": issuer.sign(claims("carol", ["analysts"], aud="someone-else")),
        "expired": issuer.sign(claims("carol", ["analysts"], iat=now - 7200, exp=now - 3600)),
        "other key, same kid": stranger.sign(claims("carol", ["analysts"])),
        "no subject claim": issuer.sign({k: v for k, v in claims("carol", ["analysts"]).items()
                                         if k != "preferred_username"}),
    }
    for what, token in bad.items():
        r = get(srv, path, token)
        assert r.status_code == 401, f"{what}: HTTP {r.status_code} {r.text}"
        assert r.json()["error"]["type"] == "NotAuthorizedException", what


def test_pyiceberg_works_with_an_external_token(oidc):
    srv, issuer, _, ns, _ = oidc
    token = issuer.sign(claims("carol", ["analysts"]))
    cat = RestCatalog("oidc", uri=srv.uri, token=token)
    assert cat.load_table((ns, "t")).metadata.table_uuid is not None
    with pytest.raises(ForbiddenError):
        cat.create_namespace(f"{ns}_new")
