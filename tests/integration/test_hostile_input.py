"""Hostile input against a real server, over raw HTTP (issue 9), each test written as the attack.

* Every hostile name (".", "..", "", "/", NUL and other controls, C1, invalid UTF-8, 256 bytes) in
  every position a name enters -- path segments, the `parent` query, request bodies, rename
  source and destination, stage-create, transactions, lookups -- is a 400 ErrorModel whose body
  is valid UTF-8 JSON and does not echo the bytes; nothing appears in the catalog or on disk.
* Client bytes that are echoed (a prefix, a warehouse) never make the body invalid JSON.
* Property maps cannot exceed their limits, at once (16 MiB value, 200,000 properties) or by
  many small updates; nothing is stored.
* Register of a file that is not metadata is one 400 that reveals nothing of the file.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
from pathlib import Path

import pytest

from conftest import Api, http_headers

pytestmark = pytest.mark.firn_only("Firn's input rules and limits (docs/limits.md)")

SCHEMA = {"type": "struct", "schema-id": 0,
          "fields": [{"id": 1, "name": "x", "required": False, "type": "long"}]}

# (label, raw bytes of the name). Each breaks exactly one rule of catalog/input_rules.h.
HOSTILE = [
    ("dot", b"."),
    ("dotdot", b".."),
    ("slash", b"a/b"),
    ("escape", b"../../etc"),
    ("nul", b"a\x00b"),
    ("soh", b"a\x01"),
    ("newline", b"a\nb"),
    ("unit-separator-inside", b"a\x1fb"),
    ("del", b"a\x7f"),
    ("c1-nel", "a\u0085".encode()),
    ("invalid-byte", b"a\xffb"),
    ("overlong-slash", b"a\xc0\xafb"),
    ("surrogate", b"\xed\xa0\x80"),
    ("256-bytes", b"n" * 256),
]


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


# The ones a JSON body can carry (JSON text is valid UTF-8, so it cannot hold the rest).
HOSTILE_JSON = [(label, raw.decode()) for label, raw in HOSTILE if _is_utf8(raw)] + [("empty", "")]


def pct(raw: bytes) -> str:
    """Every byte percent-encoded: what reaches the server is exactly `raw` once decoded."""
    return "".join(f"%{b:02X}" for b in raw)


class Raw:
    """Exact request paths (no client-side normalisation of '.' or '..'), auth applied."""

    def __init__(self, server) -> None:
        self.server = server
        self.v1 = Api(server).v1

    def send(self, method: str, path: str, body=None, headers: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        hdrs = {**http_headers(self.server), **(headers or {})}
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            hdrs.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=data, headers=hdrs)
        resp = conn.getresponse()
        payload = resp.read()
        conn.close()
        return resp.status, payload


def assert_error(status: int, payload: bytes, expected: int | None = 400,
                 error_type: str | None = "BadRequestException", method: str = "GET") -> dict:
    """A 4xx Iceberg ErrorModel whose body is strictly valid UTF-8 JSON."""
    if expected is None:
        assert 400 <= status < 500, (status, payload[:300])
    else:
        assert status == expected, (status, payload[:300])
    if method == "HEAD":
        assert payload == b""
        return {}
    text = payload.decode("utf-8")  # strict: raises on any ill-formed byte
    body = json.loads(text)
    assert set(body) == {"error"}, body
    err = body["error"]
    assert err["code"] == status and err["message"] and err["type"], err
    if error_type is not None and expected is not None:
        assert err["type"] == error_type, err
    return err


def assert_no_echo(err: dict, raw: bytes) -> None:
    # "." and ".." stand in the rule's own wording; every other hostile name must not appear.
    if raw not in (b".", b"..") and _is_utf8(raw) and len(raw) > 1:
        assert raw.decode() not in err["message"], err
    for ch in err["message"]:
        assert ch >= " " and ch != "\x7f" and not ("\x80" <= ch <= "\x9f"), err


def catalog_state(raw: Raw, warehouse: Path, ns: str) -> tuple:
    """What a refused request must leave alone: the files, and what the catalog lists."""
    files = sorted(str(p.relative_to(warehouse)) for p in warehouse.rglob("*") if p.is_file())
    listed = []
    for path in ("/namespaces", f"/namespaces?parent={ns}", f"/namespaces/{ns}/tables",
                 f"/namespaces/{ns}/views", f"/namespaces/{ns}"):
        status, payload = raw.send("GET", raw.v1 + path)
        assert status == 200, (path, status, payload[:200])
        listed.append(json.loads(payload))
    return files, json.dumps(listed, sort_keys=True)


def view_body(name: str, ns: str, props: dict | None = None) -> dict:
    return {
        "name": name, "schema": SCHEMA, "properties": props or {},
        "view-version": {"version-id": 1, "schema-id": 0, "timestamp-ms": 1000,
                         "summary": {"operation": "create"},
                         "representations": [{"type": "sql", "sql": "select 1",
                                              "dialect": "spark"}],
                         "default-namespace": [ns]},
    }


@pytest.fixture
def world(server, unique_name):
    """A namespace with a table `t` and a view `v`, and the raw client."""
    raw = Raw(server)
    ns = unique_name("hostile")
    assert raw.send("POST", raw.v1 + "/namespaces", {"namespace": [ns]})[0] == 200
    status, payload = raw.send("POST", f"{raw.v1}/namespaces/{ns}/tables",
                               {"name": "t", "schema": SCHEMA})
    assert status == 200, payload[:300]
    table = json.loads(payload)
    status, payload = raw.send("POST", f"{raw.v1}/namespaces/{ns}/views", view_body("v", ns))
    assert status == 200, payload[:300]
    view = json.loads(payload)
    return raw, ns, table["metadata-location"], view["metadata-location"]


# ---- Names -----------------------------------------------------------------------------------

def test_hostile_names_in_every_path_position_are_400(world, server):
    raw, ns, table_file, _ = world
    before = catalog_state(raw, server.warehouse_dir, ns)
    v1 = raw.v1
    for label, name in HOSTILE:
        forms = [pct(name)] + ([name.decode()] if name in (b".", b"..") else [])
        for seg in forms:
            # %1F is the level separator by protocol: in a namespace it splits, not offends.
            for ns_seg in () if b"\x1f" in name else (seg, f"{ns}%1F{seg}"):
                requests = [
                    ("GET", f"/namespaces/{ns_seg}", None),
                    ("HEAD", f"/namespaces/{ns_seg}", None),
                    ("DELETE", f"/namespaces/{ns_seg}", None),
                    ("POST", f"/namespaces/{ns_seg}/properties", {"updates": {"a": "1"}}),
                    ("GET", f"/namespaces/{ns_seg}/tables", None),
                    ("GET", f"/namespaces/{ns_seg}/views", None),
                    ("POST", f"/namespaces/{ns_seg}/tables", {"name": "n", "schema": SCHEMA}),
                    ("POST", f"/namespaces/{ns_seg}/register",
                     {"name": "n", "metadata-location": table_file}),
                    ("POST", f"/namespaces/{ns_seg}/views", view_body("n", ns)),
                    ("GET", f"/namespaces/{ns_seg}/tables/t", None),
                ]
                for method, path, body in requests:
                    status, payload = raw.send(method, v1 + path, body)
                    err = assert_error(status, payload, method=method)
                    if err:
                        assert err["message"].startswith("Invalid namespace level: "), (label, err)
                        assert_no_echo(err, name)
            for kind, body in (("tables", {"requirements": [], "updates": []}),
                               ("views", {"requirements": [], "updates": []})):
                base = f"/namespaces/{ns}/{kind}/{seg}"
                for method, path, req in [("GET", base, None), ("HEAD", base, None),
                                          ("DELETE", base, None), ("POST", base, body)] + (
                        [("POST", base + "/metrics", {"report-type": "scan-report"})]
                        if kind == "tables" else []):
                    status, payload = raw.send(method, v1 + path, req)
                    err = assert_error(status, payload, method=method)
                    if err:
                        singular = kind[:-1]
                        assert err["message"].startswith(f"Invalid {singular} name: "), err
                        assert_no_echo(err, name)
        # The `parent` query of listNamespaces is a lookup too.
        if b"\x1f" not in name:
            status, payload = raw.send("GET", f"{v1}/namespaces?parent={ns}%1F{pct(name)}")
            assert_no_echo(assert_error(status, payload), name)
    assert catalog_state(raw, server.warehouse_dir, ns) == before


def test_hostile_names_in_every_body_position_are_400(world, server):
    raw, ns, table_file, view_file = world
    before = catalog_state(raw, server.warehouse_dir, ns)
    v1 = raw.v1
    for label, name in HOSTILE_JSON:
        ident = {"namespace": [ns], "name": name}
        in_bad_ns = {"namespace": [ns, name], "name": "n"}
        good_t = {"namespace": [ns], "name": "t"}
        good_v = {"namespace": [ns], "name": "v"}
        create_tx = {"identifier": ident, "requirements": [{"type": "assert-create"}],
                     "updates": [{"action": "add-schema", "schema": SCHEMA}]}
        requests = [
            (f"{v1}/namespaces", {"namespace": [name]}),
            (f"{v1}/namespaces", {"namespace": [ns, name]}),
            (f"{v1}/namespaces/{ns}/tables", {"name": name, "schema": SCHEMA}),
            (f"{v1}/namespaces/{ns}/tables", {"name": name, "schema": SCHEMA,
                                              "stage-create": True}),
            (f"{v1}/namespaces/{ns}/register", {"name": name, "metadata-location": table_file}),
            (f"{v1}/tables/rename", {"source": good_t, "destination": ident}),
            (f"{v1}/tables/rename", {"source": ident, "destination": good_t}),
            (f"{v1}/tables/rename", {"source": good_t, "destination": in_bad_ns}),
            (f"{v1}/transactions/commit", {"table-changes": [create_tx]}),
            (f"{v1}/transactions/commit",
             {"table-changes": [{"identifier": in_bad_ns, "requirements": [], "updates": []}]}),
            (f"{v1}/namespaces/{ns}/views", view_body(name, ns)),
            (f"{v1}/namespaces/{ns}/register-view", {"name": name,
                                                     "metadata-location": view_file}),
            (f"{v1}/views/rename", {"source": good_v, "destination": ident}),
            (f"{v1}/views/rename", {"source": ident, "destination": good_v}),
        ]
        for path, body in requests:
            status, payload = raw.send("POST", path, body)
            err = assert_error(status, payload)
            assert err["message"].startswith("Invalid "), (label, path, err)
            assert_no_echo(err, name.encode())
    # Ill-formed UTF-8 inside a JSON body is malformed JSON: 400 too, and not echoed.
    for label, name in HOSTILE:
        if _is_utf8(name):
            continue
        body = b'{"namespace": ["' + name + b'"]}'
        status, payload = raw.send("POST", f"{v1}/namespaces", body)
        err = assert_error(status, payload)
        assert err["message"].startswith("Malformed JSON request body"), err
    assert catalog_state(raw, server.warehouse_dir, ns) == before


def test_dot_and_slash_tables_cannot_share_or_nest_in_another_location(world, server):
    """The review's finding: `.` (as %2E) took its namespace's own location, and `a/b` nested
    inside table `a`; either would let one table's files and purge reach another's."""
    raw, ns, _, _ = world
    v1 = raw.v1
    status, payload = raw.send("POST", f"{v1}/namespaces/{ns}/tables",
                               {"name": "a", "schema": SCHEMA})
    assert status == 200, payload[:200]
    before = catalog_state(raw, server.warehouse_dir, ns)
    for name in (".", "..", "a/b", "a/metadata", "./a"):
        status, payload = raw.send("POST", f"{v1}/namespaces/{ns}/tables",
                                   {"name": name, "schema": SCHEMA})
        assert_error(status, payload)
        staged = {"name": name, "schema": SCHEMA, "stage-create": True}
        assert_error(*raw.send("POST", f"{v1}/namespaces/{ns}/tables", staged))
    for seg in ("%2E", ".", "%2e%2E", "a%2Fb"):
        assert_error(*raw.send("GET", f"{v1}/namespaces/{ns}/tables/{seg}"))
    assert catalog_state(raw, server.warehouse_dir, ns) == before
    nested = server.catalog_dir / ns / "a" / "b"
    assert not nested.exists()


def test_a_name_of_255_bytes_is_still_accepted(world, server):
    raw, ns, _, _ = world
    name = "\u00e9" * 127 + "x"  # 255 bytes in UTF-8
    assert len(name.encode()) == 255
    status, payload = raw.send("POST", f"{raw.v1}/namespaces/{ns}/tables",
                               {"name": name, "schema": SCHEMA})
    assert status == 200, payload[:300]
    status, _ = raw.send("GET", f"{raw.v1}/namespaces/{ns}/tables/{pct(name.encode())}")
    assert status == 200


# ---- Echoed client bytes -----------------------------------------------------------------------

def test_echoed_prefix_and_warehouse_with_invalid_utf8_stay_valid_json(server):
    raw = Raw(server)
    for path in ("/v1/%FF%FEbad/namespaces", "/v1/a%C0%AF/namespaces/x/tables/y",
                 "/api/catalog/v1/%ED%A0%80/namespaces"):
        status, payload = raw.send("GET", path)
        err = assert_error(status, payload, expected=404, error_type="NoSuchWarehouseException")
        assert "\ufffd" in err["message"], err
    status, payload = raw.send("GET", "/v1/config?warehouse=%FF%00%C2%85x")
    err = assert_error(status, payload, expected=404, error_type="NoSuchWarehouseException")
    assert "\ufffd" in err["message"], err


# ---- Property limits -----------------------------------------------------------------------------

@pytest.fixture
def big_body_server(server_factory):
    """Request bodies up to 64 MiB, so a 16 MiB value reaches the property rules."""
    return server_factory(env={"FIRN_MAX_BODY_BYTES": str(64 << 20)})


def _setup(raw: Raw, ns: str) -> tuple[str, str]:
    created = raw.send("POST", raw.v1 + "/namespaces", {"namespace": [ns]})
    assert created[0] == 200, created
    status, payload = raw.send("POST", f"{raw.v1}/namespaces/{ns}/tables",
                               {"name": "t", "schema": SCHEMA})
    assert status == 200, payload[:200]
    status, payload = raw.send("POST", f"{raw.v1}/namespaces/{ns}/views", view_body("v", ns))
    assert status == 200, payload[:200]
    table = f"{raw.v1}/namespaces/{ns}/tables/t"
    return table, f"{raw.v1}/namespaces/{ns}/views/v"


def _metadata_location(raw: Raw, path: str) -> str:
    status, payload = raw.send("GET", path)
    assert status == 200
    return json.loads(payload)["metadata-location"]


@pytest.mark.parametrize("props", [
    pytest.param({"big": "v" * (16 << 20)}, id="16MiB-value"),
    pytest.param({f"k{i}": "v" for i in range(200_000)}, id="200000-properties"),
    pytest.param({"k" * 257: "v"}, id="257-byte-key"),
])
def test_oversized_properties_are_refused_everywhere_and_nothing_is_stored(big_body_server, props):
    raw = Raw(big_body_server)
    table, view = _setup(raw, "lim")
    v1 = raw.v1
    before = catalog_state(raw, big_body_server.warehouse_dir, "lim")
    table_file = _metadata_location(raw, table)
    view_file = _metadata_location(raw, view)
    set_props = {"action": "set-properties", "updates": props}
    requests = [
        (f"{v1}/namespaces", {"namespace": ["lim2"], "properties": props}),
        (f"{v1}/namespaces/lim/properties", {"updates": props}),
        (f"{v1}/namespaces/lim/tables", {"name": "t2", "schema": SCHEMA, "properties": props}),
        (f"{v1}/namespaces/lim/tables", {"name": "t3", "schema": SCHEMA, "properties": props,
                                         "stage-create": True}),
        (table, {"requirements": [], "updates": [set_props]}),
        (f"{v1}/transactions/commit", {"table-changes": [
            {"identifier": {"namespace": ["lim"], "name": "t"}, "requirements": [],
             "updates": [set_props]}]}),
        (f"{v1}/transactions/commit", {"table-changes": [
            {"identifier": {"namespace": ["lim"], "name": "t4"},
             "requirements": [{"type": "assert-create"}],
             "updates": [{"action": "add-schema", "schema": SCHEMA}, set_props]}]}),
        (f"{v1}/namespaces/lim/views", view_body("v2", "lim", props)),
        (view, {"requirements": [], "updates": [set_props]}),
    ]
    for path, body in requests:
        status, payload = raw.send("POST", path, body)
        err = assert_error(status, payload)
        assert "properties: " in err["message"], (path, err)
        assert len(payload) < 1000, "the refusal must not echo the properties"
    assert catalog_state(raw, big_body_server.warehouse_dir, "lim") == before
    assert _metadata_location(raw, table) == table_file
    assert _metadata_location(raw, view) == view_file
    assert raw.send("GET", f"{v1}/namespaces/lim2")[0] == 404


def test_small_updates_cannot_add_up_past_the_limits(server_factory):
    srv = server_factory(args=["--max-properties-bytes", "4096", "--max-properties", "20"])
    raw = Raw(srv)
    table, view = _setup(raw, "grow")
    v1 = raw.v1
    expected_message = "keys and values exceed 4096 bytes in total"
    for target, update in (
            (f"{v1}/namespaces/grow/properties", lambda i: {"updates": {f"p{i}": "v" * 1000}}),
            (table, lambda i: {"requirements": [], "updates": [
                {"action": "set-properties", "updates": {f"p{i}": "v" * 1000}}]}),
            (view, lambda i: {"requirements": [], "updates": [
                {"action": "set-properties", "updates": {f"p{i}": "v" * 1000}}]})):
        accepted = 0
        for i in range(10):
            status, payload = raw.send("POST", target, update(i))
            if status == 200:
                accepted += 1
            else:
                err = assert_error(status, payload)
                assert expected_message in err["message"], err
        assert accepted == 4, (target, accepted)  # 4 * 1002 bytes fit in 4096, a fifth not
    status, payload = raw.send("GET", f"{v1}/namespaces/grow")
    props = json.loads(payload)["properties"]
    props.pop("location", None)  # reported, not stored
    assert sum(len(k) + len(v) for k, v in props.items()) <= 4096
    for path in (table, view):
        status, payload = raw.send("GET", path)
        stored = json.loads(payload)["metadata"]["properties"]
        assert sum(len(k) + len(v) for k, v in stored.items()) <= 4096, path
    # The count limit, from its flag: 20 properties, not 21.
    many = {"namespace": ["many"], "properties": {f"k{i}": "" for i in range(21)}}
    status, payload = raw.send("POST", v1 + "/namespaces", many)
    assert "more than 20 properties" in assert_error(status, payload)["message"]
    del many["properties"]["k20"]
    assert raw.send("POST", v1 + "/namespaces", many)[0] == 200


# ---- Register of files that are not metadata -----------------------------------------------

def test_register_of_crafted_files_is_one_400_that_reveals_nothing(server_factory):
    limit = 64 << 10
    srv = server_factory(args=["--max-metadata-file-bytes", str(limit)])
    raw = Raw(srv)
    table, view = _setup(raw, "reg")
    v1 = raw.v1
    secret = "TOPSECRET-c0ffee-91"
    crafted = srv.catalog_dir / "crafted"
    crafted.mkdir(parents=True)
    valid_table = Path(_metadata_location(raw, table).removeprefix("file://")).read_bytes()
    files = {
        "random.bin": os.urandom(4096) + secret.encode(),
        "not-metadata.json": json.dumps({"format-version": 2, "secret": secret}).encode(),
        "array.metadata.json": json.dumps([secret]).encode(),
        "text.metadata.json": secret.encode(),
        "empty.metadata.json": b"",
        # A few KiB that inflate to 16 MiB: refused by the inflated-size bound.
        "bomb.metadata.json.gz": gzip.compress(valid_table + b" " * (16 << 20)),
        "padded.metadata.json": valid_table + b" " * limit,
        "corrupt.metadata.json.gz": b"\x1f\x8b\x08\x00" + secret.encode(),
    }
    for name, data in files.items():
        (crafted / name).write_bytes(data)
    with open(crafted / "huge.metadata.json", "wb") as f:
        f.truncate(4 << 30)  # 4 GiB of holes: refused by its size, never read
    names = list(files) + ["huge.metadata.json"]
    before = catalog_state(raw, srv.warehouse_dir, "reg")
    view_file = _metadata_location(raw, view)
    table_file = _metadata_location(raw, table)
    cases = [("register", f"file://{crafted / n}", "table") for n in names]
    cases += [("register-view", f"file://{crafted / n}", "view") for n in names]
    cases += [("register", view_file, "table"), ("register-view", table_file, "view")]
    for route, location, kind in cases:
        body = {"name": "r", "metadata-location": location}
        status, payload = raw.send("POST", f"{v1}/namespaces/reg/{route}", body)
        err = assert_error(status, payload)
        assert err["message"] == (f"Invalid metadata-location: {location} is not a {kind} "
                                  f"metadata file of at most {limit} bytes"), err
        assert secret.encode() not in payload
    assert catalog_state(raw, srv.warehouse_dir, "reg") == before
    assert raw.send("GET", f"{v1}/namespaces/reg/tables/r")[0] == 404
    assert raw.send("GET", f"{v1}/namespaces/reg/views/r")[0] == 404
    assert secret not in srv.log_path.read_text(errors="replace"), "no file content in the log"
    # A missing file stays a 404, as before.
    missing = f"file://{crafted / 'absent.metadata.json'}"
    for route in ("register", "register-view"):
        status, payload = raw.send("POST", f"{v1}/namespaces/reg/{route}",
                                   {"name": "r", "metadata-location": missing})
        err = assert_error(status, payload, expected=404, error_type="NotFoundException")
        assert err["message"] == f"Failed to open input stream for file: {missing}"
    # A real metadata file within the limit is refused while its table lives (one location, one
    # owner), and registers once the table is dropped with its files kept.
    status, payload = raw.send("POST", f"{v1}/namespaces/reg/register",
                               {"name": "copy", "metadata-location": table_file})
    assert_error(status, payload, expected=409, error_type="AlreadyExistsException")
    assert raw.send("DELETE", table)[0] == 204
    status, payload = raw.send("POST", f"{v1}/namespaces/reg/register",
                               {"name": "copy", "metadata-location": table_file})
    assert status == 200, payload[:300]


def test_a_number_beyond_double_range_is_refused_and_the_table_stays_readable(world, server):
    """JSON has no Infinity: a commit carrying 1e309 would write metadata no reader can parse."""
    raw, ns, _, _ = world
    table = f"{raw.v1}/namespaces/{ns}/tables/huge"
    status, payload = raw.send("POST", f"{raw.v1}/namespaces/{ns}/tables",
                               {"name": "huge", "schema": SCHEMA,
                                "properties": {"format-version": "3"}})
    assert status == 200, payload[:300]
    before = _metadata_location(raw, table)
    field = '{"id": 2, "name": "d", "required": false, "type": "double", "initial-default": %s}'
    for number in ("1e309", "-1e309", "9" * 310):
        body = ('{"updates": [{"action": "add-schema", "schema": {"type": "struct", '
                '"schema-id": 1, "fields": [{"id": 1, "name": "x", "required": false, '
                '"type": "long"}, ' + field % number + ']}}]}').encode()
        status, payload = raw.send("POST", table, body)
        err = assert_error(status, payload)
        assert err["message"] == "Malformed JSON request body: number out of range", err
        assert _metadata_location(raw, table) == before
    # The same change with a finite default commits and loads back.
    body = ('{"updates": [{"action": "add-schema", "schema": {"type": "struct", '
            '"schema-id": 1, "fields": [{"id": 1, "name": "x", "required": false, '
            '"type": "long"}, ' + field % "1.5e308" + ']}}]}').encode()
    status, payload = raw.send("POST", table, body)
    assert status == 200, payload[:300]
    after = _metadata_location(raw, table)
    assert after != before
    text = Path(after.removeprefix("file://")).read_text()
    assert "Infinity" not in text and "1.5E308" in text.upper()
    # A metadata file carrying such a number is not registered either.
    crafted = Path(before.removeprefix("file://")).read_text().replace("{", '{"x": 1e309, ', 1)
    path = server.catalog_dir / f"{ns}-crafted.metadata.json"
    path.write_text(crafted)
    status, payload = raw.send("POST", f"{raw.v1}/namespaces/{ns}/register",
                               {"name": "crafted", "metadata-location": f"file://{path}"})
    err = assert_error(status, payload)
    assert err["message"].startswith("Invalid metadata-location: "), err
    assert raw.send("GET", f"{raw.v1}/namespaces/{ns}/tables/crafted")[0] == 404
