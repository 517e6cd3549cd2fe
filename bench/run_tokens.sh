#!/usr/bin/env bash
# The token endpoint (issue 14, item 6): a known client's client_credentials request at p50
# (one connection), tokens/s across 16 connections, and the server's resident size across
# first-time verifications of new principals (two scrypt runs each) and 1,000 requests of a
# known client. --against BIN measures another firn binary the same way, afterwards (e.g. a
# build of the commit before a change). Prints numbers; asserts nothing.
# Usage: bench/run_tokens.sh [--duration SECONDS] [--against FIRN_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=8
AGAINST=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --duration) DURATION="$2"; shift 2 ;;
    --against) AGAINST="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

scripts/build.sh >/dev/null
BIN=build/release/src/cli/firn
WORK=$(mktemp -d /tmp/firn-bench-tokens.XXXXXX)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export CLIENT_ID=benchadmin
# URL-safe and never starting with '-' (token.lua puts it in a form body as is).
export CLIENT_SECRET="s$(python3 -c 'import secrets; print(secrets.token_hex(24))')"
PID=""
trap '[[ -n "$PID" ]] && kill -TERM "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
echo "machine: $(nproc) cores, $(uname -r)"

measure() {  # measure BINARY
  local bin=$1 port
  port=$(free_port)
  FIRN_BOOTSTRAP_CREDENTIALS="default,$CLIENT_ID,$CLIENT_SECRET" \
    "$bin" serve --data-dir "$WORK/$(basename "$(dirname "$bin")")-$port" \
    --listen "127.0.0.1:$port" --log-level warn 2>"$WORK/$port.log" &
  PID=$!
  for _ in $(seq 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/v1/config" && break
    sleep 0.1
  done
  echo "--- firn $("$bin" version)"
  python3 bench/token_bench.py --port "$port" --pid "$PID" --client-id "$CLIENT_ID" \
    --client-secret "$CLIENT_SECRET"
  local c
  for c in 1 16; do
    printf 'wrk %2d connections, %ss: ' "$c" "$DURATION"
    wrk -t"$((c < 2 ? 1 : 2))" -c"$c" -d"${DURATION}s" --latency -s bench/token.lua \
      "http://127.0.0.1:$port/v1/oauth/tokens" |
      awk '/^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Requests\/sec/ {rps=$2} /Non-2xx/ {bad=$0}
           END {printf "p50 %s  p99 %s  %s tokens/s %s\n", p50, p99, rps, bad}'
  done
  echo "RSS after wrk: $(awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$PID/status") MiB"
  kill -TERM "$PID"; wait "$PID" 2>/dev/null || true; PID=""
}

measure "$BIN"
[[ -n "$AGAINST" ]] && measure "$AGAINST"
exit 0
