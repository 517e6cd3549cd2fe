"""Durable tasks (issue 12, item 5; docs/tasks.md): a drop with purge stores its purge as a task
in the database before the pointer goes, runs it inside the request, and a task an instance
did not finish (it was killed) is taken over once its lease runs out and finished after the
restart. Tasks are listable by `firn admin tasks` and by the management API (service admins
only)."""
from __future__ import annotations

import json
import subprocess
import threading
import time

import pytest
import firn_auth
from conftest import FIRN_BINARY, make_catalog
from helpers import SCHEMA, ids_of, local_path, referenced_files, rows

pytestmark = pytest.mark.firn_only


def tasks_of(srv, *filters: str) -> list[dict]:
    p = subprocess.run([str(FIRN_BINARY), "admin", "tasks", "--data-dir", str(srv.data_dir),
                        *filters], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return [json.loads(line) for line in p.stdout.splitlines()]


@pytest.fixture
def hard_drop_server(server_factory):
    """Soft delete off (retention 0): a drop with purge runs its purge task at once."""
    return server_factory(args=["--drop-retention", "0"])


def test_a_purge_is_a_task_listed_with_its_progress(hard_drop_server):
    fresh_server = hard_drop_server
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.gone", schema=SCHEMA)
    for i in range(3):
        tbl.append(rows([i]))
    tbl = cat.load_table("lake.gone")
    files = referenced_files(tbl)
    assert files and all(f.exists() for f in files)
    location = local_path(tbl.metadata.location)
    on_disk = {p for p in location.rglob("*") if p.is_file() and p.name != ".firn-claim.json"}
    cat.purge_table("lake.gone")
    assert not any(f.exists() for f in files)
    assert not any(p.exists() for p in on_disk)  # every metadata file of the chain too
    [task] = tasks_of(fresh_server, "--kind", "purge-table")
    assert task["state"] == "done" and task["object"] == "table lake.gone"
    assert task["progress"]["deleted"] == len(on_disk), task
    assert task["attempts"] == 1 and task["leaseOwner"] == ""
    # The management API lists the same, to a service admin only.
    admin = firn_auth.Management(fresh_server.uri)
    listed = admin.request("GET", "/tasks", params={"state": "done"})
    assert listed.status_code == 200, listed.text
    assert [t["id"] for t in listed.json()["tasks"]] == [task["id"]]
    assert admin.request("GET", "/tasks", params={"state": "bogus"}).status_code == 400
    assert admin.request("GET", "/tasks", params={"limit": "0"}).status_code == 400
    nobody = admin.create_principal("no-task-reader")
    r = firn_auth.Management(fresh_server.uri, nobody.creds).request("GET", "/tasks")
    assert r.status_code == 403, r.text
    # A drop without purge stores no task and deletes nothing.
    keep = cat.create_table("lake.kept", schema=SCHEMA)
    keep.append(rows([9]))
    kept_files = referenced_files(cat.load_table("lake.kept"))
    cat.drop_table("lake.kept")
    assert all(f.exists() for f in kept_files)
    assert len(tasks_of(fresh_server, "--kind", "purge-table")) == 1


# Retention 0: the purge task runs inside the drop; 1s: the purge runs when the dropped table's
# retention ends, in the background task that expires it (docs/soft-delete.md).
@pytest.mark.parametrize("retention,kind", [("0", "purge-table"), ("1s", "expire-dropped")])
def test_a_purge_task_survives_kill_9_and_finishes_after_restart(server_factory, retention,
                                                                 kind):
    # Test mode: every purge step pauses, and leases are 3 s, so the kill lands mid-purge and
    # the restarted instance takes the task over soon after.
    srv = server_factory(args=["--drop-retention", retention],
                         env={"FIRN_TEST_MODE": "on", "FIRN_TEST_TASK_STEP_DELAY_MS": "150"})
    cat = make_catalog(srv)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.big", schema=SCHEMA)
    for i in range(12):
        tbl.append(rows([i]))
    tbl = cat.load_table("lake.big")
    files = referenced_files(tbl)
    location = local_path(tbl.metadata.location)
    assert len(files) > 30

    def drop() -> None:
        try:
            cat.purge_table("lake.big")
        except Exception:  # noqa: BLE001 - the server dies under it
            pass

    dropper = threading.Thread(target=drop)
    dropper.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and all(f.exists() for f in files):
        time.sleep(0.05)
    time.sleep(0.5)
    srv.kill()
    dropper.join(timeout=30)
    left = [f for f in files if f.exists()]
    assert 0 < len(left) < len(files), "the kill did not land in the middle of the purge"
    [task] = tasks_of(srv, "--kind", kind)
    assert task["state"] == "running", task  # held by the dead instance's lease

    srv.start()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        [task] = tasks_of(srv, "--kind", kind)
        if task["state"] == "done":
            break
        time.sleep(0.5)
    assert task["state"] == "done", task
    assert task["attempts"] >= 2, task
    assert not any(f.exists() for f in files), [str(f) for f in files if f.exists()]
    assert not (location / ".firn-claim.json").exists()
    assert cat.list_tables("lake") == []
