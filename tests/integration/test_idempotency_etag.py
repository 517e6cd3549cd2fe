"""Idempotency-Key replay and ETag / If-None-Match, checked with raw HTTP."""

from __future__ import annotations

import concurrent.futures
import uuid

from conftest import Api


def key() -> str:
    return str(uuid.uuid4())


def schema() -> dict:
    return {"type": "struct", "schema-id": 0,
            "fields": [{"id": 1, "name": "id", "type": "long", "required": False}]}


def create_table(api: Api, ns: str, name: str) -> dict:
    r = api.post(f"{api.v1}/namespaces/{ns}/tables", json={"name": name, "schema": schema()})
    assert r.status_code == 200, r.text
    return r.json()


def append_body(meta: dict, snapshot_id: int) -> dict:
    return {
        "requirements": [{"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": None}],
        "updates": [
            {"action": "add-snapshot", "snapshot": {
                "snapshot-id": snapshot_id, "sequence-number": 1, "timestamp-ms": 1700000000000,
                "manifest-list": f"{meta['location']}/metadata/snap-{snapshot_id}.avro",
                "summary": {"operation": "append"}, "schema-id": 0}},
            {"action": "set-snapshot-ref", "ref-name": "main", "type": "branch",
             "snapshot-id": snapshot_id},
        ],
    }


def test_config_advertises_idempotency_lifetime(api):
    cfg = api.get("/v1/config").json()
    assert cfg["idempotency-key-lifetime"].startswith("PT")


def test_retried_create_namespace_replays_first_response(api):
    name, k = f"idem_{uuid.uuid4().hex[:8]}", key()
    first = api.post(f"{api.v1}/namespaces", json={"namespace": [name]},
                     headers={"Idempotency-Key": k})
    second = api.post(f"{api.v1}/namespaces", json={"namespace": [name]},
                      headers={"Idempotency-Key": k})
    assert first.status_code == 200 and second.status_code == 200, second.text
    assert second.json() == first.json()
    # Without the key, the same request is a new operation and conflicts.
    third = api.post(f"{api.v1}/namespaces", json={"namespace": [name]})
    assert third.status_code == 409


def test_reused_key_with_a_different_body_is_422(api):
    k = key()
    a = api.post(f"{api.v1}/namespaces", json={"namespace": [f"idem_{uuid.uuid4().hex[:8]}"]},
                 headers={"Idempotency-Key": k})
    assert a.status_code == 200
    b = api.post(f"{api.v1}/namespaces", json={"namespace": [f"idem_{uuid.uuid4().hex[:8]}"]},
                 headers={"Idempotency-Key": k})
    assert b.status_code == 422, b.text
    assert b.json()["error"]["type"] == "UnprocessableEntityException"


def test_retried_commit_is_applied_once(api, ns):
    meta = create_table(api, ns, "t")["metadata"]
    path, k = f"{api.v1}/namespaces/{ns}/tables/t", key()
    body = append_body(meta, 4242)
    first = api.post(path, json=body, headers={"Idempotency-Key": k})
    assert first.status_code == 200, first.text
    retry = api.post(path, json=body, headers={"Idempotency-Key": k})
    # Without idempotency the retry would fail its requirement (main already exists) with 409.
    assert retry.status_code == 200, retry.text
    assert retry.json()["metadata-location"] == first.json()["metadata-location"]
    assert retry.headers.get("ETag") == first.headers.get("ETag")
    loaded = api.get(path).json()
    assert [s["snapshot-id"] for s in loaded["metadata"]["snapshots"]] == [4242]


def test_concurrent_duplicates_run_once(api):
    name, k = f"idem_{uuid.uuid4().hex[:8]}", key()

    def create(_):
        return api.request("POST", f"{api.v1}/namespaces", json={"namespace": [name]},
                           headers={"Idempotency-Key": k}).status_code

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(create, range(8)))
    assert statuses == [200] * 8, statuses


def test_replay_survives_restart(fresh_server):
    api = Api(fresh_server)
    name, k = f"idem_{uuid.uuid4().hex[:8]}", key()
    first = api.post(f"{api.v1}/namespaces", json={"namespace": [name]},
                     headers={"Idempotency-Key": k})
    assert first.status_code == 200
    assert fresh_server.restart() == 0
    api = Api(fresh_server)
    again = api.post(f"{api.v1}/namespaces", json={"namespace": [name]},
                     headers={"Idempotency-Key": k})
    assert again.status_code == 200, again.text
    assert again.json() == first.json()


def test_malformed_idempotency_key_is_400(api):
    r = api.post(f"{api.v1}/namespaces", json={"namespace": ["x"]},
                 headers={"Idempotency-Key": "has space"})
    assert r.status_code == 400


def test_etag_not_modified_and_per_representation(api, ns):
    create_table(api, ns, "e")
    path = f"{api.v1}/namespaces/{ns}/tables/e"
    full = api.get(path)
    refs = api.get(path, params={"snapshots": "refs"})
    etag_all, etag_refs = full.headers["ETag"], refs.headers["ETag"]
    assert etag_all and etag_refs and etag_all != etag_refs

    not_modified = api.get(path, headers={"If-None-Match": etag_all})
    assert not_modified.status_code == 304 and not_modified.content == b""
    # A tag of the other representation does not match.
    assert api.get(path, headers={"If-None-Match": etag_refs}).status_code == 200

    meta = full.json()["metadata"]
    commit = api.post(path, json=append_body(meta, 77))
    assert commit.status_code == 200
    assert commit.headers["ETag"] != etag_all
    changed = api.get(path, headers={"If-None-Match": etag_all})
    assert changed.status_code == 200 and changed.headers["ETag"] == commit.headers["ETag"]
