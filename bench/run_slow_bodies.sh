#!/usr/bin/env bash
# Slow uploads against one `firn serve` (issue 9): 1,000 connections without a valid token each
# announce a 15 MiB body and send it slowly (bench/slow_bodies.py), twice; then 100
# authenticated ones against a 64 MiB in-flight body budget. Prints the server's RSS before,
# at peak and after each run, and what every connection was answered. Asserts nothing.
# Usage: bench/run_slow_bodies.sh [--connections N] [--seconds S]
set -euo pipefail
cd "$(dirname "$0")/.."
CONNECTIONS=1000
SECONDS_SLOW=5
while [[ $# -gt 0 ]]; do
  case "$1" in
    --connections) CONNECTIONS="$2"; shift 2 ;;
    --seconds) SECONDS_SLOW="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

scripts/build.sh >/dev/null
BIN=build/release/src/cli/firn
WORK=$(mktemp -d /tmp/firn-bench-slow.XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
CLIENT_ID=benchadmin
CLIENT_SECRET=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
ulimit -n "$(( CONNECTIONS + 512 ))" 2>/dev/null || true  # the server and the clients need fds
PID=""
trap '[[ -n "$PID" ]] && kill -TERM "$PID" 2>/dev/null && wait "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT

FIRN_BOOTSTRAP_CREDENTIALS="default,$CLIENT_ID,$CLIENT_SECRET" FIRN_MAX_INFLIGHT_BODY_BYTES=67108864 \
  "$BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" --log-level warn \
  2>"$WORK/server.log" &
PID=$!
for _ in $(seq 100); do
  curl -s -o /dev/null "http://127.0.0.1:$PORT/v1/config" && break
  sleep 0.1
done
TOKEN=$(bench/token.sh "http://127.0.0.1:$PORT" "$CLIENT_ID" "$CLIENT_SECRET")
echo "machine: $(nproc) cores, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg); firn $("$BIN" version)"
echo "server: max_connections 1024 (default), max_body_bytes 16 MiB, max_inflight_body_bytes 64 MiB"
for _ in $(seq 20); do
  curl -s -o /dev/null -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/v1/config"
  curl -s -o /dev/null -X POST -d '{}' "http://127.0.0.1:$PORT/v1/namespaces"
done
sleep 2  # let the warm-up's garbage be trimmed: the baseline is the quiet server
for run in 1 2; do
  echo "--- unauthenticated, run $run"
  python3 bench/slow_bodies.py --port "$PORT" --pid "$PID" --connections "$CONNECTIONS" \
    --seconds "$SECONDS_SLOW"
done
echo "--- authenticated, 100 connections, 64 MiB budget"
python3 bench/slow_bodies.py --port "$PORT" --pid "$PID" --connections 100 --seconds 3 \
  --token "$TOKEN"
