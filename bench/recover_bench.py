#!/usr/bin/env python3
"""Prepares N tables for the recovery benchmark (bench/run_recover.sh): namespaces of 100
tables each, every table created and then changed twice (a metadata-log chain of three files),
over keep-alive connections from several threads. Prints how long the preparation took."""
import argparse
import http.client
import json
import sys
import threading
import time


def call(conn, method, path, body=None, expect=(200, 204)):
    data = json.dumps(body) if body is not None else None
    conn.request(method, path, body=data,
                 headers={"Content-Type": "application/json"} if data else {})
    resp = conn.getresponse()
    payload = resp.read()
    if resp.status not in expect:
        sys.exit(f"{method} {path} -> {resp.status}: {payload[:300]!r}")
    return json.loads(payload) if payload else None


SCHEMA = {"type": "struct", "schema-id": 0,
          "fields": [{"id": 1, "name": "id", "type": "long", "required": False}]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--tables", type=int, required=True)
    ap.add_argument("--threads", type=int, default=4)
    args = ap.parse_args()
    namespaces = (args.tables + 99) // 100
    conn = http.client.HTTPConnection("127.0.0.1", args.port)
    for n in range(namespaces):
        call(conn, "POST", "/v1/namespaces", {"namespace": [f"ns{n:04d}"]}, expect=(200, 409))
    start = time.monotonic()

    def work(first: int) -> None:
        c = http.client.HTTPConnection("127.0.0.1", args.port)
        for i in range(first, args.tables, args.threads):
            ns, name = f"ns{i // 100:04d}", f"t{i:05d}"
            call(c, "POST", f"/v1/namespaces/{ns}/tables", {"name": name, "schema": SCHEMA})
            for round_ in range(2):
                call(c, "POST", f"/v1/namespaces/{ns}/tables/{name}",
                     {"requirements": [],
                      "updates": [{"action": "set-properties", "updates": {"round": str(round_)}}]})

    threads = [threading.Thread(target=work, args=(t,)) for t in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"prepared {args.tables} tables (3 metadata files each) in "
          f"{time.monotonic() - start:.1f}s")


if __name__ == "__main__":
    main()
