"""Issue 4, item 5: kill -9 a Firn instance at random moments during 1,000 commits
(FIRN_SCEN_CRASH_COMMITS), restarting it each time, on both backends.

Two writer threads append to their own tables (and each creates a fresh table every 100 of
its commits, so creates are crashed too); a killer thread SIGKILLs the server after a random
0.02-0.4 s of uptime and starts it again; the writers keep committing until it has done so
at least five times. A commit whose HTTP exchange failed has an unknown
outcome: the writer reloads and looks. Afterwards: every acknowledged commit is present,
nothing unattempted is, every table loads, one chain per table, and every metadata file the
pointers and metadata-logs name exists.
"""

from __future__ import annotations

import random
import threading
import time

import pytest

from conftest import env_int
from helpers import local_path
from scenario_rest import Rest, append_body, new_snapshot_id, parent_chain, snapshot_ids


def writer_loop(inst, w: int, commits: int, state: dict, errors: list, more=lambda: False):
    """Commits `commits` appends, and keeps committing while `more()` says so."""
    rest = Rest(inst.uri, timeout=20)

    def retry(fn):
        while True:
            try:
                r = fn()
                if r.status_code < 500:
                    return r
            except Exception:  # noqa: BLE001 -- the server is being killed; try again
                pass
            time.sleep(0.05)

    def new_table(k: int) -> str:
        name = f"w{w}_{k}"
        r = retry(lambda: rest.request("POST", f"{rest.v1}/namespaces/crash/tables",
                                       json={"name": name, "schema": {"type": "struct",
                                             "schema-id": 0, "fields": []}}))
        # 409: an earlier attempt whose answer was lost created it.
        assert r.status_code in (200, 409), r.text
        state[name] = {"acked": [], "unknown": []}
        return name

    table = new_table(0)
    meta = retry(lambda: rest.load("crash", table, "refs")).json()["metadata"]
    done = 0
    while done < commits or more():
        if done and done % 100 == 0 and not state.get(f"_made{w}_{done}"):
            state[f"_made{w}_{done}"] = True
            table = new_table(done // 100)
            meta = retry(lambda: rest.load("crash", table, "refs")).json()["metadata"]
        sid = new_snapshot_id()
        try:
            r = rest.commit("crash", table, append_body(meta, sid))
            status = r.status_code
        except Exception:  # noqa: BLE001 -- the exchange failed: outcome unknown
            status = -1
        if status == 200:
            meta = r.json()["metadata"]
            state[table]["acked"].append(sid)
            done += 1
            continue
        if status == 409:
            errors.append(f"{table}: 409 for a single writer: {r.text[:200]}")
        elif status == 503:
            time.sleep(0.05)
            continue  # nothing changed
        state[table]["unknown"].append(sid)
        meta = retry(lambda: rest.load("crash", table, "refs")).json()["metadata"]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_kill9_during_commits_loses_nothing(backend, pg, instances, tmp_path):
    total = env_int("FIRN_SCEN_CRASH_COMMITS", 1000)
    if backend == "postgresql":
        db = pg.fresh_database("crash")
        (inst,) = instances(1, db_url=pg.db_url(db), password=pg.password)
    else:
        (inst,) = instances(1)
    assert Rest(inst.uri).create_namespace(["crash"]).status_code == 200

    state: dict = {}
    errors: list[str] = []
    stop = threading.Event()
    kills = []

    def killer():
        while not stop.wait(random.uniform(0.02, 0.4)):
            inst.kill9()
            kills.append(time.monotonic())
            inst.start()

    min_kills = 5
    # Commits are fast (1,000 take a few seconds), so the writers keep going until the server
    # has also been killed `min_kills` times: every run crashes commits, however fast.
    writers = [threading.Thread(target=writer_loop,
                                args=(inst, w, total // 2, state, errors,
                                      lambda: len(kills) < min_kills))
               for w in range(2)]
    t0 = time.monotonic()
    for t in writers:
        t.start()
    k = threading.Thread(target=killer)
    k.start()
    for t in writers:
        t.join(timeout=400)
    stop.set()
    k.join(timeout=60)
    elapsed = time.monotonic() - t0
    # The killer thread's children die with it (PDEATHSIG follows the forking thread), so the
    # final server is started from this thread.
    if inst.proc is not None:
        inst.kill9()
    inst.start()

    tables = {n: s for n, s in state.items() if not n.startswith("_")}
    acked = sum(len(s["acked"]) for s in tables.values())
    unknown = sum(len(s["unknown"]) for s in tables.values())
    print(f"\n{backend}: {acked} commits acknowledged in {elapsed:.1f} s across {len(kills)} "
          f"kill -9s; {unknown} outcomes unknown; {len(tables)} tables")
    assert not errors, errors[:5]
    assert acked >= total - 1
    assert len(kills) >= min_kills, "the server was killed repeatedly during the commits"

    rest = Rest(inst.uri)
    listed = rest.request("GET", f"{rest.v1}/namespaces/crash/tables").json()["identifiers"]
    assert {i["name"] for i in listed} >= set(tables)
    missing_files = []
    for name in sorted({i["name"] for i in listed}):
        r = rest.load("crash", name)
        assert r.status_code == 200, f"{name}: {r.text}"
        body = r.json()
        meta = body["metadata"]
        for loc in [body["metadata-location"]] + [e["metadata-file"] for e in meta["metadata-log"]]:
            if not local_path(loc).is_file():
                missing_files.append(loc)
        ids = snapshot_ids(meta)
        assert ids == parent_chain(meta), f"{name}: one chain"
        if name in tables:
            s = tables[name]
            assert set(s["acked"]) <= set(ids), f"{name}: an acknowledged commit was lost"
            assert set(ids) <= set(s["acked"]) | set(s["unknown"]), f"{name}: unattempted snapshot"
    assert not missing_files, f"pointers/metadata-log name missing files: {missing_files[:5]}"
