"""Stored metrics reports (issue 14, item 4; docs/operations.md): what engines post to
…/tables/{t}/metrics is listable per table through the management API, oldest first with a
cursor, only by a principal who may read the table's data; kept for a bounded retention
(0 = not stored); a report never fails the engine's request."""
from __future__ import annotations

import os
import subprocess
import uuid

import pytest
import requests

import firn_auth
from conftest import FIRN_BINARY, catalog_name, http_headers, make_catalog
from helpers import SCHEMA

pytestmark = pytest.mark.firn_only("metrics report listing (issue 14)")


def scan_report(table: str, snapshot: int) -> dict:
    return {"report-type": "scan-report", "table-name": table, "snapshot-id": snapshot,
            "filter": True, "schema-id": 0, "projected-field-ids": [1],
            "projected-field-names": ["id"],
            "metrics": {"result-data-files": {"unit": "count", "value": 3}}}


def commit_report(table: str, snapshot: int) -> dict:
    return {"report-type": "commit-report", "table-name": table, "snapshot-id": snapshot,
            "sequence-number": 1, "operation": "append", "metrics": {}}


def post(srv, ns: str, table: str, report: dict, headers=None) -> requests.Response:
    return requests.post(f"{srv.uri}/v1/namespaces/{ns}/tables/{table}/metrics", json=report,
                         headers=headers or http_headers(srv), timeout=30)


def listing(srv, mgmt, ns: str, table: str, **params) -> requests.Response:
    return mgmt.request(
        "GET", f"/catalogs/{catalog_name(srv)}/namespaces/{ns}/tables/{table}/metrics-reports",
        params=params)


@pytest.fixture
def tables(fresh_server):
    ns = f"mr_{uuid.uuid4().hex[:6]}"
    cat = make_catalog(fresh_server)
    cat.create_namespace(ns)
    cat.create_table(f"{ns}.t", schema=SCHEMA)
    cat.create_table(f"{ns}.u", schema=SCHEMA)
    return fresh_server, ns


def test_reports_are_listed_per_table_in_order_with_a_cursor(tables):
    srv, ns = tables
    mgmt = firn_auth.Management(srv.uri)
    assert post(srv, ns, "t", scan_report(f"{ns}.t", 11)).status_code == 204
    assert post(srv, ns, "t", commit_report(f"{ns}.t", 12)).status_code == 204
    assert post(srv, ns, "u", scan_report(f"{ns}.u", 21)).status_code == 204
    r = listing(srv, mgmt, ns, "t")
    assert r.status_code == 200, r.text
    body = r.json()
    assert [x["reportType"] for x in body["reports"]] == ["scan-report", "commit-report"]
    assert [x["report"]["snapshot-id"] for x in body["reports"]] == [11, 12]
    assert body["reports"][0]["report"]["metrics"]["result-data-files"]["value"] == 3
    assert body["next"] is None
    first = listing(srv, mgmt, ns, "t", limit=1).json()
    assert len(first["reports"]) == 1 and first["next"] == first["reports"][0]["id"]
    second = listing(srv, mgmt, ns, "t", limit=1, afterId=first["next"]).json()
    assert [x["reportType"] for x in second["reports"]] == ["commit-report"]
    scans = listing(srv, mgmt, ns, "t", type="scan-report").json()["reports"]
    assert [x["report"]["snapshot-id"] for x in scans] == [11]
    assert listing(srv, mgmt, ns, "t", type="nonsense").status_code == 400
    assert listing(srv, mgmt, ns, "t", limit=0).status_code == 400
    assert listing(srv, mgmt, ns, "t", afterId="x").status_code == 400
    missing = listing(srv, mgmt, ns, "nope")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == 404


def test_a_principal_sees_only_the_reports_of_tables_it_may_read(tables):
    srv, ns = tables
    admin = firn_auth.Management(srv.uri)
    assert post(srv, ns, "t", scan_report(f"{ns}.t", 1)).status_code == 204
    assert post(srv, ns, "u", scan_report(f"{ns}.u", 2)).status_code == 204
    reader = admin.principal_with(f"mr_reader_{uuid.uuid4().hex[:6]}", catalog_name(srv),
                                  [("TABLE_READ_DATA", [ns], "u", None)])
    as_reader = firn_auth.Management(srv.uri, reader.creds)
    mine = listing(srv, as_reader, ns, "u")
    assert mine.status_code == 200 and len(mine.json()["reports"]) == 1
    refused = listing(srv, as_reader, ns, "t")
    assert refused.status_code == 403, refused.text
    assert "snapshot-id" not in refused.text
    # Without a token: refused before anything is read.
    anonymous = requests.get(
        f"{srv.uri}/api/management/v1/catalogs/{catalog_name(srv)}/namespaces/{ns}/tables/t/"
        "metrics-reports", timeout=30)
    assert anonymous.status_code == 401


def test_retention_zero_accepts_reports_and_keeps_none(server_factory):
    srv = server_factory(args=["--metrics-report-retention", "0"])
    cat = make_catalog(srv)
    cat.create_namespace("z")
    cat.create_table("z.t", schema=SCHEMA)
    assert post(srv, "z", "t", scan_report("z.t", 1)).status_code == 204
    r = listing(srv, firn_auth.Management(srv.uri), "z", "t")
    assert r.status_code == 200 and r.json()["reports"] == [], r.text
    metrics = requests.get(f"{srv.uri}/metrics", timeout=30).text
    assert 'firn_metrics_reports_total{result="not_stored"} 1' in metrics


def test_an_invalid_retention_is_refused_at_start(tmp_path):
    p = subprocess.run([str(FIRN_BINARY), "serve", "--data-dir", str(tmp_path / "d"),
                        "--listen", "127.0.0.1:0", "--metrics-report-retention", "soon"],
                       capture_output=True, text=True, timeout=60,
                       env={**os.environ, "FIRN_BOOTSTRAP_CREDENTIALS":
                            firn_auth.admin_credentials().bootstrap_value()})
    assert p.returncode == 2, p.stderr
    assert "Invalid metrics_report_retention 'soon'" in p.stderr, p.stderr
