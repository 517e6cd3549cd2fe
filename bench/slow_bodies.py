#!/usr/bin/env python3
"""Slow-body load against a running `firn serve`: N connections each announce a large body
(15 MiB by default) and then send it slowly; the server's RSS is sampled before, throughout
and after, and every answer is collected. Prints the numbers; asserts nothing.

The default clients carry no valid bearer token (issue 9's attack): a catalog route without a
token, one with a forged token, the management API without a token, and the token endpoint
(which has its own small body cap). `--token` makes them all authenticated catalog requests
instead, which the in-flight body budget has to bound.

Used by bench/run_slow_bodies.sh, and imported by tests/integration/test_http_limits.py, which
asserts bounds on the figures `run()` returns.
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import resource
import selectors
import socket
import time

MIB = 1 << 20


def raise_fd_limit(wanted: int) -> int:
    """Raises this process's soft RLIMIT_NOFILE towards `wanted` (children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


# (kind, method, path, extra header lines) of one unauthenticated client, by index.
UNAUTHENTICATED = [
    ("no-token", "POST", "/v1/namespaces", []),
    ("forged-token", "POST", "/v1/namespaces",
     ["Authorization: Bearer eyJhbGciOiJFZERTQSJ9.e30.AAAA"]),
    ("management", "POST", "/api/management/v1/principals", []),
    ("token-endpoint", "POST", "/v1/oauth/tokens", []),
]


@dataclasses.dataclass
class Answer:
    kind: str
    status: int = 0          # 0: the connection closed without an answer
    body: str = ""
    retry_after: str = ""


@dataclasses.dataclass
class Result:
    connections: int
    body_bytes: int
    baseline: int = 0        # RSS before, bytes
    peak: int = 0            # highest RSS sampled while the clients ran
    after: int = 0           # RSS once the clients were gone (see settle)
    settle_seconds: float = 0.0
    sent_bytes: int = 0      # body bytes the clients managed to hand to the kernel
    seconds: float = 0.0
    answers: list = dataclasses.field(default_factory=list)

    def statuses(self) -> dict:
        return dict(collections.Counter((a.kind, a.status) for a in self.answers))

    def summary(self) -> str:
        return (f"{self.connections} connections x {self.body_bytes // MIB} MiB announced: "
                f"RSS baseline {self.baseline / MIB:.1f} MiB, peak {self.peak / MIB:.1f} MiB "
                f"(+{(self.peak - self.baseline) / MIB:.1f}), after {self.after / MIB:.1f} MiB "
                f"(+{(self.after - self.baseline) / MIB:.1f}, "
                f"settled in {self.settle_seconds:.1f} s); "
                f"{self.sent_bytes / MIB:.1f} MiB of body sent by clients in {self.seconds:.1f} s; "
                f"answers {self.statuses()}")


def _parse(raw: bytes) -> tuple[int, str, str] | None:
    head, sep, rest = raw.partition(b"\r\n\r\n")
    if not sep:
        return None
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    length = int(fields.get("content-length", "0"))
    if len(rest) < length:
        return None
    return status, rest[:length].decode("utf-8", "replace"), fields.get("retry-after", "")


def run(port: int, pid: int, connections: int = 1000, body_bytes: int = 15 * MIB,
        trickle_seconds: float = 5.0, chunk: int = 16384, token: str | None = None,
        settle_timeout: float = 15.0, settle_slack: int = 8 * MIB, settle_min: float = 3.0,
        host: str = "127.0.0.1") -> Result:
    """Runs the load; returns the figures and every answer. `after` is read once the RSS is
    within `settle_slack` of the baseline (but not before `settle_min` seconds: the server's
    linger and its memory trim take a moment), or at `settle_timeout`."""
    raise_fd_limit(connections + 256)
    res = Result(connections=connections, body_bytes=body_bytes)
    res.baseline = rss_bytes(pid)
    res.peak = res.baseline
    start = time.monotonic()

    def sample():
        res.peak = max(res.peak, rss_bytes(pid))

    # Every connection is open before any sends a byte: the server holds all of them at once.
    socks = [socket.create_connection((host, port), timeout=10) for _ in range(connections)]
    sample()
    answers, buffers = [], []
    for i, s in enumerate(socks):
        if token:
            kind, method, path, extra = "authenticated", "POST", "/v1/namespaces", [
                f"Authorization: Bearer {token}"]
        else:
            kind, method, path, extra = UNAUTHENTICATED[i % len(UNAUTHENTICATED)]
        header = "\r\n".join([f"{method} {path} HTTP/1.1", f"Host: {host}",
                              "Content-Type: application/json",
                              f"Content-Length: {body_bytes}", *extra, "", ""])
        s.sendall(header.encode())
        s.setblocking(False)
        answers.append(Answer(kind))
        buffers.append(b"")
        if i % 100 == 0:
            sample()
    sample()

    # Trickle the bodies while collecting answers; a closed connection stops sending.
    sel = selectors.DefaultSelector()
    for i, s in enumerate(socks):
        sel.register(s, selectors.EVENT_READ, i)
    open_for_send = set(range(connections))
    payload = b"x" * chunk
    deadline = time.monotonic() + trickle_seconds
    while time.monotonic() < deadline:
        for i in list(open_for_send):
            try:
                res.sent_bytes += socks[i].send(payload)
            except BlockingIOError:
                pass  # the server is not reading: exactly what it should do
            except OSError:
                open_for_send.discard(i)
        for key, _ in sel.select(timeout=0.05):
            i = key.data
            try:
                data = socks[i].recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if data:
                buffers[i] += data
                parsed = _parse(buffers[i])
                if parsed:
                    answers[i].status, answers[i].body, answers[i].retry_after = parsed
            if not data or answers[i].status:
                sel.unregister(socks[i])
        sample()
    sel.close()
    for s in socks:
        s.close()
    res.seconds = time.monotonic() - start
    res.answers = answers

    # RSS once the clients are gone: the server should hand the memory back.
    t0 = time.monotonic()
    while True:
        res.after = rss_bytes(pid)
        res.settle_seconds = time.monotonic() - t0
        settled = res.after <= res.baseline + settle_slack and res.settle_seconds >= settle_min
        if settled or res.settle_seconds > settle_timeout:
            break
        time.sleep(0.25)
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, required=True, help="the firn serve process")
    ap.add_argument("--connections", type=int, default=1000)
    ap.add_argument("--body-mib", type=int, default=15)
    ap.add_argument("--seconds", type=float, default=5.0, help="how long the clients trickle")
    ap.add_argument("--token", help="authenticate every client with this bearer token")
    args = ap.parse_args()
    r = run(args.port, args.pid, args.connections, args.body_mib * MIB, args.seconds,
            token=args.token)
    print(r.summary())
    print(json.dumps({
        "baseline_mib": round(r.baseline / MIB, 1), "peak_mib": round(r.peak / MIB, 1),
        "after_mib": round(r.after / MIB, 1),
        "statuses": {f"{k} {s}": n for (k, s), n in r.statuses().items()}}))


if __name__ == "__main__":
    main()
