"""Flink 2.0 with Iceberg 1.10.1's Flink runtime against Firn (file:// backend), authenticated
with OAuth2 client credentials.

One run of the job tests/engines/flink (FirnFlinkJob, an embedded mini-cluster in its own JVM,
built by scripts/install_flink.sh) serves every test here:
  - Flink SQL DDL through Firn: CREATE CATALOG (type iceberg, catalog-type rest), CREATE
    DATABASE, CREATE TABLE events (v2) and accounts (v2, PRIMARY KEY id, write.upsert.enabled);
  - a streaming job appends ROWS rows (a datagen sequence at RATE rows/s) to events with a
    checkpoint every second: the Iceberg sink commits once per checkpoint;
  - a streaming upsert of UPDATES rows into accounts (id = seq mod KEYS, balance = seq), then a
    batch upsert of two rows: equality deletes;
  - batch reads of both tables in Flink.
The tests then read what Firn holds with PyIceberg, Spark and Firn's own REST answers and audit.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid

import pytest
from engines_util import (duckdb_rows, flink_command, flink_job_dir, pyiceberg_rows,
                          snapshot_chain, spark_rows)

import firn_auth

pytestmark = pytest.mark.flink

ROWS, RATE, KEYS, UPDATES = 400, 100, 20, 300
JOB_TIMEOUT_S = 240


def _final_balances() -> list[tuple]:
    """accounts after the job: each key's last streamed seq, then the batch upsert's two rows."""
    latest = {}
    for seq in range(1, UPDATES + 1):
        latest[seq % KEYS] = (seq, "stream")
    latest[0] = (-1, "batch")
    latest[KEYS] = (-2, "batch")
    return sorted((k, v, src) for k, (v, src) in latest.items())


@pytest.fixture(scope="module")
def flink(file_backend, tmp_path_factory):
    """Runs the job once against the file backend; its results by step, the namespace, the
    server-log lines it caused and how long it took."""
    job = flink_job_dir()
    ns = f"flink_{uuid.uuid4().hex[:8]}"
    log = tmp_path_factory.mktemp("flink") / "job.log"
    env = {k: v for k, v in os.environ.items() if k != "FIRN_FLINK_CREDENTIAL"}
    if file_backend.server.auth:
        env["FIRN_FLINK_CREDENTIAL"] = firn_auth.admin_credentials().credential
    # The mini-cluster's scratch files (blobs, checkpoints' spill) stay in pytest's tree.
    cmd = flink_command(job, log.parent,
                        f"uri={file_backend.uri}", f"warehouse={file_backend.catalog}",
                        f"namespace={ns}", f"rows={ROWS}", f"rate={RATE}", f"keys={KEYS}",
                        f"updates={UPDATES}")
    server_log = file_backend.server.log_path
    log_offset = server_log.stat().st_size
    t0 = time.monotonic()
    with log.open("w") as err:
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=err, text=True, env=env,
                               timeout=JOB_TIMEOUT_S, cwd=log.parent)
            stdout, rc = p.stdout, p.returncode
        except subprocess.TimeoutExpired as e:  # the JVM has been killed
            out = e.stdout or b""  # bytes, even with text=True
            stdout = out.decode(errors="replace") if isinstance(out, bytes) else out
            rc = f"killed after the {JOB_TIMEOUT_S}s timeout"
    elapsed = time.monotonic() - t0
    results = {}
    for line in stdout.splitlines():
        if line.startswith("FIRN-RESULT "):
            r = json.loads(line[len("FIRN-RESULT "):])
            results[r["step"]] = r
    if rc != 0:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-80:])
        pytest.fail(f"Flink job exited {rc} after {elapsed:.1f}s; results {results}\n"
                    f"stderr tail ({log}):\n{tail}")
    with server_log.open("rb") as f:
        f.seek(log_offset)
        server_lines = f.read().decode(errors="replace").splitlines()
    timing = {step: r.get("seconds") for step, r in results.items()}
    print(f"flink job: {elapsed:.1f}s wall, steps {timing}", file=sys.stderr)
    return {"ns": ns, "results": results, "elapsed": elapsed, "server_lines": server_lines}


def _snapshots(backend, ns: str, table: str) -> tuple[dict, list[dict]]:
    meta = backend.load_table_json(ns, table)["metadata"]
    chain = snapshot_chain(meta)
    assert len(chain) == len(meta["snapshots"]), "every snapshot on one line of history"
    return meta, chain


def test_flink_sql_ddl_creates_namespace_and_tables_in_firn(file_backend, flink):
    ns = flink["ns"]
    assert flink["results"]["ddl"]["database"] == ns
    cat = file_backend.pyiceberg()
    assert (ns,) in cat.list_namespaces()
    assert sorted(t for _, t in cat.list_tables(ns)) == ["accounts", "events"]

    events = cat.load_table(f"{ns}.events")
    assert events.format_version == 2
    assert [(f.name, str(f.field_type), f.required) for f in events.schema().fields] == [
        ("id", "long", True), ("payload", "string", False)]
    accounts = cat.load_table(f"{ns}.accounts")
    assert accounts.format_version == 2
    schema = accounts.schema()
    assert [(f.name, str(f.field_type)) for f in schema.fields] == [
        ("id", "long"), ("balance", "long"), ("source", "string")]
    # PRIMARY KEY (id) NOT ENFORCED became Iceberg's identifier field.
    assert schema.identifier_field_ids == [schema.find_field("id").field_id]
    assert accounts.properties.get("write.upsert.enabled") == "true"


def test_flink_streaming_append_commits_on_each_checkpoint(file_backend, spark, flink):
    ns = flink["ns"]
    # Flink's own batch read, through Firn.
    assert flink["results"]["read-events"] == {
        "step": "read-events", "count": ROWS, "distinct": ROWS, "min": 1, "max": ROWS}

    meta, chain = _snapshots(file_backend, ns, "events")
    summaries = [s["summary"] for s in chain]
    # Checkpoints every second while the source runs ROWS / RATE seconds: several commits.
    assert len(chain) > 1, f"one commit only: {summaries}"
    assert all(s["operation"] == "append" for s in summaries), summaries
    assert sum(int(s["added-records"]) for s in summaries) == ROWS
    assert int(summaries[-1]["total-records"]) == ROWS
    # Each commit is the Iceberg sink's, for a later checkpoint of the same job.
    assert len({s["flink.job-id"] for s in summaries}) == 1
    checkpoints = [int(s["flink.max-committed-checkpoint-id"]) for s in summaries]
    assert checkpoints == sorted(set(checkpoints)), checkpoints
    print(f"events: {len(chain)} commits, records per commit "
          f"{[int(s['added-records']) for s in summaries]}, checkpoints {checkpoints}",
          file=sys.stderr)

    # Every row exactly once, for readers other than Flink.
    ids = [i for (i,) in pyiceberg_rows(file_backend.pyiceberg(), f"{ns}.events", ["id"])]
    assert ids == list(range(1, ROWS + 1))
    c = file_backend.spark_catalog(spark)
    assert spark_rows(spark, f"SELECT count(*), count(DISTINCT id), min(id), max(id) "
                             f"FROM {c}.{ns}.events") == [(ROWS, ROWS, 1, ROWS)]
    assert spark_rows(spark, f"SELECT payload FROM {c}.{ns}.events WHERE id = 7") == [
        ("event-7",)]

    # Firn's audit: the create, then one successful commit per snapshot, each from the metadata
    # file the one before left, ending at the table's current metadata; all by the Iceberg Java
    # client of the job, as the admin (the principal firn serve bootstraps).
    if file_backend.server.auth:
        body = firn_auth.Management(file_backend.uri).ok("GET", "/audit", params={
            "catalog": file_backend.catalog, "objectPrefix": f"table {ns}.events",
            "afterId": 0, "limit": 1000}).json()
        entries = body["entries"]
        assert [e["operation"] for e in entries] == ["createTable"] + ["updateTable"] * len(chain)
        assert all(e["outcome"] == "success" for e in entries), entries
        for before, after in zip(entries, entries[1:]):
            assert after["oldLocation"] == before["newLocation"]
        current = file_backend.load_table_json(ns, "events")["metadata-location"]
        assert entries[-1]["newLocation"] == current
        assert all(e["principal"] == "admin" and "Apache Iceberg 1.10.1" in e["client"]
                   for e in entries), entries


def test_flink_upsert_equality_deletes_read_by_spark_and_pyiceberg(file_backend, spark, flink):
    ns, want = flink["ns"], _final_balances()
    assert len(want) == KEYS + 1
    # Flink's own batch read.
    assert [tuple(r) for r in flink["results"]["read-accounts"]["rows"]] == want

    meta, chain = _snapshots(file_backend, ns, "accounts")
    summaries = [s["summary"] for s in chain]
    # The streaming job's commits (one per checkpoint: UPDATES / RATE seconds of input), then
    # the batch job's one; each replaces rows by equality deletes, so the later commits delete
    # rows of the earlier ones.
    jobs = [s["flink.job-id"] for s in summaries]
    assert len(set(jobs)) == 2 and jobs[-1] != jobs[-2], jobs
    assert jobs.count(jobs[0]) >= 2, f"one streamed commit only: {summaries}"
    assert all(int(s.get("added-equality-deletes", 0)) > 0 for s in summaries), summaries
    assert int(summaries[-1]["total-equality-deletes"]) > 0
    print(f"accounts: {len(chain)} commits, equality deletes per commit "
          f"{[int(s['added-equality-deletes']) for s in summaries]}", file=sys.stderr)

    # Spark and DuckDB apply the equality deletes.
    c = file_backend.spark_catalog(spark)
    t = f"{c}.{ns}.accounts"
    assert spark_rows(spark, f"SELECT id, balance, source FROM {t}") == want
    assert spark_rows(spark, f"SELECT count(*) FROM {t}.delete_files WHERE content = 2")[0][0] > 0
    assert duckdb_rows(file_backend.duckdb(),
                       f"SELECT id, balance, source FROM ice.{ns}.accounts") == want

    # PyIceberg 0.12 plans no scan over equality delete files: it refuses rather than return the
    # replaced rows. (A PyIceberg that reads them must read the same rows as Spark.)
    cat = file_backend.pyiceberg()
    try:
        rows = pyiceberg_rows(cat, f"{ns}.accounts", ["id", "balance", "source"])
    except ValueError as e:
        assert "equality deletes" in str(e), e
    else:
        assert rows == want

    # Spark rewrites the table from its own read: INSERT OVERWRITE of the whole (unpartitioned)
    # table replaces every data file and drops every delete file. (rewrite_data_files does not
    # do for PyIceberg: in Iceberg 1.10.1 it leaves some equality delete files of an
    # unpartitioned table behind, harmless to Spark, fatal to PyIceberg's scan.) Then PyIceberg
    # reads the final state too, and Spark again.
    spark.sql(f"INSERT OVERWRITE {t} SELECT id, balance, source FROM {t}")
    meta, chain = _snapshots(file_backend, ns, "accounts")
    assert chain[-1]["summary"]["total-delete-files"] == "0", chain[-1]["summary"]
    assert pyiceberg_rows(cat, f"{ns}.accounts", ["id", "balance", "source"]) == want
    assert spark_rows(spark, f"SELECT id, balance, source FROM {t}") == want


def test_flink_caused_no_server_errors(flink):
    """Firn answered every request of the Flink job without a 5xx (its log, during the run)."""
    errors = [l for l in flink["server_lines"]
              if re.search(r'"status":\s*5\d\d', l) or '"level":"error"' in l]
    assert not errors, errors[:10]
