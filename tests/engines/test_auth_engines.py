"""Engines as a principal made by the Polaris CLI (issue 5), on the file backend:

  * DuckDB authenticates with client credentials (HTTP Basic) and scope PRINCIPAL_ROLE:ALL,
    reads within its grants and is refused beyond them;
  * Spark authenticates with `credential`, reads within its grants, is refused beyond them;
  * Spark keeps working across several token lifetimes because Iceberg refreshes its token by
    token exchange: a recording proxy in front of the token endpoint proves the exchange grant
    was used (server started with --token-lifetime).
"""

from __future__ import annotations

import http.server
import json
import threading
import time
import urllib.parse
import urllib.request
import uuid

import pyarrow as pa
import pytest

import firn_auth
from conftest import CATALOG_NAME, Backend, _start, _stop, short_token_lifetime
from engines_util import duckdb_rows, spark_rows
from firn_auth import Credentials

SCHEMA = pa.schema([pa.field("id", pa.int64()), pa.field("name", pa.string())])


def _data(ids) -> pa.Table:
    return pa.Table.from_pydict({"id": list(ids), "name": [f"n{i}" for i in ids]}, schema=SCHEMA)


@pytest.fixture
def principal_world(file_backend):
    """Through the Polaris CLI: principal reader_<tag> may read namespace pub_<tag> and list
    namespaces; the admin creates pub_<tag>.t and priv_<tag>.t with data."""
    b = file_backend
    tag = uuid.uuid4().hex[:8]
    pub, priv = f"pub_{tag}", f"priv_{tag}"
    run = lambda *a: firn_auth.run_polaris(b.uri, *a, home=b.server.data_dir / ".polaris-cli")  # noqa: E731
    out = run("principals", "create", f"reader_{tag}").stdout
    cred = json.loads(out.strip().splitlines()[-1])
    creds = Credentials(firn_auth.DEFAULT_REALM, cred["clientId"], cred["clientSecret"])
    run("principal-roles", "create", f"pr_{tag}")
    run("principal-roles", "grant", "--principal", f"reader_{tag}", f"pr_{tag}")
    run("catalog-roles", "create", "--catalog", CATALOG_NAME, f"cr_{tag}")
    run("catalog-roles", "grant", "--catalog", CATALOG_NAME, "--principal-role", f"pr_{tag}",
        f"cr_{tag}")
    run("privileges", "catalog", "grant", "--catalog", CATALOG_NAME, "--catalog-role",
        f"cr_{tag}", "NAMESPACE_LIST")
    run("privileges", "namespace", "grant", "--catalog", CATALOG_NAME, "--catalog-role",
        f"cr_{tag}", "--namespace", pub, "TABLE_READ_DATA")
    admin = b.pyiceberg()
    for ns in (pub, priv):
        admin.create_namespace(ns)
        admin.create_table(f"{ns}.t", schema=SCHEMA).append(_data(range(3)))
    return {"creds": creds, "pub": pub, "priv": priv, "tag": tag}


def test_duckdb_as_principal_reads_within_grants_only(file_backend, principal_world):
    w = principal_world
    con = file_backend.duckdb("ro", creds=w["creds"])
    assert duckdb_rows(con, f"SELECT id, name FROM ro.{w['pub']}.t") == [
        (0, "n0"), (1, "n1"), (2, "n2")]
    with pytest.raises(Exception) as denied:
        con.execute(f"SELECT id FROM ro.{w['priv']}.t").fetchall()
    assert "403" in str(denied.value) or "orbidden" in str(denied.value) or \
        "not authorized" in str(denied.value).lower() or "does not exist" in str(denied.value)
    with pytest.raises(Exception):
        con.execute(f"INSERT INTO ro.{w['pub']}.t VALUES (9, 'x')")
    admin_con = file_backend.duckdb("adm")
    assert duckdb_rows(admin_con, f"SELECT id FROM adm.{w['pub']}.t") == [(0,), (1,), (2,)]


def test_duckdb_with_a_wrong_secret_cannot_attach(file_backend):
    a = firn_auth.admin_credentials()
    with pytest.raises(Exception):
        file_backend.duckdb("bad", creds=Credentials(a.realm, a.client_id, a.client_secret + "x"))


def test_spark_as_principal_reads_within_grants_only(file_backend, spark, principal_world):
    w = principal_world
    cat = file_backend.spark_catalog(spark, creds=w["creds"], suffix=f"_{w['tag']}")
    assert spark_rows(spark, f"SELECT id FROM {cat}.{w['pub']}.t") == [(0,), (1,), (2,)]
    with pytest.raises(Exception) as denied:
        spark.sql(f"SELECT id FROM {cat}.{w['priv']}.t").collect()
    assert "Forbidden" in str(denied.value) or "not authorized" in str(denied.value).lower(), \
        str(denied.value)[:500]
    with pytest.raises(Exception) as denied:
        spark.sql(f"INSERT INTO {cat}.{w['pub']}.t VALUES (9, 'x')").collect()
    assert "Forbidden" in str(denied.value) or "not authorized" in str(denied.value).lower(), \
        str(denied.value)[:500]


# ---------------------------------------------------------------------------------------------
# Spark token refresh by token exchange
# ---------------------------------------------------------------------------------------------
class _TokenProxy:
    """Forwards POSTs to Firn's token endpoint and records each grant_type."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.grants: list[str] = []
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                form = urllib.parse.parse_qs(body.decode())
                proxy.grants.append(form.get("grant_type", ["?"])[0])
                headers = {k: v for k, v in self.headers.items()
                           if k.lower() in ("authorization", "content-type", "polaris-realm")}
                req = urllib.request.Request(proxy.target, data=body, headers=headers)
                try:
                    with urllib.request.urlopen(req, timeout=30) as r:
                        status, data = r.status, r.read()
                except urllib.error.HTTPError as e:
                    status, data = e.code, e.read()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.uri = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1/oauth/tokens"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()


# Iceberg refreshes at 90% of the lifetime, so the exchange has 10% (3 s) to reach the server
# while the old token is valid. Below the production minimum (60 s): the server's test mode.
TOKEN_LIFETIME_S = 30


@pytest.fixture
def short_token_backend(tmp_path_factory):
    srv = _start(tmp_path_factory, "shorttok", *short_token_lifetime(TOKEN_LIFETIME_S))
    yield Backend("shorttok", srv, srv.warehouse_dir.as_uri())
    _stop(srv)


def test_spark_refreshes_its_token_by_token_exchange(short_token_backend, spark):
    b = short_token_backend
    proxy = _TokenProxy(b.uri + firn_auth.TOKEN_PATH)
    try:
        ns = f"refresh_{uuid.uuid4().hex[:8]}"
        b.pyiceberg().create_namespace(ns)
        b.pyiceberg().create_table(f"{ns}.t", schema=SCHEMA).append(_data(range(2)))
        cat = b.spark_catalog(spark, suffix=f"_{uuid.uuid4().hex[:6]}",
                              extra={".oauth2-server-uri": proxy.uri})
        # Queries past the first lifetime (and well past the scheduled refresh at 90% of it):
        # each needs a valid token at that moment.
        exchange = "urn:ietf:params:oauth:grant-type:token-exchange"
        deadline = time.monotonic() + 2 * TOKEN_LIFETIME_S
        start, n = time.monotonic(), 0
        while time.monotonic() < deadline:
            spark.sql(f"INSERT INTO {cat}.{ns}.t VALUES ({100 + n}, 'x')").collect()
            n += 1
            if exchange in proxy.grants and time.monotonic() - start > TOKEN_LIFETIME_S + 5:
                break  # refreshed, and used past the first token's expiry
            time.sleep(5)
        assert len(spark_rows(spark, f"SELECT id FROM {cat}.{ns}.t")) == 2 + n
        assert "client_credentials" in proxy.grants, proxy.grants
        assert "urn:ietf:params:oauth:grant-type:token-exchange" in proxy.grants, proxy.grants
    finally:
        proxy.close()
