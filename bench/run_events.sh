#!/usr/bin/env bash
# Change events (issue 14, item 5; docs/events.md): the feed's read rate, a webhook's delivery
# rate for a backlog, and commit-to-webhook latency, on the embedded SQLite store with
# authentication off (the figures are the events', not the tokens'). Prints numbers; asserts
# only that every event arrives.
# Usage: bench/run_events.sh [--events N]
set -euo pipefail
cd "$(dirname "$0")/.."
EVENTS=2000
while [[ $# -gt 0 ]]; do
  case "$1" in
    --events) EVENTS="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
scripts/build.sh >/dev/null
BIN=build/release/src/cli/firn
WORK=$(mktemp -d /tmp/firn-bench-events.XXXXXX)
PID=""
trap '[[ -n "$PID" ]] && kill -TERM "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
echo "machine: $(nproc) cores, $(uname -r); firn $("$BIN" version)"
"$BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$port" --auth off --log-level warn \
  2>"$WORK/server.log" &
PID=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.1; done
python3 bench/events_bench.py --port "$port" --events "$EVENTS"
