"""The token endpoint and token lifecycle (issue 5): client credentials in the form body and in
HTTP Basic, scopes, token exchange, OAuth error shapes, throttling, tokens that survive a
restart, rotation and reset that revoke, expiry with PyIceberg's refresh, and logs that never
hold a token or a secret.

Tests that need their own flags (token lifetime) or must not disturb the shared server
(throttling, restarts) start a private server."""

from __future__ import annotations

import base64
import json
import os
import stat
import subprocess
import threading
import time
import uuid

import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog

import firn_auth
from conftest import FIRN_BINARY, catalog_properties, short_token_lifetime
from firn_auth import Credentials, Management, request_token

ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"

pytestmark = pytest.mark.firn_only("authentication and authorisation (issue 5)")


def _get(srv, path: str, token: str | None, realm: str | None = None) -> requests.Response:
    headers = {}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if realm is not None:
        headers[firn_auth.REALM_HEADER] = realm
    return requests.get(srv.uri + path, headers=headers, timeout=30)


def _assert_token_response(r: requests.Response) -> dict:
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["token_type"].lower() == "bearer"
    assert body["issued_token_type"] == ACCESS_TOKEN_TYPE
    assert isinstance(body["expires_in"], int) and body["expires_in"] > 0
    assert len(body["access_token"].split(".")) == 3, "a compact JWS"
    assert r.headers.get("Cache-Control", "").lower().find("no-store") >= 0, r.headers
    return body


def _oauth_error(r: requests.Response, status: int, error: str) -> dict:
    assert r.status_code == status, f"expected {status} {error}, got {r.status_code} {r.text}"
    body = r.json()
    assert body.get("error") == error, body
    assert "error_description" not in body or isinstance(body["error_description"], str)
    return body


def _iceberg_error(r: requests.Response, status: int) -> dict:
    assert r.status_code == status, f"expected {status}, got {r.status_code} {r.text}"
    err = r.json()["error"]
    assert err["code"] == status, err
    return err


def _claims(token: str) -> dict:
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


# ---------------------------------------------------------------------------------------------
# Grants and shapes
# ---------------------------------------------------------------------------------------------
def test_client_credentials_in_form_body(server):
    a = firn_auth.admin_credentials()
    body = _assert_token_response(request_token(server.uri, a.client_id, a.client_secret))
    assert _get(server, "/v1/config", body["access_token"]).status_code == 200
    claims = _claims(body["access_token"])
    assert claims["realm"] == a.realm and claims["exp"] > time.time()


def test_client_credentials_in_http_basic(server):
    a = firn_auth.admin_credentials()
    body = _assert_token_response(
        request_token(server.uri, a.client_id, a.client_secret, basic=True))
    assert _get(server, "/v1/config", body["access_token"]).status_code == 200


def test_token_endpoint_under_polaris_catalog_path(server):
    a = firn_auth.admin_credentials()
    r = request_token(server.uri, a.client_id, a.client_secret,
                      path="/api/catalog/v1/oauth/tokens")
    body = _assert_token_response(r)
    assert _get(server, "/v1/config", body["access_token"]).status_code == 200


@pytest.mark.parametrize("scope", ["PRINCIPAL_ROLE:ALL", "catalog", None])
def test_accepted_scopes(server, scope):
    a = firn_auth.admin_credentials()
    _assert_token_response(request_token(server.uri, a.client_id, a.client_secret, scope=scope))


def test_bad_secret_is_401_invalid_client(server):
    a = firn_auth.admin_credentials()
    r = request_token(server.uri, a.client_id, a.client_secret + "x")
    _oauth_error(r, 401, "invalid_client")
    assert a.client_secret not in r.text


def test_unknown_client_is_401_invalid_client(server):
    _oauth_error(request_token(server.uri, "no-such-client", "whatever"), 401, "invalid_client")


def test_unsupported_grant_type_is_400(server):
    a = firn_auth.admin_credentials()
    r = requests.post(server.uri + firn_auth.TOKEN_PATH, timeout=30,
                      data={"grant_type": "password", "username": a.client_id,
                            "password": a.client_secret})
    _oauth_error(r, 400, "unsupported_grant_type")


def test_missing_grant_type_is_400_invalid_request(server):
    r = requests.post(server.uri + firn_auth.TOKEN_PATH, data={"client_id": "x"}, timeout=30)
    _oauth_error(r, 400, "invalid_request")


def test_token_exchange_refreshes_a_valid_token(server):
    """Iceberg Java's refresh: grant token-exchange, subject_token = current token, Bearer."""
    a = firn_auth.admin_credentials()
    first = _assert_token_response(request_token(server.uri, a.client_id, a.client_secret))
    r = firn_auth.exchange_token(server.uri, first["access_token"], scope="PRINCIPAL_ROLE:ALL")
    second = _assert_token_response(r)
    assert _get(server, "/v1/config", second["access_token"]).status_code == 200
    assert _claims(second["access_token"])["sub"] == _claims(first["access_token"])["sub"]


def test_token_exchange_with_a_forged_subject_is_refused(server):
    a = firn_auth.admin_credentials()
    good = request_token(server.uri, a.client_id, a.client_secret).json()["access_token"]
    head, payload, sig = good.split(".")
    forged = ".".join([head, payload, sig[:-4] + ("AAAA" if not sig.endswith("AAAA") else "BBBB")])
    r = firn_auth.exchange_token(server.uri, forged, bearer=forged)
    assert r.status_code in (400, 401), r.text
    assert r.json().get("error") in ("invalid_grant", "invalid_client", "invalid_request")


# ---------------------------------------------------------------------------------------------
# Requests without (valid) tokens
# ---------------------------------------------------------------------------------------------
def test_missing_token_is_401(server, api):
    prefix = api.v1
    for path in ("/v1/config", f"{prefix}/namespaces", "/api/management/v1/catalogs"):
        r = _get(server, path, None)
        assert r.status_code == 401, f"{path}: {r.status_code} {r.text}"


def test_garbage_and_tampered_tokens_are_401(server, api):
    a = firn_auth.admin_credentials()
    good = request_token(server.uri, a.client_id, a.client_secret).json()["access_token"]
    head, payload, sig = good.split(".")
    claims = _claims(good)
    claims["sub"] = "someone-else"
    evil_payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    none_header = base64.urlsafe_b64encode(b'{"alg":"none","typ":"JWT"}').decode().rstrip("=")
    for token in ("garbage", f"{head}.{evil_payload}.{sig}", f"{none_header}.{payload}.",
                  good[:-2]):
        err = _iceberg_error(_get(server, f"{api.v1}/namespaces", token), 401)
        assert token not in err["message"]


def test_basic_auth_is_not_accepted_on_catalog_endpoints(server, api):
    a = firn_auth.admin_credentials()
    r = requests.get(server.uri + f"{api.v1}/namespaces", auth=(a.client_id, a.client_secret),
                     timeout=30)
    assert r.status_code == 401, r.text


# ---------------------------------------------------------------------------------------------
# Throttling
# ---------------------------------------------------------------------------------------------
def test_repeated_failures_are_throttled(server_factory):
    srv = server_factory()
    a = firn_auth.admin_credentials()
    statuses = []
    for _ in range(60):
        r = request_token(srv.uri, a.client_id, "wrong-" + a.client_secret)
        statuses.append(r.status_code)
        if r.status_code == 429:
            break
    assert 429 in statuses, f"no 429 after {len(statuses)} failed logins: {statuses}"
    assert set(statuses) <= {401, 429}, statuses
    assert r.json().get("error") in ("slow_down", "temporarily_unavailable", "invalid_client",
                                     "too_many_requests"), r.text
    assert r.headers.get("Retry-After", "").isdigit(), r.headers
    # The throttle lifts: after Retry-After seconds the right secret works again.
    time.sleep(min(int(r.headers["Retry-After"]), 60) + 1)
    _assert_token_response(request_token(srv.uri, a.client_id, a.client_secret))


def test_brute_forcer_does_not_lock_out_another_client_from_its_address(server_factory):
    """The attack (issue 9): from 127.0.0.1, wrong secrets for client A and for random client
    ids, while client B logs in from the same address. B keeps logging in; A stays throttled
    from here."""
    srv = server_factory()
    admin = Management(srv.uri)
    victim = admin.create_principal(f"victim_{uuid.uuid4().hex[:6]}")
    other = admin.create_principal(f"client_b_{uuid.uuid4().hex[:6]}")
    stop = threading.Event()
    seen: list[tuple[str, int]] = []

    def attack() -> None:
        i = 0
        while not stop.is_set():
            r = request_token(srv.uri, victim.client_id, f"guess-{i}-{victim.client_secret[:4]}x")
            seen.append(("victim", r.status_code))
            r = request_token(srv.uri, f"random-{uuid.uuid4().hex}", "guess")
            seen.append(("random", r.status_code))
            i += 1

    attackers = [threading.Thread(target=attack, daemon=True) for _ in range(2)]
    for t in attackers:
        t.start()
    try:
        deadline = time.monotonic() + 120
        while ("victim", 429) not in seen:
            assert time.monotonic() < deadline, f"victim never throttled: {seen[-20:]}"
            time.sleep(0.1)
        for _ in range(5):  # B, same address, during the attack
            r = request_token(srv.uri, other.client_id, other.client_secret)
            assert r.status_code == 200, r.text
            _assert_token_response(r)
            time.sleep(0.2)
        # A is still throttled from the attacker's address, even with the right secret.
        r = request_token(srv.uri, victim.client_id, victim.client_secret)
        assert r.status_code == 429 and r.json()["error"] == "slow_down", r.text
        assert r.headers.get("Retry-After", "").isdigit(), r.headers
    finally:
        stop.set()
        for t in attackers:
            t.join(timeout=60)
    # Every attacker attempt was refused, OAuth-shaped; random ids lock nobody out.
    assert set(seen) <= {("victim", 401), ("victim", 429), ("random", 401)}, set(seen)


# ---------------------------------------------------------------------------------------------
# Lifecycle: restart, rotation, reset, expiry
# ---------------------------------------------------------------------------------------------
def test_token_survives_server_restart(server_factory):
    srv = server_factory()
    a = firn_auth.admin_credentials()
    token = request_token(srv.uri, a.client_id, a.client_secret).json()["access_token"]
    cat = RestCatalog("before", **catalog_properties(srv))
    cat.create_namespace("survivor")
    assert srv.restart() == 0
    # The raw token and the catalog's cached token both still work: keys live in the database.
    assert _get(srv, "/v1/config", token).status_code == 200
    assert ("survivor",) in cat.list_namespaces()
    session_token = cat._session.auth.auth_manager._token  # noqa: SLF001 (what it sends)
    assert _get(srv, "/v1/config", session_token).status_code == 200


def test_signing_key_rotation_keeps_issued_tokens_valid(server_factory):
    srv = server_factory()
    a = firn_auth.admin_credentials()
    old = _assert_token_response(request_token(srv.uri, a.client_id, a.client_secret))
    p = subprocess.run([str(FIRN_BINARY), "admin", "rotate-keys", "--realm", a.realm, "--db",
                        f"sqlite://{srv.data_dir.resolve()}/firn.db", "--overlap", "3900"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    # The running server picks the new key up; tokens signed by the old one keep verifying.
    deadline = time.monotonic() + 10
    while True:
        new = _assert_token_response(request_token(srv.uri, a.client_id, a.client_secret))
        if _header(new["access_token"])["kid"] != _header(old["access_token"])["kid"]:
            break
        assert time.monotonic() < deadline, "new tokens are still signed by the old key"
        time.sleep(0.2)
    assert _get(srv, "/v1/config", old["access_token"]).status_code == 200
    assert _get(srv, "/v1/config", new["access_token"]).status_code == 200
    assert srv.restart() == 0
    assert _get(srv, "/v1/config", old["access_token"]).status_code == 200
    assert _get(srv, "/v1/config", new["access_token"]).status_code == 200


def _header(token: str) -> dict:
    part = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def test_rotation_revokes_earlier_tokens_and_keeps_previous_secret(server, admin, unique_name):
    p = admin.create_principal(unique_name("rot"))
    s1 = p.client_secret
    t1 = request_token(server.uri, p.client_id, s1).json()["access_token"]
    assert _get(server, "/v1/config", t1).status_code == 200

    rotated = admin.rotate(p.name)
    assert rotated["clientId"] == p.client_id
    s2 = rotated["clientSecret"]
    assert s2 != s1
    _iceberg_error(_get(server, "/v1/config", t1), 401)  # issued before the rotation
    t_prev = request_token(server.uri, p.client_id, s1)  # previous secret still works
    assert _get(server, "/v1/config", _assert_token_response(t_prev)["access_token"]
                ).status_code == 200
    t2 = _assert_token_response(request_token(server.uri, p.client_id, s2))["access_token"]

    s3 = admin.rotate(p.name)["clientSecret"]
    _oauth_error(request_token(server.uri, p.client_id, s1), 401, "invalid_client")
    _assert_token_response(request_token(server.uri, p.client_id, s2))  # now the previous one
    _assert_token_response(request_token(server.uri, p.client_id, s3))
    _iceberg_error(_get(server, "/v1/config", t2), 401)


def test_reset_revokes_tokens_and_secrets(server, admin, unique_name):
    p = admin.create_principal(unique_name("reset"))
    t1 = request_token(server.uri, p.client_id, p.client_secret).json()["access_token"]
    new = admin.reset(p.name)
    _iceberg_error(_get(server, "/v1/config", t1), 401)
    _oauth_error(request_token(server.uri, p.client_id, p.client_secret), 401, "invalid_client")
    _assert_token_response(request_token(server.uri, new["clientId"], new["clientSecret"]))


def test_secret_is_shown_once(server, admin, unique_name):
    p = admin.create_principal(unique_name("once"))
    r = admin.ok("GET", f"/principals/{p.name}")
    assert p.client_secret not in r.text
    assert r.json()["clientId"] == p.client_id
    listed = admin.ok("GET", "/principals").text
    assert p.client_secret not in listed


# Below the production minimum (60 s): the server's test mode admits it, so the wait is short.
LIFETIME_S = 5


def test_token_lifetime_below_a_minute_is_refused_outside_test_mode(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "FIRN_TEST_MODE"}
    cmd = [str(FIRN_BINARY), "serve", "--data-dir", str(tmp_path / "data"),
           "--listen", "127.0.0.1:0", "--token-lifetime", str(LIFETIME_S)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "token_lifetime: expected an integer >= 60" in p.stdout + p.stderr
    assert not (tmp_path / "data" / "firn.db").exists(), "refused before opening the database"


def test_expired_token_is_401_and_pyiceberg_refreshes(server_factory):
    args, env = short_token_lifetime(LIFETIME_S)
    srv = server_factory(args=args, env=env)
    assert "test mode (FIRN_TEST_MODE)" in srv.log_path.read_text()
    a = firn_auth.admin_credentials()
    body = _assert_token_response(request_token(srv.uri, a.client_id, a.client_secret))
    assert body["expires_in"] <= LIFETIME_S
    cat = RestCatalog("expiring", **catalog_properties(srv))
    cat.create_namespace("exp")
    first = cat._session.auth.auth_manager._token  # noqa: SLF001
    # Wait until the server refuses both old tokens (Firn's own tokens have no exp leeway).
    deadline = time.monotonic() + LIFETIME_S + 30
    while time.monotonic() < deadline:
        r = _get(srv, "/v1/config", body["access_token"])
        r_first = _get(srv, "/v1/config", first)
        if r.status_code == 401 and r_first.status_code == 401:
            break
        assert {r.status_code, r_first.status_code} <= {200, 401}, (r.text, r_first.text)
        time.sleep(1)
    err = _iceberg_error(r, 401)
    assert err["type"] in ("NotAuthorizedException", "NotAuthorizedError"), err
    _iceberg_error(r_first, 401)
    # PyIceberg's retry on 401 fetches a new token and the operation succeeds.
    cat.create_namespace("after_expiry")
    assert {("exp",), ("after_expiry",)} <= set(cat.list_namespaces())
    assert cat._session.auth.auth_manager._token != first  # noqa: SLF001


# ---------------------------------------------------------------------------------------------
# Logs and the bootstrap credentials file
# ---------------------------------------------------------------------------------------------
def test_tokens_and_secrets_never_appear_in_the_log(server_factory):
    srv = server_factory(env={"FIRN_LOG_LEVEL": "debug"})
    a = firn_auth.admin_credentials()
    mgmt = Management(srv.uri)
    secrets_seen = {a.client_secret}
    tokens = []
    bad = "wrong-secret-" + os.urandom(6).hex()
    secrets_seen.add(bad)
    request_token(srv.uri, a.client_id, bad)  # a failed login
    request_token(srv.uri, a.client_id, bad, basic=True)
    for basic in (False, True):
        tokens.append(request_token(srv.uri, a.client_id, a.client_secret, basic=basic
                                    ).json()["access_token"])
    p = mgmt.create_principal("logged")
    secrets_seen.add(p.client_secret)
    secrets_seen.add(mgmt.rotate("logged")["clientSecret"])
    secrets_seen.add(mgmt.reset("logged")["clientSecret"])
    cat = RestCatalog("logs", **catalog_properties(srv))
    cat.create_namespace("logs")
    tokens.append(cat._session.auth.auth_manager._token)  # noqa: SLF001
    tokens.append(firn_auth.exchange_token(srv.uri, tokens[0]).json()["access_token"])
    _get(srv, "/v1/config", tokens[0][:-3] + "abc")  # a tampered token
    srv.stop()
    log = srv.log_path.read_text(errors="replace")
    assert log.strip(), "the server wrote no log at all"
    for s in secrets_seen:
        assert s not in log, "a client secret appears in the server log"
    for t in tokens:
        assert t not in log, "an access token appears in the server log"
        assert t.split(".")[2] not in log, "a token signature appears in the server log"


def test_generated_admin_credentials_go_to_a_0600_file_not_the_log(server_factory):
    srv = server_factory(env={"FIRN_BOOTSTRAP_CREDENTIALS": None}, start=False)
    srv.auth_override = False  # readiness without credentials: we do not know them yet
    srv.start()
    path = srv.data_dir / "admin-credentials"
    assert path.is_file(), f"no {path}; data dir holds {sorted(os.listdir(srv.data_dir))}"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    creds = firn_auth.read_admin_credentials(path)
    assert creds.realm == firn_auth.DEFAULT_REALM
    cid, secret = creds.client_id, creds.client_secret
    log = srv.log_path.read_text(errors="replace")
    assert str(path) in log or "admin-credentials" in log, "the operator is not told where"
    assert secret not in log
    body = _assert_token_response(request_token(srv.uri, cid, secret))
    assert _get(srv, "/v1/config", body["access_token"]).status_code == 200
    # Told once: a restart does not bootstrap again or rewrite the file.
    before = path.read_text()
    srv.restart()
    assert path.read_text() == before
    _assert_token_response(request_token(srv.uri, cid, secret))


def test_auth_off_serves_anonymously(server_factory):
    srv = server_factory(args=["--auth", "off"])
    assert _get(srv, "/v1/config", None).status_code == 200
