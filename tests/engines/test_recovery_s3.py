"""Recovery and replication on a real S3 store (SeaweedFS; issue 13, item 6; docs/recovery.md):
`firn recover` rebuilds a catalog from an s3:// prefix (delimiter listings, in parallel) into a
new database and the history compares equal; `firn replicate` copies a file:// namespace into a
bucket of another name, rewriting every path as it lands, and PyIceberg and DuckDB read the
replica from S3 alone."""
from __future__ import annotations

import json
import os
import subprocess
import uuid

import pyarrow as pa
import pytest
from pyiceberg.table import StaticTable

import firn_auth
from conftest import CATALOG_NAME, _itc
from engines_util import duckdb_rows
from helpers import deployment_of

FIRN = _itc.FIRN_BINARY
SCHEMA = pa.schema([pa.field("id", pa.int64()), pa.field("name", pa.string())])


def rows(ids) -> pa.Table:
    ids = list(ids)
    return pa.Table.from_pydict({"id": ids, "name": [f"n{i}" for i in ids]}, schema=SCHEMA)


def s3_env(s3) -> dict[str, str]:
    return {**os.environ, "FIRN_S3_ENDPOINT": s3.endpoint, "FIRN_S3_REGION": s3.region,
            "FIRN_S3_ACCESS_KEY_ID": s3.access_key, "FIRN_S3_SECRET_ACCESS_KEY": s3.secret_key}


def firn(*args, env) -> subprocess.CompletedProcess:
    return subprocess.run([str(FIRN), *args], capture_output=True, text=True, timeout=300,
                          env=env)


def lines(p) -> list[dict]:
    return [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]


def test_recover_rebuilds_a_catalog_from_an_s3_prefix(s3_backend, tmp_path):
    s3 = s3_backend.s3
    cat = s3_backend.pyiceberg()
    ns = f"rec_{uuid.uuid4().hex[:8]}"
    cat.create_namespace(ns)
    for i in range(3):
        tbl = cat.create_table(f"{ns}.t{i}", schema=SCHEMA)
        tbl.append(rows(range(i + 2)))
        tbl.append(rows([100 + i]))
        tbl = cat.load_table(f"{ns}.t{i}")
        tbl.manage_snapshots().create_tag(tbl.snapshots()[0].snapshot_id, "first").commit()
    env = s3_env(s3)
    srv = s3_backend.server
    common = ["--catalog-name", CATALOG_NAME, "--warehouse", s3_backend.warehouse]
    record = tmp_path / "record.jsonl"
    p = firn("verify", "--namespace", ns, "--record", str(record), "--json", "--data-dir",
             str(srv.data_dir), *common, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    location = cat.load_namespace_properties(ns)["location"]
    deployment = deployment_of(srv)
    rebuilt = tmp_path / "rebuilt"
    done = firn("recover", "--prefix", location, "--namespace", ns, "--take-over-from",
                deployment, "--json", "--data-dir", str(rebuilt), *common, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = lines(done)[-1]
    assert summary["registered"] == 3, summary
    same = firn("verify", "--compare", str(record), "--json", "--data-dir", str(rebuilt),
                *common, env=env)
    assert same.returncode == 0, same.stdout
    assert all(c["same"] for c in lines(same) if not c.get("summary"))


def test_a_replica_in_a_renamed_bucket_is_read_by_pyiceberg_and_duckdb(file_backend, s3_store,
                                                                        tmp_path):
    import boto3

    bucket = f"firn-dr-{uuid.uuid4().hex[:10]}"
    boto3.client("s3", endpoint_url=s3_store.endpoint, region_name=s3_store.region,
                 aws_access_key_id=s3_store.access_key,
                 aws_secret_access_key=s3_store.secret_key).create_bucket(Bucket=bucket)
    cat = file_backend.pyiceberg()
    ns = f"dr_{uuid.uuid4().hex[:8]}"
    cat.create_namespace(ns)
    tbl = cat.create_table(f"{ns}.orders", schema=SCHEMA)
    tbl.append(rows(range(5)))
    tbl.append(rows(range(5, 8)))
    expected = sorted(cat.load_table(f"{ns}.orders").scan().to_arrow()["id"].to_pylist())
    source = cat.load_namespace_properties(ns)["location"]
    target = f"s3://{bucket}/warehouse-dr/{ns}"
    env = s3_env(s3_store)
    p = firn("replicate", "--from", source, "--to", target, "--rewrite-prefix",
             f"{source}={target}", "--json", "--data-dir",
             str(file_backend.server.data_dir), env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    [table] = [t for t in lines(p) if not t.get("summary")]
    assert table["action"] == "copied" and table["paths-rewritten"] > 0, table
    head = table["replica-head"]
    assert head.startswith(f"s3://{bucket}/")
    props = {"s3.endpoint": s3_store.endpoint, "s3.access-key-id": s3_store.access_key,
             "s3.secret-access-key": s3_store.secret_key, "s3.region": s3_store.region}
    replica = StaticTable.from_metadata(head, properties=props)
    assert sorted(replica.scan().to_arrow()["id"].to_pylist()) == expected
    assert all(f.startswith(f"s3://{bucket}/") for f in
               [replica.metadata.location] + [s.manifest_list for s in replica.metadata.snapshots])
    con = file_backend.duckdb("dr")  # extensions loaded; the store's keys given below
    con.execute("CREATE SECRET dr_store (TYPE s3, KEY_ID ?, SECRET ?, REGION ?, ENDPOINT ?, "
                "URL_STYLE 'path', USE_SSL false)",
                [s3_store.access_key, s3_store.secret_key, s3_store.region, s3_store.host_port])
    got = duckdb_rows(con, f"SELECT id FROM iceberg_scan('{head}') ORDER BY id")
    assert [r[0] for r in got] == expected
    # Verified on the store alone: whole, and every path inside it is the replica's.
    check = firn("verify", "--prefix", target, "--json", "--data-dir", str(tmp_path / "scratch"),
                 "--warehouse", f"s3://{bucket}/warehouse-dr", env=env)
    assert check.returncode == 0, check.stdout + check.stderr
