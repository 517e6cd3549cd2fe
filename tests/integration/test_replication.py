"""Table-aware replication (issue 13, item 3; docs/recovery.md "Replicating"): each table's
files before its metadata, so the replica is always a consistent table; incremental; and paths
rewritten into a root of another name as the copy lands, so that the replica is readable with
the primary gone. Played as the recovery chapter's region loss: the replica is checked with
the original root emptied (a test that passed for the wrong reason once), through a catalog
rebuilt on the replica side (PyIceberg) and directly (DuckDB), and a copy killed half-way.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import FIRN_BINARY, make_catalog
from helpers import SCHEMA, ids_of, local_path, rows

pytestmark = pytest.mark.firn_only


def firn(*args: str, env: dict | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(FIRN_BINARY), *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def lines(p: subprocess.CompletedProcess) -> list[dict]:
    return [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]


def duckdb_count(metadata_file: Path) -> int:
    import duckdb
    import duckdb_extensions

    ext = Path(os.environ.get("FIRN_CACHE", Path.home() / ".cache/firn")) / "duckdb-ext"
    con = duckdb.connect(config={"extension_directory": str(ext),
                                 "autoinstall_known_extensions": False})
    for name in ("avro", "iceberg"):
        duckdb_extensions.import_extension(name, con=con)
        con.execute(f"LOAD {name}")
    return con.execute(f"SELECT count(*) FROM iceberg_scan('{metadata_file}')").fetchone()[0]


def test_a_replica_in_a_renamed_root_is_readable_with_the_primary_gone(server_factory, tmp_path):
    primary = server_factory()
    cat = make_catalog(primary)
    cat.create_namespace("lake")
    orders = cat.create_table("lake.orders", schema=SCHEMA)
    for n in range(3):
        orders.append(rows(range(n * 10, n * 10 + 4)))
    orders = cat.load_table("lake.orders")
    orders.manage_snapshots().create_tag(orders.snapshots()[0].snapshot_id, "q1_close").commit()
    events = cat.create_table("lake.events", schema=SCHEMA)
    events.append(rows([7, 8, 9]))
    source_root = primary.catalog_dir.as_uri()
    dr_warehouse = tmp_path / "dr-warehouse"
    replica_root = (dr_warehouse / "default").as_uri()
    replicate = ["replicate", "--from", source_root, "--to", replica_root, "--rewrite-prefix",
                 f"{source_root}={replica_root}", "--json",
                 "--data-dir", str(primary.data_dir)]

    first = firn(*replicate)
    assert first.returncode == 0, first.stdout + first.stderr
    report = lines(first)
    tables = {t["name"]: t for t in report if not t.get("summary")}
    assert set(tables) == {"orders", "events"}
    assert all(t["action"] == "copied" and t["paths-rewritten"] > 0 for t in tables.values())
    assert all(t["lag-ms"] == 0 for t in tables.values())
    summary = report[-1]
    assert summary["objects-copied"] > 10 and summary["bytes"] > 0, summary

    # Incremental: the next run copies only what the new commit wrote.
    cat.load_table("lake.orders").append(rows([100]))
    second = firn(*replicate)
    assert second.returncode == 0, second.stdout
    again = {t["name"]: t for t in lines(second) if not t.get("summary")}
    assert again["events"]["action"] == "up-to-date" and again["events"]["copied"] == 0
    assert 0 < again["orders"]["copied"] <= 4, again["orders"]  # data, manifest, list, metadata
    assert again["orders"]["present"] > 0
    expected = {"lake.orders": ids_of(cat.load_table("lake.orders")),
                "lake.events": ids_of(cat.load_table("lake.events"))}
    tag = cat.load_table("lake.orders").metadata.refs["q1_close"].snapshot_id

    # The region is gone: the primary's root is emptied, so no path can resolve against it.
    primary.stop()
    shutil.move(primary.warehouse_dir, tmp_path / "primary-was-here")
    check = firn("verify", "--prefix", replica_root, "--json", "--data-dir",
                 str(tmp_path / "scratch"), "--warehouse", str(dr_warehouse))
    assert check.returncode == 0, check.stdout + check.stderr
    heads = [c for c in lines(check) if not c.get("summary")]
    assert len(heads) == 2 and all(c["ok"] for c in heads)
    for c in heads:
        assert c["metadata-location"].startswith(replica_root)
        name = "lake." + c["table"].split(".")[-1]
        assert duckdb_count(local_path(c["metadata-location"])) == len(expected[name])

    # A catalog on the replica side, rebuilt from it (cold standby), serves the engines.
    dr = server_factory(args=["--warehouse", str(dr_warehouse)], start=False)
    rebuilt = firn("recover", "--prefix", replica_root, "--json", "--data-dir", str(dr.data_dir),
                   "--warehouse", str(dr_warehouse))
    assert rebuilt.returncode == 0, rebuilt.stdout + rebuilt.stderr
    dr.start()
    dr_cat = make_catalog(dr)
    for name, ids in expected.items():
        tbl = dr_cat.load_table(name)
        assert ids_of(tbl) == ids, name
    assert dr_cat.load_table("lake.orders").metadata.refs["q1_close"].snapshot_id == tag


def test_a_copy_killed_half_way_leaves_a_consistent_replica_and_a_rerun_completes_it(
        fresh_server, tmp_path):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.wide", schema=SCHEMA,
                           properties={"write.target-file-size-bytes": "1"})
    for n in range(6):
        tbl.append(rows(range(n * 20, n * 20 + 20)))
    expected = ids_of(cat.load_table("lake.wide"))
    source_root = fresh_server.catalog_dir.as_uri()
    replica = tmp_path / "replica"
    args = [str(FIRN_BINARY), "replicate", "--from", source_root, "--to", replica.as_uri(),
            "--rewrite-prefix", f"{source_root}={replica.as_uri()}",
            "--threads", "2", "--json", "--data-dir", str(fresh_server.data_dir)]
    env = {**os.environ, "FIRN_TEST_MODE": "on", "FIRN_TEST_COPY_DELAY_MS": "20"}
    copy = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    data_dir = replica / "lake" / "wide" / "data"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(list(data_dir.rglob("*.parquet"))) < 20:
        time.sleep(0.02)
    copy.send_signal(signal.SIGKILL)
    copy.wait()
    copied = list(data_dir.rglob("*.parquet"))
    assert 20 <= len(copied) < len(expected), "the kill did not land half-way"
    # Never a torn file, and no metadata file whose files are not all there.
    assert not list((replica / "lake" / "wide" / "metadata").glob("*.metadata.json"))
    source_dir = local_path(source_root) / "lake" / "wide" / "data"
    for f in copied:
        assert f.stat().st_size == (source_dir / f.relative_to(data_dir)).stat().st_size, f
    rerun = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    [table] = [t for t in lines(rerun) if not t.get("summary")]
    assert table["action"] == "copied" and table["present"] >= 20, table
    # The source goes away: the replica stands on its own.
    fresh_server.stop()
    shutil.move(fresh_server.warehouse_dir, tmp_path / "source-was-here")
    check = firn("verify", "--prefix", replica.as_uri(), "--json", "--data-dir",
                 str(tmp_path / "scratch"), "--warehouse", str(replica))
    assert check.returncode == 0, check.stdout + check.stderr
    assert duckdb_count(local_path(table["replica-head"])) == len(expected)
