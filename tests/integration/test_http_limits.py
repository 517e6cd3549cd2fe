"""Request limits (issue 9): nothing is buffered before authentication, connections and
in-flight body bytes are capped, every refusal is an ErrorModel (OAuth-shaped on the token
endpoint) and the server's memory comes back after an attack.

The slow-body load is bench/slow_bodies.py (the same driver bench/run_slow_bodies.sh prints);
these tests assert bounds on its figures and print them."""

from __future__ import annotations

import json
import socket
import sys
import time

import pytest
import requests

import firn_auth
from conftest import REPO_ROOT, http_headers

sys.path.insert(0, str(REPO_ROOT / "bench"))
import slow_bodies  # noqa: E402  (bench/slow_bodies.py)

pytestmark = pytest.mark.firn_only("request limits (issue 9)")

MIB = 1 << 20


def _raw(srv, request: bytes, timeout: float = 10.0) -> tuple[int, dict, str, socket.socket]:
    """Sends raw bytes, reads one answer; returns status, headers, body and the open socket."""
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=timeout)
    s.sendall(request)
    data = b""
    while True:
        parsed = slow_bodies._parse(data)  # noqa: SLF001 (the driver's one response parser)
        if parsed:
            break
        chunk = s.recv(65536)
        assert chunk, f"closed without an answer after {data!r}"
        data += chunk
    head = data.partition(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    fields = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in head[1:])}
    return parsed[0], fields, parsed[1], s


def _closed(s: socket.socket, timeout: float = 5.0) -> bool:
    """True when the server closes `s` (EOF or reset) within `timeout`, whatever it discards."""
    s.settimeout(timeout)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if not s.recv(65536):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False
    return False


def _header(method: str, path: str, length: int, *extra: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
             f"Content-Length: {length}", *extra, "", ""]
    return "\r\n".join(lines).encode()


def _error_model(body: str, code: int) -> dict:
    err = json.loads(body)["error"]
    assert err["code"] == code and err["type"] and err["message"], body
    return err


def _pid(srv) -> int:
    return srv.proc.pid


# ---------------------------------------------------------------------------------------------
# Refusals from the header alone
# ---------------------------------------------------------------------------------------------
def test_bodies_without_a_valid_token_are_refused_before_they_are_sent(server_factory):
    srv = server_factory()
    # Only the header of a 15 MiB body goes out; every answer must come without the body.
    for extra, path in (((), "/v1/namespaces"),
                        (("Authorization: Bearer forged.jwt.value",), "/v1/namespaces"),
                        ((), "/api/management/v1/principals"),
                        ((), "/api/catalog/v1/default/namespaces/db/tables")):
        status, fields, body, s = _raw(srv, _header("POST", path, 15 * MIB, *extra))
        assert status == 401, (path, extra, body)
        assert _error_model(body, 401)["type"] == "NotAuthorizedException"
        assert fields.get("connection") == "close", fields
        assert _closed(s), f"{path}: connection left open with an unread body"
        s.close()
    # An unknown route is refused the same way (404), before authentication and the body.
    status, _, body, s = _raw(srv, _header("POST", "/v1/nowhere", 15 * MIB))
    assert status == 404 and _error_model(body, 404)
    assert _closed(s)
    s.close()


def test_token_endpoint_has_its_own_small_body_cap(server_factory):
    srv = server_factory()
    status, fields, body, s = _raw(srv, _header("POST", "/v1/oauth/tokens", 1 * MIB))
    s.close()
    assert status == 413, body
    err = json.loads(body)  # OAuth shape, as token clients parse it
    assert err["error"] == "invalid_request" and "65536" in err["error_description"], body
    assert fields.get("cache-control") == "no-store", fields
    # A normal token request still works.
    a = firn_auth.admin_credentials()
    assert firn_auth.request_token(srv.uri, a.client_id, a.client_secret).status_code == 200


def test_admitted_requests_still_work_with_bodies(server_factory):
    srv = server_factory()
    r = requests.post(srv.uri + "/v1/namespaces", json={"namespace": ["limits_ok"]},
                      headers=http_headers(srv), timeout=30)
    assert r.status_code == 200, r.text
    # A body over max-body-bytes from an authenticated client: 413 ErrorModel, not read.
    status, _, body, s = _raw(srv, _header("POST", "/v1/namespaces", 17 * MIB,
                                           f"Authorization: {http_headers(srv)['Authorization']}"))
    s.close()
    assert status == 413 and _error_model(body, 413)


# ---------------------------------------------------------------------------------------------
# Caps
# ---------------------------------------------------------------------------------------------
def test_connections_over_the_cap_get_503_and_a_freed_place_is_reused(server_factory):
    srv = server_factory(args=["--max-connections", "8"])
    time.sleep(0.5)  # the readiness probe's connections are gone
    held = [socket.create_connection(("127.0.0.1", srv.port), timeout=10) for _ in range(8)]
    time.sleep(0.3)  # all eight accepted
    status, fields, body, extra = _raw(srv, b"GET /v1/config HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 503, body
    assert _error_model(body, 503)["type"] == "ServiceUnavailableException"
    assert fields.get("retry-after") == "1" and fields.get("connection") == "close", fields
    assert _closed(extra)
    extra.close()
    for s in held:
        s.close()
    deadline = time.monotonic() + 5
    while True:
        try:
            r = requests.get(srv.uri + "/v1/config", headers=http_headers(srv), timeout=5)
            if r.status_code == 200:
                break
        except requests.ConnectionError:
            pass
        assert time.monotonic() < deadline, "no place freed after closing the connections"
        time.sleep(0.1)


def test_bodies_over_the_inflight_budget_get_503_without_being_read(server_factory):
    # 64 MiB budget, 16 MiB per body: four 15 MiB uploads fit, the others are refused at once.
    srv = server_factory(env={"FIRN_MAX_INFLIGHT_BODY_BYTES": str(64 * MIB)})
    token = http_headers(srv)["Authorization"].split()[1]
    r = slow_bodies.run(srv.port, _pid(srv), connections=40, body_bytes=15 * MIB,
                        trickle_seconds=3.0, token=token)
    print("\n" + r.summary())
    refused = [a for a in r.answers if a.status == 503]
    unanswered = [a for a in r.answers if a.status == 0]
    assert len(refused) == 36 and len(unanswered) == 4, r.statuses()
    for a in refused:
        assert a.retry_after == "1" and _error_model(a.body, 503), a
    # The four admitted uploads were being read; the refused ones never were.
    assert r.peak - r.baseline < 64 * MIB, r.summary()
    assert r.after - r.baseline < 8 * MIB, r.summary()
    # The budget came back: a new body is admitted and served.
    ok = requests.post(srv.uri + "/v1/namespaces", json={"namespace": ["after_budget"]},
                       headers=http_headers(srv), timeout=30)
    assert ok.status_code == 200, ok.text


# ---------------------------------------------------------------------------------------------
# The proof: 1,000 unauthenticated slow uploads
# ---------------------------------------------------------------------------------------------
def test_thousand_unauthenticated_slow_uploads_do_not_raise_rss(server_factory):
    slow_bodies.raise_fd_limit(1000 + 256)  # the server inherits it
    srv = server_factory()
    # Warm up the paths the attack takes, then let the server settle.
    for _ in range(20):
        requests.get(srv.uri + "/v1/config", headers=http_headers(srv), timeout=10)
        requests.post(srv.uri + "/v1/namespaces", data=b"{}", timeout=10)
    time.sleep(1.5)
    rounds = []
    for _ in range(2):
        r = slow_bodies.run(srv.port, _pid(srv), connections=1000, body_bytes=15 * MIB,
                            trickle_seconds=5.0)
        print("\n" + r.summary())
        rounds.append(r)
        expected = {"no-token": 401, "forged-token": 401, "management": 401,
                    "token-endpoint": 413}
        for a in r.answers:
            assert a.status == expected[a.kind], (a.kind, a.status, a.body)
            if a.kind == "token-endpoint":
                assert json.loads(a.body)["error"] == "invalid_request", a.body
            else:
                _error_model(a.body, 401)
        assert r.peak - r.baseline < 100 * MIB, r.summary()
    first, second = rounds
    # Back to the baseline: within 8 MiB (allocator pools and fragmentation), and a second
    # attack adds nothing that stays (no growth per attack).
    assert first.after - first.baseline < 8 * MIB, first.summary()
    assert second.after - first.after < 4 * MIB, second.summary()
    # And the server still serves.
    assert requests.get(srv.uri + "/v1/config", headers=http_headers(srv),
                        timeout=10).status_code == 200
