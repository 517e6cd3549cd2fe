#!/usr/bin/env bash
# Purge throughput on the embedded default (SQLite + file warehouse): bench/purge_bench.py
# builds a table of real files with PyIceberg and drops it with purge; the purge runs as a
# durable task inside the drop request (soft delete off: --drop-retention 0, so the purge runs
# at once rather than when a retention ends). Prints numbers; asserts nothing.
# Usage: bench/run_purge.sh [--appends N] [--files-per-append N] [--rounds N] [--others N]
#   --others N: N other live tables in the catalog, whose manifests the purge reads to spare the
#   files they reference (default 0).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
APPENDS=20
FILES=100
ROUNDS=3
OTHERS=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --appends) APPENDS="$2"; shift 2 ;;
    --files-per-append) FILES="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --others) OTHERS="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
scripts/build.sh >/dev/null
BIN=$PWD/build/release/src/cli/firn
PY="$FIRN_VENV/bin/python"
WORK=$(mktemp -d /tmp/firn-bench-purge.XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
SECRET=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
FIRN_BOOTSTRAP_CREDENTIALS="default,benchadmin,$SECRET" \
  "$BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" --log-level warn \
    --drop-retention 0 2>"$WORK/server.log" &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/v1/config" && break; sleep 0.1; done
echo "machine: $(nproc) cores; firn $("$BIN" version); $ROUNDS rounds"
for _ in $(seq "$ROUNDS"); do
  "$PY" bench/purge_bench.py --uri "http://127.0.0.1:$PORT" --credential "benchadmin:$SECRET" \
    --bin "$BIN" --data-dir "$WORK/data" --appends "$APPENDS" --files-per-append "$FILES" --others "$OTHERS"
done
