"""Issue 4, item 3: three `firn serve` instances on ONE PostgreSQL database.

8 writer processes (FIRN_SCEN_WRITERS) alternate between the instances and append 250 commits
each (FIRN_SCEN_COMMITS) to one table, while 4 readers (FIRN_SCEN_READERS) load it from random
instances. Asserts: every read is a prefix of the final history and never older than an earlier
read; the snapshot count equals the acknowledged commits; one chain (no fork); no lost update
(every acknowledged snapshot is on the chain); read-your-writes across instances.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

from conftest import env_int
from helpers import die_with_parent
from scenario_rest import Rest, parent_chain, snapshot_ids

HERE = Path(__file__).resolve().parent


def spawn(role: str, args: dict, tmp: Path, name: str):
    args_path, out_path = tmp / f"{name}.args.json", tmp / f"{name}.out.json"
    args_path.write_text(json.dumps(args))
    log = open(tmp / f"{name}.log", "wb")
    proc = subprocess.Popen([sys.executable, str(HERE / "scenario_worker.py"), role,
                             str(args_path), str(out_path)], cwd=HERE, stdout=log,
                            stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
    return proc, out_path, tmp / f"{name}.log"


def finish(proc, out_path: Path, log: Path, timeout: float) -> dict:
    code = proc.wait(timeout=timeout)
    assert code == 0 and out_path.exists(), f"{log.name} exited {code}:\n{log.read_text()[-2000:]}"
    return json.loads(out_path.read_text())


def test_three_instances_one_table_linearizable(pg, instances, tmp_path):
    n_instances = env_int("FIRN_SCEN_INSTANCES", 3)
    n_writers = env_int("FIRN_SCEN_WRITERS", 8)
    n_commits = env_int("FIRN_SCEN_COMMITS", 250)
    n_readers = env_int("FIRN_SCEN_READERS", 4)
    db = pg.fresh_database("multi")
    insts = instances(n_instances, db_url=pg.db_url(db), password=pg.password)
    uris = [i.uri for i in insts]

    admin = Rest(uris[0])
    assert admin.create_namespace(["multi"]).status_code == 200
    admin.create_table("multi", "t")

    stop_file = tmp_path / "stop-readers"
    common = {"uris": uris, "ns": "multi", "table": "t"}
    t0 = time.monotonic()
    readers = [spawn("reader", {**common, "stop_file": str(stop_file), "pause": 0.02},
                     tmp_path, f"reader{r}") for r in range(n_readers)]
    writers = [spawn("writer", {**common, "writer": w, "commits": n_commits,
                                "ryw_every": env_int("FIRN_SCEN_RYW_EVERY", 5)},
                     tmp_path, f"writer{w}") for w in range(n_writers)]
    results = [finish(*w, timeout=400) for w in writers]
    write_seconds = time.monotonic() - t0
    stop_file.write_text("stop")
    reads = [finish(*r, timeout=60) for r in readers]

    acked = [sid for res in results for sid in res["acked"]]
    unknown = [u for res in results for u in res["unknown"]]
    conflicts = sum(res["conflicts"] for res in results)
    ryw_checks = sum(res["ryw_checks"] for res in results)
    ryw_failures = [f for res in results for f in res["ryw_failures"]]
    total_reads = sum(r["reads"] for r in reads)
    print(f"\n{len(acked)} commits acknowledged in {write_seconds:.1f} s "
          f"({len(acked) / write_seconds:.0f}/s), {conflicts} refused (409) and retried, "
          f"{len(unknown)} unknown; {total_reads} reads, {ryw_checks} cross-instance "
          f"read-your-writes checks")

    assert unknown == [], f"no commit outcome may be unknown without a fault: {unknown[:5]}"
    assert len(acked) == n_writers * n_commits

    # The final history, read from every instance: all agree.
    finals = [Rest(u).load("multi", "t", "all").json()["metadata"] for u in uris]
    final = finals[0]
    for other in finals[1:]:
        assert snapshot_ids(other) == snapshot_ids(final), "instances disagree on the history"
    ids, chain = snapshot_ids(final), parent_chain(final)
    assert ids == chain, "one chain: every snapshot is main's ancestor, in commit order (no fork)"
    assert len(ids) == len(acked), "snapshot count == acknowledged commits"
    assert set(ids) == set(acked), "no lost update, nothing unacknowledged"

    for r in reads:
        assert r["violation_count"] == 0, f"reader saw a non-linearizable history: {r['violations']}"
        assert r["errors"] == 0
        assert chain[: len(r["longest"])] == r["longest"], "every read is a prefix of the final"
    assert total_reads > 0
    assert ryw_failures == [], f"read-your-writes across instances failed: {ryw_failures[:5]}"
