#!/usr/bin/env python3
"""Token endpoint figures for bench/run_tokens.sh: first-time verifications (scrypt) of fresh
principals, a known client's repeated client_credentials requests (latency percentiles), and
the server's resident size before and after each phase. Prints numbers; asserts only that the
requests succeed."""
import argparse
import http.client
import json
import statistics
import sys
import time
import urllib.parse


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def token(conn, client_id, secret):
    body = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": client_id,
                                   "client_secret": secret, "scope": "PRINCIPAL_ROLE:ALL"})
    t0 = time.perf_counter()
    conn.request("POST", "/v1/oauth/tokens", body=body,
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    resp = conn.getresponse()
    payload = resp.read()
    elapsed = time.perf_counter() - t0
    if resp.status != 200:
        sys.exit(f"token for {client_id}: {resp.status} {payload[:200]!r}")
    return json.loads(payload)["access_token"], elapsed


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--client-id", required=True)
    ap.add_argument("--client-secret", required=True)
    ap.add_argument("--principals", type=int, default=32)
    ap.add_argument("--requests", type=int, default=1000)
    a = ap.parse_args()
    conn = http.client.HTTPConnection("127.0.0.1", a.port)
    admin, _ = token(conn, a.client_id, a.client_secret)
    creds = []
    for i in range(a.principals):
        conn.request("POST", "/api/management/v1/principals",
                     body=json.dumps({"principal": {"name": f"bench_{i}_{time.time_ns()}"}}),
                     headers={"Content-Type": "application/json",
                              "Authorization": f"Bearer {admin}"})
        resp = conn.getresponse()
        payload = json.loads(resp.read())
        if resp.status != 201:
            sys.exit(f"create principal: {resp.status} {payload}")
        creds.append((payload["credentials"]["clientId"], payload["credentials"]["clientSecret"]))
    rss0 = rss_kib(a.pid)
    first = [token(conn, cid, secret)[1] for cid, secret in creds]
    rss1 = rss_kib(a.pid)
    repeated = [token(conn, a.client_id, a.client_secret)[1] for _ in range(a.requests)]
    rss2 = rss_kib(a.pid)
    print(f"first request of {a.principals} new principals (scrypt): p50 {pct(first, .5):.1f} ms"
          f"  p99 {pct(first, .99):.1f} ms;  RSS {rss0 // 1024} -> {rss1 // 1024} MiB")
    print(f"{a.requests} requests of a known client, one connection: p50 {pct(repeated, .5):.3f} ms"
          f"  p99 {pct(repeated, .99):.3f} ms  mean {statistics.mean(repeated) * 1000:.3f} ms;"
          f"  RSS {rss1 // 1024} -> {rss2 // 1024} MiB")


if __name__ == "__main__":
    main()
