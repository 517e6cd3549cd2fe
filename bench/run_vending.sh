#!/usr/bin/env bash
# Credential vending and remote signing costs (issue 11, docs/vending.md), on the S3 test bed
# (SeaweedFS with STS, started here unless FIRN_TESTBED_RUN names a live one):
#   * loadTable p50/p99 without delegation and with `vended-credentials` (warm cache), alternated
#     ROUNDS times (wrk, 1 connection) — the vended load's extra cost is the difference;
#   * a vending cache miss: loads of COLD fresh tables with the header (each one STS AssumeRole),
#     against the same loads without it (client-side, keep-alive);
#   * remote-signing throughput (wrk, 1 and 8 connections), per table and table-less.
# Prints numbers; asserts nothing.
# Usage: bench/run_vending.sh [--duration SECONDS] [--rounds N] [--cold N]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
DURATION=8
ROUNDS=3
COLD=30
while [[ $# -gt 0 ]]; do
  case "$1" in
    --duration) DURATION="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --cold) COLD="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

scripts/build.sh >/dev/null
BIN=build/release/src/cli/firn
WORK=$(mktemp -d /tmp/firn-bench-vend.XXXXXX)
started_s3=""
if [[ -z "${FIRN_TESTBED_RUN:-}" || ! -f "$FIRN_TESTBED_RUN/s3.env" ]]; then
  export FIRN_TESTBED_RUN="$WORK/testbed"
  scripts/testbed/start_s3.sh >/dev/null
  started_s3=1
fi
set -a; source "$FIRN_TESTBED_RUN/s3.env"; set +a
PID=""
cleanup() {
  [[ -n "$PID" ]] && { kill -TERM "$PID" 2>/dev/null; wait "$PID" 2>/dev/null || true; }
  [[ -n "$started_s3" ]] && scripts/testbed/stop_s3.sh >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
CLIENT_ID=benchadmin
CLIENT_SECRET=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
WAREHOUSE="s3://$FIRN_S3_BUCKET/bench-$(date +%s)"
# The server's own keys come from the environment (FIRN_S3_SECRET_ACCESS_KEY), never a flag.
env -u FIRN_S3_ENDPOINT -u FIRN_S3_REGION -u FIRN_S3_BUCKET -u FIRN_S3_ROLE_ARN \
  FIRN_BOOTSTRAP_CREDENTIALS="default,$CLIENT_ID,$CLIENT_SECRET" \
  FIRN_S3_SECRET_ACCESS_KEY="$FIRN_S3_SECRET_KEY" \
  "$BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$port" --warehouse "$WAREHOUSE" \
  --s3-endpoint "$FIRN_S3_ENDPOINT" --s3-region "$FIRN_S3_REGION" \
  --s3-access-key-id "$FIRN_S3_ACCESS_KEY" --s3-role-arn "$FIRN_S3_ROLE_ARN" \
  --log-level warn 2>"$WORK/server.log" &
PID=$!
URI="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -s -o /dev/null "$URI/v1/config" && break; sleep 0.1; done
TOKEN=$(bench/token.sh "$URI" "$CLIENT_ID" "$CLIENT_SECRET")
echo "machine: $(nproc) cores; firn $("$BIN" version); store: $FIRN_S3_FLAVOR at $FIRN_S3_ENDPOINT"
python3 bench/catalog_bench.py --port "$port" --snapshots 100 --prepare-only --token "$TOKEN"
T=/v1/namespaces/bench/tables/t100
H_AUTH="Authorization: Bearer $TOKEN"
H_VEND="X-Iceberg-Access-Delegation: vended-credentials"
echo "vended load: $(curl -s -H "$H_AUTH" -H "$H_VEND" "$URI$T" |
  python3 -c 'import json,sys; b=json.load(sys.stdin); print(len(b.get("storage-credentials",[])), "credential(s)")')"

wrk_run() {  # wrk_run LABEL CONNECTIONS URL [wrk args]
  local label=$1 c=$2 url=$3; shift 3
  printf '%-14s ' "$label"
  wrk -t1 -c"$c" -d"${DURATION}s" --latency "$@" "$url" |
    awk '/^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Requests\/sec/ {rps=$2} /Non-2xx/ {bad=$0}
         END {printf "p50 %s  p99 %s  %s req/s %s\n", p50, p99, rps, bad}'
}
for r in $(seq "$ROUNDS"); do
  echo "--- round $r: loadTable (100 snapshots), 1 connection, ${DURATION}s each"
  wrk_run plain 1 "$URI$T" -H "$H_AUTH"
  wrk_run vended 1 "$URI$T" -H "$H_AUTH" -H "$H_VEND"
done

echo "--- vending cache miss: $COLD fresh tables, one load each without and with the header"
python3 - "$URI" "$TOKEN" "$COLD" <<'PY'
import http.client, json, statistics, sys, time, uuid
uri, token, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
host, port = uri.removeprefix("http://").split(":")
c = http.client.HTTPConnection(host, int(port))
auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
def call(method, path, body=None, extra=None):
    c.request(method, path, body=json.dumps(body) if body else None, headers={**auth, **(extra or {})})
    r = c.getresponse(); data = r.read()
    assert r.status == 200, (r.status, data[:200])
    return json.loads(data)
schema = {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "type": "long", "required": False}]}
plain, cold = [], []
for i in range(n):
    name = f"cold{uuid.uuid4().hex[:8]}"
    call("POST", "/v1/namespaces/bench/tables", {"name": name, "schema": schema})
    path = f"/v1/namespaces/bench/tables/{name}"
    t0 = time.perf_counter(); call("GET", path); plain.append((time.perf_counter() - t0) * 1e6)
    t0 = time.perf_counter()
    body = call("GET", path, extra={"X-Iceberg-Access-Delegation": "vended-credentials"})
    cold.append((time.perf_counter() - t0) * 1e6)
    assert len(body["storage-credentials"]) == 1
q = lambda v, p: sorted(v)[min(len(v) - 1, int(p * len(v)))]
print(f"plain load      p50 {q(plain, .5):8.0f} us  p99 {q(plain, .99):8.0f} us")
print(f"vend (miss)     p50 {q(cold, .5):8.0f} us  p99 {q(cold, .99):8.0f} us  (one STS AssumeRole each)")
PY

LOCATION=$(curl -s -H "$H_AUTH" "$URI$T" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["location"])')
export SIGN_URI="$FIRN_S3_ENDPOINT/${LOCATION#s3://}/data/probe.parquet" AUTH="Bearer $TOKEN"
echo "--- remote signing: POST $T/sign, one GET inside the table"
wrk_run "sign c=1" 1 "$URI$T/sign" -s bench/sign.lua
wrk_run "sign c=8" 8 "$URI$T/sign" -s bench/sign.lua
echo "--- remote signing, table-less: POST /v1/aws/s3/sign (the owner found in the location index)"
wrk_run "sign-anywhere c=1" 1 "$URI/v1/aws/s3/sign" -s bench/sign.lua
wrk_run "sign-anywhere c=8" 8 "$URI/v1/aws/s3/sign" -s bench/sign.lua
