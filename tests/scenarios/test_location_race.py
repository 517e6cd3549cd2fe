"""Issue 9, item 1: one location, one owner, race-free across instances.

Two `firn serve` instances on ONE PostgreSQL database create overlapping tables at the same
moment (one at L through instance A, one at L/inner through instance B, both released by one
barrier), round after round. Exactly one of each pair may succeed; the loser gets a 409
ErrorModel and leaves no pointer behind.
"""
from __future__ import annotations

import threading

from conftest import env_int
from scenario_rest import SCHEMA, Rest


def test_overlapping_creates_on_two_instances_have_one_winner(pg, instances):
    rounds = env_int("FIRN_SCEN_LOCATION_ROUNDS", 30)
    db = pg.fresh_database("locrace")
    a, b = instances(2, db_url=pg.db_url(db), password=pg.password)
    ra, rb = Rest(a.uri), Rest(b.uri)
    assert ra.create_namespace(["race"]).status_code == 200
    ns_location = ra.request("GET", f"{ra.v1}/namespaces/race").json()["properties"]["location"]

    both = refused_both = 0
    for i in range(rounds):
        outer = f"{ns_location}/r{i}"
        barrier = threading.Barrier(2)
        results: dict[str, object] = {}

        def create(rest: Rest, name: str, location: str) -> None:
            barrier.wait()
            results[name] = rest.request("POST", f"{rest.v1}/namespaces/race/tables",
                                         json={"name": name, "schema": SCHEMA,
                                               "location": location})

        threads = [threading.Thread(target=create, args=(ra, f"outer{i}", outer)),
                   threading.Thread(target=create, args=(rb, f"inner{i}", outer + "/inner"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ok = [name for name, r in results.items() if r.status_code == 200]
        for name, r in results.items():
            if r.status_code != 200:
                assert r.status_code == 409, (name, r.status_code, r.text[:300])
                assert r.json()["error"]["code"] == 409
                gone = ra.request("GET", f"{ra.v1}/namespaces/race/tables/{name}")
                assert gone.status_code == 404, f"the refused {name} left a pointer"
        both += len(ok) == 2
        refused_both += len(ok) == 0
    assert both == 0, f"{both} of {rounds} rounds let both overlapping tables in"
    assert refused_both < rounds // 4, "refusing both is safe but should be rare"
    print(f"\nlocation race: {rounds} rounds on 2 instances, one winner each "
          f"({refused_both} rounds refused both)")
