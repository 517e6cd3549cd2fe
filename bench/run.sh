#!/usr/bin/env bash
# Catalog benchmark: loadTable latency/throughput (wrk, 1 and 64 connections) on a table with
# 100 snapshots, append-commit latency, idle and loaded RSS. Prints numbers; asserts nothing.
# Usage: bench/run.sh [--duration SECONDS]   (builds the release preset first)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=10
[[ "${1:-}" == "--duration" ]] && DURATION="$2"

scripts/build.sh >/dev/null
BIN=build/release/src/cli/firn
WORK=$(mktemp -d /tmp/firn-bench.XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# Authentication is on (the default): bootstrap known admin credentials and measure with a token.
CLIENT_SECRET=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
FIRN_BOOTSTRAP_CREDENTIALS="default,benchadmin,$CLIENT_SECRET" \
  "$BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" --log-level warn 2>"$WORK/server.log" &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/v1/config" && break; sleep 0.1; done
export FIRN_BENCH_TOKEN
FIRN_BENCH_TOKEN=$(bench/token.sh "http://127.0.0.1:$PORT" benchadmin "$CLIENT_SECRET")

rss() { awk '/VmRSS/ {printf "%.1f MB", $2/1024}' "/proc/$PID/status"; }
echo "machine: $(nproc) cores, $(uname -r); firn $("$BIN" version)"
echo "idle RSS: $(rss)"

python3 bench/catalog_bench.py --port "$PORT" --snapshots 100 --prepare-only
URL="http://127.0.0.1:$PORT/v1/namespaces/bench/tables/t100"
for conns in 1 64; do
  threads=$(( conns < 2 ? 1 : 2 ))
  echo "--- loadTable, $conns connection(s), $threads wrk thread(s), ${DURATION}s"
  wrk -t"$threads" -c"$conns" -d"${DURATION}s" --latency \
    -H "Authorization: Bearer $FIRN_BENCH_TOKEN" "$URL" |
    grep -E 'Requests/sec|^ +(50|99)%|Latency |Non-2xx|Socket errors'
done
echo "loaded RSS (after 64-connection run): $(rss)"
python3 bench/catalog_bench.py --port "$PORT" --snapshots 100 --commits 500
echo "RSS after commits: $(rss)"
