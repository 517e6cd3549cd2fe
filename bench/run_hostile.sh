#!/usr/bin/env bash
# Cost of refusing hostile input (docs/limits.md): wall time and server RSS for register of
# crafted files at the default max-metadata-file-bytes (64 MiB), and for property maps over the
# limits. Prints numbers; asserts nothing. Authentication is off: the cost measured is the
# refusal, not the token check.
# Usage: bench/run_hostile.sh [--repeat N]   (builds the release preset first)
set -euo pipefail
cd "$(dirname "$0")/.."
REPEAT=5
[[ "${1:-}" == "--repeat" ]] && REPEAT="$2"

scripts/build.sh >/dev/null
BIN=build/release/src/cli/firn
WORK=$(mktemp -d /tmp/firn-bench-hostile.XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
FIRN_MAX_BODY_BYTES=$((64 << 20)) "$BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" \
  --auth off --log-level warn 2>"$WORK/server.log" &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/v1/config" && break; sleep 0.1; done
echo "machine: $(nproc) cores, $(uname -r); firn $("$BIN" version); repeat $REPEAT"
python3 - "$PORT" "$WORK/data/warehouse" "$PID" "$REPEAT" <<'PY'
import gzip, json, os, statistics, sys, time, urllib.request
port, wh, pid, repeat = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
base = f"http://127.0.0.1:{port}/v1"

def post(path, body):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method="POST",
                                 headers={"Content-Type": "application/json"})
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(req) as r:
            status = r.status
            r.read()
    except urllib.error.HTTPError as e:
        status = e.code
        e.read()
    return status, (time.perf_counter() - t) * 1000

def rss():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024

post("/namespaces", {"namespace": ["b"]})
os.makedirs(f"{wh}/crafted", exist_ok=True)
files = {
    "random.bin": os.urandom(4096),
    "bomb64.metadata.json.gz": gzip.compress(b" " * (64 << 20)),
    "bomb1g.metadata.json.gz": gzip.compress(b" " * (1 << 30), compresslevel=1),
    "big.metadata.json": b" " * ((64 << 20) - 1) + b"x",
}
for name, data in files.items():
    with open(f"{wh}/crafted/{name}", "wb") as f:
        f.write(data)
with open(f"{wh}/crafted/huge.metadata.json", "wb") as f:
    f.truncate(8 << 30)
files["huge.metadata.json"] = b""
print(f"idle RSS: {rss():.1f} MB")
for name in files:
    times, statuses = [], set()
    for _ in range(repeat):
        status, ms = post("/namespaces/b/register",
                          {"name": "r", "metadata-location": f"file://{wh}/crafted/{name}"})
        statuses.add(status)
        times.append(ms)
    size = os.path.getsize(f"{wh}/crafted/{name}")
    print(f"register {name:26s} file {size / 2**20:9.2f} MiB  status {sorted(statuses)}  "
          f"median {statistics.median(times):8.1f} ms  max {max(times):8.1f} ms  "
          f"RSS after {rss():.1f} MB")
for label, props in (("16 MiB value", {"v": "x" * (16 << 20)}),
                     ("200,000 properties", {f"k{i}": "v" for i in range(200_000)})):
    body = json.dumps({"namespace": ["n"], "properties": props}).encode()
    times, statuses = [], set()
    for _ in range(repeat):
        status, ms = post("/namespaces", body)
        statuses.add(status)
        times.append(ms)
    print(f"createNamespace {label:20s} body {len(body) / 2**20:6.2f} MiB  status {sorted(statuses)}"
          f"  median {statistics.median(times):8.1f} ms  RSS after {rss():.1f} MB")
PY
