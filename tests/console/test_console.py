"""The web console (issue 14, item 3; docs/console.md) in a real headless Chromium against a
real `firn serve`: log in with client credentials, browse to a table PyIceberg wrote and see
its snapshots, grant a privilege through the console, find the commit in the audit view; a
principal without grants sees nothing it may not; and the static serving under /ui (headers,
404s, path traversal) over raw HTTP."""

from __future__ import annotations

import http.client
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

SESSION_KEY = "firn.console.session"
XSS = '<img src=x onerror="window.__firnXss=1">'
VIEW_SQL = "SELECT id FROM db.events WHERE id > 2"


@pytest.fixture(scope="module")
def world(server, tmp_path_factory):
    """A catalog with namespace db and table events, appended to twice by PyIceberg (as the
    session admin); returns names, PyIceberg's snapshot ids and the metadata location."""
    admin = Management(server.uri)
    name = f"console_{uuid.uuid4().hex[:8]}"
    base = tmp_path_factory.mktemp("wh")
    admin.create_catalog(name, base.as_uri())
    cat = RestCatalog("c", uri=server.uri, warehouse=name,
                      **firn_auth.pyiceberg_auth_properties(server.uri))
    cat.create_namespace("db")
    table = cat.create_table("db.events", schema=rows([]).schema,
                             properties={"comment": XSS})
    table.append(rows(range(3)))
    table.append(rows(range(3, 5)))
    table = cat.load_table("db.events")
    snapshot_ids = [str(s.snapshot_id) for s in table.snapshots()]
    assert len(snapshot_ids) == 2

    # A view, and a scan report of the table, over the REST API (as an engine sends them).
    headers = firn_auth.auth_headers(server.uri)
    config = requests.get(f"{server.uri}/v1/config", params={"warehouse": name},
                          headers=headers, timeout=30).json()
    base = f"{server.uri}/v1/{config['overrides']['prefix']}/namespaces/db"
    view = {
        "name": "recent",
        "schema": {"type": "struct", "schema-id": 0,
                   "fields": [{"id": 1, "name": "id", "required": False, "type": "long"}]},
        "view-version": {
            "version-id": 1, "timestamp-ms": int(time.time() * 1000), "schema-id": 0,
            "summary": {"engine-name": "console-test"}, "default-namespace": ["db"],
            "representations": [{"type": "sql", "sql": VIEW_SQL, "dialect": "spark"}]},
        "properties": {},
    }
    r = requests.post(f"{base}/views", json=view, headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    report = {
        "report-type": "scan-report", "table-name": f"{name}.db.events",
        "snapshot-id": int(snapshot_ids[-1]), "filter": True, "schema-id": 0,
        "projected-field-ids": [1, 2], "projected-field-names": ["id", "name"],
        "metrics": {"result-data-files": {"unit": "count", "value": 2}},
    }
    r = requests.post(f"{base}/tables/events/metrics", json=report, headers=headers, timeout=30)
    assert r.status_code == 204, r.text
    return {"catalog": name, "ns": "db", "table": "events", "snapshots": snapshot_ids,
            "metadata": table.metadata_location, "admin": admin}


def wait_text(console, selector: str, text: str) -> None:
    console.page.locator(selector, has_text=text).first.wait_for()


def test_admin_browses_to_the_table_grants_and_finds_the_commit_in_the_audit(console, world,
                                                                            tag):
    page, catalog = console.page, world["catalog"]
    console.open()
    page.wait_for_selector("#login-form")
    # The realm typed in: every request then names it in the server's realm header.
    console.login(firn_auth.admin_credentials(), realm=firn_auth.DEFAULT_REALM)

    # Catalogs → catalog → namespace → table, by the links a person would click.
    page.locator("[data-testid=catalogs] a", has_text=catalog).click()
    page.locator("[data-testid=namespace-list] a", has_text="db").click()
    page.locator("[data-testid=tables] a", has_text="events").click()
    page.wait_for_selector("[data-testid=snapshots] .snapshot-id")
    shown = page.locator("[data-testid=snapshots] .snapshot-id").all_inner_texts()
    assert sorted(shown) == sorted(world["snapshots"]), (shown, world["snapshots"])
    # The current snapshot's row is marked; refs, schema and the metadata log are there.
    current = page.locator("[data-testid=snapshots] tr.current .snapshot-id").inner_text()
    assert current == world["snapshots"][-1]
    assert page.locator("[data-testid=refs]").inner_text().count(world["snapshots"][-1]) == 1
    schema = page.locator("[data-testid=schema]").inner_text()
    assert "id" in schema and "name" in schema and "long" in schema
    assert page.locator("[data-testid=metadata-log] tr").count() >= 3  # header + 2 earlier files
    assert world["metadata"] in console.text()
    # A property holding markup is shown as text and never runs.
    props = page.locator("[data-testid=table-properties]").inner_text()
    assert XSS in props
    assert page.evaluate("() => window.__firnXss") is None
    # The stored metrics reports: the scan report sent above, as the API lists it.
    reports = page.locator("[data-testid=table-metrics]")
    listing = world["admin"].request(
        "GET", f"/catalogs/{catalog}/namespaces/db/tables/events/metrics-reports")
    assert listing.status_code == 200, listing.text
    assert [r["reportType"] for r in listing.json()["reports"]] == ["scan-report"], listing.text
    reports.get_by_role("cell", name="scan-report", exact=True).wait_for()
    assert "result-data-files" in reports.text_content()
    assert reports.locator(".error").count() == 0, reports.inner_text()
    console.screenshot("table")

    # The view beside it: its SQL and versions.
    # Exact: the catalog's random name in the same crumbs may contain "db" too.
    page.locator(".crumbs").get_by_role("link", name="db", exact=True).click()
    page.locator("[data-testid=views] a", has_text="recent").click()
    assert VIEW_SQL in page.locator("[data-testid=view-sql]").inner_text()
    assert "console-test" in page.locator("[data-testid=view-versions]").inner_text()
    console.screenshot("view")

    # Principals and principal roles, as the admin may see them.
    console.go("#/principals")
    page.locator("[data-testid=principals] td", has_text=firn_auth.admin_credentials().client_id
                 ).wait_for()
    console.go("#/principal-roles")
    page.locator("[data-testid=principal-roles] a", has_text="service_admin").wait_for()

    # The token is in this tab's sessionStorage only; the secret is stored nowhere.
    stored = page.evaluate(f"""() => ({{
        session: sessionStorage.getItem("{SESSION_KEY}"), local: localStorage.length}})""")
    assert stored["local"] == 0
    session = json.loads(stored["session"])
    assert session["token"] and firn_auth.admin_credentials().client_secret not in stored["session"]

    # A catalog role created and granted through the console.
    role = f"readers_{tag}"
    console.go(f"#/catalogs/{catalog}/roles")
    page.fill("input[name=name]", role)
    page.click("button:has-text('Create')")
    page.locator("[data-testid=catalog-roles] a", has_text=role).click()
    page.select_option("#grant-type", "table")
    page.fill("#grant-namespace", "db")
    page.fill("#grant-name", "events")
    page.select_option("#grant-privilege", "TABLE_READ_DATA")
    page.click("#grant-submit")
    wait_text(console, "#grant-status", "Granted TABLE_READ_DATA on table db.events")
    assert "TABLE_READ_DATA" in page.locator("[data-testid=grants]").inner_text()
    console.screenshot("grant")
    grants = world["admin"].grants(catalog, role)
    assert {"type": "table", "namespace": ["db"], "tableName": "events",
            "privilege": "TABLE_READ_DATA"} in grants, grants
    # A second grant, revoked through the console: the other one stays.
    page.select_option("#grant-privilege", "TABLE_WRITE_DATA")
    page.click("#grant-submit")
    wait_text(console, "#grant-status", "Granted TABLE_WRITE_DATA on table db.events")
    page.locator("[data-testid=grants] tr", has_text="TABLE_WRITE_DATA").locator(
        "button:has-text('Revoke')").click()
    wait_text(console, "#grant-status", "Revoked TABLE_WRITE_DATA on table db.events")
    assert [g["privilege"] for g in world["admin"].grants(catalog, role)] == ["TABLE_READ_DATA"]

    # The two appends in the audit view, filtered by operation (the one the server recorded).
    audit = world["admin"].ok("GET", "/audit", params={"catalog": catalog, "limit": 1000}).json()
    commits = [e for e in audit["entries"] if e["newLocation"] == world["metadata"]]
    assert len(commits) == 1, audit
    operation = commits[0]["operation"]
    console.go("#/audit")
    page.fill("input[name=catalog]", catalog)
    page.fill("input[name=operation]", operation)
    page.fill("input[name=outcome]", "success")
    page.click("#audit-apply")
    page.wait_for_url(f"**operation={operation}**outcome=success**")
    page.wait_for_selector("[data-testid=audit-entries] .audit-operation")
    ops = page.locator("[data-testid=audit-entries] .audit-operation").all_inner_texts()
    objects = page.locator("[data-testid=audit-entries] .audit-object").all_inner_texts()
    assert set(ops) == {operation} and len(ops) >= 2, ops
    assert all("db.events" in o for o in objects), objects
    # The commit's new metadata location is in its row's details.
    assert world["metadata"] in page.locator("[data-testid=audit-entries]").text_content()
    console.screenshot("audit")

    # Logging out forgets the token.
    page.click("#logout")
    page.wait_for_selector("#login-form")
    assert page.evaluate(f"() => sessionStorage.getItem('{SESSION_KEY}')") is None
    # Neither the secret typed into the form nor the token reached the server's log.
    log = console.srv.log_path.read_text(errors="replace")
    assert firn_auth.admin_credentials().client_secret not in log and session["token"] not in log


def test_admin_adds_an_event_sink_watches_it_deliver_and_deletes_it(console, world, tag):
    """Through the console an admin adds a webhook to a real receiver on loopback (its secret
    typed once: the page and the server's log never show it), sees its delivery state once a
    change in the catalog reached the receiver, and deletes it."""
    page, catalog = console.page, world["catalog"]
    name, secret = f"hook_{tag}", f"whsec-console-{tag}-" + "s" * 16
    receiver = Receiver()
    try:
        console.open()
        page.wait_for_selector("#login-form")
        console.login(firn_auth.admin_credentials())
        page.wait_for_selector("#logout:visible")
        console.go("#/events")
        page.wait_for_selector("#sink-form")
        page.fill("#sink-form input[name=name]", name)
        page.fill("#sink-form input[name=url]", receiver.url)
        page.fill("#sink-form input[name=secret]", secret)
        page.fill("#sink-form input[name=catalog]", catalog)
        page.fill("#sink-form input[name=operations]", "createNamespace")
        page.click("#sink-create")
        wait_text(console, "[data-testid=event-sinks] .sink-name", name)
        sink = world["admin"].ok("GET", f"/event-sinks/{name}").json()
        assert sink["signed"] is True and sink["catalog"] == catalog, sink
        assert sink["operations"] == ["createNamespace"], sink

        # A change in the catalog reaches the receiver; the page shows it delivered.
        cat = RestCatalog("c", uri=console.srv.uri, warehouse=catalog,
                          **firn_auth.pyiceberg_auth_properties(console.srv.uri))
        cat.create_namespace(f"hooked_{tag}")
        deadline = time.time() + 30
        while not receiver.events() and time.time() < deadline:
            time.sleep(0.1)
        assert [e["subject"] for e in receiver.events()] == [f"namespace hooked_{tag}"]
        row = page.locator("[data-testid=event-sinks] tr", has_text=name)
        while time.time() < deadline:
            page.reload()
            row.locator(".sink-delivered").wait_for()
            if row.locator(".sink-delivered").inner_text().startswith("1 delivered"):
                break
            time.sleep(0.3)
        assert row.locator(".sink-delivered").inner_text().startswith("1 delivered")
        assert "ok, last" in row.locator(".sink-state").inner_text()
        assert secret not in page.content()
        console.screenshot("event-sinks")

        page.click(f"button[data-sink='{name}']")
        row.wait_for(state="detached")
        listed = world["admin"].ok("GET", "/event-sinks").json()["eventSinks"]
        assert name not in [s["name"] for s in listed]
        assert secret not in console.srv.log_path.read_text(errors="replace")
    finally:
        receiver.close()


def test_principal_without_grants_sees_no_tables_and_no_principals(console, world, tag):
    """The attack: a principal with no grants logs in and goes straight to the catalog's
    namespace, table, principals and audit pages. The API refuses each; the console shows the
    refusal and nothing of what it protects."""
    page, catalog = console.page, world["catalog"]
    nobody = world["admin"].create_principal(f"nobody_{tag}")
    other = world["admin"].create_principal(f"other_{tag}")
    console.open()
    page.wait_for_selector("#login-form")

    # A wrong secret: the token endpoint's refusal is shown.
    console.login(firn_auth.Credentials(nobody.realm, nobody.client_id, "not-the-secret-at-all"))
    page.wait_for_selector("#login-form .error, .login .error")
    assert "invalid_client" in page.locator(".login .error").inner_text()

    console.login(nobody.creds)
    page.wait_for_selector("[data-testid=catalogs], main p.muted:has-text('No catalog')")
    assert catalog not in console.text()

    console.go(f"#/catalogs/{catalog}/namespaces/db")
    tables = page.locator("[data-testid=tables-section] .error")
    tables.wait_for()
    assert "403" in tables.inner_text() and "ForbiddenException" in tables.inner_text()
    assert "events" not in page.locator("[data-testid=tables-section]").inner_text()
    console.screenshot("namespace-refused")

    console.go(f"#/catalogs/{catalog}/namespaces/db/tables/events")
    refusal = page.locator("main .error")
    refusal.first.wait_for()
    assert "ForbiddenException" in refusal.first.inner_text()
    text = console.text()
    assert not any(s in text for s in world["snapshots"]) and world["metadata"] not in text

    console.go("#/principals")
    refused = page.locator("[data-testid=principals-section] .error")
    refused.wait_for()
    assert "403" in refused.inner_text()
    text = console.text()
    assert page.locator("[data-testid=principals]").count() == 0
    assert other.name not in text and other.client_id not in text
    assert firn_auth.admin_credentials().client_id not in text
    console.screenshot("principals-refused")

    console.go("#/audit")
    page.locator("main .error").first.wait_for()
    assert "ForbiddenException" in page.locator("main .error").first.inner_text()
    assert "events" not in console.text()

    console.go("#/events")
    page.locator("main .error").first.wait_for()
    assert "ForbiddenException" in page.locator("main .error").first.inner_text()
    assert page.locator("[data-testid=event-sinks]").count() == 0


def test_a_token_the_server_no_longer_accepts_ends_the_session(console, world, tag):
    """Rotating a principal's credentials refuses the tokens issued before (docs/management.md):
    the console's next request gets 401, and it forgets the token and asks for a login, saying
    why."""
    page = console.page
    user = world["admin"].create_principal(f"rotated_{tag}")
    console.open()
    page.wait_for_selector("#login-form")
    console.login(user.creds)
    page.wait_for_selector("#logout:visible")
    world["admin"].rotate(user.name)
    console.go("#/catalogs/x/namespaces/db")
    message = page.locator(".login .error")
    message.wait_for()
    assert "session ended" in message.inner_text() and "401" in message.inner_text()
    assert page.evaluate(f"() => sessionStorage.getItem('{SESSION_KEY}')") is None


# ---- static serving, over raw HTTP --------------------------------------------------------

def raw_get(srv, path: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    """GET with the path sent exactly as given (no client-side normalisation of .. or %2e)."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_accept_encoding=True)
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        conn.endheaders()
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def test_assets_are_served_without_a_token_with_strict_headers(server):
    for path, kind in [("/ui", "text/html"), ("/ui/", "text/html"), ("/ui/index.html", "text/html"),
                       ("/ui/js/main.js", "text/javascript"), ("/ui/console.css", "text/css"),
                       ("/ui/console.json", "application/json")]:
        status, headers, body = raw_get(server, path)
        assert status == 200, (path, status, body[:200])
        assert headers["content-type"].startswith(kind), (path, headers)
        csp = headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp, csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["cache-control"] == "no-cache" and headers["etag"].startswith('"')
        status, again, body = raw_get(server, path, {"If-None-Match": headers["etag"]})
        assert status == 304 and body == b"", (path, status)
    # The page loads scripts only from files, never inline.
    _, _, index = raw_get(server, "/ui/")
    assert b"<script>" not in index and b" on" not in index.split(b"<body>")[1].split(b">")[0]
    settings = requests.get(f"{server.uri}/ui/console.json", timeout=10).json()
    assert settings["realmHeader"] == "Polaris-Realm"
    assert "TABLE_READ_DATA" in settings["grantable"]["table"]
    assert "CATALOG_MANAGE_CONTENT" not in settings["grantable"]["view"]


@pytest.mark.parametrize("path", [
    "/ui/nope.js", "/ui/js", "/ui/js/", "/ui/index.html/", "/ui//index.html",
    "/ui/../v1/config", "/ui/js/../../v1/config", "/ui/%2e%2e/v1/config",
    "/ui/%2E%2E/%2E%2E/etc/passwd", "/ui/..%2f..%2fetc%2fpasswd", "/ui/js/..%2findex.html",
    "/ui/index.html%00", "/ui/.%2e/admin-credentials", "/ui/../admin-credentials",
])
def test_paths_outside_the_embedded_set_are_404_error_models(server, path):
    """Path traversal as an attack: nothing is read from disk, and a path that names no
    embedded file is the router's 404 ErrorModel, without a token, like any unknown route."""
    status, headers, body = raw_get(server, path)
    assert status == 404, (path, status, body[:200])
    assert headers["content-type"] == "application/json"
    error = json.loads(body)["error"]
    assert error["code"] == 404 and error["type"] == "NotFoundException", error


def test_console_off_serves_nothing_under_ui(server_factory):
    srv = server_factory(args=["--console", "off"])
    status, _, body = raw_get(srv, "/ui/")
    assert status == 404 and json.loads(body)["error"]["type"] == "NotFoundException"
    assert raw_get(srv, "/ui/js/main.js")[0] == 404
    assert raw_get(srv, "/v1/config", {"Authorization": "Bearer x"})[0] == 401  # API still up
