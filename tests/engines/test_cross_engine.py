"""Spark, DuckDB and PyIceberg write one table at the same time through Firn.

Each engine inserts FIRN_ENGINES_WRITES (default 20) rows, one commit per row, with ids no other
writer uses, retrying only on a commit conflict. Afterwards every acknowledged row is visible,
exactly once, to all three engines; the table's history is one line of snapshots (one per
acknowledged write) and its metadata log walks that line in order.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

import pyarrow as pa
import pytest
from engines_util import snapshot_chain
from pyiceberg.exceptions import CommitFailedException

N = int(os.environ.get("FIRN_ENGINES_WRITES", "20"))
MAX_ATTEMPTS = 25
BASE = {"spark": 1_000, "duckdb": 2_000, "pyiceberg": 3_000}
SCHEMA = pa.schema([("id", pa.int64()), ("writer", pa.string())])


@dataclass
class Outcome:
    acked: list[int] = field(default_factory=list)
    conflicts: int = 0
    gave_up: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # not a conflict: maybe committed, maybe not
    maybe: list[int] = field(default_factory=list)
    conflict_sample: str = ""


def _is_conflict(e: BaseException) -> bool:
    if isinstance(e, CommitFailedException):
        return True
    text = str(e)
    # Spark (Java) and DuckDB report Iceberg's CommitFailedException / HTTP 409 in the message.
    return "CommitFailedException" in text or "409" in text or "onflict" in text


def _writer(name: str, insert, outcome: Outcome, barrier: threading.Barrier, reconnect=None):
    rnd = random.Random(name)
    barrier.wait()
    for i in range(N):
        row_id = BASE[name] + i
        for _ in range(MAX_ATTEMPTS):
            try:
                insert(row_id)
            except Exception as e:  # noqa: BLE001 - classified below
                if _is_conflict(e):
                    outcome.conflicts += 1
                    outcome.conflict_sample = outcome.conflict_sample or str(e)[:300]
                    if reconnect:
                        reconnect()
                    time.sleep(rnd.uniform(0.02, 0.2))
                    continue
                outcome.errors.append(f"id {row_id}: {type(e).__name__}: {str(e)[:500]}")
                outcome.maybe.append(row_id)
                if reconnect:
                    reconnect()
                break
            outcome.acked.append(row_id)
            break
        else:
            outcome.gave_up.append(row_id)
        time.sleep(rnd.uniform(0.0, 0.15))  # spread the fast writers over Spark's run


def test_three_engines_write_concurrently_and_agree(backend, spark, ns):
    cat = backend.pyiceberg()
    ident = f"{ns}.shared"
    cat.create_table(ident, schema=SCHEMA)
    c = backend.spark_catalog(spark)
    spark_table = f"{c}.{ns}.shared"
    spark.sql(f"SELECT count(*) FROM {spark_table}").collect()  # warm the catalog up

    def spark_insert(row_id):
        spark.sql(f"INSERT INTO {spark_table} VALUES ({row_id}, 'spark')")

    duck = {"con": backend.duckdb()}

    def duck_reconnect():
        duck["con"].close()
        duck["con"] = backend.duckdb()

    def duck_insert(row_id):
        duck["con"].execute(f"INSERT INTO ice.{ident} VALUES ({row_id}, 'duckdb')")

    py_cat = backend.pyiceberg()

    def py_insert(row_id):
        py_cat.load_table(ident).append(pa.table({"id": [row_id], "writer": ["pyiceberg"]}, SCHEMA))

    outcomes = {w: Outcome() for w in BASE}
    barrier = threading.Barrier(3)
    threads = [
        threading.Thread(target=_writer, args=("spark", spark_insert, outcomes["spark"], barrier)),
        threading.Thread(
            target=_writer, args=("duckdb", duck_insert, outcomes["duckdb"], barrier, duck_reconnect)
        ),
        threading.Thread(target=_writer, args=("pyiceberg", py_insert, outcomes["pyiceberg"], barrier)),
    ]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=240)
    assert not any(t.is_alive() for t in threads), "a writer hung"
    elapsed = time.monotonic() - t0
    summary = {w: (len(o.acked), o.conflicts, len(o.gave_up), len(o.errors)) for w, o in outcomes.items()}
    print(f"writers (acked, conflicts, gave_up, errors) in {elapsed:.1f}s: {summary}")
    for w, o in outcomes.items():
        if o.conflict_sample:
            print(f"  {w} conflict, e.g.: {o.conflict_sample}")

    acked = sorted(i for o in outcomes.values() for i in o.acked)
    maybe = {i for o in outcomes.values() for i in o.maybe}

    def check(engine: str, rows: list[tuple]):
        counts = Counter(i for i, _ in rows)
        dupes = sorted(i for i, n in counts.items() if n > 1)
        assert not dupes, f"{engine}: duplicated ids {dupes}"
        lost = sorted(set(acked) - set(counts))
        assert not lost, f"{engine}: acknowledged writes missing: {lost}"
        extra = sorted(set(counts) - set(acked) - maybe)
        assert not extra, f"{engine}: rows nobody wrote: {extra}"
        for i, writer in rows:
            assert BASE[writer] <= i < BASE[writer] + N, f"{engine}: id {i} tagged {writer}"

    py_rows = cat.load_table(ident).scan().to_arrow().to_pydict()
    check("pyiceberg", list(zip(py_rows["id"], py_rows["writer"])))
    check("duckdb", backend.duckdb().execute(f"SELECT id, writer FROM ice.{ident}").fetchall())
    check("spark", [tuple(r) for r in spark.sql(f"SELECT id, writer FROM {spark_table}").collect()])

    # Conflicts are retried until they succeed; anything else is a failure to look at.
    for w, o in outcomes.items():
        assert not o.errors, f"{w}: non-conflict errors: {o.errors[:3]}"
        assert not o.gave_up, f"{w}: still conflicting after {MAX_ATTEMPTS} attempts: {o.gave_up}"
    assert len(acked) == 3 * N

    # One line of history: every snapshot is on the current snapshot's ancestry, one per write.
    meta = backend.load_table_json(ns, "shared")["metadata"]
    chain = snapshot_chain(meta)
    assert len(chain) == len(meta["snapshots"]) == len(acked)
    assert "parent-snapshot-id" not in chain[0] or chain[0]["parent-snapshot-id"] is None
    seqs = [s["sequence-number"] for s in chain]
    assert seqs == sorted(set(seqs)), "sequence numbers must rise along the chain"
    assert meta["last-sequence-number"] == seqs[-1]
    assert [e["snapshot-id"] for e in meta["snapshot-log"]] == [s["snapshot-id"] for s in chain]
    assert meta["refs"]["main"]["snapshot-id"] == chain[-1]["snapshot-id"]

    # The metadata log: version k of the table is the one after k commits (version 0 is the
    # create); the log holds the versions before the current one, the newest ones when
    # write.metadata.previous-versions-max (default 100) trims it.
    log = meta["metadata-log"]
    versions = len(chain)  # index of the current version
    keep = int(meta.get("properties", {}).get("write.metadata.previous-versions-max", 100))
    assert len(log) == min(versions, keep)
    stamps = [e["timestamp-ms"] for e in log]
    assert stamps == sorted(stamps)
    files = [e["metadata-file"] for e in log]
    assert len(set(files)) == len(files)
    io = cat.load_table(ident).io
    for i, entry in enumerate(log):
        k = versions - len(log) + i
        with io.new_input(entry["metadata-file"]).open() as f:
            old = json.loads(f.read())
        current = old.get("current-snapshot-id")
        want = None if k == 0 else chain[k - 1]["snapshot-id"]
        assert (None if current in (None, -1) else current) == want, f"metadata version {k}"
