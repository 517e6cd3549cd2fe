"""Credential vending on SeaweedFS with STS (issue 11): PyIceberg, DuckDB and Spark hold no
storage key at all — no endpoint, no region, no keys in their configuration or environment —
and create, write and read through the credentials Firn vends; the credentials Firn vends for
one table are refused by the store on another table, read-only ones are refused on writes, and
a refresh through `/credentials` gets one credential for the table.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pyarrow as pa
import pyarrow.fs as pafs
import pytest
import requests

import firn_auth
from conftest import CATALOG_NAME, WRONG_KEY_SECRET, http_headers
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


# --- the older, table-less signer (POST /v1/aws/s3/sign) --------------------------------------
NO_OWNER = "Cannot sign this request: it lies inside no single table the caller may sign for"


def _sign_anywhere(backend, method: str, uri: str, creds=None, headers: dict | None = None,
                   base: str = "/v1", body: str | None = None) -> requests.Response:
    auth = firn_auth.auth_headers(backend.uri, creds) if creds else http_headers(backend.server)
    request = {"region": backend.s3.region, "uri": uri, "method": method,
               "headers": {k: [v] for k, v in (headers or {}).items()}}
    if body is not None:
        request["body"] = body
    return requests.post(f"{backend.uri}{base}/aws/s3/sign", headers=auth, json=request,
                         timeout=30)


def test_the_table_less_signer_finds_the_one_table_and_signs_only_what_it_may(vended_backend,
                                                                              vns):
    cat = vended_backend.pyiceberg()
    cat.create_table(f"{vns}.ga", schema=SCHEMA).append(ROWS)
    cat.create_table(f"{vns}.gb", schema=SCHEMA).append(ROWS)
    a = _load(vended_backend, vns, "ga", delegation=None).json()
    b = _load(vended_backend, vns, "gb", delegation=None).json()

    # The owner is found from the key alone; the signature works, on both bases.
    url = _object_url(vended_backend, a["metadata-location"])
    for base in ("/v1", "/api/catalog/v1"):
        signed = _sign_anywhere(vended_backend, "GET", url, base=base)
        assert signed.status_code == 200, signed.text
        sent = {k: v[0] for k, v in signed.json()["headers"].items()}
        got = requests.get(signed.json()["uri"], headers=sent, timeout=30)
        assert got.status_code == 200 and got.json()["table-uuid"] == a["metadata"]["table-uuid"]
    put_url = _object_url(vended_backend, a["metadata"]["location"] + "/data/anywhere.bin")
    signed = _sign_anywhere(vended_backend, "PUT", put_url,
                            headers={"x-amz-content-sha256": "UNSIGNED-PAYLOAD"})
    assert signed.status_code == 200, signed.text
    sent = {k: v[0] for k, v in signed.json()["headers"].items()}
    assert requests.put(put_url, data=b"x", headers=sent, timeout=30).status_code == 200

    # A reader of A only: A's files yes; B's files, a PUT in A, keys in no table, the bucket,
    # and a DeleteObjects spanning A and B all get the same 403, which tells it nothing.
    reader = firn_auth.Management(vended_backend.uri).principal_with(
        f"greader_{uuid.uuid4().hex[:6]}", CATALOG_NAME, [("TABLE_READ_DATA", [vns], "ga")])
    assert _sign_anywhere(vended_backend, "GET", url, creds=reader.creds).status_code == 200
    bucket = f"{vended_backend.s3.endpoint}/{vended_backend.s3.bucket}"
    a_key = _path(a["metadata-location"]).split("/", 1)[1]
    b_key = _path(b["metadata-location"]).split("/", 1)[1]
    refused = [
        ("GET", _object_url(vended_backend, b["metadata-location"]), None, reader.creds),
        ("PUT", put_url, None, reader.creds),
        ("GET", f"{bucket}/no-table-here/{uuid.uuid4().hex}.bin", None, None),
        ("GET", f"{bucket}?list-type=2", None, None),
        ("PUT", f"{bucket}?policy", None, None),
        ("POST", f"{bucket}?delete", f"<Delete><Object><Key>{a_key}</Key></Object>"
                                     f"<Object><Key>{b_key}</Key></Object></Delete>", None),
    ]
    for method, uri, body, creds in refused:
        r = _sign_anywhere(vended_backend, method, uri, creds=creds, body=body)
        assert r.status_code == 403, (method, uri, r.status_code, r.text)
        assert r.json()["error"] == {"message": NO_OWNER, "type": "ForbiddenException",
                                     "code": 403}, r.text
    # A DeleteObjects inside A alone is signed.
    r = _sign_anywhere(vended_backend, "POST", f"{bucket}?delete",
                       body=f"<Delete><Object><Key>{a_key}</Key></Object></Delete>")
    assert r.status_code == 200, r.text
    assert pyiceberg_rows(cat, f"{vns}.gb", ["id"]) == [(1,), (2,), (3,)]


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_sts_outage_is_a_503_with_retry_after_only_for_loads_that_ask(vended_backend, vns):
    """A catalog whose STS endpoint is down: loads that did not ask for vending are untouched,
    loads that asked get 503 + Retry-After, and one that also accepts signing falls back."""
    s3 = vended_backend.s3
    name = f"outage_{uuid.uuid4().hex[:8]}"
    base = f"{vended_backend.warehouse}/{name}"  # beside the default catalog, inside the root
    firn_auth.Management(vended_backend.uri).ok("POST", "/catalogs", json={"catalog": {
        "type": "INTERNAL", "name": name, "properties": {"default-base-location": base},
        "storageConfigInfo": {"storageType": "S3", "roleArn": s3.role_arn,
                              "allowedLocations": [base],
                              "stsEndpoint": f"http://127.0.0.1:{_dead_port()}"}}})
    headers = http_headers(vended_backend.server)
    v1 = f"{vended_backend.uri}/v1/{name}"
    assert requests.post(f"{v1}/namespaces", json={"namespace": ["o"]}, headers=headers,
                         timeout=30).status_code == 200
    created = requests.post(f"{v1}/namespaces/o/tables", headers=headers, timeout=30, json={
        "name": "t", "schema": {"type": "struct", "schema-id": 0, "fields": [
            {"id": 1, "name": "id", "required": False, "type": "long"}]}})
    assert created.status_code == 200, created.text

    plain = requests.get(f"{v1}/namespaces/o/tables/t", headers=headers, timeout=30)
    assert plain.status_code == 200, plain.text
    asked = requests.get(f"{v1}/namespaces/o/tables/t", timeout=30,
                         headers={**headers, "X-Iceberg-Access-Delegation": "vended-credentials"})
    assert asked.status_code == 503, asked.text
    assert asked.headers["Retry-After"] == "1"
    assert asked.json()["error"] == {
        "message": "Cannot vend storage credentials: the storage token service is unavailable",
        "type": "ServiceUnavailableException", "code": 503}
    refresh = requests.get(f"{v1}/namespaces/o/tables/t/credentials", headers=headers,
                           timeout=30)
    assert refresh.status_code == 503 and refresh.headers["Retry-After"] == "1", refresh.text
    both = requests.get(f"{v1}/namespaces/o/tables/t", timeout=30, headers={
        **headers, "X-Iceberg-Access-Delegation": "vended-credentials,remote-signing"})
    assert both.status_code == 200, both.text
    assert "storage-credentials" not in both.json()
    assert both.json()["config"]["s3.remote-signing-enabled"] == "true"
    assert "s3.session-token" not in plain.json()["config"]
    # The default catalog, whose STS is up, still vends meanwhile.
    vended_backend.pyiceberg().create_table(f"{vns}.up", schema=SCHEMA)
    up = _load(vended_backend, vns, "up")
    assert up.status_code == 200 and up.json()["storage-credentials"], up.text


# --- a catalog's own connection: named server-side keys, endpointInternal -----------------------
def _s3_catalog(backend, name: str, **storage) -> str:
    base = f"{backend.warehouse}/{name}"  # beside the default catalog, inside the root
    firn_auth.Management(backend.uri).ok("POST", "/catalogs", json={"catalog": {
        "type": "INTERNAL", "name": name, "properties": {"default-base-location": base},
        "storageConfigInfo": {"storageType": "S3", "roleArn": backend.s3.role_arn,
                              "allowedLocations": [base], **storage}}})
    return f"{backend.uri}/v1/{name}"


def _create_table(v1: str, headers: dict) -> requests.Response:
    assert requests.post(f"{v1}/namespaces", json={"namespace": ["k"]}, headers=headers,
                         timeout=30).status_code == 200
    return requests.post(f"{v1}/namespaces/k/tables", headers=headers, timeout=30, json={
        "name": "t", "schema": {"type": "struct", "schema-id": 0, "fields": [
            {"id": 1, "name": "id", "required": False, "type": "long"}]}})


def test_a_catalog_reaches_its_store_with_its_named_keys_at_its_internal_endpoint(
        vended_backend):
    """storageName picks the server-side keys the server writes, calls STS and signs with;
    endpointInternal is where the server goes, while clients are told `endpoint` only."""
    s3 = vended_backend.s3
    headers = http_headers(vended_backend.server)
    public = f"http://127.0.0.1:{_dead_port()}"  # what clients are told; the server never goes
    v1 = _s3_catalog(vended_backend, f"tenant_{uuid.uuid4().hex[:8]}", storageName="tenant",
                     endpoint=public, endpointInternal=s3.endpoint, stsEndpoint=s3.endpoint,
                     pathStyleAccess=True)
    created = _create_table(v1, headers)
    assert created.status_code == 200, created.text
    assert created.json()["config"]["s3.endpoint"] == public

    loaded = requests.get(f"{v1}/namespaces/k/tables/t", timeout=30, headers={
        **headers, "X-Iceberg-Access-Delegation": "vended-credentials"})
    assert loaded.status_code == 200, loaded.text
    body = loaded.json()
    assert body["config"]["s3.endpoint"] == public
    assert s3.endpoint not in loaded.text, "the internal endpoint is never shown to clients"
    creds = body["storage-credentials"][0]["config"]
    fs = _fs({**body["config"], **creds, "s3.endpoint": s3.endpoint})  # the real store
    with fs.open_input_stream(_path(body["metadata-location"])) as f:
        assert b'"table-uuid"' in f.read()

    # Remote signing signs with the tenant's keys, and the store accepts the signature.
    url = _object_url(vended_backend, body["metadata-location"])
    signed = requests.post(f"{v1}/namespaces/k/tables/t/sign", headers=headers, timeout=30,
                           json={"region": s3.region, "uri": url, "method": "GET",
                                 "headers": {}})
    assert signed.status_code == 200, signed.text
    sent = {k: v[0] for k, v in signed.json()["headers"].items()}
    authorization = {k.lower(): v for k, v in sent.items()}["authorization"]
    assert f"Credential={s3.tenant_access_key}/" in authorization, authorization
    assert requests.get(url, headers=sent, timeout=30).status_code == 200


def test_keys_the_store_refuses_fail_the_catalogs_writes_and_nothing_is_created(
        vended_backend):
    headers = http_headers(vended_backend.server)
    v1 = _s3_catalog(vended_backend, f"wrong_{uuid.uuid4().hex[:8]}", storageName="wrong")
    created = _create_table(v1, headers)
    assert created.status_code == 500, created.text
    assert created.json()["error"]["message"].startswith("Object storage refused access to: ")
    assert requests.get(f"{v1}/namespaces/k/tables/t", headers=headers,
                        timeout=30).status_code == 404
    log = vended_backend.server.log_path.read_text()
    assert WRONG_KEY_SECRET not in log
    assert vended_backend.s3.tenant_secret_key not in log


def _pysigner_dir() -> Path:
    if os.environ.get("FIRN_PYSIGNER"):
        return Path(os.environ["FIRN_PYSIGNER"])
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256((root / "scripts/requirements-signer.txt").read_bytes()).hexdigest()
    cache = Path(os.environ.get("FIRN_CACHE", Path.home() / ".cache/firn"))
    return cache / f"pysigner-{digest[:12]}"


def test_pyiceberg_writes_and_reads_through_remote_signing(vended_backend, vns):
    side = _pysigner_dir()
    if not (side / ".complete").is_file():
        reason = f"PyIceberg's signer dependencies are not installed at {side}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason + " (scripts/install_engines.sh)")
    props = vended_backend.pyiceberg_properties()
    props.pop("header.X-Iceberg-Access-Delegation", None)
    assert not any(k.startswith("s3.") for k in props), "the process gets no storage setting"
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env["PYTHONPATH"] = str(side)
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("pyiceberg_signed.py")),
         json.dumps({"props": props, "table": f"{vns}.signed_py"})],
        env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["rows"] == [{"id": 1, "name": "a"}, {"id": 2, "name": "b"},
                           {"id": 3, "name": "c"}]
    assert out["signed"] > 0, "every S3 request went through Firn's signer"
    # Another engine reads what PyIceberg wrote through signed requests.
    assert pyiceberg_rows(vended_backend.pyiceberg(), f"{vns}.signed_py", ["id"]) == [
        (1,), (2,), (3,)]
