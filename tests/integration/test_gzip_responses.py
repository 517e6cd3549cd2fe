"""gzip-compressed responses (issue 14, item 7; http/content_coding.h), seen on the wire.

Raw requests go through http.client, which sends exactly the headers given and never decodes
a body: `requests` would add `Accept-Encoding: gzip, deflate` and inflate behind our back.
The table is a real one: 100 PyIceberg appends, each with its own data file and manifests.
"""

from __future__ import annotations

import gzip
import http.client
import json
import time
from urllib.parse import urlsplit

import pytest

from conftest import http_headers, make_catalog
from helpers import SCHEMA, ids_of, rows

pytestmark = pytest.mark.firn_only("gzip responses and their ETags (issue 14, item 7)")

SNAPSHOTS = 100
# Measured: this table's load body, 86.8 KB, is 13.1 KB gzip (0.151; docs/benchmarks.md). The
# margin covers other PyIceberg versions writing other summaries; identity would be 1.0.
MAX_GZIP_RATIO = 0.25


class Wire:
    """One keep-alive connection to the server; answers are (status, headers, raw bytes)."""

    def __init__(self, server) -> None:
        url = urlsplit(server.uri)
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        self.auth = http_headers(server)

    def get(self, path: str, headers: dict[str, str] | None = None, method: str = "GET"):
        self.conn.request(method, path, headers={**self.auth, **(headers or {})})
        resp = self.conn.getresponse()
        body = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, body


@pytest.fixture(scope="module")
def hundred(server):
    """A namespace and a table with SNAPSHOTS appends, made once for the module."""
    catalog = make_catalog(server)
    ns = f"gzip_{int(time.time() * 1000)}"
    catalog.create_namespace(ns)
    tbl = catalog.create_table(f"{ns}.hundred", schema=SCHEMA)
    for i in range(SNAPSHOTS):
        tbl.append(rows([i]))
    return catalog, ns, f"/v1/namespaces/{ns}/tables/hundred"


def test_gzip_load_inflates_to_exactly_the_identity_body(server, hundred):
    _, _, path = hundred
    wire = Wire(server)
    status, plain_headers, plain = wire.get(path)
    assert status == 200
    assert "content-encoding" not in plain_headers
    assert plain_headers["vary"] == "Accept-Encoding"
    assert len(json.loads(plain)["metadata"]["snapshots"]) == SNAPSHOTS

    status, headers, raw = wire.get(path, {"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert headers["vary"] == "Accept-Encoding"
    assert headers["content-type"] == "application/json"
    assert int(headers["content-length"]) == len(raw)
    assert gzip.decompress(raw) == plain
    ratio = len(raw) / len(plain)
    assert ratio < MAX_GZIP_RATIO, (len(raw), len(plain))
    print(f"load body: identity {len(plain)} bytes, gzip {len(raw)} bytes ({ratio:.3f})")

    # Warm: the same version's gzip answer again, byte for byte (its metadata piece is cached).
    assert wire.get(path, {"Accept-Encoding": "gzip"})[2] == raw
    # snapshots=refs is another representation with its own bytes.
    _, _, refs_plain = wire.get(path + "?snapshots=refs")
    _, refs_headers, refs_raw = wire.get(path + "?snapshots=refs", {"Accept-Encoding": "gzip"})
    assert gzip.decompress(refs_raw) == refs_plain != plain
    assert refs_headers["etag"] != headers["etag"]


@pytest.mark.parametrize("accept", ["gzip;q=0", "identity", "br", "", "*;q=0",
                                    "gzip;q=0.5, identity;q=1", "gzip;q=garbage"])
def test_a_client_that_does_not_prefer_gzip_gets_the_identity_bytes(server, hundred, accept):
    _, _, path = hundred
    wire = Wire(server)
    _, _, plain = wire.get(path)
    status, headers, body = wire.get(path, {"Accept-Encoding": accept})
    assert status == 200
    assert "content-encoding" not in headers
    assert body == plain


@pytest.mark.parametrize("accept", ["GZIP", "x-gzip", "deflate, gzip;q=0.9", "*",
                                    "br;q=1, gzip;q=0.8, *;q=0.1"])
def test_every_spelling_that_accepts_gzip_gets_it(server, hundred, accept):
    _, _, path = hundred
    status, headers, raw = Wire(server).get(path, {"Accept-Encoding": accept})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert json.loads(gzip.decompress(raw))["metadata"]["table-uuid"]


def test_etags_name_the_coding_and_if_none_match_works_with_either(server, hundred):
    _, _, path = hundred
    wire = Wire(server)
    plain_tag = wire.get(path)[1]["etag"]
    gzip_tag = wire.get(path, {"Accept-Encoding": "gzip"})[1]["etag"]
    assert plain_tag.startswith('"') and gzip_tag == plain_tag[:-1] + '-gzip"'

    status, headers, body = wire.get(path, {"Accept-Encoding": "gzip", "If-None-Match": gzip_tag})
    assert (status, body) == (304, b"")
    assert headers["etag"] == gzip_tag and headers["vary"] == "Accept-Encoding"
    assert "content-encoding" not in headers
    status, headers, _ = wire.get(path, {"If-None-Match": plain_tag})
    assert status == 304 and headers["etag"] == plain_tag
    # Another representation's tag, in either coding, is not this one.
    refs_gzip_tag = wire.get(path + "?snapshots=refs", {"Accept-Encoding": "gzip"})[1]["etag"]
    assert wire.get(path, {"Accept-Encoding": "gzip", "If-None-Match": refs_gzip_tag})[0] == 200


def test_small_bodies_and_bodiless_answers_are_never_encoded(server, hundred):
    _, ns, path = hundred
    wire = Wire(server)
    status, headers, body = wire.get(f"/v1/namespaces/{ns}", {"Accept-Encoding": "gzip"})
    assert status == 200 and len(body) < 1024
    assert "content-encoding" not in headers and json.loads(body)["namespace"] == [ns]
    status, headers, body = wire.get(path, {"Accept-Encoding": "gzip"}, method="HEAD")
    assert status == 204 and body == b"" and "content-encoding" not in headers


def test_pyiceberg_reads_the_table_end_to_end_through_gzip(server, hundred):
    catalog, ns, _ = hundred
    # PyIceberg's HTTP session (requests) asks for gzip on every call, so the create and the
    # 100 appends of the fixture, and this load, all went through compressed answers.
    assert "gzip" in catalog._session.headers.get("Accept-Encoding", "")
    tbl = catalog.load_table(f"{ns}.hundred")
    assert len(tbl.snapshots()) == SNAPSHOTS
    assert ids_of(tbl) == list(range(SNAPSHOTS))
    assert tbl.current_snapshot().summary["total-records"] == str(SNAPSHOTS)
