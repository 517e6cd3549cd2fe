"""Protocol details checked with raw HTTP: namespace properties, pagination, error model."""

from __future__ import annotations

import json

import pytest

from conftest import Api


def assert_error_model(resp, status: int, error_type: str | None = None) -> dict:
    assert resp.status_code == status, resp.text[:500]
    assert resp.headers.get("Content-Type", "").startswith("application/json"), resp.headers
    body = resp.json()
    assert set(body) == {"error"}, body
    err = body["error"]
    assert isinstance(err.get("message"), str) and err["message"], err
    assert isinstance(err.get("type"), str) and err["type"], err
    assert err.get("code") == status, err
    if error_type is not None:
        assert err["type"] == error_type, err
    return err


def test_namespace_properties_update(api, catalog, ns):
    catalog.update_namespace_properties(ns, updates={"a": "1", "b": "2", "c": "3"})

    r = api.post(
        f"{api.v1}/namespaces/{ns}/properties",
        json={"removals": ["b", "zz"], "updates": {"a": "10", "d": "4"}},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert sorted(body["updated"]) == ["a", "d"]
    assert sorted(body["removed"]) == ["b"]
    assert sorted(body.get("missing") or []) == ["zz"]

    props = catalog.load_namespace_properties(ns)
    assert props["a"] == "10" and props["c"] == "3" and props["d"] == "4"
    assert "b" not in props

    r = api.get(f"{api.v1}/namespaces/{ns}")
    assert r.status_code == 200
    assert r.json()["namespace"] == [ns]
    assert r.json()["properties"]["a"] == "10"


def test_namespace_properties_key_in_both_lists_is_422(api, catalog, ns):
    catalog.update_namespace_properties(ns, updates={"k": "v"})
    r = api.post(
        f"{api.v1}/namespaces/{ns}/properties",
        json={"removals": ["k"], "updates": {"k": "other", "x": "1"}},
    )
    assert_error_model(r, 422, "UnprocessableEntityException")
    props = catalog.load_namespace_properties(ns)
    assert props.get("k") == "v" and "x" not in props, "a refused update must change nothing"


def _names(resp) -> list[str]:
    return [".".join(n) for n in resp.json()["namespaces"]]


def test_pagination_of_namespaces(fresh_server):
    api = Api(fresh_server)
    wanted = [f"pg{i}" for i in range(5)]
    for name in wanted:
        assert api.post(f"{api.v1}/namespaces", json={"namespace": [name]}).status_code == 200

    seen, token, pages = [], None, 0
    while True:
        params = {"pageSize": 2}
        if token is not None:
            params["pageToken"] = token
        r = api.get(f"{api.v1}/namespaces", params=params)
        assert r.status_code == 200, r.text
        page = _names(r)
        pages += 1
        assert 1 <= len(page) <= 2, page
        seen += page
        token = r.json().get("next-page-token")
        assert token != "", "an empty next-page-token makes the Java client loop forever"
        if token is None:
            break
        assert pages < 10, "pagination does not terminate"
    assert pages == 3
    assert sorted(seen) == wanted and len(seen) == len(set(seen))

    # The Java client's first call: pageToken= (empty) without pageSize returns everything.
    r = api.get(f"{api.v1}/namespaces?pageToken=")
    assert r.status_code == 200, r.text
    assert sorted(_names(r)) == wanted
    assert r.json().get("next-page-token") is None
    # No paging parameters at all: everything, too.
    r = api.get(f"{api.v1}/namespaces")
    assert sorted(_names(r)) == wanted
    assert r.json().get("next-page-token") is None


def test_pagination_of_tables(api, catalog, ns):
    from helpers import SCHEMA

    for i in range(5):
        catalog.create_table(f"{ns}.t{i}", schema=SCHEMA)
    seen, token = [], None
    for _ in range(10):
        params = {"pageSize": 2, **({"pageToken": token} if token is not None else {})}
        r = api.get(f"{api.v1}/namespaces/{ns}/tables", params=params)
        assert r.status_code == 200, r.text
        ids = r.json()["identifiers"]
        assert len(ids) <= 2
        seen += [i["name"] for i in ids]
        token = r.json().get("next-page-token")
        assert token != ""
        if token is None:
            break
    assert sorted(seen) == [f"t{i}" for i in range(5)]
    r = api.get(f"{api.v1}/namespaces/{ns}/tables?pageToken=")
    assert sorted(i["name"] for i in r.json()["identifiers"]) == [f"t{i}" for i in range(5)]
    assert r.json().get("next-page-token") is None


@pytest.mark.firn_only("the reference fixture answers malformed JSON with an HTML 500")
def test_malformed_json_is_400_without_echo(api):
    marker = "SECRET-MARKER-7f3a9"
    r = api.post(
        f"{api.v1}/namespaces",
        data='{"namespace": ["' + marker + '"], "properties": {',
        headers={"Content-Type": "application/json"},
    )
    assert_error_model(r, 400)
    assert marker not in r.text, "the error must not echo the request body"
    assert "\tat " not in r.text, "no stack traces in error responses"


def test_unknown_table_is_404(api, ns):
    r = api.get(f"{api.v1}/namespaces/{ns}/tables/no_such_table")
    assert_error_model(r, 404, "NoSuchTableException")


def test_unknown_namespace_is_404(api, unique_name):
    r = api.get(f"{api.v1}/namespaces/{unique_name('missing')}")
    assert_error_model(r, 404, "NoSuchNamespaceException")


def test_create_existing_namespace_is_409(api, ns):
    r = api.post(f"{api.v1}/namespaces", data=json.dumps({"namespace": [ns]}),
                 headers={"Content-Type": "application/json"})
    assert_error_model(r, 409, "AlreadyExistsException")


@pytest.mark.firn_only("/api/catalog/v1 is Firn's Polaris-compatible alias")
def test_polaris_style_prefix_serves_the_same_catalog(api, ns):
    r = api.get("/api/catalog/v1/config")
    assert r.status_code == 200, r.text
    r = api.get(f"/api/catalog{api.v1}/namespaces/{ns}")
    assert r.status_code == 200, r.text
    assert r.json()["namespace"] == [ns]


def test_namespace_reports_default_location_and_tables_live_under_it(api, catalog, ns):
    """A namespace created without `location` reports where its tables go (engines such as
    Trino place tables there), and the property is derived, not stored."""
    props = api.get(f"{api.v1}/namespaces/{ns}").json()["properties"]
    location = props["location"]
    assert location.endswith("/" + ns), location
    r = api.post(f"{api.v1}/namespaces/{ns}/tables", json={"name": "t", "schema": {
        "type": "struct", "fields": [{"id": 1, "name": "id", "type": "long", "required": False}]}})
    assert r.status_code == 200, r.text
    assert r.json()["metadata"]["location"] == location + "/t"
    # An explicit location wins over the derived one.
    catalog.update_namespace_properties(ns, updates={"location": location + "-custom"})
    assert api.get(f"{api.v1}/namespaces/{ns}").json()["properties"]["location"] == (
        location + "-custom")
