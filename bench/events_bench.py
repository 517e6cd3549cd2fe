#!/usr/bin/env python3
"""Change-event figures for bench/run_events.sh: how fast the feed reads (events/s through
GET /api/management/v1/events, 1,000 a page), how fast a webhook sink delivers the backlog to a
local receiver that answers 204 (events/s, one POST per event), and how soon after a commit its
event reaches the receiver once the sink is caught up (latency percentiles). Prints numbers;
asserts only that every event arrives."""
import argparse
import http.client
import json
import random
import statistics
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MGMT = "/api/management/v1"


class Receiver:
    def __init__(self):
        self.arrivals = {}  # event id -> perf_counter at arrival
        self.lock = threading.Lock()
        rec = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                event = json.loads(body)
                with rec.lock:
                    rec.arrivals.setdefault(event["data"]["object"], time.perf_counter())
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *a):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hook"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def count(self):
        with self.lock:
            return len(self.arrivals)


def call(conn, method, path, body=None):
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    data = r.read()
    if r.status >= 300:
        sys.exit(f"{method} {path}: {r.status} {data[:300]!r}")
    return json.loads(data) if data else None


def wait_for(pred, timeout=300):
    end = time.time() + timeout
    while time.time() < end:
        if pred():
            return
        time.sleep(0.005)
    sys.exit("timed out")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--events", type=int, default=2000)
    ap.add_argument("--latency-samples", type=int, default=50)
    a = ap.parse_args()
    conn = http.client.HTTPConnection("127.0.0.1", a.port)
    # The backlog: one event per namespace created.
    t0 = time.perf_counter()
    for i in range(a.events):
        call(conn, "POST", "/v1/namespaces", {"namespace": [f"ev_{i}"]})
    made = time.perf_counter() - t0
    print(f"created {a.events} namespaces (one event each) in {made:.2f}s "
          f"({a.events / made:,.0f}/s)")
    # The feed, read from the start.
    t0 = time.perf_counter()
    cursor, seen = "0", 0
    while True:
        page = call(conn, "GET", f"{MGMT}/events?after={cursor}&limit=1000")
        if not page["events"]:
            break
        seen += len(page["events"])
        cursor = page["next"]
    read = time.perf_counter() - t0
    print(f"feed: {seen} events read in {read * 1000:.0f} ms ({seen / read:,.0f} events/s)")
    # A webhook taking the whole backlog.
    rec = Receiver()
    t0 = time.perf_counter()
    call(conn, "POST", f"{MGMT}/event-sinks", {"name": "bench", "url": rec.url, "from": "start"})
    wait_for(lambda: rec.count() >= a.events)
    took = time.perf_counter() - t0
    print(f"webhook backlog: {rec.count()} events delivered in {took:.2f}s "
          f"({rec.count() / took:,.0f} events/s, one POST each)")
    # Commit-to-delivery latency once caught up.
    lat = []
    for i in range(a.latency_samples):
        name = f"lat_{i}"
        t0 = time.perf_counter()
        call(conn, "POST", "/v1/namespaces", {"namespace": [name]})
        wait_for(lambda: f"namespace {name}" in rec.arrivals)
        lat.append((rec.arrivals[f"namespace {name}"] - t0) * 1000)
        time.sleep(random.uniform(0, 0.3))  # no phase lock with the deliverer's rounds
    lat.sort()
    print(f"commit to webhook, caught-up sink ({len(lat)} samples): p50 "
          f"{statistics.median(lat):.0f} ms  p90 {lat[int(len(lat) * 0.9)]:.0f} ms  "
          f"max {lat[-1]:.0f} ms (the deliverer looks every 250 ms)")


if __name__ == "__main__":
    main()
