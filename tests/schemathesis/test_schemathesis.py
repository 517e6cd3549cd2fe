"""Schemathesis against a live, authenticated `firn serve`, driven by the OpenAPI documents
Firn serves itself (/v1/openapi.json and /api/management/v1/openapi.json).

Bounded and seeded (FIRN_ST_MAX_EXAMPLES examples per operation, FIRN_ST_SEED, a time budget
per document), phases `coverage` (boundary and invalid values derived from the schemas) and
`fuzzing` (random valid and invalid requests). A run fails on any 5xx and on any answer that
contradicts the document: undeclared status, wrong content type, body not matching the
declared schema. Afterwards the server log must hold no 5xx and not the admin's secret.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import requests

import firn_auth

HERE = Path(__file__).resolve().parent
ST = Path(sys.executable).with_name("st")
CHECKS = ",".join([
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
])
SEED = os.environ.get("FIRN_ST_SEED", "20251201")
MAX_EXAMPLES = os.environ.get("FIRN_ST_MAX_EXAMPLES", "12")
MAX_TIME = os.environ.get("FIRN_ST_MAX_TIME", "45")  # seconds per document
CATALOG = "default"  # the catalog `firn serve` configures and bootstraps


def run_schemathesis(server, document: str, report: Path, extra: list[str]) -> None:
    headers = firn_auth.auth_headers(server.uri)
    cmd = [
        str(ST), "run", f"{server.uri}{document}",
        "--url", server.uri,
        "--checks", CHECKS,
        "--phases", "coverage,fuzzing",
        "--max-examples", MAX_EXAMPLES,
        "--seed", SEED,
        "--max-time", MAX_TIME,
        "--request-timeout", "30",
        "--workers", "1",
        "--suppress-health-check", "all",
        "--generation-database", "none",
        "--report", "junit",
        "--report-junit-path", str(report),
        "--no-color",
        *extra,
    ]
    for name, value in headers.items():
        cmd += ["-H", f"{name}: {value}"]
    proc = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True, timeout=900)
    output = proc.stdout + proc.stderr
    print(output[-20000:])
    assert proc.returncode == 0, f"schemathesis found problems in {document}:\n{output[-8000:]}"


def assert_log_clean(server) -> None:
    log = server.log_path.read_text(errors="replace")
    assert '"status":5' not in log, "a 5xx was logged:\n" + server.log_tail()
    secret = firn_auth.admin_credentials().client_secret
    assert secret not in log, "the admin secret appears in the server log"


def test_catalog_api_survives_schemathesis(server, tmp_path):
    doc = requests.get(f"{server.uri}/v1/openapi.json", timeout=10)
    assert doc.status_code == 200
    assert "/v1/{prefix}/namespaces" in doc.json()["paths"]
    # The prefix is pinned to the real catalog, so requests reach the handlers (a random prefix
    # is a 404 before any body is read); every other value is generated.
    run_schemathesis(server, "/v1/openapi.json", tmp_path / "catalog.xml",
                     ["--exclude-operation-id", "getToken"])
    assert_log_clean(server)


def test_management_api_survives_schemathesis(server, tmp_path):
    run_schemathesis(server, "/api/management/v1/openapi.json", tmp_path / "management.xml", [])
    assert_log_clean(server)


def test_token_endpoint_survives_schemathesis(server, tmp_path):
    # Unauthenticated by design; hostile form bodies must be OAuth2 4xx errors, never 5xx.
    run_schemathesis(server, "/v1/openapi.json", tmp_path / "oauth.xml",
                     ["--include-operation-id", "getToken"])
    assert_log_clean(server)
