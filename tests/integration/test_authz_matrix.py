"""The authorisation matrix (issue 5): every catalog REST endpoint the server advertises in
GET /v1/config "endpoints", and every operation of the Polaris management API, called by

  * a principal holding exactly the privilege(s) the operation needs  -> must succeed;
  * a principal holding a near-miss privilege on the same securable ("decoy", one that does not
    imply the needed one)                                              -> 403, nothing changed;
  * a principal with no grants at all ("nobody")                      -> 403, nothing changed.

"Nothing changed" compares the admin's view of the case's objects (namespaces, their
properties, tables, views, metadata locations; management objects and credentials) before and
after the refused call. Each case uses its own objects, so allowed calls do not disturb others.
The module prints the matrix size; an unauthorised success fails its case.

Privilege names and implication follow Polaris (docs/auth.md, src/auth/privilege.cc). The
service-level management operations are allowed to holders of the bootstrap's service_admin
principal role (SERVICE_MANAGE_ACCESS on the root) -- there is no API to grant root privileges.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest
import requests

import firn_auth
from firn_auth import Management, Principal, request_token

SERVICE_ADMIN_ROLE = "service_admin"
# Every operationId of the Polaris management API (polaris-management-service.yml 0.0.1, see
# docs/management.md), carried here: the suite reads nothing outside the repository.
MGMT_OPERATIONS = frozenset({
    "addGrantToCatalogRole", "assignCatalogRoleToPrincipalRole", "assignPrincipalRole",
    "createCatalog", "createCatalogRole", "createPrincipal", "createPrincipalRole",
    "deleteCatalog", "deleteCatalogRole", "deletePrincipal", "deletePrincipalRole",
    "getCatalog", "getCatalogRole", "getPrincipal", "getPrincipalRole",
    "listAssigneePrincipalRolesForCatalogRole", "listAssigneePrincipalsForPrincipalRole",
    "listCatalogRoles", "listCatalogRolesForPrincipalRole", "listCatalogs",
    "listGrantsForCatalogRole", "listPrincipalRoles", "listPrincipalRolesAssigned",
    "listPrincipals", "resetCredentials", "revokeCatalogRoleFromPrincipalRole",
    "revokeGrantFromCatalogRole", "revokePrincipalRole", "rotateCredentials", "updateCatalog",
    "updateCatalogRole", "updatePrincipal", "updatePrincipalRole",
})

SCHEMA = {"type": "struct", "schema-id": 0,
          "fields": [{"id": 1, "name": "id", "required": False, "type": "long"}]}

STATS = {"cases": 0, "allowed_ok": 0, "denied_ok": 0, "unauthorised_successes": 0}

pytestmark = pytest.mark.firn_only("authentication and authorisation (issue 5)")


# ---------------------------------------------------------------------------------------------
# The world: a catalog of its own, created through the management API
# ---------------------------------------------------------------------------------------------
@dataclass
class World:
    uri: str
    catalog: str
    prefix: str
    admin: Management
    nobody: Principal
    endpoints: set = field(default_factory=set)
    tokens: dict = field(default_factory=dict)
    spare_dir: Path | None = None  # where spare catalogs go (inside the storage root)

    def token(self, p: Principal) -> str:
        if p.client_id not in self.tokens:
            r = request_token(self.uri, p.client_id, p.client_secret, realm=p.realm)
            assert r.status_code == 200, r.text
            self.tokens[p.client_id] = r.json()["access_token"]
        return self.tokens[p.client_id]

    def call(self, who: Principal | None, method: str, path: str, **kw) -> requests.Response:
        headers = kw.pop("headers", {})
        if who is None:
            headers.update(firn_auth.auth_headers(self.uri))
        else:
            headers["Authorization"] = f"Bearer {self.token(who)}"
        return requests.request(method, self.uri + path, headers=headers, timeout=30, **kw)

    def rest(self, who, method, path, **kw):
        return self.call(who, method, f"/v1/{self.prefix}{path}", **kw)

    def mgmt(self, who, method, path, **kw):
        return self.call(who, method, f"{firn_auth.MGMT_PATH}{path}", **kw)


@pytest.fixture(scope="module")
def world(server) -> World:
    admin = Management(server.uri)
    catalog = f"mx_{uuid.uuid4().hex[:8]}"
    base = (server.data_dir / f"{catalog}-warehouse").resolve()
    base.mkdir(parents=True, exist_ok=True)
    admin.create_catalog(catalog, base.as_uri())
    r = requests.get(f"{server.uri}/v1/config", params={"warehouse": catalog},
                     headers=firn_auth.auth_headers(server.uri), timeout=30)
    assert r.status_code == 200, r.text
    cfg = r.json()
    prefix = {**cfg.get("defaults", {}), **cfg.get("overrides", {})}.get("prefix", catalog)
    nobody = admin.create_principal(f"{catalog}_nobody")
    w = World(server.uri, catalog, prefix, admin, nobody, set(cfg.get("endpoints") or []),
              spare_dir=server.data_dir.resolve())
    yield w
    print(f"\nauthz matrix: {STATS['cases']} cases, {STATS['allowed_ok']} allowed as expected, "
          f"{STATS['denied_ok']} refused as expected, "
          f"{STATS['unauthorised_successes']} unauthorised successes")


# ---------------------------------------------------------------------------------------------
# Catalog REST cases
# ---------------------------------------------------------------------------------------------
@dataclass
class Ctx:
    ns: str
    ns2: str
    table: str = "t"
    view: str = "v"
    table_location: str = ""
    view_location: str = ""
    # Metadata of a table and a view that were dropped with their files kept: their locations
    # are free, so a register may take them (registering a live table's file is refused).
    free_table_location: str = ""
    free_view_location: str = ""


# A grant is (privilege, where) with where in: catalog | ns | ns2 | table | view.
Grant = tuple[str, str]


@dataclass
class Case:
    endpoint: str                     # as advertised: "GET /v1/{prefix}/namespaces"
    variant: str
    need: list[Grant]
    decoys: list[list[Grant]]
    request: Callable[[Ctx], tuple[str, str, dict]]
    ok: tuple[int, ...] = (200, 204)
    # Lists: a caller without the list privilege but with grants at or beneath the listed
    # container gets a filtered list (auth CanSee) instead of a 403. `visible(ctx)` is what
    # the decoy may see; `listed(ctx)` is what the allowed caller must see.
    visible: Callable[[Ctx], set] | None = None
    listed: Callable[[Ctx], set] | None = None
    # Privileges a 403 may name besides `need` (the fine-grained one updateTable checks).
    also_named: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.endpoint} [{self.variant}]" if self.variant else self.endpoint


def _view_body(name: str, ns: str) -> dict:
    return {"name": name, "schema": SCHEMA, "properties": {},
            "view-version": {"version-id": 1, "timestamp-ms": int(time.time() * 1000),
                             "schema-id": 0, "summary": {"engine-name": "test"},
                             "default-namespace": [ns],
                             "representations": [{"type": "sql", "sql": "select 1 as id",
                                                  "dialect": "spark"}]}}


def _scan_report(ctx: Ctx) -> dict:
    return {"report-type": "scan-report", "table-name": f"{ctx.ns}.{ctx.table}",
            "snapshot-id": -1, "filter": True, "schema-id": 0, "projected-field-ids": [1],
            "projected-field-names": ["id"], "metrics": {}}


SET_PROPS = {"requirements": [], "updates": [{"action": "set-properties",
                                              "updates": {"mx": "1"}}]}

CASES: list[Case] = [
    Case("GET /v1/{prefix}/namespaces", "", [("NAMESPACE_LIST", "catalog")],
         [[("NAMESPACE_DROP", "ns2")]], lambda c: ("GET", "/namespaces", {}),
         visible=lambda c: {c.ns2}, listed=lambda c: {c.ns, c.ns2}),
    Case("POST /v1/{prefix}/namespaces", "", [("NAMESPACE_CREATE", "ns")],
         [[("NAMESPACE_LIST", "ns")]],
         lambda c: ("POST", "/namespaces", {"json": {"namespace": [c.ns, "child"]}})),
    Case("GET /v1/{prefix}/namespaces/{namespace}", "", [("NAMESPACE_READ_PROPERTIES", "ns")],
         [[("NAMESPACE_LIST", "ns")]], lambda c: ("GET", f"/namespaces/{c.ns}", {})),
    Case("HEAD /v1/{prefix}/namespaces/{namespace}", "", [("NAMESPACE_LIST", "ns")],
         [[("NAMESPACE_DROP", "ns")]], lambda c: ("HEAD", f"/namespaces/{c.ns}", {})),
    Case("DELETE /v1/{prefix}/namespaces/{namespace}", "", [("NAMESPACE_DROP", "ns2")],
         [[("NAMESPACE_WRITE_PROPERTIES", "ns2")]],
         lambda c: ("DELETE", f"/namespaces/{c.ns2}", {})),
    Case("POST /v1/{prefix}/namespaces/{namespace}/properties", "",
         [("NAMESPACE_WRITE_PROPERTIES", "ns")], [[("NAMESPACE_READ_PROPERTIES", "ns")]],
         lambda c: ("POST", f"/namespaces/{c.ns}/properties",
                    {"json": {"removals": [], "updates": {"mx": "1"}}})),
    Case("GET /v1/{prefix}/namespaces/{namespace}/tables", "", [("TABLE_LIST", "ns")],
         [[("VIEW_LIST", "view")]], lambda c: ("GET", f"/namespaces/{c.ns}/tables", {}),
         visible=lambda c: set(), listed=lambda c: {c.table}),
    Case("POST /v1/{prefix}/namespaces/{namespace}/tables", "", [("TABLE_CREATE", "ns")],
         [[("TABLE_LIST", "ns")]],
         lambda c: ("POST", f"/namespaces/{c.ns}/tables",
                    {"json": {"name": "t_new", "schema": SCHEMA}})),
    Case("POST /v1/{prefix}/namespaces/{namespace}/register", "", [("TABLE_CREATE", "ns")],
         [[("TABLE_LIST", "ns")]],
         lambda c: ("POST", f"/namespaces/{c.ns}/register",
                    {"json": {"name": "t_reg", "metadata-location": c.free_table_location}})),
    Case("GET /v1/{prefix}/namespaces/{namespace}/tables/{table}", "",
         [("TABLE_READ_PROPERTIES", "table")], [[("TABLE_LIST", "table")]],
         lambda c: ("GET", f"/namespaces/{c.ns}/tables/{c.table}", {})),
    Case("HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}", "",
         [("TABLE_LIST", "table")], [[("TABLE_DROP", "table")]],
         lambda c: ("HEAD", f"/namespaces/{c.ns}/tables/{c.table}", {})),
    Case("POST /v1/{prefix}/namespaces/{namespace}/tables/{table}", "",
         [("TABLE_WRITE_PROPERTIES", "table")], [[("TABLE_READ_PROPERTIES", "table")]],
         lambda c: ("POST", f"/namespaces/{c.ns}/tables/{c.table}", {"json": SET_PROPS}),
         also_named=("TABLE_SET_PROPERTIES",)),
    Case("POST /v1/{prefix}/namespaces/{namespace}/tables/{table}", "fine-grained",
         [("TABLE_SET_PROPERTIES", "table")], [[("TABLE_ADD_SNAPSHOT", "table")]],
         lambda c: ("POST", f"/namespaces/{c.ns}/tables/{c.table}", {"json": SET_PROPS})),
    Case("DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}", "",
         [("TABLE_DROP", "table")], [[("TABLE_WRITE_PROPERTIES", "table")]],
         lambda c: ("DELETE", f"/namespaces/{c.ns}/tables/{c.table}", {})),
    Case("DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}", "purge",
         [("TABLE_DROP", "table"), ("TABLE_WRITE_DATA", "table")],
         [[("TABLE_DROP", "table")], [("TABLE_WRITE_DATA", "table")]],
         lambda c: ("DELETE", f"/namespaces/{c.ns}/tables/{c.table}",
                    {"params": {"purgeRequested": "true"}})),
    Case("POST /v1/{prefix}/tables/rename", "",
         [("TABLE_DROP", "table"), ("TABLE_CREATE", "ns2")],
         [[("TABLE_DROP", "table"), ("TABLE_LIST", "ns2")],
          [("TABLE_LIST", "table"), ("TABLE_CREATE", "ns2")]],
         lambda c: ("POST", "/tables/rename", {"json": {
             "source": {"namespace": [c.ns], "name": c.table},
             "destination": {"namespace": [c.ns2], "name": "t_ren"}}})),
    Case("POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics", "",
         [("TABLE_READ_DATA", "table")], [[("TABLE_READ_PROPERTIES", "table")]],
         lambda c: ("POST", f"/namespaces/{c.ns}/tables/{c.table}/metrics",
                    {"json": _scan_report(c)})),
    # The matrix's catalog is on file:, where nothing is vended: the authorised caller gets past
    # authorisation to Polaris's 400 "no credentials are available"; the others get 403.
    Case("GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/credentials", "",
         [("TABLE_READ_DATA", "table")], [[("TABLE_READ_PROPERTIES", "table")]],
         lambda c: ("GET", f"/namespaces/{c.ns}/tables/{c.table}/credentials", {}),
         ok=(400,)),
    # Signing a read needs TABLE_READ_DATA; on the matrix's file: catalog the authorised caller
    # gets 400 "not on S3" (nothing to sign), the others 403.
    Case("POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/sign", "read",
         [("TABLE_READ_DATA", "table")], [[("TABLE_READ_PROPERTIES", "table")]],
         lambda c: ("POST", f"/namespaces/{c.ns}/tables/{c.table}/sign",
                    {"json": {"region": "us-east-1", "uri": "http://127.0.0.1:1/b/k",
                              "method": "GET", "headers": {}}}),
         ok=(400,)),
    Case("POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/sign", "write",
         [("TABLE_WRITE_DATA", "table")], [[("TABLE_READ_DATA", "table")]],
         lambda c: ("POST", f"/namespaces/{c.ns}/tables/{c.table}/sign",
                    {"json": {"region": "us-east-1", "uri": "http://127.0.0.1:1/b/k",
                              "method": "PUT", "headers": {}}}),
         ok=(400,)),
    Case("POST /v1/{prefix}/transactions/commit", "",
         [("TABLE_WRITE_PROPERTIES", "table"), ("TABLE_CREATE", "ns")],
         [[("TABLE_READ_PROPERTIES", "table"), ("TABLE_CREATE", "ns")]],
         lambda c: ("POST", "/transactions/commit", {"json": {"table-changes": [{
             "identifier": {"namespace": [c.ns], "name": c.table}, **SET_PROPS}]}}),
         also_named=("TABLE_SET_PROPERTIES",)),
    Case("GET /v1/{prefix}/namespaces/{namespace}/views", "", [("VIEW_LIST", "ns")],
         [[("TABLE_LIST", "table")]], lambda c: ("GET", f"/namespaces/{c.ns}/views", {}),
         visible=lambda c: set(), listed=lambda c: {c.view}),
    Case("POST /v1/{prefix}/namespaces/{namespace}/views", "", [("VIEW_CREATE", "ns")],
         [[("VIEW_LIST", "ns")]],
         lambda c: ("POST", f"/namespaces/{c.ns}/views", {"json": _view_body("v_new", c.ns)})),
    Case("POST /v1/{prefix}/namespaces/{namespace}/register-view", "", [("VIEW_CREATE", "ns")],
         [[("VIEW_LIST", "ns")]],
         lambda c: ("POST", f"/namespaces/{c.ns}/register-view",
                    {"json": {"name": "v_reg", "metadata-location": c.free_view_location}})),
    Case("GET /v1/{prefix}/namespaces/{namespace}/views/{view}", "",
         [("VIEW_READ_PROPERTIES", "view")], [[("VIEW_LIST", "view")]],
         lambda c: ("GET", f"/namespaces/{c.ns}/views/{c.view}", {})),
    Case("HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}", "",
         [("VIEW_LIST", "view")], [[("VIEW_DROP", "view")]],
         lambda c: ("HEAD", f"/namespaces/{c.ns}/views/{c.view}", {})),
    Case("POST /v1/{prefix}/namespaces/{namespace}/views/{view}", "",
         [("VIEW_WRITE_PROPERTIES", "view")], [[("VIEW_READ_PROPERTIES", "view")]],
         lambda c: ("POST", f"/namespaces/{c.ns}/views/{c.view}", {"json": SET_PROPS})),
    Case("DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}", "",
         [("VIEW_DROP", "view")], [[("VIEW_WRITE_PROPERTIES", "view")]],
         lambda c: ("DELETE", f"/namespaces/{c.ns}/views/{c.view}", {})),
    Case("POST /v1/{prefix}/views/rename", "",
         [("VIEW_DROP", "view"), ("VIEW_CREATE", "ns2")],
         [[("VIEW_DROP", "view"), ("VIEW_LIST", "ns2")],
          [("VIEW_LIST", "view"), ("VIEW_CREATE", "ns2")]],
         lambda c: ("POST", "/views/rename", {"json": {
             "source": {"namespace": [c.ns], "name": c.view},
             "destination": {"namespace": [c.ns2], "name": "v_ren"}}})),
]
CASE_IDS = [c.id for c in CASES]


def _grant(world: World, role: str, ctx: Ctx, grant: Grant) -> None:
    privilege, where = grant
    kw = {"catalog": {}, "ns": {"namespace": [ctx.ns]}, "ns2": {"namespace": [ctx.ns2]},
          "table": {"namespace": [ctx.ns], "table": ctx.table},
          "view": {"namespace": [ctx.ns], "view": ctx.view}}[where]
    world.admin.grant(world.catalog, role, privilege, **kw)


def _principal(world: World, tag: str, ctx: Ctx, grants: list[Grant]) -> Principal:
    name = f"{ctx.ns}_{tag}"
    p = world.admin.principal_with(name, world.catalog)
    for g in grants:
        _grant(world, f"{name}_cr", ctx, g)
    return p


def _setup_objects(world: World) -> Ctx:
    ctx = Ctx(ns=f"n{uuid.uuid4().hex[:10]}", ns2=f"m{uuid.uuid4().hex[:10]}")
    for ns in (ctx.ns, ctx.ns2):
        r = world.rest(None, "POST", "/namespaces", json={"namespace": [ns]})
        assert r.status_code == 200, r.text
    r = world.rest(None, "POST", f"/namespaces/{ctx.ns}/tables",
                   json={"name": ctx.table, "schema": SCHEMA})
    assert r.status_code == 200, r.text
    ctx.table_location = r.json()["metadata-location"]
    r = world.rest(None, "POST", f"/namespaces/{ctx.ns}/views", json=_view_body(ctx.view, ctx.ns))
    assert r.status_code == 200, r.text
    ctx.view_location = r.json()["metadata-location"]
    r = world.rest(None, "POST", f"/namespaces/{ctx.ns}/tables",
                   json={"name": "gone", "schema": SCHEMA})
    assert r.status_code == 200, r.text
    ctx.free_table_location = r.json()["metadata-location"]
    assert world.rest(None, "DELETE", f"/namespaces/{ctx.ns}/tables/gone").status_code == 204
    body = _view_body("vgone", ctx.ns)
    body["properties"] = {"gc.enabled": "false"}
    r = world.rest(None, "POST", f"/namespaces/{ctx.ns}/views", json=body)
    assert r.status_code == 200, r.text
    ctx.free_view_location = r.json()["metadata-location"]
    assert world.rest(None, "DELETE", f"/namespaces/{ctx.ns}/views/vgone").status_code == 204
    return ctx


def _state(world: World, ctx: Ctx) -> dict:
    """Everything a case could change, as the admin sees it."""
    out = {}
    r = world.rest(None, "GET", "/namespaces")
    out["namespaces"] = sorted(tuple(n) for n in r.json()["namespaces"]
                               if n[0] in (ctx.ns, ctx.ns2))
    for ns in (ctx.ns, ctx.ns2):
        r = world.rest(None, "GET", f"/namespaces/{ns}")
        out[f"ns:{ns}"] = r.json().get("properties") if r.status_code == 200 else r.status_code
        r = world.rest(None, "GET", "/namespaces", params={"parent": ns})
        out[f"children:{ns}"] = sorted(tuple(n) for n in r.json().get("namespaces", [])) \
            if r.status_code == 200 else r.status_code
        for kind in ("tables", "views"):
            r = world.rest(None, "GET", f"/namespaces/{ns}/{kind}")
            ids = r.json().get("identifiers", []) if r.status_code == 200 else []
            out[f"{kind}:{ns}"] = sorted(i["name"] for i in ids)
            for name in out[f"{kind}:{ns}"]:
                r = world.rest(None, "GET", f"/namespaces/{ns}/{kind}/{name}")
                body = r.json() if r.status_code == 200 else {}
                out[f"{kind}:{ns}.{name}"] = (body.get("metadata-location"),
                                              body.get("metadata", {}).get("properties"))
    return out


def _listed_names(r: requests.Response) -> set:
    body = r.json()
    if "namespaces" in body:
        return {n[-1] for n in body["namespaces"]}
    return {i["name"] for i in body.get("identifiers", [])}


def _is_forbidden(r: requests.Response, needed: list[str]) -> bool:
    if r.status_code != 403:
        return False
    if not r.content:  # HEAD
        return True
    err = r.json().get("error", {})
    return err.get("code") == 403 and any(p in err.get("message", "") for p in needed)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_catalog_endpoint(world, case):
    ctx = _setup_objects(world)
    needed = [p for p, _ in case.need] + list(case.also_named)
    method, path, kw = case.request(ctx)
    failures = []
    if case.endpoint not in world.endpoints:
        # Not advertised: it must not be served at all (so there is nothing to authorise).
        r = world.rest(None, method, path, **kw)
        STATS["cases"] += 1
        assert r.status_code in (404, 405, 501), \
            f"{case.endpoint} is not advertised but answers {r.status_code} {r.text[:200]}"
        return

    # Refused first, so the objects are intact for the allowed call.
    refused = [("nobody", world.nobody)] + [
        (f"decoy{i}", _principal(world, f"d{i}", ctx, d)) for i, d in enumerate(case.decoys)]
    for tag, who in refused:
        before = _state(world, ctx)
        r = world.rest(who, method, path, **kw)
        STATS["cases"] += 1
        if r.status_code == 200 and case.visible is not None and tag != "nobody":
            extra = _listed_names(r) - case.visible(ctx)
            if extra:
                STATS["unauthorised_successes"] += 1
                failures.append(f"{tag}: list shows objects it may not see: {sorted(extra)}")
            else:
                STATS["denied_ok"] += 1
        elif 200 <= r.status_code < 300:
            STATS["unauthorised_successes"] += 1
            failures.append(f"{tag}: UNAUTHORISED SUCCESS {r.status_code}")
        elif not _is_forbidden(r, needed):
            failures.append(f"{tag}: expected 403 naming one of {needed}, got "
                            f"{r.status_code} {r.text[:300]}")
        else:
            STATS["denied_ok"] += 1
        after = _state(world, ctx)
        if after != before:
            failures.append(f"{tag}: refused call changed state: {before} -> {after}")

    allowed = _principal(world, "ok", ctx, case.need)
    r = world.rest(allowed, method, path, **kw)
    STATS["cases"] += 1
    if r.status_code in case.ok and case.listed is not None and \
            not case.listed(ctx) <= _listed_names(r):
        failures.append(f"with {case.need}: list lacks {case.listed(ctx) - _listed_names(r)}")
    elif r.status_code in case.ok:
        STATS["allowed_ok"] += 1
    else:
        failures.append(f"with {case.need}: expected {case.ok}, got {r.status_code} "
                        f"{r.text[:300]}")
    assert not failures, "\n".join(failures)


def test_every_advertised_endpoint_is_in_the_matrix(world):
    cfg = requests.get(f"{world.uri}/v1/config", params={"warehouse": world.catalog},
                       headers=firn_auth.auth_headers(world.uri), timeout=30).json()
    advertised = set(cfg.get("endpoints") or [])
    assert advertised, "the server advertises no endpoints"
    covered = {c.endpoint for c in CASES}
    missing = sorted(advertised - covered)
    assert not missing, f"endpoints without an authorisation case: {missing}"
    print(f"\ncatalog endpoints advertised: {len(advertised)}, cases: {len(CASES)}")


def test_config_needs_authentication_only(world):
    assert world.call(world.nobody, "GET", "/v1/config",
                      params={"warehouse": world.catalog}).status_code == 200
    r = requests.get(f"{world.uri}/v1/config", params={"warehouse": world.catalog}, timeout=30)
    assert r.status_code == 401


# ---------------------------------------------------------------------------------------------
# Lists show only what the caller may see
# ---------------------------------------------------------------------------------------------
def test_lists_show_only_visible_objects(world):
    a, b = _setup_objects(world), _setup_objects(world)
    for ctx in (a, b):
        r = world.rest(None, "POST", f"/namespaces/{ctx.ns}/tables",
                       json={"name": "hidden", "schema": SCHEMA})
        assert r.status_code == 200, r.text
    # Only TABLE_READ_DATA on a.ns.t: no list privilege anywhere.
    p = _principal(world, "vis", a, [("TABLE_READ_DATA", "table")])
    r = world.rest(p, "GET", "/namespaces")
    assert r.status_code == 200, r.text
    listed = {tuple(n) for n in r.json()["namespaces"]}
    assert listed == {(a.ns,)}, listed  # not b.ns, a.ns2, nor any other test's namespace
    r = world.rest(p, "GET", f"/namespaces/{a.ns}/tables")
    assert r.status_code == 200, r.text
    assert {i["name"] for i in r.json()["identifiers"]} == {a.table}  # not "hidden"
    r = world.rest(p, "GET", f"/namespaces/{a.ns}/views")
    assert r.status_code == 403 or r.json()["identifiers"] == [], r.text
    assert world.rest(p, "GET", f"/namespaces/{b.ns}/tables").status_code == 403
    # A refusal does not reveal whether the object exists.
    r1 = world.rest(p, "GET", f"/namespaces/{b.ns}/tables/{b.table}")
    r2 = world.rest(p, "GET", f"/namespaces/{b.ns}/tables/no_such_table")
    r3 = world.rest(p, "GET", "/namespaces/no_such_ns/tables/no_such_table")
    assert r1.status_code == r2.status_code == r3.status_code == 403, (r1.text, r2.text, r3.text)
    m1 = r1.json()["error"]["message"].replace(f"{b.ns}.{b.table}", "<table>")
    m2 = r2.json()["error"]["message"].replace(f"{b.ns}.no_such_table", "<table>")
    assert m1 == m2, (m1, m2)


def test_grant_and_revoke_take_effect_on_the_next_request(world):
    ctx = _setup_objects(world)
    p = _principal(world, "gr", ctx, [])
    path = f"/namespaces/{ctx.ns}/tables/{ctx.table}"
    assert world.rest(p, "GET", path).status_code == 403
    _grant(world, f"{ctx.ns}_gr_cr", ctx, ("TABLE_READ_PROPERTIES", "table"))
    assert world.rest(p, "GET", path).status_code == 200
    world.admin.revoke(world.catalog, f"{ctx.ns}_gr_cr", "TABLE_READ_PROPERTIES",
                       namespace=[ctx.ns], table=ctx.table)
    assert world.rest(p, "GET", path).status_code == 403


def test_inherited_down_the_tree(world):
    ctx = _setup_objects(world)
    r = world.rest(None, "POST", "/namespaces", json={"namespace": [ctx.ns, "deep"]})
    assert r.status_code == 200, r.text
    r = world.rest(None, "POST", f"/namespaces/{ctx.ns}%1Fdeep/tables",
                   json={"name": "leaf", "schema": SCHEMA})
    assert r.status_code == 200, r.text
    p = _principal(world, "inh", ctx, [("TABLE_READ_PROPERTIES", "ns")])
    assert world.rest(p, "GET", f"/namespaces/{ctx.ns}%1Fdeep/tables/leaf").status_code == 200
    assert world.rest(p, "GET", f"/namespaces/{ctx.ns2}").status_code == 403
    c = _principal(world, "cat", ctx, [("CATALOG_MANAGE_CONTENT", "catalog")])
    assert world.rest(c, "GET", f"/namespaces/{ctx.ns}%1Fdeep/tables/leaf").status_code == 200


# ---------------------------------------------------------------------------------------------
# Management API cases
# ---------------------------------------------------------------------------------------------
@dataclass
class MCtx:
    """Objects one management case works on (all fresh)."""
    catalog: str          # the matrix catalog
    spare_catalog: str    # an empty catalog of the case's own
    principal: Principal  # a plain principal
    principal_role: str
    catalog_role: str     # in `catalog`, assigned to principal_role
    tag: str


@dataclass
class MCase:
    op: str
    tier: str  # service | catalog | catalog-read | catalog-write | spare-drop
    request: Callable[[MCtx, World], tuple[str, str, dict]]
    ok: tuple[int, ...] = (200, 201, 204)


def _pver(world, path):
    return world.admin.ok("GET", path).json().get("entityVersion", 1)


MCASES: list[MCase] = [
    MCase("listCatalogs", "service", lambda c, w: ("GET", "/catalogs", {})),
    MCase("createCatalog", "service", lambda c, w: ("POST", "/catalogs", {"json": {"catalog": {
        "type": "INTERNAL", "name": f"{c.tag}_new",
        "properties": {"default-base-location": (w.spare_dir / f"{c.tag}_new").as_uri()},
        "storageConfigInfo": {"storageType": "FILE"}}}})),
    MCase("getCatalog", "catalog-read", lambda c, w: ("GET", f"/catalogs/{c.catalog}", {})),
    MCase("updateCatalog", "catalog-write", lambda c, w: ("PUT", f"/catalogs/{c.catalog}", {
        "json": {"currentEntityVersion": _pver(w, f"/catalogs/{c.catalog}"),
                 "properties": {**w.admin.get_catalog(c.catalog)["properties"],
                                f"mx_{c.tag}": "1"}}})),
    MCase("deleteCatalog", "spare-drop",
          lambda c, w: ("DELETE", f"/catalogs/{c.spare_catalog}", {})),
    MCase("listPrincipals", "service", lambda c, w: ("GET", "/principals", {})),
    MCase("createPrincipal", "service", lambda c, w: ("POST", "/principals", {
        "json": {"principal": {"name": f"{c.tag}_newp"}}})),
    MCase("getPrincipal", "service",
          lambda c, w: ("GET", f"/principals/{c.principal.name}", {})),
    MCase("updatePrincipal", "service", lambda c, w: ("PUT", f"/principals/{c.principal.name}", {
        "json": {"currentEntityVersion": _pver(w, f"/principals/{c.principal.name}"),
                 "properties": {"mx": "1"}}})),
    MCase("deletePrincipal", "service",
          lambda c, w: ("DELETE", f"/principals/{c.principal.name}", {})),
    MCase("rotateCredentials", "service",
          lambda c, w: ("POST", f"/principals/{c.principal.name}/rotate", {})),
    MCase("resetCredentials", "service",
          lambda c, w: ("POST", f"/principals/{c.principal.name}/reset", {"json": {}})),
    MCase("listPrincipalRolesAssigned", "service",
          lambda c, w: ("GET", f"/principals/{c.principal.name}/principal-roles", {})),
    MCase("assignPrincipalRole", "service",
          lambda c, w: ("PUT", f"/principals/{c.principal.name}/principal-roles",
                        {"json": {"principalRole": {"name": c.principal_role}}})),
    MCase("revokePrincipalRole", "service",
          lambda c, w: ("DELETE",
                        f"/principals/{c.tag}_holder/principal-roles/{c.principal_role}", {})),
    MCase("listPrincipalRoles", "service", lambda c, w: ("GET", "/principal-roles", {})),
    MCase("createPrincipalRole", "service", lambda c, w: ("POST", "/principal-roles", {
        "json": {"principalRole": {"name": f"{c.tag}_newpr"}}})),
    MCase("getPrincipalRole", "service",
          lambda c, w: ("GET", f"/principal-roles/{c.principal_role}", {})),
    MCase("updatePrincipalRole", "service",
          lambda c, w: ("PUT", f"/principal-roles/{c.principal_role}", {"json": {
              "currentEntityVersion": _pver(w, f"/principal-roles/{c.principal_role}"),
              "properties": {"mx": "1"}}})),
    MCase("deletePrincipalRole", "service",
          lambda c, w: ("DELETE", f"/principal-roles/{c.principal_role}", {})),
    MCase("listAssigneePrincipalsForPrincipalRole", "service",
          lambda c, w: ("GET", f"/principal-roles/{c.principal_role}/principals", {})),
    MCase("listCatalogRolesForPrincipalRole", "service",
          lambda c, w: ("GET", f"/principal-roles/{c.principal_role}/catalog-roles/{c.catalog}",
                        {})),
    # Firn checks the securable side only (docs/management.md): a catalog administrator
    # assigns its catalog's roles.
    MCase("assignCatalogRoleToPrincipalRole", "catalog",
          lambda c, w: ("PUT", f"/principal-roles/{c.principal_role}/catalog-roles/{c.catalog}",
                        {"json": {"catalogRole": {"name": f"{c.tag}_cr2"}}})),
    MCase("revokeCatalogRoleFromPrincipalRole", "catalog",
          lambda c, w: ("DELETE", f"/principal-roles/{c.principal_role}/catalog-roles/"
                        f"{c.catalog}/{c.catalog_role}", {})),
    MCase("listCatalogRoles", "catalog",
          lambda c, w: ("GET", f"/catalogs/{c.catalog}/catalog-roles", {})),
    MCase("createCatalogRole", "catalog",
          lambda c, w: ("POST", f"/catalogs/{c.catalog}/catalog-roles",
                        {"json": {"catalogRole": {"name": f"{c.tag}_newcr"}}})),
    MCase("getCatalogRole", "catalog",
          lambda c, w: ("GET", f"/catalogs/{c.catalog}/catalog-roles/{c.catalog_role}", {})),
    MCase("updateCatalogRole", "catalog",
          lambda c, w: ("PUT", f"/catalogs/{c.catalog}/catalog-roles/{c.catalog_role}", {
              "json": {"currentEntityVersion": _pver(
                  w, f"/catalogs/{c.catalog}/catalog-roles/{c.catalog_role}"),
                  "properties": {"mx": "1"}}})),
    MCase("deleteCatalogRole", "catalog",
          lambda c, w: ("DELETE", f"/catalogs/{c.catalog}/catalog-roles/{c.tag}_cr2", {})),
    MCase("listAssigneePrincipalRolesForCatalogRole", "catalog",
          lambda c, w: ("GET", f"/catalogs/{c.catalog}/catalog-roles/{c.catalog_role}/"
                        "principal-roles", {})),
    MCase("listGrantsForCatalogRole", "catalog",
          lambda c, w: ("GET", f"/catalogs/{c.catalog}/catalog-roles/{c.catalog_role}/grants",
                        {})),
    MCase("addGrantToCatalogRole", "catalog",
          lambda c, w: ("PUT", f"/catalogs/{c.catalog}/catalog-roles/{c.catalog_role}/grants",
                        {"json": {"grant": {"type": "catalog",
                                            "privilege": "TABLE_WRITE_DATA"}}})),
    MCase("revokeGrantFromCatalogRole", "catalog",
          lambda c, w: ("POST", f"/catalogs/{c.catalog}/catalog-roles/{c.catalog_role}/grants",
                        {"json": {"grant": {"type": "catalog", "privilege": "TABLE_LIST"}}})),
]


def _mctx(world: World) -> MCtx:
    a = world.admin
    tag = f"g{uuid.uuid4().hex[:10]}"
    spare_base = (world.spare_dir / f"firn-mx-{tag}").as_uri()
    a.create_catalog(f"{tag}_spare", spare_base)
    principal = a.create_principal(f"{tag}_p")
    a.create_principal_role(f"{tag}_pr")
    a.create_catalog_role(world.catalog, f"{tag}_cr")
    a.create_catalog_role(world.catalog, f"{tag}_cr2")
    a.assign_catalog_role(f"{tag}_pr", world.catalog, f"{tag}_cr")
    a.grant(world.catalog, f"{tag}_cr", "TABLE_LIST")
    a.create_principal(f"{tag}_holder")
    a.assign_principal_role(f"{tag}_holder", f"{tag}_pr")
    return MCtx(world.catalog, f"{tag}_spare", principal, f"{tag}_pr", f"{tag}_cr", tag)


def _mgmt_principal(world: World, c: MCtx, name: str, catalog: str,
                    privileges: list[str], service_admin: bool = False) -> Principal:
    a = world.admin
    if service_admin:  # no catalog roles: e.g. the spare catalog must stay empty to be dropped
        p = a.create_principal(f"{c.tag}_{name}")
        a.assign_principal_role(p.name, SERVICE_ADMIN_ROLE)
        return p
    p = a.principal_with(f"{c.tag}_{name}", catalog)
    for priv in privileges:
        a.grant(catalog, f"{c.tag}_{name}_cr", priv)
    return p


# tier -> (allowed principal spec, decoy specs); a spec is (catalog key, privileges, svc admin)
TIERS = {
    "service": (("catalog", [], True),
                [("catalog", ["CATALOG_MANAGE_ACCESS", "CATALOG_MANAGE_CONTENT"], False)]),
    "catalog": (("catalog", ["CATALOG_MANAGE_ACCESS"], False),
                [("catalog", ["CATALOG_MANAGE_CONTENT"], False)]),
    "catalog-read": (("catalog", ["CATALOG_READ_PROPERTIES"], False),
                     [("catalog", ["TABLE_READ_DATA", "CATALOG_MANAGE_ACCESS"], False)]),
    "catalog-write": (("catalog", ["CATALOG_WRITE_PROPERTIES"], False),
                      [("catalog", ["CATALOG_READ_PROPERTIES"], False)]),
    "spare-drop": (("spare", [], True),
                   [("catalog", ["CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_ACCESS"], False)]),
}


def _mstate(world: World, c: MCtx) -> dict:
    a = world.admin
    out = {"catalogs": a.list_catalogs(),
           "principals": sorted(p["name"] for p in a.ok("GET", "/principals").json()["principals"]),
           "principal_roles": sorted(r["name"] for r in
                                     a.ok("GET", "/principal-roles").json()["roles"]),
           "catalog_roles": sorted(r["name"] for r in a.ok(
               "GET", f"/catalogs/{c.catalog}/catalog-roles").json()["roles"]),
           "catalog": a.get_catalog(c.catalog),
           "grants": sorted(str(g) for g in a.grants(c.catalog, c.catalog_role)),
           "assigned": a.ok("GET", f"/principals/{c.tag}_holder/principal-roles").json(),
           "pr_catalog_roles": a.ok(
               "GET", f"/principal-roles/{c.principal_role}/catalog-roles/{c.catalog}").json()}
    for path in (f"/principals/{c.principal.name}", f"/principal-roles/{c.principal_role}",
                 f"/catalogs/{c.catalog}/catalog-roles/{c.catalog_role}"):
        r = a.request("GET", path)
        out[path] = r.json() if r.status_code == 200 else r.status_code
    # Credentials unchanged: the plain principal's secret still gets a token.
    out["secret_works"] = request_token(world.uri, c.principal.client_id,
                                        c.principal.client_secret).status_code
    return out


@pytest.mark.parametrize("mcase", MCASES, ids=[m.op for m in MCASES])
def test_management_operation(world, mcase):
    c = _mctx(world)
    allowed_spec, decoy_specs = TIERS[mcase.tier]

    def make(tag, spec):
        cat_key, privileges, svc = spec
        catalog = c.spare_catalog if cat_key == "spare" else c.catalog
        return _mgmt_principal(world, c, tag, catalog, privileges, svc)

    failures = []
    refused = [("nobody", world.nobody)] + [(f"decoy{i}", make(f"d{i}", s))
                                            for i, s in enumerate(decoy_specs)]
    for tag, who in refused:
        before = _mstate(world, c)
        method, path, kw = mcase.request(c, world)
        r = world.mgmt(who, method, path, **kw)
        STATS["cases"] += 1
        if 200 <= r.status_code < 300:
            if mcase.op == "listCatalogs":
                # Lists show only visible objects: the decoy holds a role in the matrix
                # catalog, nobody holds none.
                names = {x["name"] for x in r.json().get("catalogs", [])}
                if names <= ({c.catalog} if tag != "nobody" else set()):
                    STATS["denied_ok"] += 1
                    continue
            STATS["unauthorised_successes"] += 1
            failures.append(f"{tag}: UNAUTHORISED SUCCESS {r.status_code} {r.text[:200]}")
        elif r.status_code != 403:
            failures.append(f"{tag}: expected 403, got {r.status_code} {r.text[:300]}")
        else:
            STATS["denied_ok"] += 1
        after = _mstate(world, c)
        if after != before:
            changed = {k for k in before if before[k] != after.get(k)}
            failures.append(f"{tag}: refused call changed {sorted(changed)}")

    who = make("ok", allowed_spec)
    method, path, kw = mcase.request(c, world)
    r = world.mgmt(who, method, path, **kw)
    STATS["cases"] += 1
    if r.status_code in mcase.ok:
        STATS["allowed_ok"] += 1
    else:
        failures.append(f"allowed ({mcase.tier}): expected {mcase.ok}, got {r.status_code} "
                        f"{r.text[:300]}")
    assert not failures, "\n".join(failures)


def test_every_management_operation_is_in_the_matrix():
    ops = set(MGMT_OPERATIONS)
    covered = {m.op for m in MCASES}
    assert ops - covered == set(), f"management operations without a case: {sorted(ops - covered)}"
    assert covered - ops == set(), f"cases for unknown operations: {sorted(covered - ops)}"
