"""Operations (issue 14, items 1, 2 and part of 7; docs/operations.md): liveness, readiness and
Prometheus metrics answered without a token, what the metrics count when PyIceberg commits,
that nothing a caller sent (a table name, a secret, a token) reaches them, and the start-up
refusals a newcomer hit (an unknown --log-level silenced every line; `firn --version`)."""
from __future__ import annotations

import re
import subprocess
import urllib.error
import urllib.request

import pytest

import firn_auth
from conftest import FIRN_BINARY, free_port, make_catalog
from helpers import SCHEMA, rows, sample

pytestmark = pytest.mark.firn_only("operations routes (issue 14)")


def get(srv, path: str) -> tuple[int, str, dict]:
    try:
        with urllib.request.urlopen(srv.uri + path, timeout=10) as r:
            return r.status, r.read().decode(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), dict(e.headers)


def test_health_and_ready_answer_without_a_token(server):
    status, body, headers = get(server, "/health")
    assert status == 200 and '"UP"' in body
    status, body, _ = get(server, "/ready")
    assert status == 200, body
    assert '"database":"UP"' in body and '"access":"UP"' in body and '"storage-1":"UP"' in body
    # The catalog itself still wants a token.
    assert get(server, "/v1/namespaces")[0] == 401


def test_metrics_count_a_pyiceberg_commit_by_route_and_leak_nothing(fresh_server):
    before = get(fresh_server, "/metrics")[1]
    cat = make_catalog(fresh_server)
    cat.create_namespace("ops_secret_ns")
    tbl = cat.create_table("ops_secret_ns.orders_named_secretly", schema=SCHEMA)
    tbl.append(rows([1, 2]))
    tbl = cat.load_table("ops_secret_ns.orders_named_secretly")
    status, after, headers = get(fresh_server, "/metrics")
    assert status == 200
    assert headers["Content-Type"].startswith("text/plain; version=0.0.4")
    committed = sample(after, "firn_commits_total", outcome="committed")
    assert committed - sample(before, "firn_commits_total", outcome="committed") >= 1
    route = "/v1/namespaces/{namespace}/tables/{table}"  # PyIceberg: no prefix by default
    assert sample(after, "firn_http_requests_total", route=route, method="POST", status="200") >= 1
    assert sample(after, "firn_http_request_duration_seconds_count", route=route,
                  method="GET") >= 1
    assert sample(after, "firn_token_requests_total", outcome="issued") >= 1
    assert sample(after, "firn_load_duration_seconds_count") >= 1
    assert sample(after, "firn_process_resident_bytes") > 0
    # The embedded database: the readers that served the loads stay open, none is lent out
    # between requests.
    assert sample(after, "firn_db_connections", backend="sqlite", state="open") >= 1
    assert sample(after, "firn_db_connections", backend="sqlite", state="in_use") == 0
    assert "firn_db_waits_total" in after and "firn_db_errors_total" in after
    assert sample(after, "firn_build_info", version=subprocess.run(
        [str(FIRN_BINARY), "version"], capture_output=True, text=True).stdout.split()[1]) == 1
    admin = firn_auth.admin_credentials()
    for secret in ("ops_secret_ns", "orders_named_secretly", admin.client_secret,
                   tbl.metadata_location):
        assert secret not in after, f"{secret!r} reached /metrics"


def test_metrics_can_be_switched_off(server_factory):
    srv = server_factory(args=["--metrics", "off"])
    assert get(srv, "/metrics")[0] == 404
    assert get(srv, "/health")[0] == 200


def test_an_operations_listener_takes_health_and_metrics_off_the_api_port(server_factory,
                                                                         tmp_path):
    port = free_port()
    srv = server_factory(args=["--ops-listen", f"127.0.0.1:{port}"])

    class Ops:
        uri = f"http://127.0.0.1:{port}"

    assert get(Ops, "/health")[0] == 200
    status, body, _ = get(Ops, "/ready")
    assert status == 200 and '"database":"UP"' in body
    status, body, _ = get(Ops, "/metrics")
    assert status == 200 and "firn_build_info" in body
    # The API port serves the API and nothing operational; the ops port serves nothing else.
    for path in ("/health", "/ready", "/metrics"):
        assert get(srv, path)[0] == 404, path
    make_catalog(srv).create_namespace("ops_listener_ns")
    assert get(Ops, "/v1/config")[0] == 404
    assert get(Ops, "/api/management/v1/principals")[0] == 404
    # A malformed address is refused at start.
    p = subprocess.run([str(FIRN_BINARY), "serve", "--data-dir", str(tmp_path / "bad"),
                        "--listen", "127.0.0.1:0", "--ops-listen", "nowhere"],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode != 0
    assert "Invalid --ops-listen" in p.stderr + p.stdout


def test_an_unknown_log_level_is_refused_and_version_answers(tmp_path):
    p = subprocess.run([str(FIRN_BINARY), "serve", "--data-dir", str(tmp_path / "d"),
                        "--log-level", "verbose", "--listen", "127.0.0.1:0"],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 2
    assert "Unknown log level 'verbose'" in p.stderr, p.stderr
    v = subprocess.run([str(FIRN_BINARY), "--version"], capture_output=True, text=True, timeout=30)
    assert v.returncode == 0 and re.fullmatch(r"firn \d+\.\d+\.\d+\n", v.stdout), v.stdout


def test_every_serve_flag_has_its_own_help_line():
    """First contact: flags used to share generic lines ("Identity setting (docs/auth.md)")."""
    text = subprocess.run([str(FIRN_BINARY), "serve", "--help"], capture_output=True, text=True,
                          timeout=30).stdout
    helps: dict[str, str] = {}
    flag = None
    for line in text.splitlines():
        m = re.match(r"\s+(--[a-z0-9-]+)(?: TEXT)?\s*(.*)$", line)
        if m and not line.strip().startswith("-h"):
            flag, rest = m.group(1), m.group(2).strip()
            helps[flag] = rest
        elif flag and line.startswith(" " * 20) and not helps[flag]:
            helps[flag] = line.strip()
    assert len(helps) >= 40, text
    assert all(helps.values()), [f for f, h in helps.items() if not h]
    shared = {h for h in helps.values() if list(helps.values()).count(h) > 1}
    assert not shared, shared
