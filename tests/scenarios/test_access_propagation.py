"""Issue 5, item 3: a grant or a revoke made through one instance is in effect on every other
instance of the same PostgreSQL database before the next request that depends on it, and a
token issued by one instance is valid on all of them (signing keys live in the database).

Three instances on one database. The admin changes access through instance 0; the very next
request -- no sleep, no retry -- goes to instances 1 and 2 and must see the change. Repeated
ROUNDS times, alternating grant and revoke, so a stale snapshot anywhere fails the test.
"""

from __future__ import annotations

import uuid

import requests

import firn_auth
from firn_auth import Management, auth_headers

ROUNDS = 10


def load_status(uri: str, token: str, table_path: str) -> int:
    r = requests.get(uri + table_path, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    return r.status_code


def test_grants_and_revokes_reach_every_instance_before_the_next_request(pg, instances):
    db = pg.fresh_database("access")
    insts = instances(3, db_url=pg.db_url(db), password=pg.password)
    uris = [i.uri for i in insts]
    admin0 = Management(uris[0])

    ns = f"ns_{uuid.uuid4().hex[:8]}"
    admin_headers = {**auth_headers(uris[0]), "Content-Type": "application/json"}
    requests.post(uris[0] + "/v1/namespaces", json={"namespace": [ns]}, headers=admin_headers,
                  timeout=30).raise_for_status()
    schema = {"type": "struct", "schema-id": 0,
              "fields": [{"id": 1, "name": "id", "type": "long", "required": False}]}
    requests.post(uris[0] + f"/v1/namespaces/{ns}/tables", json={"name": "t", "schema": schema},
                  headers=admin_headers, timeout=30).raise_for_status()
    table_path = f"/v1/namespaces/{ns}/tables/t"

    catalog = admin0.list_catalogs()[0]
    reader = admin0.principal_with(f"reader_{uuid.uuid4().hex[:6]}", catalog)
    # A token issued by instance 2 and used on instances 0 and 1: keys are shared.
    resp = firn_auth.request_token(uris[2], reader.client_id, reader.client_secret)
    assert resp.status_code == 200, resp.text
    token = resp.json()["access_token"]
    role = f"{reader.name}_cr"

    observed = []
    for round_no in range(ROUNDS):
        granting = round_no % 2 == 0
        if granting:
            admin0.grant(catalog, role, "TABLE_READ_PROPERTIES", namespace=[ns], table="t")
        else:
            admin0.revoke(catalog, role, "TABLE_READ_PROPERTIES", namespace=[ns], table="t")
        expected = 200 if granting else 403
        for uri in uris[1:] + uris[:1]:
            status = load_status(uri, token, table_path)
            observed.append((round_no, uri, status))
            assert status == expected, (
                f"round {round_no}: {'grant' if granting else 'revoke'} through instance 0, "
                f"then {uri} answered {status} (expected {expected}); history {observed}")
    print(f"access propagation: {ROUNDS} grant/revoke rounds x 3 instances, "
          f"{len(observed)} immediate checks, all consistent")
