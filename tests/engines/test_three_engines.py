"""The three-engine table of the multi-engine platform (issue 15, item 3; docs/engines.md,
"Three engines on one table"): one table, Flink streaming rows into it for 60 s with a
checkpoint (a commit) every second, Spark committing a micro-batch every few seconds, Trino and
DuckDB querying it the whole time, all through one Firn.

Afterwards: every row a writer's commit acknowledged is there exactly once; the table's history
is one line (each commit's snapshot the parent of the next, each audited pointer swap starting
where the previous one ended); every count a reader saw is the row count of some snapshot of
that history, never decreasing (a reader only ever saw a prefix); and Firn's audit trail names
the engine of every commit (each engine sends X-Client-Engine, recorded with the client)."""

from __future__ import annotations

import os
import subprocess
import threading
import time
import uuid

import pyarrow as pa
import pytest
from engines_util import flink_command, flink_job_dir, snapshot_chain

import firn_auth

pytestmark = pytest.mark.three_engines

STREAM_S = 60
FLINK_RATE = 20           # rows/s: 1,200 rows
SPARK_EVERY_S = 3
SPARK_ROWS = 10           # per micro-batch
READ_EVERY_S = 0.5
SCHEMA = pa.schema([("writer", pa.string()), ("seq", pa.int64()), ("batch", pa.int64())])


class Reader(threading.Thread):
    """Counts the table's rows every READ_EVERY_S until stopped; keeps every count it saw."""

    def __init__(self, name, count):
        super().__init__(name=name, daemon=True)
        self.count, self.seen, self.errors = count, [], []
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                self.seen.append(self.count())
            except Exception as e:  # noqa: BLE001 -- kept and asserted on
                self.errors.append(repr(e))
            self.stop.wait(READ_EVERY_S)


def test_flink_streams_spark_batches_while_trino_and_duckdb_read_one_history(
        file_backend, spark, trino, tmp_path, capsys):
    backend = file_backend
    ns = f"mix_{uuid.uuid4().hex[:8]}"
    table = f"{ns}.events"
    cat = backend.pyiceberg()
    cat.create_namespace(ns)
    cat.create_table(table, schema=SCHEMA, properties={"format-version": "2"})
    job = flink_job_dir()
    trino.wait_until_it_reads("firn_file", table)

    # Flink: a bounded stream, one commit per checkpoint.
    env = {k: v for k, v in os.environ.items() if k != "FIRN_FLINK_CREDENTIAL"}
    env["FIRN_FLINK_CREDENTIAL"] = firn_auth.admin_credentials().credential
    flink_rows = STREAM_S * FLINK_RATE
    flink_log = tmp_path / "flink.log"
    t0 = time.monotonic()
    with flink_log.open("w") as err:
        flink = subprocess.Popen(
            flink_command(job, tmp_path, "mode=stream-into", f"uri={backend.uri}",
                          f"warehouse={backend.catalog}", f"table={table}",
                          f"rows={flink_rows}", f"rate={FLINK_RATE}", "engine=flink-2.0"),
            stdout=subprocess.PIPE, stderr=err, text=True, env=env, cwd=tmp_path)

    # Spark: a micro-batch every few seconds, acknowledged when INSERT returns.
    spark_cat = backend.spark_catalog(spark, suffix="_mix",
                                      extra={".header.X-Client-Engine": "spark-4.0"})
    acked: list[int] = []
    spark_errors: list[str] = []
    stop = threading.Event()

    def spark_writer():
        batch = 0
        while not stop.is_set():
            batch += 1
            seqs = range(batch * 1000, batch * 1000 + SPARK_ROWS)
            values = ", ".join(f"('spark', {s}, {batch})" for s in seqs)
            try:
                spark.sql(f"INSERT INTO {spark_cat}.{table} VALUES {values}")
                acked.extend(seqs)
            except Exception as e:  # noqa: BLE001 -- a refused commit is not acknowledged
                spark_errors.append(repr(e)[:300])
            stop.wait(SPARK_EVERY_S)

    writer = threading.Thread(target=spark_writer, name="spark", daemon=True)
    writer.start()
    duck = backend.duckdb("mix")
    readers = [
        Reader("trino", lambda: trino.query("firn_file", f"SELECT count(*) FROM {table}")[0][0]),
        Reader("duckdb", lambda: duck.execute(f"SELECT count(*) FROM mix.{table}").fetchone()[0]),
    ]
    for r in readers:
        r.start()
    try:
        out, _ = flink.communicate(timeout=STREAM_S + 180)
    except subprocess.TimeoutExpired:
        flink.kill()
        out, _ = flink.communicate()
    flink_s = time.monotonic() - t0
    stop.set()
    writer.join(timeout=120)
    for r in readers:
        r.stop.set()
        r.join(timeout=60)
    assert flink.returncode == 0, (
        f"Flink exited {flink.returncode}:\n{flink_log.read_text(errors='replace')[-4000:]}")
    assert "FIRN-RESULT" in out

    # 1. Every acknowledged row exactly once.
    tbl = cat.load_table(table)
    rows = tbl.scan().to_arrow().to_pylist()
    flink_seqs = sorted(r["seq"] for r in rows if r["writer"] == "flink")
    spark_seqs = sorted(r["seq"] for r in rows if r["writer"] == "spark")
    assert flink_seqs == list(range(1, flink_rows + 1)), "Flink's rows: lost or doubled"
    assert sorted(acked) == spark_seqs, f"Spark's rows: lost or doubled (errors {spark_errors})"
    assert len(rows) == flink_rows + len(acked)

    # 2. One line of history: the snapshot chain holds every snapshot, and every audited
    #    pointer swap starts where the previous one ended, up to the current metadata.
    meta = tbl.metadata.model_dump(by_alias=True)
    chain = snapshot_chain(meta)
    assert len(chain) == len(meta["snapshots"]), "a snapshot off the main line"
    audit = firn_auth.Management(backend.uri).ok(
        "GET", "/audit", params={"objectPrefix": f"table {table}", "afterId": 0,
                                 "limit": 1000}).json()["entries"]
    created = [e for e in audit if e["operation"] == "createTable"]
    commits = [e for e in audit if e["operation"] in ("updateTable", "commitTransaction")
               and e["outcome"] == "success"]
    assert created and commits
    previous = created[0]["newLocation"]
    for c in commits:
        assert c["oldLocation"] == previous, "a gap in the metadata chain"
        previous = c["newLocation"]
    assert previous == tbl.metadata_location
    assert len(commits) == len(chain), "a commit without its snapshot, or the reverse"

    # 3. Readers saw prefixes: each count is a snapshot's total, and never went down.
    totals = {0} | {int(s["summary"]["total-records"]) for s in chain}
    for r in readers:
        assert not r.errors, f"{r.name} failed: {r.errors[:3]}"
        assert len(r.seen) >= 20, f"{r.name} read only {len(r.seen)} times"
        assert set(r.seen) <= totals, f"{r.name} saw a count no snapshot had: " \
            f"{sorted(set(r.seen) - totals)[:5]}"
        assert r.seen == sorted(r.seen), f"{r.name} saw the table go back in time"

    # 4. The audit trail names the engine of every commit.
    by_engine = {"flink": 0, "spark": 0}
    for c in commits:
        engine = [e for e in by_engine if f"X-Client-Engine={e}" in c["client"]]
        assert len(engine) == 1, f"commit without its engine: {c['client']!r}"
        by_engine[engine[0]] += 1
    assert by_engine["flink"] >= STREAM_S // 3, by_engine  # a checkpoint a second, give or take
    assert by_engine["spark"] == len(acked) // SPARK_ROWS, by_engine
    with capsys.disabled():  # the run's figures reach the CI log
        print(f"\nthree engines: {len(rows)} rows (flink {flink_rows}, spark {len(acked)} in "
              f"{by_engine['spark']} batches), {len(commits)} commits (flink "
              f"{by_engine['flink']}, spark {by_engine['spark']}), one chain of {len(chain)} "
              f"snapshots; reads: trino {len(readers[0].seen)}, duckdb {len(readers[1].seen)}, "
              f"all prefixes; Flink ran {flink_s:.0f}s; Spark commit errors {len(spark_errors)}")
