#!/usr/bin/env python3
"""Firn catalog benchmark: prepares a table with N snapshots, measures append-commit latency from
a keep-alive client, and prints the figures. loadTable throughput is measured by wrk (run.sh).

Commits here are metadata-only (add-snapshot + set-snapshot-ref main, the updates an append
sends); the manifest lists they name do not exist, which the catalog never reads on commit.
"""
import argparse
import http.client
import json
import os
import statistics
import sys
import time
import uuid


class Client:
    def __init__(self, host, port, token=None):
        self.conn = http.client.HTTPConnection(host, port)
        self.auth = {"Authorization": f"Bearer {token}"} if token else {}

    def call(self, method, path, body=None, expect=(200, 204)):
        data = json.dumps(body) if body is not None else None
        headers = {"Content-Type": "application/json"} if data else {}
        headers.update(self.auth)
        self.conn.request(method, path, body=data, headers=headers)
        resp = self.conn.getresponse()
        payload = resp.read()
        if resp.status not in expect:
            sys.exit(f"{method} {path} -> {resp.status}: {payload[:300]!r}")
        return json.loads(payload) if payload else None


def schema():
    return {"type": "struct", "schema-id": 0,
            "fields": [{"id": 1, "name": "id", "type": "long", "required": False},
                       {"id": 2, "name": "data", "type": "string", "required": False}]}


def append(client, path, meta, snapshot_id):
    seq = meta.get("last-sequence-number", 0) + 1
    current = meta.get("current-snapshot-id")
    if current == -1:
        current = None
    snapshot = {
        "snapshot-id": snapshot_id, "sequence-number": seq,
        "timestamp-ms": int(time.time() * 1000),
        "manifest-list": f"{meta['location']}/metadata/snap-{snapshot_id}-{uuid.uuid4()}.avro",
        "summary": {"operation": "append", "added-data-files": "1", "added-records": "10"},
        "schema-id": 0,
    }
    if current is not None:
        snapshot["parent-snapshot-id"] = current
    body = {
        "requirements": [{"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": current}],
        "updates": [{"action": "add-snapshot", "snapshot": snapshot},
                    {"action": "set-snapshot-ref", "ref-name": "main", "type": "branch",
                     "snapshot-id": snapshot_id}],
    }
    return client.call("POST", path, body)["metadata"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--namespace", default="bench")
    ap.add_argument("--table", default="t100")
    ap.add_argument("--snapshots", type=int, default=100)
    ap.add_argument("--commits", type=int, default=500, help="timed append commits")
    ap.add_argument("--prepare-only", action="store_true")
    ap.add_argument("--token", default=os.environ.get("FIRN_BENCH_TOKEN"),
                    help="bearer token (default $FIRN_BENCH_TOKEN); none when auth is off")
    args = ap.parse_args()

    c = Client(args.host, args.port, args.token)
    c.call("POST", "/v1/namespaces", {"namespace": [args.namespace]}, expect=(200, 409))
    base = f"/v1/namespaces/{args.namespace}/tables"
    c.call("POST", base, {"name": args.table, "schema": schema()}, expect=(200, 409))
    path = f"{base}/{args.table}"
    meta = c.call("GET", path)["metadata"]
    next_id = 1_000_000
    while len(meta.get("snapshots", [])) < args.snapshots:
        meta = append(c, path, meta, next_id)
        next_id += 1
    print(f"prepared {args.namespace}.{args.table} with {len(meta['snapshots'])} snapshots")
    if args.prepare_only:
        return

    # Timed commits go to a second table so the loadTable table keeps exactly N snapshots.
    commit_table = args.table + "_commits"
    c.call("POST", base, {"name": commit_table, "schema": schema()}, expect=(200, 409))
    cpath = f"{base}/{commit_table}"
    meta = c.call("GET", cpath)["metadata"]
    latencies = []
    for i in range(args.commits):
        t0 = time.perf_counter()
        meta = append(c, cpath, meta, 5_000_000 + i + int(time.time()) % 1000 * 10_000)
        latencies.append((time.perf_counter() - t0) * 1000)
    latencies.sort()
    p50 = statistics.median(latencies)
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    print(f"append-commit: n={len(latencies)} p50={p50:.3f} ms p99={p99:.3f} ms "
          f"(client-measured, includes Python client overhead; table grew to "
          f"{len(meta['snapshots'])} snapshots)")


if __name__ == "__main__":
    main()
