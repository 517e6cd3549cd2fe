"""Moving a table between catalogs by register-then-release (issue 12, item 3; docs/moves.md):
two Firn deployments on one warehouse, and a writer that keeps writing through the move.

The source marks the table as moving (commits refused with a 409 naming the target, loads still
served), the target registers it and takes its claim on the store over, the source releases its
entry with a drop without purge. At every instant the table is loadable from at least one
catalog and writable in at most one: no acknowledged commit is lost, none lands twice, and the
history is one line. The attacks: a third deployment trying to take the table mid-move, a purge
of a moving table, an undrop at the source after the target took it, hostile request bodies.
"""
from __future__ import annotations

import json
import threading
import time

import pytest
from pyiceberg.exceptions import (CommitFailedException, NoSuchTableError, RESTError,
                                  TableAlreadyExistsError)

import firn_auth
from conftest import Api, catalog_name, make_catalog
from helpers import SCHEMA, deployment_of, ids_of, local_path, rows

pytestmark = pytest.mark.firn_only

CLAIM = ".firn-claim.json"


def move_path(srv, table: str) -> str:
    ns, name = table.rsplit(".", 1)
    return f"/catalogs/{catalog_name(srv)}/namespaces/{ns}/tables/{name}/move-out"


def move_out(srv, table: str, **body):
    return firn_auth.Management(srv.uri).request("POST", move_path(srv, table), json=body)


@pytest.fixture
def deployments(server_factory, tmp_path):
    shared = tmp_path / "shared-warehouse"
    shared.mkdir()
    return [server_factory(args=["--warehouse", str(shared)]) for _ in range(3)]


def test_a_table_moves_under_a_live_writer_without_a_gap(deployments):
    a, b, _ = deployments
    ca, cb = make_catalog(a), make_catalog(b)
    ca.create_namespace("lake")
    cb.create_namespace("lake")
    ca.create_table("lake.events", schema=SCHEMA)
    location = local_path(ca.load_table("lake.events").metadata.location)

    acknowledged: list[int] = []
    refused_at_source: list[str] = []
    stop = threading.Event()
    errors: list[BaseException] = []

    def writer() -> None:
        target = ca
        n = 0
        try:
            while not stop.is_set():
                try:
                    tbl = target.load_table("lake.events")
                    tbl.append(rows([n]))
                    acknowledged.append(n)
                except CommitFailedException as e:
                    # The source refuses once the move begins (PyIceberg retries a 409 a few
                    # times first); the writer goes to the target.
                    assert target is ca and "moving" in str(e), e
                    refused_at_source.append(str(e))
                    target = cb
                except (NoSuchTableError, RESTError) as e:
                    # PyIceberg 0.12 maps a 404 to NoSuchTableError on load but not on commit
                    # (there it is a RESTError naming NoSuchTableException): the same answer.
                    if not isinstance(e, NoSuchTableError) and \
                            not str(e).startswith("NoSuchTableException"):
                        raise
                    if target is ca:  # released at the source while PyIceberg was retrying
                        refused_at_source.append("released")
                        target = cb
                    else:
                        time.sleep(0.05)  # the target has not registered it yet
                n += 1  # a refused row was never acknowledged; the next gets a new id
        except BaseException as e:  # noqa: BLE001 - reported by the test
            errors.append(e)

    loadable_misses = []

    def watcher() -> None:
        while not stop.is_set():
            ok = False
            for c in (ca, cb):
                try:
                    c.load_table("lake.events")
                    ok = True
                    break
                except NoSuchTableError:
                    continue
            if not ok:
                loadable_misses.append(time.monotonic())
            time.sleep(0.01)

    threads = [threading.Thread(target=writer), threading.Thread(target=watcher)]
    for t in threads:
        t.start()
    while len(acknowledged) < 5 and not errors:
        time.sleep(0.05)

    r = move_out(a, "lake.events", toDeployment=deployment_of(b), to="catalog b")
    assert r.status_code == 200, r.text
    assert r.json()["state"] == "moving" and r.json()["movingTo"] == deployment_of(b)
    claim = json.loads((location / CLAIM).read_text())
    assert claim["state"] == "moving" and claim["deployment"] == deployment_of(a)
    # Loads are still served at the source; its last file is what the target registers.
    last = ca.load_table("lake.events").metadata_location
    # Any commit at the source is refused now, naming the target.
    api = Api(a)
    r = api.post(f"{api.v1}/namespaces/lake/tables/events",
                 json={"requirements": [], "updates": [
                     {"action": "set-properties", "updates": {"k": "v"}}]})
    assert r.status_code == 409 and "catalog b" in r.json()["error"]["message"], r.text
    time.sleep(0.3)  # let the writer be refused at least once
    assert ca.load_table("lake.events").metadata_location == last, "a commit landed mid-move"
    moved = cb.register_table("lake.events", last)
    assert json.loads((location / CLAIM).read_text())["deployment"] == deployment_of(b)
    ca.drop_table("lake.events")  # release, files kept
    assert json.loads((location / CLAIM).read_text())["deployment"] == deployment_of(b)

    deadline = time.monotonic() + 30
    while len(acknowledged) < 15 and time.monotonic() < deadline and not errors:
        time.sleep(0.05)
    stop.set()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    assert refused_at_source, "the writer was never refused at the source"
    assert "catalog b" in refused_at_source[0] or refused_at_source[0] == "released"
    assert not loadable_misses, "the table was loadable from neither catalog for a moment"

    final = cb.load_table("lake.events")
    assert ids_of(final) == sorted(acknowledged), "an acknowledged row is missing or doubled"
    # One line of history: every snapshot's parent is the one before it.
    snaps = final.metadata.snapshots
    assert len(snaps) == len(acknowledged)
    for prev, cur in zip(snaps, snaps[1:]):
        assert cur.parent_snapshot_id == prev.snapshot_id
    assert moved.metadata.table_uuid == final.metadata.table_uuid


def test_only_the_named_target_may_take_a_moving_table(deployments):
    a, b, c = deployments
    ca, cb, cc = make_catalog(a), make_catalog(b), make_catalog(c)
    for cat in (ca, cb, cc):
        cat.create_namespace("lake")
    tbl = ca.create_table("lake.t", schema=SCHEMA)
    tbl.append(rows([1]))
    location = local_path(tbl.metadata.location)
    current = ca.load_table("lake.t").metadata_location

    assert move_out(a, "lake.t", toDeployment=deployment_of(b)).status_code == 200
    with pytest.raises(TableAlreadyExistsError) as refused:
        cc.register_table("lake.t", current)
    assert deployment_of(a) in str(refused.value)
    assert json.loads((location / CLAIM).read_text())["deployment"] == deployment_of(a)
    # Overwriting it by a register is a commit after the move began: refused too.
    api = Api(a)
    r = api.post(f"{api.v1}/namespaces/lake/register",
                 json={"name": "t", "metadata-location": current, "overwrite": True})
    assert r.status_code == 409 and "moving" in r.json()["error"]["message"], r.text
    # A purge of a moving table would delete what the target is about to own: refused.
    with pytest.raises(Exception) as no_purge:  # noqa: B017 - PyIceberg's class for a 409 drop
        ca.purge_table("lake.t")
    assert "moving" in str(no_purge.value)
    # Cancelled before the target took it: the source writes again.
    r = firn_auth.Management(a.uri).request("DELETE", move_path(a, "lake.t"))
    assert r.status_code == 200 and r.json()["state"] == "active", r.text
    ca.load_table("lake.t").append(rows([2]))
    assert ids_of(ca.load_table("lake.t")) == [1, 2]
    # Moved again, to anyone this time; B takes it; A cannot cancel, and cannot undrop later.
    assert move_out(a, "lake.t").status_code == 200
    cb.register_table("lake.t", ca.load_table("lake.t").metadata_location)
    r = firn_auth.Management(a.uri).request("DELETE", move_path(a, "lake.t"))
    assert r.status_code == 409 and deployment_of(b) in r.text, r.text
    ca.drop_table("lake.t")
    mgmt = firn_auth.Management(a.uri)
    base = f"/catalogs/{catalog_name(a)}/dropped-objects"
    [d] = mgmt.ok("GET", base).json()["droppedObjects"]
    undrop = mgmt.request("POST", f"{base}/{d['id']}/undrop", json={})
    assert undrop.status_code == 409 and deployment_of(b) in undrop.text, undrop.text
    assert ids_of(cb.load_table("lake.t")) == [1, 2]


def test_of_two_deployments_taking_an_open_move_at_once_only_one_gets_it(deployments):
    """A move open to any deployment ("*"): C finds B mid-takeover (B created this move's
    takeover marker, create-only, and has not written its claim yet) and is refused rather
    than deleting the claim B is about to write; B finishes, and its marker goes."""
    a, b, c = deployments
    ca, cb, cc = make_catalog(a), make_catalog(b), make_catalog(c)
    for cat in (ca, cb, cc):
        cat.create_namespace("lake")
    tbl = ca.create_table("lake.t", schema=SCHEMA)
    tbl.append(rows([1]))
    location = local_path(tbl.metadata.location)
    current = ca.load_table("lake.t").metadata_location
    assert move_out(a, "lake.t").status_code == 200
    moving = json.loads((location / CLAIM).read_text())
    assert moving["state"] == "moving" and moving["moving-to"] == "*", moving
    markers = lambda: sorted(p.name for p in location.glob(CLAIM + ".takeover-*"))  # noqa: E731
    assert markers() == []
    # B is half-way: its marker exists (what B's register writes first).
    marker = location / f"{CLAIM}.takeover-{moving['claimed-at-ms']}"
    marker.write_text(json.dumps({"deployment": deployment_of(b)}))
    with pytest.raises(TableAlreadyExistsError) as refused:
        cc.register_table("lake.t", current)
    assert "being taken over" in str(refused.value), refused.value
    assert json.loads((location / CLAIM).read_text()) == moving, "the loser touched the claim"
    # B's takeover completes (here: its register, once the marker is its own again).
    marker.unlink()
    cb.register_table("lake.t", current)
    assert json.loads((location / CLAIM).read_text())["deployment"] == deployment_of(b)
    assert markers() == [], "the winner's takeover marker was left behind"
    with pytest.raises(TableAlreadyExistsError):
        cc.register_table("lake.t", current)
    assert ids_of(cb.load_table("lake.t")) == [1]


def test_move_requests_are_checked(deployments):
    a, _, _ = deployments
    ca = make_catalog(a)
    ca.create_namespace("lake")
    ca.create_table("lake.m", schema=SCHEMA)
    for body in ({"toDeployment": "not-a-uuid"}, {"toDeployment": 5}, {"to": "x\u0000y"},
                 {"to": "a" * 600}, {"elsewhere": True}, {"toDeployment": deployment_of(a)}):
        r = move_out(a, "lake.m", **body)
        assert r.status_code == 400, (body, r.text)
    assert move_out(a, "lake.none").status_code == 404
    r = firn_auth.Management(a.uri).request("DELETE", move_path(a, "lake.m"))
    assert r.status_code == 409 and "not moving" in r.text
    admin = firn_auth.Management(a.uri)
    reader = admin.principal_with("mover_reader", catalog_name(a),
                                  [("TABLE_READ_DATA", ["lake"], "m", None)])
    r = firn_auth.Management(a.uri, reader.creds).request("POST", move_path(a, "lake.m"), json={})
    assert r.status_code == 403, r.text
    # Nothing changed: the table still commits.
    ca.load_table("lake.m").append(rows([1]))
