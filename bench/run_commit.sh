#!/usr/bin/env bash
# Append-commit latency of this build against another firn binary (e.g. a build of the commit
# before a change), on the embedded default (SQLite + file warehouse), authentication off: each
# round makes a fresh server of each binary and times N commits on a new table
# (bench/catalog_bench.py, client-measured), alternating so drift on this shared machine hits
# both sides. Prints numbers; asserts nothing.
# Usage: bench/run_commit.sh --against FIRN_BINARY [--commits N] [--rounds N]
set -euo pipefail
cd "$(dirname "$0")/.."
COMMITS=300
ROUNDS=3
AGAINST=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --commits) COMMITS="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --against) AGAINST="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -n "$AGAINST" ]] || { echo "--against FIRN_BINARY is required" >&2; exit 2; }
scripts/build.sh >/dev/null
BIN=$PWD/build/release/src/cli/firn
echo "machine: $(nproc) cores; this build vs $AGAINST; $COMMITS commits x $ROUNDS rounds"
one() {  # one LABEL BINARY
  local work port pid
  work=$(mktemp -d /tmp/firn-bench-commit.XXXXXX)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "$2" serve --data-dir "$work/data" --listen "127.0.0.1:$port" --log-level warn --auth off \
    2>"$work/server.log" &
  pid=$!
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/v1/config" && break; sleep 0.1; done
  printf '%-7s ' "$1"
  python3 bench/catalog_bench.py --port "$port" --snapshots 0 --commits "$COMMITS" | tail -1
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$work"
}
for r in $(seq "$ROUNDS"); do
  echo "--- round $r"
  one this "$BIN"
  one against "$AGAINST"
done
