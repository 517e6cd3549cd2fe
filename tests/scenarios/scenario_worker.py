"""Writer and reader processes for test_multi_instance.py (the writer also serves
tests/integration/test_concurrency.py, on one instance).

  python scenario_worker.py writer|reader ARGS_JSON OUT_JSON

A writer appends `commits` snapshots to one table, its k-th commit going to instance
(writer + k) % n; a 409 reloads from a random instance and retries. Every `ryw_every`-th
acknowledged commit is followed by a load on ANOTHER instance that must show it.
A reader loads the table from random instances until STOP_FILE exists; every read must be a
prefix of (or extend) the longest history it has seen, never shorter than an earlier read.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time

from scenario_rest import Rest, append_body, main_snapshot, new_snapshot_id, snapshot_ids


def writer(a: dict) -> dict:
    clients = [Rest(u) for u in a["uris"]]
    n, k = len(clients), a["writer"]
    ns, table = a["ns"], a["table"]

    def reload() -> dict:
        while True:
            r = random.choice(clients).load(ns, table, "refs")
            if r.status_code == 200:
                return r.json()["metadata"]
            time.sleep(0.05)

    meta = reload()
    acked, conflicts, unknown, ryw_checks, ryw_failures = [], 0, [], 0, []
    t0 = time.monotonic()
    for seq in range(a["commits"]):
        inst = (k + seq) % n
        attempt = 0
        while True:
            sid = new_snapshot_id()
            try:
                r = clients[inst].commit(ns, table, append_body(meta, sid))
                status = r.status_code
            except Exception as e:  # noqa: BLE001 -- any transport failure is an unknown outcome
                status, r = -1, str(e)
            if status == 200:
                meta = r.json()["metadata"]
                acked.append(sid)
                break
            if status == 409:
                conflicts += 1
                attempt += 1
                time.sleep(random.uniform(0, min(0.005 * 2**attempt, 0.5)))
                meta = reload()
                continue
            unknown.append({"seq": seq, "status": status,
                            "body": r.text[:300] if hasattr(r, "text") else r})
            meta = reload()
            break
        if acked and acked[-1] == sid and a["ryw_every"] and len(acked) % a["ryw_every"] == 0:
            other = (inst + 1 + random.randrange(n - 1)) % n if n > 1 else inst
            r = clients[other].load(ns, table, "all")
            ryw_checks += 1
            if r.status_code != 200 or sid not in snapshot_ids(r.json()["metadata"]):
                ryw_failures.append({"sid": sid, "acked_by": inst, "loaded_from": other,
                                     "status": r.status_code})
    return {"writer": k, "acked": acked, "conflicts": conflicts, "unknown": unknown,
            "ryw_checks": ryw_checks, "ryw_failures": ryw_failures,
            "seconds": time.monotonic() - t0}


def reader(a: dict) -> dict:
    clients = [Rest(u) for u in a["uris"]]
    ns, table = a["ns"], a["table"]
    longest: list[int] = []
    reads, violations, errors = 0, [], 0
    while not os.path.exists(a["stop_file"]):
        inst = random.randrange(len(clients))
        r = clients[inst].load(ns, table, "all")
        if r.status_code != 200:
            errors += 1
            continue
        meta = r.json()["metadata"]
        ids = snapshot_ids(meta)
        reads += 1
        by_id = {s["snapshot-id"]: s for s in meta.get("snapshots", [])}
        # One chain in list order, main at its end.
        for i in range(1, len(ids)):
            if by_id[ids[i]].get("parent-snapshot-id") != ids[i - 1]:
                violations.append({"kind": "fork", "read": reads, "at": i})
                break
        if ids and main_snapshot(meta) != ids[-1]:
            violations.append({"kind": "main-not-last", "read": reads})
        if len(ids) >= len(longest):
            if ids[: len(longest)] != longest:
                violations.append({"kind": "not-an-extension", "read": reads, "inst": inst})
            longest = ids
        else:
            violations.append({"kind": "went-back", "read": reads, "inst": inst,
                               "len": len(ids), "seen": len(longest)})
        time.sleep(a.get("pause", 0.0))
    return {"reads": reads, "errors": errors, "violations": violations[:20],
            "violation_count": len(violations), "longest": longest}


if __name__ == "__main__":
    role, args_path, out_path = sys.argv[1:4]
    with open(args_path) as f:
        args = json.load(f)
    result = writer(args) if role == "writer" else reader(args)
    with open(out_path + ".tmp", "w") as f:
        json.dump(result, f)
    os.replace(out_path + ".tmp", out_path)
