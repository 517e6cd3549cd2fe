"""Change events (issue 14, item 5; docs/events.md): every change is an event written in the
same database transaction as the change (the audit trail's successes), read as an ordered feed
with a cursor (GET /api/management/v1/events) and delivered to webhooks as CloudEvents, signed,
retried with backoff, with delivery state per sink. A kill -9 between commit and delivery loses
nothing: after the restart every acknowledged change is delivered.

The webhook receiver is a real HTTP server on loopback, in this process."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import uuid

import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog

import firn_auth
from firn_auth import Management
from helpers import rows
from webhooks import Receiver

pytestmark = pytest.mark.firn_only("change events (issue 14)")

SECRET = "whsec-" + "k" * 24


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def wait_for(predicate, timeout: float = 30.0, what: str = "condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def feed(admin: Management, after: str = "0", **params) -> dict:
    return admin.ok("GET", "/events", params={"after": after, **params}).json()


def all_events(admin: Management, limit: int = 1000, **params) -> list[dict]:
    out, cursor = [], "0"
    while True:
        page = feed(admin, cursor, limit=limit, **params)
        out += page["events"]
        if not page["events"]:
            return out
        assert page["next"] == page["events"][-1]["id"]
        cursor = page["next"]


@pytest.fixture
def lake(server_factory, tmp_path):
    srv = server_factory()
    admin = Management(srv.uri)
    name = f"ev_{uuid.uuid4().hex[:6]}"
    base = (tmp_path / "wh").resolve()
    base.mkdir()
    admin.create_catalog(name, base.as_uri())
    cat = RestCatalog("w", uri=srv.uri, warehouse=name,
                      **firn_auth.pyiceberg_auth_properties(srv.uri))
    return srv, admin, cat, name


def test_every_change_is_one_event_in_commit_order_readable_with_a_cursor(lake):
    srv, admin, cat, catalog = lake
    start = feed(admin, "latest")
    assert start["events"] == [] and start["next"] != "0"
    cat.create_namespace("db")
    t = cat.create_table("db.orders", schema=rows([]).schema)
    created = t.metadata_location
    t.append(rows([1]))
    first = cat.load_table("db.orders").metadata_location
    t = cat.load_table("db.orders")
    t.append(rows([2]))
    second = cat.load_table("db.orders").metadata_location
    # A commit that loses its requirement is refused and is no event.
    stale = {"requirements": [{"type": "assert-ref-snapshot-id", "ref": "main",
                               "snapshot-id": 1}],
             "updates": [{"action": "set-properties", "updates": {"x": "y"}}]}
    r = requests.post(f"{srv.uri}/v1/{catalog}/namespaces/db/tables/orders", json=stale,
                      headers=firn_auth.auth_headers(srv.uri), timeout=10)
    assert r.status_code == 409, r.text
    cat.rename_table("db.orders", "db.orders2")
    cat.drop_table("db.orders2")
    admin.create_principal(f"p_{uuid.uuid4().hex[:6]}")

    events = all_events(admin, limit=1000)
    after_start = [e for e in events if tuple(map(int, e["id"].split("-"))) >
                   tuple(map(int, start["next"].split("-")))]
    types = [e["type"] for e in after_start]
    assert types == ["firn.createNamespace", "firn.createTable", "firn.updateTable",
                     "firn.updateTable", "firn.renameTable", "firn.dropTable",
                     "firn.createPrincipal"], types
    for e in after_start:
        assert e["specversion"] == "1.0" and e["source"].startswith("urn:firn:")
        assert e["datacontenttype"] == "application/json" and e["time"].endswith("Z")
        assert e["data"]["principal"] == "admin" and e["data"]["realm"] == "default"
    commits = [e["data"] for e in after_start if e["type"] == "firn.updateTable"]
    # The pointer chain, exactly as committed.
    assert commits[0]["previousMetadataLocation"] == created
    assert commits[0]["metadataLocation"] == first
    assert commits[1]["previousMetadataLocation"] == first
    assert commits[1]["metadataLocation"] == second
    assert after_start[0]["data"]["catalog"] == catalog
    assert after_start[-1]["data"]["catalog"] == ""
    # Ids are unique cursors, strictly increasing; paging by two gives the same sequence.
    ids = [e["id"] for e in events]
    assert len(set(ids)) == len(ids)
    assert [tuple(map(int, i.split("-"))) for i in ids] == sorted(
        tuple(map(int, i.split("-"))) for i in ids)
    assert [e["id"] for e in all_events(admin, limit=2)] == ids
    # The catalog filter keeps the realm-level change out.
    in_catalog = all_events(admin, catalog=catalog)
    assert "firn.createPrincipal" not in [e["type"] for e in in_catalog]
    assert len(in_catalog) >= 6


def test_moving_a_table_is_an_event_in_each_catalog_and_a_refused_move_is_none(lake, tmp_path):
    """The administrative changes of a move are events like any other: the move-out mark, its
    cancellation, and a move to another catalog (one event in each catalog's feed); a move that
    is refused leaves none. That each is written in its change's own transaction is the store
    contract's test (MovingMarksFencesAndMovesWriteTheirAuditRowsOrNone)."""
    srv, admin, cat, catalog = lake
    other = f"ev_{uuid.uuid4().hex[:6]}"
    base = (tmp_path / "wh2").resolve()
    base.mkdir()
    admin.create_catalog(other, base.as_uri())
    dst = RestCatalog("d", uri=srv.uri, warehouse=other,
                      **firn_auth.pyiceberg_auth_properties(srv.uri))
    dst.create_namespace("lake")
    dst.create_table("lake.taken", schema=rows([]).schema)
    cat.create_namespace("db")
    cat.create_table("db.t", schema=rows([]).schema)
    start = feed(admin, "latest")["next"]
    table = f"/catalogs/{catalog}/namespaces/db/tables/t"
    admin.ok("POST", f"{table}/move-out", json={})
    admin.ok("DELETE", f"{table}/move-out", expect=(200, 204))
    r = admin.request("POST", f"{table}/move", json={"toCatalog": other, "toNamespace": ["lake"],
                                                     "toName": "taken"})
    assert r.status_code == 409, r.text
    admin.ok("POST", f"{table}/move", json={"toCatalog": other, "toNamespace": ["lake"]})
    got = [(e["type"], e["data"]["catalog"]) for e in feed(admin, start)["events"]]
    assert got == [("firn.moveTableOut", catalog), ("firn.cancelTableMove", catalog),
                   ("firn.moveTable", catalog), ("firn.moveTable", other)], got


def test_the_feed_refuses_bad_cursors_and_callers_without_the_privilege(lake):
    srv, admin, _, catalog = lake
    for bad in ["abc", "1-", "-1-2", "1-2-3", "99999999999999999999-1", "1;DROP"]:
        r = admin.request("GET", "/events", params={"after": bad})
        assert r.status_code == 400, (bad, r.status_code, r.text)
        assert r.json()["error"]["code"] == 400
    r = admin.request("GET", "/events", params={"after": "0", "limit": 0})
    assert r.status_code == 400
    # A writer of one catalog may not read the realm's changes, nor manage webhooks.
    writer = admin.principal_with(f"w_{uuid.uuid4().hex[:6]}", catalog,
                                  [("CATALOG_MANAGE_CONTENT", None, None, None)])
    as_writer = Management(srv.uri, writer.creds)
    assert as_writer.request("GET", "/events", params={"after": "0"}).status_code == 403
    assert as_writer.request("GET", "/event-sinks").status_code == 403
    r = as_writer.request("POST", "/event-sinks",
                          json={"name": "steal", "url": "http://127.0.0.1:9/x"})
    assert r.status_code == 403
    assert "steal" not in [s["name"] for s in admin.ok("GET", "/event-sinks").json()["eventSinks"]]


@pytest.mark.parametrize("body,why", [
    ({"url": "http://127.0.0.1:9/x"}, "name"),
    ({"name": "s", "url": "ftp://127.0.0.1/x"}, "url"),
    ({"name": "s", "url": "file:///etc/passwd"}, "url"),
    ({"name": "s", "url": "http://"}, "url"),
    ({"name": "s", "url": "http://a b/"}, "url"),
    ({"name": "s", "url": "http://h/" + "x" * 3000}, "url"),
    ({"name": "s", "url": "http://h/", "secret": "short"}, "secret"),
    ({"name": "s", "url": "http://h/", "operations": ["dropEverything"]}, "operations"),
    ({"name": "s", "url": "http://h/", "operations": "updateTable"}, "operations"),
    ({"name": "s", "url": "http://h/", "from": "yesterday"}, "from"),
    ({"name": "s", "url": "http://h/", "headers": {"a": "b"}}, "headers"),
])
def test_a_bad_sink_is_refused_with_400_and_nothing_stored(lake, body, why):
    _, admin, _, _ = lake
    r = admin.request("POST", "/event-sinks", json=body)
    assert r.status_code == 400, r.text
    assert why in r.json()["error"]["message"].lower()
    assert admin.ok("GET", "/event-sinks").json()["eventSinks"] == []


def verify_signature(delivery: dict) -> bool:
    h = {k.lower(): v for k, v in delivery["headers"].items()}
    signed = f"{h['webhook-id']}.{h['webhook-timestamp']}.".encode() + delivery["body"]
    expected = base64.b64encode(hmac.new(SECRET.encode(), signed, hashlib.sha256).digest())
    return h["webhook-signature"] == "v1," + expected.decode()


def sink_state(admin: Management, name: str) -> dict:
    return admin.ok("GET", f"/event-sinks/{name}").json()


def test_a_webhook_gets_signed_cloudevents_in_order_and_retries_with_backoff(lake, receiver):
    srv, admin, cat, catalog = lake
    receiver.status = 503
    created = admin.ok("POST", "/event-sinks", json={
        "name": "hook", "url": receiver.url, "secret": SECRET, "catalog": catalog,
        "operations": ["createTable", "updateTable"]}).json()
    assert created["signed"] is True and "secret" not in json.dumps(created)
    assert created["operations"] == ["createTable", "updateTable"]
    cat.create_namespace("db")  # filtered out: not delivered
    t = cat.create_table("db.t", schema=rows([]).schema)
    for i in range(3):
        t.append(rows([i]))
    expected = [e["id"] for e in all_events(admin, catalog=catalog)
                if e["type"] in ("firn.createTable", "firn.updateTable")]
    assert len(expected) == 4
    # The receiver is down: the sink records the failure and backs off; nothing is lost.
    state = wait_for(lambda: (s := sink_state(admin, "hook"))["delivery"]["failures"] >= 2 and s,
                     what="two failed attempts")
    assert state["delivery"]["lastError"] == "HTTP 503"
    assert state["delivery"]["delivered"] == 0
    assert state["delivery"]["nextAttempt"] > state["delivery"]["lastAttempt"]
    assert receiver.refused >= 2
    receiver.status = 200
    wait_for(lambda: len(receiver.events()) >= 4, what="delivery after recovery")
    got = receiver.events()
    assert [e["id"] for e in got] == expected, "not every event, once, in order"
    assert [e["type"] for e in got] == ["firn.createTable"] + ["firn.updateTable"] * 3
    for delivery in receiver.accepted:
        assert delivery["headers"]["Content-Type"] == "application/cloudevents+json"
        assert verify_signature(delivery), "the signature does not verify"
    state = wait_for(lambda: (s := sink_state(admin, "hook"))["delivery"]["delivered"] == 4 and s,
                     what="the delivery recorded")
    assert state["delivery"]["failures"] == 0 and state["delivery"]["lastError"] is None
    assert state["delivery"]["deliveredThrough"] == expected[-1]
    # The secret is sealed at rest: not in the database file.
    db = (srv.data_dir / "firn.db").read_bytes()
    assert SECRET.encode() not in db
    # Deleting the sink stops delivery; the deletion is itself an event.
    admin.ok("DELETE", "/event-sinks/hook")
    assert admin.request("GET", "/event-sinks/hook").status_code == 404
    assert admin.request("DELETE", "/event-sinks/hook").status_code == 404
    t.append(rows([9]))
    time.sleep(2.5)
    assert len(receiver.events()) == 4
    assert [e["type"] for e in all_events(admin)][-2:] == ["firn.deleteEventSink",
                                                          "firn.updateTable"]


def test_a_kill_9_between_commit_and_delivery_loses_no_committed_change(server_factory, tmp_path,
                                                                        receiver):
    # Test mode: a webhook lease is 2 s, so the killed instance's sink is taken over soon.
    srv = server_factory(env={"FIRN_TEST_MODE": "on", "FIRN_TEST_WEBHOOK_LEASE_MS": "2000"})
    admin = Management(srv.uri)
    base = (tmp_path / "wh").resolve()
    base.mkdir()
    admin.create_catalog("k9", base.as_uri())
    cat = RestCatalog("w", uri=srv.uri, warehouse="k9",
                      **firn_auth.pyiceberg_auth_properties(srv.uri))
    admin.ok("POST", "/event-sinks", json={"name": "k9", "url": receiver.url,
                                           "operations": ["updateTable"]})
    receiver.delay = 0.25  # slow enough that the kill lands mid-delivery
    cat.create_namespace("db")
    t = cat.create_table("db.t", schema=rows([]).schema)
    acknowledged = []
    for i in range(12):
        t.append(rows([i]))
        acknowledged.append(t.metadata_location)  # the commit's answer: durable
    wait_for(lambda: len(receiver.events()) >= 2, what="delivery under way")
    srv.kill()  # SIGKILL: no shutdown, no flush, a sink lease left held
    assert len({e["data"]["metadataLocation"] for e in receiver.events()}) < len(acknowledged), \
        "the kill did not land before delivery finished"
    receiver.delay = 0
    srv.start()
    wait_for(lambda: len({e["data"]["metadataLocation"] for e in receiver.events()})
             >= len(acknowledged), timeout=60, what="every acknowledged commit delivered")
    delivered = [e["data"]["metadataLocation"] for e in receiver.events()]
    assert set(acknowledged) <= set(delivered), "a committed change was lost"
    first_seen = list(dict.fromkeys(delivered))
    assert first_seen == acknowledged, "delivered out of commit order"


def test_sinks_point_only_where_the_operator_allows(server_factory, tmp_path, receiver):
    """The attack: a service admin points a webhook at an address inside the network (a cloud
    metadata endpoint, a database port). With --event-sink-urls the server refuses every URL
    outside its prefixes, however it is dressed up; and a sink made before the operator set
    the list is held back at delivery (no request leaves), its events kept, not lost."""
    elsewhere = Receiver()  # a destination the operator does not allow
    try:
        srv = server_factory(env={"FIRN_TEST_MODE": "on", "FIRN_TEST_WEBHOOK_LEASE_MS": "500"})
        admin = Management(srv.uri)
        base = (tmp_path / "wh").resolve()
        base.mkdir()
        admin.create_catalog("allow", base.as_uri())
        # Before the list: a sink to the other destination is accepted.
        admin.ok("POST", "/event-sinks", json={"name": "early", "url": elsewhere.url})
        srv.stop()
        allowed = receiver.url.rsplit("/", 1)[0] + "/"  # http://127.0.0.1:<port>/
        srv.args += ["--event-sink-urls", allowed]
        srv.start()
        host = allowed[len("http://"):-1]
        for url in (elsewhere.url, f"http://{host}.evil.test/hook",
                    f"http://{host}@169.254.169.254/latest/meta-data/",
                    f"https://{host}/hook", "http://169.254.169.254/latest/meta-data/"):
            r = admin.request("POST", "/event-sinks", json={"name": "late", "url": url})
            assert r.status_code == 400, (url, r.text)
            assert "--event-sink-urls" in r.text and url not in r.text, r.text
        assert admin.request("GET", "/event-sinks/late").status_code == 404
        admin.ok("POST", "/event-sinks", json={"name": "allowed", "url": receiver.url})

        cat = RestCatalog("w", uri=srv.uri, warehouse="allow",
                          **firn_auth.pyiceberg_auth_properties(srv.uri))
        cat.create_namespace("after_the_list")
        wait_for(lambda: any(e["subject"] == "namespace after_the_list"
                             for e in receiver.events()), what="delivery to the allowed sink")
        early = wait_for(lambda: (s := sink_state(admin, "early")["delivery"])["failures"] >= 1
                         and s, what="the early sink held back")
        assert "--event-sink-urls" in early["lastError"], early
        assert early["delivered"] == 0 and elsewhere.events() == [] and elsewhere.refused == 0
        # Its events wait: once the operator allows it again, they arrive.
        srv.stop()
        srv.args = [a for a in srv.args if a not in ("--event-sink-urls", allowed)]
        srv.start()
        wait_for(lambda: any(e["subject"] == "namespace after_the_list"
                             for e in elsewhere.events()), what="the held events delivered")
    finally:
        elsewhere.close()


def test_a_kek_rotation_reseals_webhook_secrets_and_signing_goes_on(lake, receiver):
    import os
    import sqlite3
    import subprocess

    from conftest import FIRN_BINARY

    srv, admin, cat, _ = lake
    admin.ok("POST", "/event-sinks", json={"name": "rot", "url": receiver.url, "secret": SECRET,
                                           "operations": ["createNamespace"]})
    db = srv.data_dir / "firn.db"

    def stored() -> str:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
            return c.execute("SELECT secret FROM event_sinks WHERE name = 'rot'").fetchone()[0]

    before = stored()
    assert SECRET not in before
    env = {k: v for k, v in os.environ.items() if not k.startswith("FIRN_KEK")}
    p = subprocess.run([str(FIRN_BINARY), "admin", "rotate-kek", "--db", f"sqlite://{db}"],
                       capture_output=True, text=True, timeout=60, env=env)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["resealed_sink_secrets"] == 1
    after = stored()
    assert after.startswith(out["kek_id"] + ".") and before.startswith(out["previous_kek_id"])
    assert SECRET not in p.stdout + p.stderr
    # Instances restart onto the new KEK (as after any rotation); the sink signs as before.
    srv.restart()
    cat.create_namespace("after_rotation")
    wait_for(lambda: any(e["subject"] == "namespace after_rotation" for e in receiver.events()),
             what="a delivery after the rotation")
    delivery = [d for d in receiver.accepted
                if d["event"]["subject"] == "namespace after_rotation"][0]
    assert verify_signature(delivery), "signed with another secret after the rotation"
