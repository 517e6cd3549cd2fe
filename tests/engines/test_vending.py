"""Credential vending on SeaweedFS with STS (issue 11): PyIceberg, DuckDB and Spark hold no
storage key at all — no endpoint, no region, no keys in their configuration or environment —
and create, write and read through the credentials Firn vends; the credentials Firn vends for
one table are refused by the store on another table, read-only ones are refused on writes, and
a refresh through `/credentials` gets one credential for the table.
"""

from __future__ import annotations

import os
import uuid

import pyarrow as pa
import pyarrow.fs as pafs
import pytest
import requests

import firn_auth
from conftest import CATALOG_NAME, http_headers
from engines_util import duckdb_rows, pyiceberg_rows, spark_rows

SCHEMA = pa.schema([("id", pa.int64()), ("name", pa.string())])
ROWS = pa.table({"id": [1, 2, 3], "name": ["a", "b", "c"]}, SCHEMA)


@pytest.fixture(autouse=True)
def no_ambient_storage_keys(monkeypatch):
    """Nothing in this process's environment could reach the store."""
    for key in list(os.environ):
        if key.startswith("AWS_"):
            monkeypatch.delenv(key)


def _load(backend, ns: str, table: str, delegation: str | None = "vended-credentials",
          creds=None) -> requests.Response:
    headers = firn_auth.auth_headers(backend.uri, creds) if creds else http_headers(
        backend.server)
    if delegation:
        headers["X-Iceberg-Access-Delegation"] = delegation
    return requests.get(f"{backend.uri}/v1/{CATALOG_NAME}/namespaces/{ns}/tables/{table}",
                        headers=headers, timeout=30)


def _fs(config: dict[str, str]) -> pafs.S3FileSystem:
    """A file system holding exactly what Firn vended, nothing else."""
    return pafs.S3FileSystem(
        access_key=config["s3.access-key-id"], secret_key=config["s3.secret-access-key"],
        session_token=config["s3.session-token"], region=config["s3.region"],
        endpoint_override=config["s3.endpoint"], scheme="http", allow_bucket_creation=False,
        allow_bucket_deletion=False)


def _path(location: str) -> str:
    return location.removeprefix("s3://").removeprefix("s3a://")


@pytest.fixture
def vns(vended_backend) -> str:
    name = f"vend_{uuid.uuid4().hex[:8]}"
    vended_backend.pyiceberg().create_namespace(name)
    return name


def test_pyiceberg_creates_writes_and_reads_with_vended_credentials_only(vended_backend, vns):
    cat = vended_backend.pyiceberg()
    tbl = cat.create_table(f"{vns}.people", schema=SCHEMA)
    tbl.append(ROWS)
    assert pyiceberg_rows(cat, f"{vns}.people", ["id", "name"]) == [(1, "a"), (2, "b"), (3, "c")]
    body = _load(vended_backend, vns, "people").json()
    creds = body["storage-credentials"]
    assert len(creds) == 1 and creds[0]["prefix"] == body["metadata"]["location"]
    assert creds[0]["config"]["s3.session-token"]
    config = body["config"]
    assert config["s3.endpoint"] == vended_backend.s3.endpoint
    assert config["s3.path-style-access"] in ("true", "false")
    assert config["client.refresh-credentials-endpoint"].endswith("/people/credentials")


def test_duckdb_reads_and_writes_with_vended_credentials_only(vended_backend, vns):
    cat = vended_backend.pyiceberg()
    cat.create_table(f"{vns}.t", schema=SCHEMA).append(ROWS)
    con = vended_backend.duckdb()
    assert duckdb_rows(con, f"SELECT id, name FROM ice.{vns}.t") == [(1, "a"), (2, "b"), (3, "c")]
    con.execute(f"INSERT INTO ice.{vns}.t VALUES (4, 'd')")
    assert pyiceberg_rows(cat, f"{vns}.t", ["id"]) == [(1,), (2,), (3,), (4,)]


def test_spark_creates_writes_and_reads_with_vended_credentials_only(vended_backend, vns, spark):
    c = vended_backend.spark_catalog(spark)
    spark.sql(f"CREATE TABLE {c}.{vns}.s (id BIGINT, name STRING) USING iceberg")
    spark.sql(f"INSERT INTO {c}.{vns}.s VALUES (1, 'a'), (2, 'b')")
    assert spark_rows(spark, f"SELECT id, name FROM {c}.{vns}.s") == [(1, "a"), (2, "b")]
    assert pyiceberg_rows(vended_backend.pyiceberg(), f"{vns}.s", ["id"]) == [(1,), (2,)]


def test_credentials_for_one_table_are_refused_on_another(vended_backend, vns):
    cat = vended_backend.pyiceberg()
    cat.create_table(f"{vns}.a", schema=SCHEMA).append(ROWS)
    cat.create_table(f"{vns}.b", schema=SCHEMA).append(ROWS)
    a = _load(vended_backend, vns, "a").json()
    b = _load(vended_backend, vns, "b").json()
    fs = _fs(a["config"])
    # Table A: read and write.
    a_meta = _path(a["metadata-location"])
    assert fs.open_input_file(a_meta).read()
    with fs.open_output_stream(_path(a["metadata"]["location"]) + "/data/probe.bin") as out:
        out.write(b"x")
    # Table B: its metadata, its data and its directory are out of reach.
    with pytest.raises(OSError, match="(?i)access[ _]?denied|forbidden|403"):
        fs.open_input_file(_path(b["metadata-location"])).read()
    with pytest.raises(OSError, match="(?i)access[ _]?denied|forbidden|403"):
        with fs.open_output_stream(_path(b["metadata"]["location"]) + "/data/planted.bin") as o:
            o.write(b"x")
    with pytest.raises(OSError, match="(?i)access[ _]?denied|forbidden|403"):
        fs.delete_file(_path(b["metadata-location"]))
    # B is intact.
    assert pyiceberg_rows(cat, f"{vns}.b", ["id"]) == [(1,), (2,), (3,)]


def test_a_reader_gets_read_only_credentials(vended_backend, vns):
    cat = vended_backend.pyiceberg()
    cat.create_table(f"{vns}.r", schema=SCHEMA).append(ROWS)
    reader = firn_auth.Management(vended_backend.uri).principal_with(
        f"reader_{uuid.uuid4().hex[:6]}", CATALOG_NAME, [("TABLE_READ_DATA", [vns], "r")])
    body = _load(vended_backend, vns, "r", creds=reader.creds)
    assert body.status_code == 200, body.text
    fs = _fs(body.json()["config"])
    location = _path(body.json()["metadata"]["location"])
    assert fs.open_input_file(_path(body.json()["metadata-location"])).read()
    with pytest.raises(OSError, match="(?i)access[ _]?denied|forbidden|403"):
        with fs.open_output_stream(location + "/data/planted.bin") as out:
            out.write(b"x")


def test_refresh_returns_one_credential_for_the_table(vended_backend, vns):
    vended_backend.pyiceberg().create_table(f"{vns}.f", schema=SCHEMA)
    endpoint = _load(vended_backend, vns, "f").json()["config"][
        "client.refresh-credentials-endpoint"]
    r = requests.get(f"{vended_backend.uri}/{endpoint}", headers=http_headers(vended_backend.server),
                     timeout=30)
    assert r.status_code == 200, r.text
    creds = r.json()["storage-credentials"]
    assert len(creds) == 1
    assert {"s3.access-key-id", "s3.secret-access-key", "s3.session-token",
            "s3.session-token-expires-at-ms"} <= set(creds[0]["config"])


def test_no_secret_or_session_token_in_the_server_log(vended_backend, vns):
    vended_backend.pyiceberg().create_table(f"{vns}.l", schema=SCHEMA)
    config = _load(vended_backend, vns, "l").json()["config"]
    log = vended_backend.server.log_path.read_text()
    for key in ("s3.secret-access-key", "s3.session-token"):
        assert config[key] not in log, f"{key} was logged"
    assert vended_backend.s3.secret_key not in log


def test_a_load_that_does_not_ask_gets_no_credentials(vended_backend, vns):
    vended_backend.pyiceberg().create_table(f"{vns}.n", schema=SCHEMA)
    body = _load(vended_backend, vns, "n", delegation=None).json()
    assert "storage-credentials" not in body
    assert "s3.session-token" not in body["config"]
    assert body["config"]["s3.endpoint"] == vended_backend.s3.endpoint


# --- remote signing --------------------------------------------------------------------------
def _sign(backend, ns: str, table: str, method: str, uri: str, creds=None,
          headers: dict | None = None) -> requests.Response:
    auth = firn_auth.auth_headers(backend.uri, creds) if creds else http_headers(backend.server)
    body = {"region": backend.s3.region, "uri": uri, "method": method,
            "headers": {k: [v] for k, v in (headers or {}).items()}}
    return requests.post(f"{backend.uri}/v1/{CATALOG_NAME}/namespaces/{ns}/tables/{table}/sign",
                         headers=auth, json=body, timeout=30)


def _object_url(backend, location: str) -> str:
    return f"{backend.s3.endpoint}/{_path(location)}"


def test_signed_requests_reach_the_table_and_nothing_else(vended_backend, vns):
    cat = vended_backend.pyiceberg()
    cat.create_table(f"{vns}.sa", schema=SCHEMA).append(ROWS)
    cat.create_table(f"{vns}.sb", schema=SCHEMA).append(ROWS)
    a = _load(vended_backend, vns, "sa", delegation="remote-signing").json()
    b = _load(vended_backend, vns, "sb", delegation=None).json()
    assert a["config"]["s3.remote-signing-enabled"] == "true"
    assert a["config"]["s3.signer.endpoint"].endswith(f"/{vns}/tables/sa/sign")
    assert "storage-credentials" not in a

    # A signed GET of A's metadata, sent by this test with nothing but the signed headers.
    url = _object_url(vended_backend, a["metadata-location"])
    signed = _sign(vended_backend, vns, "sa", "GET", url)
    assert signed.status_code == 200, signed.text
    assert signed.headers["Cache-Control"] == "no-cache"
    sent = {k: v[0] for k, v in signed.json()["headers"].items()}
    got = requests.get(signed.json()["uri"], headers=sent, timeout=30)
    assert got.status_code == 200 and got.json()["table-uuid"] == a["metadata"]["table-uuid"]
    # A signed PUT inside A lands.
    put_url = _object_url(vended_backend, a["metadata"]["location"] + "/data/signed.bin")
    signed = _sign(vended_backend, vns, "sa", "PUT", put_url,
                   headers={"x-amz-content-sha256": "UNSIGNED-PAYLOAD"})
    assert signed.status_code == 200, signed.text
    sent = {k: v[0] for k, v in signed.json()["headers"].items()}
    assert requests.put(put_url, data=b"x", headers=sent, timeout=30).status_code == 200

    # Through A's signer: B's files, the bucket listing and a DeleteObjects naming B: 403.
    for method, uri, extra in [
        ("GET", _object_url(vended_backend, b["metadata-location"]), {}),
        ("DELETE", _object_url(vended_backend, b["metadata-location"]), {}),
        ("GET", f"{vended_backend.s3.endpoint}/{vended_backend.s3.bucket}?list-type=2", {}),
        # The bucket's policy, with a prefix inside A: a whole-bucket request all the same.
        ("PUT", f"{vended_backend.s3.endpoint}/{vended_backend.s3.bucket}?policy&prefix="
                + _path(a["metadata"]["location"]).split("/", 1)[1] + "/", {}),
        ("GET", f"{vended_backend.s3.endpoint}/{vended_backend.s3.bucket}?list-type=2&prefix="
                + _path(a["metadata"]["location"]).split("/", 1)[1].rsplit("/", 1)[0], {}),
    ]:
        r = _sign(vended_backend, vns, "sa", method, uri, headers=extra)
        assert r.status_code == 403, (method, uri, r.status_code, r.text)
        assert r.json()["error"]["type"] == "ForbiddenException"
    victim_key = _path(b["metadata-location"]).split("/", 1)[1]
    r = requests.post(
        f"{vended_backend.uri}/v1/{CATALOG_NAME}/namespaces/{vns}/tables/sa/sign",
        headers=http_headers(vended_backend.server), timeout=30,
        json={"region": "us-east-1", "method": "POST", "headers": {},
              "uri": f"{vended_backend.s3.endpoint}/{vended_backend.s3.bucket}?delete",
              "body": f"<Delete><Object><Key>{victim_key}</Key></Object></Delete>"})
    assert r.status_code == 403, r.text
    assert pyiceberg_rows(cat, f"{vns}.sb", ["id"]) == [(1,), (2,), (3,)]


def test_the_signer_refuses_a_put_for_a_reader(vended_backend, vns):
    cat = vended_backend.pyiceberg()
    cat.create_table(f"{vns}.sr", schema=SCHEMA).append(ROWS)
    reader = firn_auth.Management(vended_backend.uri).principal_with(
        f"sreader_{uuid.uuid4().hex[:6]}", CATALOG_NAME, [("TABLE_READ_DATA", [vns], "sr")])
    meta = _load(vended_backend, vns, "sr", delegation=None).json()
    inside = _object_url(vended_backend, meta["metadata"]["location"] + "/data/x.bin")
    assert _sign(vended_backend, vns, "sr", "GET", inside, creds=reader.creds).status_code == 200
    r = _sign(vended_backend, vns, "sr", "PUT", inside, creds=reader.creds)
    assert r.status_code == 403, r.text
    assert "TABLE_WRITE_DATA" in r.json()["error"]["message"]


def test_spark_writes_and_reads_through_remote_signing(vended_backend, vns, spark):
    c = vended_backend.spark_catalog(
        spark, suffix="_signed",
        extra={".header.X-Iceberg-Access-Delegation": "remote-signing"})
    spark.sql(f"CREATE TABLE {c}.{vns}.sg (id BIGINT, name STRING) USING iceberg")
    spark.sql(f"INSERT INTO {c}.{vns}.sg VALUES (1, 'a'), (2, 'b')")
    assert spark_rows(spark, f"SELECT id, name FROM {c}.{vns}.sg") == [(1, "a"), (2, "b")]
