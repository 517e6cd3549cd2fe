"""Multi-table transactions (POST /v1/{prefix}/transactions/commit): all tables or none."""

from __future__ import annotations

import concurrent.futures

from conftest import Api


def schema() -> dict:
    return {"type": "struct", "schema-id": 0,
            "fields": [{"id": 1, "name": "id", "type": "long", "required": False}]}


def create(api: Api, ns: str, name: str) -> dict:
    r = api.post(f"{api.v1}/namespaces/{ns}/tables", json={"name": name, "schema": schema()})
    assert r.status_code == 200, r.text
    return r.json()


def load(api: Api, ns: str, name: str) -> dict:
    r = api.get(f"{api.v1}/namespaces/{ns}/tables/{name}")
    assert r.status_code == 200, r.text
    return r.json()


def set_property(ns: str, name: str, key: str, value: str, uuid: str) -> dict:
    return {
        "identifier": {"namespace": [ns], "name": name},
        "requirements": [{"type": "assert-table-uuid", "uuid": uuid}],
        "updates": [{"action": "set-properties", "updates": {key: value}}],
    }


def test_transaction_commits_every_table(api, ns):
    a, b = create(api, ns, "a"), create(api, ns, "b")
    r = api.post(f"{api.v1}/transactions/commit", json={"table-changes": [
        set_property(ns, "a", "k", "1", a["metadata"]["table-uuid"]),
        set_property(ns, "b", "k", "2", b["metadata"]["table-uuid"]),
    ]})
    assert r.status_code == 204, r.text
    assert r.content == b""
    assert load(api, ns, "a")["metadata"]["properties"]["k"] == "1"
    assert load(api, ns, "b")["metadata"]["properties"]["k"] == "2"


def test_one_failed_requirement_moves_no_pointer(api, ns):
    a, b = create(api, ns, "a"), create(api, ns, "b")
    before = {t: load(api, ns, t)["metadata-location"] for t in ("a", "b")}
    r = api.post(f"{api.v1}/transactions/commit", json={"table-changes": [
        set_property(ns, "a", "k", "1", a["metadata"]["table-uuid"]),
        set_property(ns, "b", "k", "2", "00000000-0000-0000-0000-000000000000"),
    ]})
    assert r.status_code == 409, r.text
    assert r.json()["error"]["type"] == "CommitFailedException"
    after = {t: load(api, ns, t)["metadata-location"] for t in ("a", "b")}
    assert after == before, "a refused transaction must leave every table unchanged"


def test_missing_table_is_404_and_changes_nothing(api, ns):
    a = create(api, ns, "a")
    before = load(api, ns, "a")["metadata-location"]
    r = api.post(f"{api.v1}/transactions/commit", json={"table-changes": [
        set_property(ns, "a", "k", "1", a["metadata"]["table-uuid"]),
        set_property(ns, "nope", "k", "2", a["metadata"]["table-uuid"]),
    ]})
    assert r.status_code == 404, r.text
    assert load(api, ns, "a")["metadata-location"] == before


def test_staged_create_inside_a_transaction(api, ns):
    staged = api.post(f"{api.v1}/namespaces/{ns}/tables",
                      json={"name": "s", "schema": schema(), "stage-create": True})
    assert staged.status_code == 200 and staged.json().get("metadata-location") is None
    a = create(api, ns, "a")
    meta = staged.json()["metadata"]
    r = api.post(f"{api.v1}/transactions/commit", json={"table-changes": [
        {"identifier": {"namespace": [ns], "name": "s"},
         "requirements": [{"type": "assert-create"}],
         "updates": [{"action": "assign-uuid", "uuid": meta["table-uuid"]},
                     {"action": "upgrade-format-version", "format-version": 2},
                     {"action": "add-schema", "schema": meta["schemas"][0]},
                     {"action": "set-current-schema", "schema-id": -1},
                     {"action": "set-location", "location": meta["location"]}]},
        set_property(ns, "a", "k", "1", a["metadata"]["table-uuid"]),
    ]})
    assert r.status_code == 204, r.text
    assert load(api, ns, "s")["metadata"]["table-uuid"] == meta["table-uuid"]


def test_concurrent_transactions_on_shared_tables_all_apply(api, ns):
    """Each transaction sets its own key on both tables; none may be lost."""
    a, b = create(api, ns, "a"), create(api, ns, "b")

    def run(i: int) -> int:
        return api.request("POST", f"{api.v1}/transactions/commit", json={"table-changes": [
            set_property(ns, "a", f"k{i}", str(i), a["metadata"]["table-uuid"]),
            set_property(ns, "b", f"k{i}", str(i), b["metadata"]["table-uuid"]),
        ]}).status_code

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        statuses = list(pool.map(run, range(12)))
    # Only assert-table-uuid is required, which stays true, so a lost swap is retried against
    # the newer base and every transaction must land.
    assert statuses == [204] * 12, statuses
    for t in ("a", "b"):
        props = load(api, ns, t)["metadata"]["properties"]
        assert sorted(k for k in props if k.startswith("k")) == sorted(f"k{i}" for i in range(12))
