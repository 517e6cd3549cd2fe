"""Vended credentials expire at the store, and a refresh through `/credentials` replaces them
(issue 11): by hand, and by Iceberg Java's own refresh (the FileIO of a table loaded before the
credentials expired keeps working after, without loading the table again). The store's shortest session is 15 minutes (STS's minimum, 900 s), so this test
waits that long: it runs as its own CI stage (`expiry`, beside the others; it needs no CPU
while it waits) and is left out of the ordinary engine run (`-m expiry` selects it).
"""

from __future__ import annotations

import os
import time
import uuid

import pyarrow as pa
import pyarrow.fs as pafs
import pytest
import requests

from conftest import CATALOG_NAME, http_headers

pytestmark = [pytest.mark.expiry, pytest.mark.timeout(1500)]

SCHEMA = pa.schema([("id", pa.int64())])


def _fs(config: dict[str, str], endpoint: str) -> pafs.S3FileSystem:
    return pafs.S3FileSystem(
        access_key=config["s3.access-key-id"], secret_key=config["s3.secret-access-key"],
        session_token=config["s3.session-token"], region=config["s3.region"],
        endpoint_override=endpoint, scheme="http", retry_strategy=pafs.AwsStandardS3RetryStrategy(
            max_attempts=1))


def _read(fs: pafs.S3FileSystem, location: str) -> bytes:
    with fs.open_input_stream(location.removeprefix("s3://")) as f:
        return f.read()


def _java_read(io, location: str) -> int:
    """The first byte of `location`, read through an Iceberg Java FileIO."""
    stream = io.newInputFile(location).newStream()
    try:
        return stream.read()
    finally:
        stream.close()


def test_expired_credentials_are_refused_and_a_refresh_works(vended_backend, spark,
                                                              monkeypatch):
    for key in list(os.environ):
        if key.startswith("AWS_"):
            monkeypatch.delenv(key)
    ns = f"exp_{uuid.uuid4().hex[:8]}"
    cat = vended_backend.pyiceberg()
    cat.create_namespace(ns)
    cat.create_table(f"{ns}.t", schema=SCHEMA).append(pa.table({"id": [1, 2]}, SCHEMA))
    headers = {**http_headers(vended_backend.server),
               "X-Iceberg-Access-Delegation": "vended-credentials"}
    table = f"{vended_backend.uri}/v1/{CATALOG_NAME}/namespaces/{ns}/tables/t"
    loaded = requests.get(table, headers=headers, timeout=30).json()
    first = loaded["storage-credentials"][0]["config"]
    expires_ms = int(first["s3.session-token-expires-at-ms"])
    endpoint = loaded["config"]["s3.endpoint"]
    content = _read(_fs({**loaded["config"], **first}, endpoint), loaded["metadata-location"])
    assert b'"table-uuid"' in content
    lifetime_s = expires_ms / 1000 - time.time()
    assert 800 < lifetime_s <= 900, lifetime_s  # --vended-credentials-seconds 900

    # Iceberg Java: the table loaded once, its FileIO holding the vended credentials and the
    # refresh endpoint; nothing reloads it below.
    name = vended_backend.spark_catalog(spark)
    java_catalog = spark._jsparkSession.sessionState().catalogManager().catalog(name)
    identifier = spark._jvm.org.apache.iceberg.catalog.TableIdentifier.parse(f"{ns}.t")
    java_table = java_catalog.icebergCatalog().loadTable(identifier)
    java_io = java_table.io()
    java_location = java_table.operations().current().metadataFileLocation()
    assert java_location == loaded["metadata-location"]
    assert _java_read(java_io, java_location) == content[0]

    time.sleep(max(0.0, expires_ms / 1000 - time.time()) + 10)

    with pytest.raises(OSError) as refused:
        _read(_fs({**loaded["config"], **first}, endpoint), loaded["metadata-location"])
    text = str(refused.value).lower()
    # SeaweedFS answers the HEAD of an expired session with 403 (pyarrow: ACCESS_DENIED).
    assert any(word in text for word in ("expired", "access_denied", "accessdenied")), text

    refreshed = requests.get(f"{table}/credentials", headers=headers, timeout=30)
    assert refreshed.status_code == 200, refreshed.text
    creds = refreshed.json()["storage-credentials"]
    assert len(creds) == 1
    second = creds[0]["config"]
    assert second["s3.session-token"] != first["s3.session-token"]
    assert int(second["s3.session-token-expires-at-ms"]) > time.time() * 1000 + 600_000
    assert b'"table-uuid"' in _read(_fs({**loaded["config"], **second}, endpoint),
                                   loaded["metadata-location"])
    # Java refreshed through /credentials on its own (5 minutes before expiry, Iceberg's rule)
    # and still reads with the table it loaded a quarter of an hour ago.
    assert _java_read(java_io, java_location) == content[0]
