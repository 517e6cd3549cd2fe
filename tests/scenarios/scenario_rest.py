"""Raw Iceberg REST helpers for the scenarios: tables whose commits are add-snapshot +
set-snapshot-ref main guarded by assert-ref-snapshot-id (the shape every engine's append has),
with no data files (the catalog never reads manifests on commit)."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import requests

# The session admin's credentials and token handling are shared with the integration suite.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
import firn_auth  # noqa: E402

TIMEOUT_S = 30
SCHEMA = {
    "type": "struct",
    "schema-id": 0,
    "fields": [{"id": 1, "name": "id", "required": False, "type": "long"}],
}


class Rest:
    """Raw REST as the session admin (firn_auth): a bearer token fetched on first use and once
    more after a 401."""

    def __init__(self, uri: str, timeout: float = TIMEOUT_S) -> None:
        self.uri = uri
        self.timeout = timeout
        self.session = requests.Session()
        self.session.auth = firn_auth.BearerAuth(uri)
        self._v1: str | None = None

    @property
    def v1(self) -> str:
        if self._v1 is None:
            cfg = self.session.get(f"{self.uri}/v1/config", timeout=self.timeout).json()
            prefix = {**cfg.get("defaults", {}), **cfg.get("overrides", {})}.get("prefix")
            self._v1 = f"/v1/{prefix}" if prefix else "/v1"
        return self._v1

    def request(self, method: str, path: str, **kw) -> requests.Response:
        kw.setdefault("timeout", self.timeout)
        return self.session.request(method, self.uri + path, **kw)

    def create_namespace(self, ns: list[str], props: dict | None = None) -> requests.Response:
        return self.request("POST", f"{self.v1}/namespaces",
                            json={"namespace": ns, "properties": props or {}})

    def create_table(self, ns: str, name: str) -> dict:
        r = self.request("POST", f"{self.v1}/namespaces/{ns}/tables",
                         json={"name": name, "schema": SCHEMA,
                               "properties": {"format-version": "2"}})
        assert r.status_code == 200, r.text
        return r.json()

    def load(self, ns: str, name: str, snapshots: str = "all") -> requests.Response:
        return self.request("GET", f"{self.v1}/namespaces/{ns}/tables/{name}",
                            params={"snapshots": snapshots})

    def drop(self, ns: str, name: str, purge: bool = False) -> requests.Response:
        return self.request("DELETE", f"{self.v1}/namespaces/{ns}/tables/{name}",
                            params={"purgeRequested": str(purge).lower()})

    def commit(self, ns: str, name: str, body: dict) -> requests.Response:
        return self.request("POST", f"{self.v1}/namespaces/{ns}/tables/{name}", json=body)


def main_snapshot(meta: dict) -> int | None:
    ref = meta.get("refs", {}).get("main")
    if ref is not None:
        return ref["snapshot-id"]
    sid = meta.get("current-snapshot-id")
    return None if sid in (None, -1) else sid


def snapshot_ids(meta: dict) -> list[int]:
    return [s["snapshot-id"] for s in meta.get("snapshots", [])]


def parent_chain(meta: dict) -> list[int]:
    """main's ancestry, oldest first."""
    by_id = {s["snapshot-id"]: s for s in meta.get("snapshots", [])}
    chain, sid = [], main_snapshot(meta)
    while sid is not None:
        chain.append(sid)
        sid = by_id[sid].get("parent-snapshot-id") if sid in by_id else None
    return chain[::-1]


def new_snapshot_id() -> int:
    return random.getrandbits(62) + 1


def append_body(meta: dict, snapshot_id: int) -> dict:
    """One append on top of `meta`'s main: refused (409) if main moved meanwhile."""
    parent = main_snapshot(meta)
    seq = meta.get("last-sequence-number", 0) + 1
    snapshot = {
        "snapshot-id": snapshot_id,
        "sequence-number": seq,
        "timestamp-ms": int(time.time() * 1000),
        "manifest-list": f"{meta['location']}/metadata/snap-{snapshot_id}-fake.avro",
        "summary": {"operation": "append"},
        "schema-id": meta.get("current-schema-id", 0),
    }
    if parent is not None:
        snapshot["parent-snapshot-id"] = parent
    return {
        "requirements": [{"type": "assert-ref-snapshot-id", "ref": "main",
                          "snapshot-id": parent}],
        "updates": [
            {"action": "add-snapshot", "snapshot": snapshot},
            {"action": "set-snapshot-ref", "ref-name": "main", "type": "branch",
             "snapshot-id": snapshot_id},
        ],
    }


def error_of(r: requests.Response) -> dict:
    try:
        return r.json().get("error", {})
    except ValueError:
        return {"message": r.text[:200]}
