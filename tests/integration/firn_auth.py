"""Credentials for the test suites (issue 5): the session's admin, tokens, and the Polaris
management API as plain HTTP.

Every `firn serve` a suite starts gets FIRN_BOOTSTRAP_CREDENTIALS=<realm>,<client id>,<secret>
from `admin_credentials()`. The values are generated once per test session and exported in
FIRN_TEST_ADMIN_CREDENTIALS, so worker subprocesses (concurrency, scenarios) and the engine and
scenario suites that import this module use the same admin.

FIRN_TEST_AUTH=off runs the suites without credentials (for a binary built before issue 5, or a
server started with --auth off); the auth-specific tests then fail, they do not skip.

Contract: plain functions and small classes; no global state beyond the token cache below,
which is keyed by (token URL, realm, client id, scope) and guarded by a lock.
"""

from __future__ import annotations

import base64
import os
import secrets
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import requests

ENV_ADMIN = "FIRN_TEST_ADMIN_CREDENTIALS"
REALM_HEADER = "Polaris-Realm"
DEFAULT_REALM = "default"
TOKEN_PATH = "/v1/oauth/tokens"
MGMT_PATH = "/api/management/v1"
TIMEOUT_S = 30


def auth_enabled() -> bool:
    return os.environ.get("FIRN_TEST_AUTH", "on").lower() not in ("off", "0", "false", "no")


@dataclass(frozen=True)
class Credentials:
    realm: str
    client_id: str
    client_secret: str

    @property
    def credential(self) -> str:
        """The `credential` catalog property of Iceberg clients: "<id>:<secret>"."""
        return f"{self.client_id}:{self.client_secret}"

    def bootstrap_value(self) -> str:
        return f"{self.realm},{self.client_id},{self.client_secret}"


def read_admin_credentials(path: Path) -> Credentials:
    """The credentials `firn serve` generated on first start, from <data-dir>/admin-credentials:
    `key=value` lines realm, principal, client_id, client_secret (README.md, "Connect a client";
    written by src/app/first_start.cc)."""
    text = path.read_text()
    fields = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    missing = {"realm", "principal", "client_id", "client_secret"} - fields.keys()
    assert not missing, f"{path} lacks {sorted(missing)}; it holds the keys {sorted(fields)}"
    return Credentials(fields["realm"], fields["client_id"], fields["client_secret"])


def new_secret() -> str:
    """A random client secret that command lines take as a value: `polaris --client-secret -x…`
    reads a leading '-' as an option (one token_urlsafe draw in 64 starts so), like Firn's own."""
    while True:
        value = secrets.token_urlsafe(24)
        if not value.startswith("-"):
            return value


def admin_credentials() -> Credentials:
    """The session's admin credentials (generated on first use, inherited by subprocesses)."""
    value = os.environ.get(ENV_ADMIN)
    if not value:
        value = f"{DEFAULT_REALM},firnadmin{secrets.token_hex(6)},{new_secret()}"
        os.environ[ENV_ADMIN] = value
    realm, client_id, secret = value.split(",", 2)
    return Credentials(realm, client_id, secret)


ENV_KEK = "FIRN_TEST_KEK"


def session_kek() -> str:
    """The session's key-encryption key (generated on first use, inherited by subprocesses)."""
    value = os.environ.get(ENV_KEK)
    if not value:
        value = secrets.token_urlsafe(32)
        os.environ[ENV_KEK] = value
    return value


def kek_env() -> dict[str, str]:
    """FIRN_KEK for a `firn serve` or admin command that must share the session's KEK: every
    instance on PostgreSQL (which requires one), and every instance of a suite that moves a
    database between backends or instances. The one place harnesses get a KEK from; a server
    on the embedded SQLite default without it generates <data-dir>.kek instead."""
    return {"FIRN_KEK": session_kek()}


def bootstrap_env() -> dict[str, str]:
    """Environment entries that make a fresh `firn serve` bootstrap the session admin."""
    if not auth_enabled():
        return {}
    return {"FIRN_BOOTSTRAP_CREDENTIALS": admin_credentials().bootstrap_value()}


# ---------------------------------------------------------------------------------------------
# Token endpoint
# ---------------------------------------------------------------------------------------------
def request_token(
    uri: str,
    client_id: str,
    client_secret: str,
    scope: str | None = "PRINCIPAL_ROLE:ALL",
    realm: str | None = None,
    basic: bool = False,
    path: str = TOKEN_PATH,
) -> requests.Response:
    """POST client_credentials to the token endpoint; the raw response."""
    headers = {}
    data = {"grant_type": "client_credentials"}
    if scope is not None:
        data["scope"] = scope
    if basic:
        raw = f"{client_id}:{client_secret}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(raw).decode()
    else:
        data.update(client_id=client_id, client_secret=client_secret)
    if realm is not None:
        headers[REALM_HEADER] = realm
    return requests.post(uri.rstrip("/") + path, data=data, headers=headers, timeout=TIMEOUT_S)


def exchange_token(uri: str, subject_token: str, scope: str = "catalog",
                   realm: str | None = None, bearer: str | None = None) -> requests.Response:
    """The token-exchange grant as Iceberg Java sends it to refresh (Bearer = current token)."""
    headers = {"Authorization": f"Bearer {bearer or subject_token}"}
    if realm is not None:
        headers[REALM_HEADER] = realm
    data = {
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
        "scope": scope,
        "subject_token": subject_token,
        "subject_token_type": "urn:ietf:params:oauth:token-type:access_token",
    }
    return requests.post(uri.rstrip("/") + TOKEN_PATH, data=data, headers=headers,
                         timeout=TIMEOUT_S)


class TokenError(RuntimeError):
    pass


_cache: dict[tuple, tuple[str, float]] = {}
_cache_lock = threading.Lock()


def token_for(uri: str, creds: Credentials, scope: str = "PRINCIPAL_ROLE:ALL",
              fresh: bool = False) -> str:
    """A bearer token for `creds`, cached until 30 s before its expires_in."""
    key = (uri, creds.realm, creds.client_id, creds.client_secret, scope)
    now = time.monotonic()
    with _cache_lock:
        hit = _cache.get(key)
        if hit and not fresh and hit[1] > now:
            return hit[0]
    r = request_token(uri, creds.client_id, creds.client_secret, scope=scope, realm=creds.realm)
    if r.status_code != 200:
        raise TokenError(f"token request for {creds.client_id} in realm {creds.realm}: "
                         f"HTTP {r.status_code} {r.text[:300]}")
    body = r.json()
    ttl = float(body.get("expires_in", 300))
    with _cache_lock:
        _cache[key] = (body["access_token"], now + max(1.0, ttl - 30 if ttl > 60 else ttl / 2))
    return body["access_token"]


def forget_tokens(uri: str | None = None) -> None:
    """Drops cached tokens (of one server URI, or all)."""
    with _cache_lock:
        for key in [k for k in _cache if uri is None or k[0] == uri]:
            del _cache[key]


def auth_headers(uri: str, creds: Credentials | None = None, scope: str = "PRINCIPAL_ROLE:ALL"
                 ) -> dict[str, str]:
    """Authorization (and realm) headers for `creds` (default: the session admin)."""
    if not auth_enabled():
        return {}
    creds = creds or admin_credentials()
    return {"Authorization": f"Bearer {token_for(uri, creds, scope)}", REALM_HEADER: creds.realm}


class BearerAuth(requests.auth.AuthBase):
    """requests auth: a cached token; on a 401, one fresh token and one retry (as PyIceberg)."""

    def __init__(self, uri: str, creds: Credentials | None = None) -> None:
        self.uri = uri
        self.creds = creds or admin_credentials()

    def __call__(self, r):
        if not auth_enabled():
            return r
        r.headers["Authorization"] = f"Bearer {token_for(self.uri, self.creds)}"
        r.headers.setdefault(REALM_HEADER, self.creds.realm)
        r.register_hook("response", self._retry_401)
        return r

    def _retry_401(self, resp, **kwargs):
        if resp.status_code != 401 or getattr(resp.request, "_firn_retried", False):
            return resp
        resp.content  # release the connection
        retry = resp.request.copy()
        retry._firn_retried = True
        retry.headers["Authorization"] = f"Bearer {token_for(self.uri, self.creds, fresh=True)}"
        new = resp.connection.send(retry, **kwargs)
        new.history.append(resp)
        return new


def pyiceberg_auth_properties(uri: str, creds: Credentials | None = None,
                              scope: str = "PRINCIPAL_ROLE:ALL") -> dict[str, str]:
    """RestCatalog properties that authenticate as `creds` with client credentials."""
    if not auth_enabled():
        return {}
    creds = creds or admin_credentials()
    return {
        "credential": creds.credential,
        "scope": scope,
        "oauth2-server-uri": uri.rstrip("/") + TOKEN_PATH,
        f"header.{REALM_HEADER}": creds.realm,
    }


# ---------------------------------------------------------------------------------------------
# Management API (polaris-management-service.yml), plain HTTP
# ---------------------------------------------------------------------------------------------
class ManagementError(AssertionError):
    pass


@dataclass
class Principal:
    name: str
    client_id: str
    client_secret: str
    realm: str = DEFAULT_REALM

    @property
    def creds(self) -> Credentials:
        return Credentials(self.realm, self.client_id, self.client_secret)


class Management:
    """/api/management/v1 as `creds` (default: the admin). Each helper asserts its status."""

    def __init__(self, uri: str, creds: Credentials | None = None) -> None:
        self.uri = uri.rstrip("/")
        self.creds = creds or admin_credentials()
        self.session = requests.Session()

    def request(self, method: str, path: str, **kw) -> requests.Response:
        headers = {**auth_headers(self.uri, self.creds), **kw.pop("headers", {})}
        kw.setdefault("timeout", TIMEOUT_S)
        return self.session.request(method, self.uri + MGMT_PATH + path, headers=headers, **kw)

    def ok(self, method: str, path: str, expect=(200, 201, 204), **kw) -> requests.Response:
        r = self.request(method, path, **kw)
        if r.status_code not in expect:
            raise ManagementError(f"{method} {MGMT_PATH}{path}: HTTP {r.status_code} {r.text[:400]}")
        return r

    # catalogs
    def create_catalog(self, name: str, base_location: str, storage_type: str = "FILE",
                       allowed_locations: list[str] | None = None,
                       properties: dict | None = None) -> dict:
        storage = {"storageType": storage_type}
        if allowed_locations:
            storage["allowedLocations"] = allowed_locations
        body = {"catalog": {
            "type": "INTERNAL", "name": name,
            "properties": {"default-base-location": base_location, **(properties or {})},
            "storageConfigInfo": storage}}
        return self.ok("POST", "/catalogs", json=body).json()

    def get_catalog(self, name: str) -> dict:
        return self.ok("GET", f"/catalogs/{name}").json()

    def list_catalogs(self) -> list[str]:
        return sorted(c["name"] for c in self.ok("GET", "/catalogs").json()["catalogs"])

    # principals
    def create_principal(self, name: str) -> Principal:
        body = self.ok("POST", "/principals", json={"principal": {"name": name}}).json()
        cred = body["credentials"]
        return Principal(name, cred["clientId"], cred["clientSecret"], self.creds.realm)

    def rotate(self, name: str) -> dict:
        return self.ok("POST", f"/principals/{name}/rotate").json()["credentials"]

    def reset(self, name: str) -> dict:
        return self.ok("POST", f"/principals/{name}/reset", json={}).json()["credentials"]

    def create_principal_role(self, name: str) -> None:
        self.ok("POST", "/principal-roles", json={"principalRole": {"name": name}})

    def assign_principal_role(self, principal: str, role: str) -> None:
        self.ok("PUT", f"/principals/{principal}/principal-roles",
                json={"principalRole": {"name": role}})

    def create_catalog_role(self, catalog: str, role: str) -> None:
        self.ok("POST", f"/catalogs/{catalog}/catalog-roles",
                json={"catalogRole": {"name": role}})

    def assign_catalog_role(self, principal_role: str, catalog: str, catalog_role: str) -> None:
        self.ok("PUT", f"/principal-roles/{principal_role}/catalog-roles/{catalog}",
                json={"catalogRole": {"name": catalog_role}})

    def grant(self, catalog: str, catalog_role: str, privilege: str,
              namespace: list[str] | None = None, table: str | None = None,
              view: str | None = None) -> None:
        self.ok("PUT", f"/catalogs/{catalog}/catalog-roles/{catalog_role}/grants",
                json={"grant": grant_body(privilege, namespace, table, view)})

    def revoke(self, catalog: str, catalog_role: str, privilege: str,
               namespace: list[str] | None = None, table: str | None = None,
               view: str | None = None) -> None:
        self.ok("POST", f"/catalogs/{catalog}/catalog-roles/{catalog_role}/grants",
                json={"grant": grant_body(privilege, namespace, table, view)})

    def grants(self, catalog: str, catalog_role: str) -> list[dict]:
        return self.ok("GET", f"/catalogs/{catalog}/catalog-roles/{catalog_role}/grants"
                       ).json()["grants"]

    def principal_with(self, name: str, catalog: str,
                       grants: list[tuple] = ()) -> Principal:
        """A new principal with its own principal role and catalog role in `catalog`, holding
        `grants`: tuples (privilege, namespace list or None, table or None, view or None)."""
        p = self.create_principal(name)
        self.create_principal_role(f"{name}_pr")
        self.assign_principal_role(name, f"{name}_pr")
        self.create_catalog_role(catalog, f"{name}_cr")
        self.assign_catalog_role(f"{name}_pr", catalog, f"{name}_cr")
        for g in grants:
            self.grant(catalog, f"{name}_cr", *g)
        return p


def grant_body(privilege: str, namespace: list[str] | None = None, table: str | None = None,
               view: str | None = None) -> dict:
    if table is not None:
        return {"type": "table", "namespace": namespace, "tableName": table,
                "privilege": privilege}
    if view is not None:
        return {"type": "view", "namespace": namespace, "viewName": view, "privilege": privilege}
    if namespace is not None:
        return {"type": "namespace", "namespace": namespace, "privilege": privilege}
    return {"type": "catalog", "privilege": privilege}


# ---------------------------------------------------------------------------------------------
# The Polaris CLI (PyPI apache-polaris)
# ---------------------------------------------------------------------------------------------
def polaris_cli() -> str:
    """The `polaris` executable: $FIRN_POLARIS_CLI, else beside this Python, else on PATH."""
    for candidate in (os.environ.get("FIRN_POLARIS_CLI"),
                      str(Path(sys.executable).parent / "polaris"), shutil.which("polaris")):
        if candidate and Path(candidate).is_file():
            return candidate
    raise FileNotFoundError("the Polaris CLI is not installed (apache-polaris in "
                            "scripts/requirements-test.txt; run scripts/install.sh)")


def run_polaris(uri: str, *args: str, creds: Credentials | None = None, realm: str | None = None,
                check: bool = True, home: Path | None = None) -> subprocess.CompletedProcess:
    """Runs `polaris --base-url uri [--realm R] args...` with the credentials in CLIENT_ID /
    CLIENT_SECRET (never on the command line)."""
    creds = creds or admin_credentials()
    cmd = [polaris_cli(), "--base-url", uri.rstrip("/")]
    if realm:
        cmd += ["--realm", realm]
    env = {**os.environ, "CLIENT_ID": creds.client_id, "CLIENT_SECRET": creds.client_secret}
    if home is not None:
        env["POLARIS_HOME"] = str(home)
    p = subprocess.run([*cmd, *args], capture_output=True, text=True, env=env, timeout=120)
    if check and p.returncode != 0:
        raise ManagementError(f"polaris {' '.join(args)} -> {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p
