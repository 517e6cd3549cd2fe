"""Recovery from the object store (issue 13; docs/recovery.md): `firn recover` rebuilds a lost
catalog by following each table's metadata-log chain, `firn verify` proves the tables whole and
their history unchanged, and no crashed commit leaves a stray metadata file behind.

Played as the recovery chapter's game day: eight tables with tags, branches and several
schemas; the catalog database lost; a new database rebuilt from the warehouse; every table's
rows, snapshots, refs and schema compared with a record taken before the loss. Then the traps:
a stray newer by name, a fork two catalogs made, a claim of a deployment that is gone, and an
instance killed between writing its metadata file and moving the pointer.
"""
from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pyarrow as pa
import pytest
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.types import StringType

import firn_auth
from conftest import FIRN_BINARY, Api, make_catalog
from helpers import SCHEMA, deployment_of, ids_of, local_path, rows

pytestmark = pytest.mark.firn_only

WIDE = pa.schema([pa.field("id", pa.int64()), pa.field("name", pa.string()),
                  pa.field("region", pa.string())])


def firn(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(FIRN_BINARY), *args], capture_output=True, text=True,
                          timeout=timeout)


def lines(p: subprocess.CompletedProcess) -> list[dict]:
    return [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]


def game_day_tables(cat: RestCatalog) -> dict[str, dict]:
    """Eight tables with history worth losing: tags, branches, several schemas."""
    cat.create_namespace("lake")
    cat.create_namespace("audit")
    expected: dict[str, dict] = {}
    for i in range(8):
        ns = "lake" if i < 5 else "audit"
        tbl = cat.create_table(f"{ns}.t{i}", schema=SCHEMA)
        for n in range(2 + i % 3):
            tbl.append(rows(range(n * 10, n * 10 + 5 + i)))
        tbl = cat.load_table(f"{ns}.t{i}")
        first = tbl.snapshots()[0].snapshot_id
        ops = tbl.manage_snapshots().create_tag(first, f"month_end_{i}")
        if i % 2 == 0:
            ops = ops.create_branch(first, "dev")
        ops.commit()
        if i % 3 == 0:
            with tbl.update_schema() as update:
                update.add_column("region", StringType())
            tbl = cat.load_table(f"{ns}.t{i}")
            tbl.append(pa.Table.from_pydict(
                {"id": [1000 + i], "name": ["wide"], "region": ["eu"]}, schema=WIDE))
        tbl = cat.load_table(f"{ns}.t{i}")
        expected[f"{ns}.t{i}"] = {
            "snapshot": tbl.current_snapshot().snapshot_id,
            "ids": ids_of(tbl),
            "refs": {name: ref.snapshot_id for name, ref in tbl.metadata.refs.items()},
            "schemas": len(tbl.metadata.schemas),
            "metadata": tbl.metadata_location,
        }
    return expected


def test_the_game_day_recovers_eight_tables_identical_into_a_new_database(server_factory,
                                                                          tmp_path):
    primary = server_factory()
    cat = make_catalog(primary)
    expected = game_day_tables(cat)
    record = tmp_path / "record.jsonl"
    p = firn("verify", "--data-dir", str(primary.data_dir), "--record", str(record), "--json")
    assert p.returncode == 0, p.stdout + p.stderr
    assert len(record.read_text().splitlines()) == 8
    old_deployment = deployment_of(primary)
    warehouse = primary.catalog_dir
    primary.stop()

    # The database is lost; the warehouse is not. A new deployment rebuilds it into the data
    # directory a new server will use.
    srv = server_factory(args=["--warehouse", str(primary.warehouse_dir)], start=False)
    rebuilt = ["--data-dir", str(srv.data_dir), "--warehouse", str(primary.warehouse_dir)]
    dry = firn("recover", "--prefix", warehouse.as_uri(), "--dry-run", "--json", *rebuilt)
    plan = lines(dry)
    tables = [t for t in plan if not t.get("summary")]
    assert len(tables) == 8, dry.stdout + dry.stderr
    # Every table is claimed by the lost deployment: refused until the operator says it is gone.
    assert dry.returncode == 1, dry.stdout
    assert all(t["action"] == "refused" and old_deployment in t["detail"] for t in tables)

    done = firn("recover", "--prefix", warehouse.as_uri(), "--take-over-from", old_deployment,
                "--json", *rebuilt)
    assert done.returncode == 0, done.stdout + done.stderr
    report = lines(done)
    summary = report[-1]
    assert summary["summary"] and summary["registered"] == 8, summary
    for t in report[:-1]:
        name = ".".join(t["namespace"]) + "." + t["name"]
        assert t["named-by"] == "claim", t
        assert Path(t["head"]).name == Path(expected[name]["metadata"]).name, t

    # History validated against the record: rows, snapshots, refs, schema — 8/8 identical.
    compare = firn("verify", "--compare", str(record), "--json", *rebuilt)
    assert compare.returncode == 0, compare.stdout
    checks = [c for c in lines(compare) if not c.get("summary")]
    assert len(checks) == 8 and all(c["ok"] and c["same"] for c in checks), compare.stdout

    # A rerun registers nothing twice.
    again = firn("recover", "--prefix", warehouse.as_uri(), "--json", *rebuilt)
    assert again.returncode == 0, again.stdout
    assert lines(again)[-1]["already-registered"] == 8

    # The engines read the recovered tables at the same snapshots, refs included.
    srv.start()
    recovered = make_catalog(srv)
    for name, want in expected.items():
        tbl = recovered.load_table(name)
        assert tbl.current_snapshot().snapshot_id == want["snapshot"], name
        assert ids_of(tbl) == want["ids"], name
        assert {n: r.snapshot_id for n, r in tbl.metadata.refs.items()} == want["refs"], name
        assert len(tbl.metadata.schemas) == want["schemas"], name


def test_a_stray_newer_by_name_is_not_chosen_and_a_fork_is_reported(fresh_server, tmp_path):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.t1", schema=SCHEMA)
    for n in range(4):
        tbl.append(rows([n]))
    tbl = cat.load_table("lake.t1")
    head = local_path(tbl.metadata_location)
    mdir = head.parent
    log = tbl.metadata.metadata_log
    # A failed commit's stray, built on an older version, newer by name: it holds nothing the
    # head lacks (no new snapshot), so the head's history contains it.
    base = json.loads(local_path(log[-2].metadata_file).read_text())
    stray = dict(base)
    stray["metadata-log"] = base["metadata-log"] + [
        {"metadata-file": log[-2].metadata_file, "timestamp-ms": base["last-updated-ms"]}]
    stray["properties"] = {**base.get("properties", {}), "refused": "true"}
    stray_path = mdir / "00099-ffffffff-0000-0000-0000-000000000000.metadata.json"
    stray_path.write_text(json.dumps(stray))
    # A second table forked: another catalog committed a snapshot on the head's predecessor.
    tbl2 = cat.create_table("lake.t2", schema=SCHEMA)
    tbl2.append(rows([1]))
    tbl2.append(rows([2]))
    tbl2 = cat.load_table("lake.t2")
    head2 = local_path(tbl2.metadata_location)
    prev2 = tbl2.metadata.metadata_log[-1].metadata_file
    fork = json.loads(local_path(prev2).read_text())
    forked_snapshot = dict(fork["snapshots"][-1])
    forked_snapshot["snapshot-id"] = 4242424242
    forked_snapshot["parent-snapshot-id"] = fork["current-snapshot-id"]
    fork["snapshots"] = fork["snapshots"] + [forked_snapshot]
    fork["current-snapshot-id"] = 4242424242
    fork["refs"] = {"main": {"snapshot-id": 4242424242, "type": "branch"}}
    fork["metadata-log"] = fork["metadata-log"] + [
        {"metadata-file": prev2, "timestamp-ms": fork["last-updated-ms"]}]
    fork_path = head2.parent / (head2.name.split("-")[0] + "-eeeeeeee-0000-0000-0000-000000000000"
                                ".metadata.json")
    fork_path.write_text(json.dumps(fork))

    fresh = tmp_path / "rebuilt"
    fresh.mkdir()
    args = ["--data-dir", str(fresh), "--warehouse", str(fresh_server.warehouse_dir),
            "--take-over-from", deployment_of(fresh_server), "--json"]
    p = firn("recover", "--prefix", fresh_server.catalog_dir.as_uri(), *args)
    report = {t["name"]: t for t in lines(p) if not t.get("summary")}
    assert p.returncode == 3, p.stdout + p.stderr  # ambiguous, nothing failed
    assert report["t1"]["action"] == "registered", report["t1"]
    assert Path(report["t1"]["head"]).name == head.name  # never the stray
    assert report["t2"]["action"] == "ambiguous", report["t2"]
    names = sorted(Path(c["file"]).name for c in report["t2"]["candidates"])
    assert names == sorted([head2.name, fork_path.name])
    assert all(c["chain"][-1] == Path(c["file"]).name for c in report["t2"]["candidates"])
    # A pointer source (the catalog's own pointer, recorded before) settles the fork.
    pointers = tmp_path / "pointers.jsonl"
    pointers.write_text(json.dumps({"metadata-location": str(head2)}) + "\n")
    settled = firn("recover", "--prefix", fresh_server.catalog_dir.as_uri(), "--pointers",
                   str(pointers), *args)
    assert settled.returncode == 0, settled.stdout
    t2 = {t.get("name"): t for t in lines(settled)}["t2"]
    assert t2["action"] == "registered" and Path(t2["head"]).name == head2.name, t2


def test_verify_names_what_is_missing_and_the_real_recovery_point(fresh_server, tmp_path):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.t", schema=SCHEMA)
    tbl.append(rows([1, 2]))
    tbl.append(rows([3]))
    tbl = cat.load_table("lake.t")
    good = tbl.metadata.metadata_log[-1].metadata_file  # before the last append
    ok = firn("verify", "--data-dir", str(fresh_server.data_dir), "--json")
    assert ok.returncode == 0 and lines(ok)[0]["ok"], ok.stdout
    # The last append's data file is lost (a replica copied in the wrong order looks so).
    data = list((local_path(tbl.location()) / "data").rglob("*.parquet"))
    assert len(data) == 2
    victim = max(data, key=lambda p: p.stat().st_mtime_ns)
    victim.unlink()
    bad = firn("verify", "--data-dir", str(fresh_server.data_dir), "--json")
    assert bad.returncode == 1
    result = lines(bad)[0]
    assert not result["ok"] and result["missing-count"] == 1, result
    assert result["missing"][0].endswith(victim.name)
    assert Path(result["recovery-point"]).name == Path(good).name, result


def test_a_commit_killed_before_its_swap_leaves_no_stray_metadata_file(server_factory):
    env = {"FIRN_TEST_MODE": "on", "FIRN_TEST_COMMIT_PAUSE_MS": "4000",
           "FIRN_TEST_PENDING_MIN_AGE_MS": "500", "FIRN_TEST_PENDING_GONE_MS": "1500",
           "FIRN_TEST_PENDING_SWEEP_MS": "300"}
    srv = server_factory(env=env)
    cat = make_catalog(srv)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.t", schema=SCHEMA)
    tbl.append(rows([1]))
    tbl = cat.load_table("lake.t")
    mdir = local_path(tbl.metadata_location).parent
    before = set(mdir.glob("*.metadata.json"))
    # A commit that writes its file, then is killed (kill -9) before its pointer moves.
    body = {"identifier": {"namespace": ["lake"], "name": "t"},
            "requirements": [], "updates": [{"action": "set-properties",
                                             "updates": {"firn.test.pause": "on"}}]}
    writer = subprocess.Popen(
        ["curl", "-s", "-o", "/dev/null", "-X", "POST",
         "-H", "Content-Type: application/json",
         "-H", f"Authorization: {firn_auth.auth_headers(srv.uri)['Authorization']}",
         "-d", json.dumps(body), f"{srv.uri}{Api(srv).v1}/namespaces/lake/tables/t"])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and set(mdir.glob("*.metadata.json")) == before:
        time.sleep(0.05)
    strays = set(mdir.glob("*.metadata.json")) - before
    assert len(strays) == 1, "the commit did not write its file"
    srv.kill()  # SIGKILL
    writer.wait(timeout=10)
    assert all(p.exists() for p in strays), "the stray must be there before the restart"
    srv.start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(p.exists() for p in strays):
        time.sleep(0.2)
    assert not any(p.exists() for p in strays), "the restarted instance left the stray"
    assert "stray metadata file of an interrupted commit deleted" in srv.log_path.read_text()
    tbl = make_catalog(srv).load_table("lake.t")
    assert tbl.metadata_location == cat.load_table("lake.t").metadata_location
    assert "firn.test.pause" not in tbl.properties
    assert set(mdir.glob("*.metadata.json")) == before


WRITER = """
import sys
from pyiceberg.catalog.rest import RestCatalog
import pyarrow as pa
props = dict(uri=sys.argv[1], credential=sys.argv[2], scope="PRINCIPAL_ROLE:ALL")
cat = RestCatalog("w", **props)
tbl = cat.load_table(sys.argv[3])
schema = tbl.schema().as_arrow()
cols = {f.name: [2000 + i for i in range(3)] if f.name == "id" else [f"late{i}" for i in range(3)]
        for f in schema}
tbl.append(pa.Table.from_pydict(cols, schema=schema))
"""


def test_the_drill_recovers_identical_and_catches_the_wrong_order(server_factory, tmp_path):
    import sys

    srv = server_factory()
    cat = make_catalog(srv)
    game_day_tables(cat)
    writer = tmp_path / "writer.py"
    writer.write_text(WRITER)
    creds = firn_auth.admin_credentials()
    writer_cmd = (f"{sys.executable} {writer} {srv.uri} "
                  f"{creds.client_id}:{creds.client_secret} lake.t1")
    p = firn("drill", "--namespace", "lake", "--writer-cmd", writer_cmd,
             "--workdir", str(tmp_path / "drill"), "--data-dir", str(srv.data_dir),
             timeout=600)
    out = lines(p)
    assert p.returncode == 0, p.stdout + p.stderr
    tables = [t for t in out if not t.get("summary")]
    summary = out[-1]
    print("drill summary:", json.dumps(summary))  # RPO/RTO figures in the CI log (-rA)
    assert len(tables) == 5 and all(t["identical"] and t["rpo-ms"] == 0 for t in tables), tables
    assert summary["identical"] == 5 and summary["ok"], summary
    assert summary["rto-ms"] >= summary["register-ms"] > 0
    wrong = summary["wrong-order"]
    assert wrong["caught"] >= 1 and wrong["writer-exit"] == 0, wrong
    [caught] = [t for t in wrong["tables"] if t["dir"].rstrip("/").endswith("t1")]
    assert caught["missing"] >= 1 and caught.get("recovery-point"), caught
    # The drill touched nothing of the primary: every table still loads as it was.
    for i in range(5):
        assert cat.load_table(f"lake.t{i}") is not None
