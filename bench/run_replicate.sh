#!/usr/bin/env bash
# `firn replicate` and `firn verify` throughput (docs/recovery.md): two tables made with
# PyIceberg through Firn on the embedded default (many small files; a few large ones), then
# replicated file:// → file:// with --rewrite-prefix, a second (incremental) run, the replica
# verified from the store alone; and, when the S3 test bed's s3.env is given (FIRN_TESTBED_RUN),
# file:// → SeaweedFS too. Prints the summary lines; asserts nothing.
# Usage: bench/run_replicate.sh [--appends N] [--files N] [--big N] [--threads N]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
APPENDS=20; FILES=100; BIG=4; THREADS=8
while [[ $# -gt 0 ]]; do
  case "$1" in
    --appends) APPENDS="$2"; shift 2 ;;
    --files) FILES="$2"; shift 2 ;;
    --big) BIG="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
scripts/build.sh >/dev/null
BIN=$PWD/build/release/src/cli/firn
PY="$FIRN_VENV/bin/python"
WORK=$(mktemp -d /tmp/firn-bench-replicate.XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" --log-level warn --auth off \
  2>"$WORK/server.log" &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/v1/config" && break; sleep 0.1; done
echo "machine: $(nproc) cores; firn $("$BIN" version); --threads $THREADS"
"$PY" bench/replicate_bench.py --uri "http://127.0.0.1:$PORT" --appends "$APPENDS" \
  --files "$FILES" --big "$BIG"
SRC="file://$WORK/data/warehouse/default"
DST="file://$WORK/replica/default"
echo "--- file:// -> file:// (rewrite-prefix), first run"
"$BIN" replicate --from "$SRC" --to "$DST" --rewrite-prefix "$SRC=$DST" --threads "$THREADS" \
  --json --data-dir "$WORK/data" | tail -1
echo "--- second run (incremental: nothing new)"
"$BIN" replicate --from "$SRC" --to "$DST" --rewrite-prefix "$SRC=$DST" --threads "$THREADS" \
  --json --data-dir "$WORK/data" | tail -1
echo "--- verify the replica from the store alone (every referenced file)"
start=$(date +%s.%N)
"$BIN" verify --prefix "$DST" --json --data-dir "$WORK/scratch" --warehouse "$WORK/replica" | tail -1
end=$(date +%s.%N)
echo "verify wall: $(python3 -c "print(round($end - $start, 3))") s"
if [[ -n "${FIRN_TESTBED_RUN:-}" && -f "$FIRN_TESTBED_RUN/s3.env" ]]; then
  set -a; source "$FIRN_TESTBED_RUN/s3.env"; set +a
  export FIRN_S3_ACCESS_KEY_ID="$FIRN_S3_ACCESS_KEY" FIRN_S3_SECRET_ACCESS_KEY="$FIRN_S3_SECRET_KEY"
  S3DST="s3://$FIRN_S3_BUCKET/bench-replica-$(date +%s)/default"
  echo "--- file:// -> SeaweedFS ($S3DST)"
  "$BIN" replicate --from "$SRC" --to "$S3DST" --rewrite-prefix "$SRC=$S3DST" \
    --threads "$THREADS" --json --data-dir "$WORK/data" | tail -1
  echo "--- verify the S3 replica"
  start=$(date +%s.%N)
  "$BIN" verify --prefix "$S3DST" --json --data-dir "$WORK/scratch-s3" \
    --warehouse "s3://$FIRN_S3_BUCKET" | tail -1
  end=$(date +%s.%N)
  echo "verify wall: $(python3 -c "print(round($end - $start, 3))") s"
fi
