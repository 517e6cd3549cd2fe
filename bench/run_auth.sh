#!/usr/bin/env bash
# loadTable latency with authentication + authorisation ON versus OFF (issue 5 budget: at most
# +20 µs at p50). Two servers on the same build and the same kind of data directory; the runs
# alternate off/on ROUNDS times so drift on this shared machine hits both sides alike.
# --against BIN adds a third server, auth on, from another firn binary (e.g. a build of the
# commit before a change), measured in the same rounds: a before/after comparison.
# --metrics compares metrics on/off instead (both servers authenticate; "off" runs with
# --metrics off): the cost of request counting on the hot path.
# --gzip compares warm loads on the auth-on server without and with `Accept-Encoding: gzip`
# (and prints both body sizes); --against then measures the other binary without it.
# Prints numbers; asserts nothing.
# Usage: bench/run_auth.sh [--duration SECONDS] [--rounds N] [--against FIRN_BINARY]
#                          [--metrics | --gzip]
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=8
ROUNDS=3
AGAINST=""
METRICS=0
GZIP=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --duration) DURATION="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --against) AGAINST="$2"; shift 2 ;;
    --metrics) METRICS=1; shift ;;
    --gzip) GZIP=1; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

scripts/build.sh >/dev/null
BIN=build/release/src/cli/firn
WORK=$(mktemp -d /tmp/firn-bench-auth.XXXXXX)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
CLIENT_ID=benchadmin
CLIENT_SECRET=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$WORK"' EXIT

start() {  # start NAME AUTH(on|off) [BINARY] → sets PORT (no subshell: the pid must reach PIDS)
  local name=$1 auth=$2 bin=${3:-$BIN} port extra=()
  # With --metrics the "off" server authenticates too and counts nothing instead.
  if [[ $METRICS -eq 1 && $name == off ]]; then auth=on; extra=(--metrics off); fi
  port=$(free_port)
  FIRN_BOOTSTRAP_CREDENTIALS="default,$CLIENT_ID,$CLIENT_SECRET" \
    "$bin" serve --data-dir "$WORK/$name" --listen "127.0.0.1:$port" --auth "$auth" \
    "${extra[@]}" --log-level warn 2>"$WORK/$name.log" &
  PIDS+=($!)
  for _ in $(seq 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/v1/config" && break
    sleep 0.1
  done
  PORT=$port
}

start off off; OFF_PORT=$PORT
start on on; ON_PORT=$PORT
TOKEN=$(bench/token.sh "http://127.0.0.1:$ON_PORT" "$CLIENT_ID" "$CLIENT_SECRET")
echo "machine: $(nproc) cores, $(uname -r); firn $("$BIN" version); token ${#TOKEN} bytes"
OFF_AUTH=()
if [[ $METRICS -eq 1 ]]; then
  OFF_TOKEN=$(bench/token.sh "http://127.0.0.1:$OFF_PORT" "$CLIENT_ID" "$CLIENT_SECRET")
  OFF_AUTH=(--token "$OFF_TOKEN")
  echo "metrics: off server /metrics HTTP $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$OFF_PORT/metrics"), on server HTTP $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$ON_PORT/metrics")"
fi
python3 bench/catalog_bench.py --port "$OFF_PORT" --snapshots 100 --prepare-only "${OFF_AUTH[@]}"
python3 bench/catalog_bench.py --port "$ON_PORT" --snapshots 100 --prepare-only --token "$TOKEN"
if [[ -n "$AGAINST" ]]; then
  start against on "$AGAINST"; AGAINST_PORT=$PORT
  AGAINST_TOKEN=$(bench/token.sh "http://127.0.0.1:$AGAINST_PORT" "$CLIENT_ID" "$CLIENT_SECRET")
  python3 bench/catalog_bench.py --port "$AGAINST_PORT" --snapshots 100 --prepare-only \
    --token "$AGAINST_TOKEN"
  echo "against: $AGAINST ($("$AGAINST" version))"
fi
PATH_T=/v1/namespaces/bench/tables/t100
# Prove the two servers really differ: without a token the auth-on server must refuse.
echo "auth on, no token: HTTP $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$ON_PORT$PATH_T")"
echo "auth on, token:    HTTP $(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$ON_PORT$PATH_T")"

run() {  # run LABEL PORT [header]
  local label=$1 port=$2; shift 2
  printf '%-4s ' "$label"
  wrk -t1 -c1 -d"${DURATION}s" --latency "$@" "http://127.0.0.1:$port$PATH_T" |
    awk '/^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Requests\/sec/ {rps=$2} /Non-2xx/ {bad=$0}
         END {printf "p50 %s  p99 %s  %s req/s %s\n", p50, p99, rps, bad}'
}
H_GZIP="Accept-Encoding: gzip"
if [[ $GZIP -eq 1 ]]; then
  # The body sizes, and a first gzip load that deflates this version's metadata (later ones
  # reuse it: what the rounds measure is the warm load).
  size() { curl -s -o /dev/null -w '%{size_download}' -H "Authorization: Bearer $TOKEN" "$@" \
             "http://127.0.0.1:$ON_PORT$PATH_T"; }
  echo "body: identity $(size) bytes, gzip $(size -H "$H_GZIP") bytes"
fi
for r in $(seq "$ROUNDS"); do
  echo "--- round $r: loadTable (100 snapshots), 1 connection, ${DURATION}s each"
  if [[ $GZIP -eq 1 ]]; then
    :  # "on" below is the load without gzip
  elif [[ $METRICS -eq 1 ]]; then
    run off "$OFF_PORT" -H "Authorization: Bearer $OFF_TOKEN"
  else
    run off "$OFF_PORT"
  fi
  run on "$ON_PORT" -H "Authorization: Bearer $TOKEN"
  if [[ $GZIP -eq 1 ]]; then
    run gzip "$ON_PORT" -H "Authorization: Bearer $TOKEN" -H "$H_GZIP"
  fi
  if [[ -n "$AGAINST" ]]; then
    run base "$AGAINST_PORT" -H "Authorization: Bearer $AGAINST_TOKEN"
  fi
done
