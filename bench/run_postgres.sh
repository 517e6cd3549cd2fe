#!/usr/bin/env bash
# PostgreSQL benchmark: loadTable (wrk, table with 100 snapshots) and append-commit latency
# p50/p99 with 1 and with 3 `firn serve` instances on one PostgreSQL database, plus the same
# 1-instance run on SQLite measured in the same session for comparison. Prints numbers;
# asserts nothing. Results go to docs/benchmarks.md (PostgreSQL section).
# Usage: bench/run_postgres.sh [--duration SECONDS] [--commits N]
# Env: FIRN_BIN (default build/release/src/cli/firn, built by scripts/build.sh if missing);
# FIRN_TEST_PG_URL + FIRN_TEST_PG_DIR to use a running scripts/pg.sh server (else one is
# started and destroyed); FIRN_KEK (else `firn admin generate-kek` makes one for the run).
# Note: scripts/pg.sh runs PostgreSQL with fsync=off.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=10
COMMITS=500
while [[ $# -gt 0 ]]; do
  case "$1" in
    --duration) DURATION="$2"; shift 2 ;;
    --commits) COMMITS="$2"; shift 2 ;;
    *) echo "usage: $0 [--duration S] [--commits N]" >&2; exit 2 ;;
  esac
done

BIN="${FIRN_BIN:-build/release/src/cli/firn}"
[[ -x "$BIN" ]] || { scripts/build.sh >/dev/null; BIN=build/release/src/cli/firn; }
WORK=$(mktemp -d /tmp/firn-pgbench.XXXXXX)
PIDS=()
STARTED_PG=""
cleanup() {
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  [[ -n "$STARTED_PG" ]] && scripts/pg.sh destroy "$STARTED_PG" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

if [[ -z "${FIRN_TEST_PG_URL:-}" || -z "${FIRN_TEST_PG_DIR:-}" ]]; then
  eval "$(scripts/pg.sh start 2>/dev/null)"
  STARTED_PG="$FIRN_TEST_PG_DIR"
fi
# postgresql://firn:PW@127.0.0.1:PORT/firn -> parts
PG_PW=$(python3 -c 'import sys, urllib.parse as u; print(u.urlparse(sys.argv[1]).password)' "$FIRN_TEST_PG_URL")
PG_PORT=$(python3 -c 'import sys, urllib.parse as u; print(u.urlparse(sys.argv[1]).port)' "$FIRN_TEST_PG_URL")

superuser_sql() {
  local psql=(/usr/lib/postgresql/15/bin/psql -h "$FIRN_TEST_PG_DIR/sock" -p "$PG_PORT" -U postgres
              -d postgres -v ON_ERROR_STOP=1 -qAt -c "$1")
  if [[ "$(id -u)" -eq 0 ]]; then runuser -u postgres -- "${psql[@]}"; else "${psql[@]}"; fi
}
fresh_db() {  # sets DB_URL
  local name="bench_$(date +%s%N | tail -c 9)"
  superuser_sql "CREATE DATABASE $name OWNER firn" >/dev/null
  DB_URL="postgresql://firn@127.0.0.1:$PG_PORT/$name"
}
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
# start_firn DB_URL NAME -> sets PORT (not a subshell: the pid must reach PIDS)
BENCH_SECRET=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
# One key-encryption key for every instance (PostgreSQL requires one; docs/auth.md).
BENCH_KEK="${FIRN_KEK:-$("$BIN" admin generate-kek)}"
start_firn() {
  local port; port=$(free_port)
  FIRN_BOOTSTRAP_CREDENTIALS="default,benchadmin,$BENCH_SECRET" FIRN_KEK="$BENCH_KEK" \
  FIRN_DB_PASSWORD="$PG_PW" "$BIN" serve --data-dir "$WORK/$2" --listen "127.0.0.1:$port" \
    --db "$1" --warehouse "file://$WORK/warehouse" --log-level warn 2>"$WORK/$2.log" &
  PIDS+=($!)
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/v1/config" && break; sleep 0.1; done
  PORT="$port"
  # Tokens are valid on every instance of one database (keys live there); take one per start.
  FIRN_BENCH_TOKEN=$(bench/token.sh "http://127.0.0.1:$port" benchadmin "$BENCH_SECRET")
  export FIRN_BENCH_TOKEN
}
wrk_line() {  # wrk_line PORT CONNS -> "p50=… p99=… req/s=…"
  wrk -t1 -c"$2" -d"${DURATION}s" --latency -H "Authorization: Bearer $FIRN_BENCH_TOKEN" \
    "http://127.0.0.1:$1/v1/namespaces/bench/tables/t100" |
    awk '/^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Requests\/sec/ {rps=$2}
         /Non-2xx/ {bad=$NF} END {printf "p50=%s p99=%s req/s=%s%s", p50, p99, rps,
                                   bad ? " NON-2xx=" bad : ""}'
}

echo "machine: $(nproc) cores, $(uname -r); firn $("$BIN" version); PostgreSQL 15 (scripts/pg.sh, fsync=off)"

run_one() {  # run_one LABEL DB_URL
  start_firn "$2" "one_$1"; local port="$PORT"
  python3 bench/catalog_bench.py --port "$port" --snapshots 100 --prepare-only >/dev/null
  echo "--- $1, 1 instance"
  echo "loadTable, 1 connection, ${DURATION}s: $(wrk_line "$port" 1)"
  echo "loadTable, 8 connections, ${DURATION}s: $(wrk_line "$port" 8)"
  python3 bench/catalog_bench.py --port "$port" --snapshots 100 --commits "$COMMITS" | tail -1
}

run_one sqlite "sqlite://$WORK/sqlite.db"
fresh_db; run_one postgresql "$DB_URL"

echo "--- postgresql, 3 instances on one database"
fresh_db; DB3="$DB_URL"
PORTS=()
for i in 0 1 2; do start_firn "$DB3" "three_$i"; PORTS+=("$PORT"); done
python3 bench/catalog_bench.py --port "${PORTS[0]}" --snapshots 100 --prepare-only >/dev/null
# One wrk per instance, all at once.
for i in 0 1 2; do (echo "loadTable, instance $i, 1 connection each (3 at once): $(wrk_line "${PORTS[$i]}" 1)") & done
wait_wrk() { for job in $(jobs -p); do case " ${PIDS[*]} " in *" $job "*) ;; *) wait "$job" ;; esac; done; }
wait_wrk
# One committer per instance, each on its own table, all at once.
for i in 0 1 2; do
  (python3 bench/catalog_bench.py --port "${PORTS[$i]}" --snapshots 1 --table "c$i" \
     --commits "$COMMITS" | tail -1 | sed "s/^/instance $i (3 committers at once): /") &
done
wait_wrk
