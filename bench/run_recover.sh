#!/usr/bin/env bash
# `firn recover` throughput (docs/recovery.md): N tables made through the REST API on the
# embedded default (SQLite + file warehouse), the server stopped, then the catalog rebuilt
# from the warehouse into a new database (the deployment's claims taken over, as after a loss),
# and a dry run (discovery and the chain choice alone). Prints the summary lines; asserts
# nothing. Usage: bench/run_recover.sh [--tables N]... [--threads N] [--s3]
#   --s3: the warehouse is a fresh prefix of the S3 test bed ($FIRN_TESTBED_RUN/s3.env,
#   scripts/testbed/start_s3.sh) instead of a file warehouse.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
TABLES=()
THREADS=8
S3=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --tables) TABLES+=("$2"); shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --s3) S3=1; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ ${#TABLES[@]} -eq 0 ]] && TABLES=(1000)
scripts/build.sh >/dev/null
BIN=$PWD/build/release/src/cli/firn
echo "machine: $(nproc) cores; firn $("$BIN" version); recover --threads $THREADS"
if [[ $S3 == 1 ]]; then
  set -a; source "${FIRN_TESTBED_RUN:?set FIRN_TESTBED_RUN (scripts/testbed/start_s3.sh)}/s3.env"
  set +a
  export FIRN_S3_ACCESS_KEY_ID="$FIRN_S3_ACCESS_KEY" FIRN_S3_SECRET_ACCESS_KEY="$FIRN_S3_SECRET_KEY"
fi
for n in "${TABLES[@]}"; do
  WORK=$(mktemp -d /tmp/firn-bench-recover.XXXXXX)
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  if [[ $S3 == 1 ]]; then
    WH="s3://$FIRN_S3_BUCKET/bench-recover-$n-$(date +%s)"
  else
    WH="file://$WORK/data/warehouse"
  fi
  "$BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" --log-level warn --auth off \
    --warehouse "$WH" 2>"$WORK/server.log" &
  PID=$!
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/v1/config" && break; sleep 0.1; done
  python3 bench/recover_bench.py --port "$PORT" --tables "$n"
  kill -TERM $PID; wait $PID 2>/dev/null || true
  DEPLOYMENT=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(
      "select value from store_settings where name = ?", ("deployment_id",)).fetchone()[0])' \
      "$WORK/data/firn.db")
  echo "--- $n tables: dry run (discover + choose)"
  "$BIN" recover --prefix "$WH/default" --dry-run --json --threads "$THREADS" \
    --data-dir "$WORK/rebuilt" --warehouse "$WH" | tail -1 || true  # refused: claims
  echo "--- $n tables: recover into a new database"
  "$BIN" recover --prefix "$WH/default" --json --threads "$THREADS" \
    --take-over-from "$DEPLOYMENT" --data-dir "$WORK/rebuilt" --warehouse "$WH" | tail -1 || true
  rm -rf "$WORK"
done
