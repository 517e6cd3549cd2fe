#!/usr/bin/env bash
# A throwaway PostgreSQL 15 for tests. Listens on 127.0.0.1 only (a free port), keeps its unix
# socket inside its own directory, and never touches a server it did not create.
#
# Usage:
#   eval "$(scripts/pg.sh start)"     init a new instance in a fresh temp dir and start it; prints
#                                     export lines for FIRN_TEST_PG_URL and FIRN_TEST_PG_DIR
#   scripts/pg.sh start DIR           restart an instance this script created in DIR (same port)
#   scripts/pg.sh stop [DIR]          pg_ctl stop -m fast (data kept; DIR defaults to
#                                     $FIRN_TEST_PG_DIR)
#   scripts/pg.sh destroy [DIR]       stop and delete DIR
#   scripts/pg.sh url [DIR]           print the URL again
# Env: FIRN_PG_BIN (default /usr/lib/postgresql/15/bin).
# The URL carries a generated password for the `firn` role (host connections use
# scram-sha-256): postgresql://firn:PW@127.0.0.1:PORT/firn. Test-only; never reuse it.
# initdb refuses to run as root, so as root every server command runs as the `postgres` user
# (runuser) in a directory it owns.
set -euo pipefail

PG_BIN="${FIRN_PG_BIN:-/usr/lib/postgresql/15/bin}"
MARKER=".firn-pg"   # only directories holding this file are ours to stop or delete

pg_log() { printf '[pg] %s\n' "$*" >&2; }
pg_die() { printf '[pg] ERROR: %s\n' "$*" >&2; exit 1; }

# as_pg CMD... : runs CMD as the server's owner.
as_pg() {
  if [[ "$(id -u)" -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

resolve_dir() {
  local dir="${1:-${FIRN_TEST_PG_DIR:-}}"
  [[ -n "$dir" ]] || pg_die "no directory given and FIRN_TEST_PG_DIR is unset"
  [[ -f "$dir/$MARKER" ]] || pg_die "$dir was not created by scripts/pg.sh; refusing to touch it"
  printf '%s' "$dir"
}

print_env() {
  local dir="$1"
  # shellcheck disable=SC1091
  source "$dir/$MARKER"
  printf 'export FIRN_TEST_PG_URL=%q\n' "postgresql://firn:${PG_PASSWORD}@127.0.0.1:${PG_PORT}/firn"
  printf 'export FIRN_TEST_PG_DIR=%q\n' "$dir"
}

server_start() {
  local dir="$1"
  # shellcheck disable=SC1091
  source "$dir/$MARKER"
  if as_pg "$PG_BIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    pg_log "already running in $dir"
    return 0
  fi
  as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $dir/sock" start >/dev/null \
    || { tail -n 20 "$dir/server.log" >&2 || true; pg_die "server did not start (see $dir/server.log)"; }
}

cmd_start() {
  if [[ $# -ge 1 ]]; then
    local dir; dir="$(resolve_dir "$1")"
    server_start "$dir"
    print_env "$dir"
    return 0
  fi
  [[ -x "$PG_BIN/initdb" ]] || pg_die "PostgreSQL binaries not found in $PG_BIN"
  local dir; dir="$(mktemp -d "${TMPDIR:-/tmp}/firn-pg.XXXXXX")"
  chmod 755 "$dir"
  mkdir -p "$dir/sock"
  local password; password="$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
  local port; port="$(free_port)"
  printf 'PG_PORT=%s\nPG_PASSWORD=%s\n' "$port" "$password" >"$dir/$MARKER"
  chmod 600 "$dir/$MARKER"
  printf '%s\n' "$password" >"$dir/pwfile"
  if [[ "$(id -u)" -eq 0 ]]; then chown -R postgres: "$dir"; fi
  as_pg "$PG_BIN/initdb" -D "$dir/data" -U postgres --encoding=UTF8 --locale=C \
    --auth-local=trust --auth-host=scram-sha-256 --pwfile="$dir/pwfile" >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; pg_die "initdb failed"; }
  rm -f "$dir/pwfile"
  # Fast, throwaway: no fsync wait for tests, few connections.
  cat >>"$dir/data/postgresql.conf" <<EOF
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 100
EOF
  server_start "$dir"
  as_pg "$PG_BIN/psql" -h "$dir/sock" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
    -c "CREATE ROLE firn LOGIN PASSWORD '$password'" \
    -c "CREATE DATABASE firn OWNER firn" >/dev/null
  pg_log "PostgreSQL 15 on 127.0.0.1:$port, data in $dir"
  print_env "$dir"
}

cmd_stop() {
  local dir; dir="$(resolve_dir "${1:-}")"
  if as_pg "$PG_BIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null
  fi
}

cmd_destroy() {
  local dir; dir="$(resolve_dir "${1:-}")"
  cmd_stop "$dir"
  rm -rf -- "$dir"
}

case "${1:-}" in
  start) shift; cmd_start "$@" ;;
  stop) shift; cmd_stop "$@" ;;
  destroy) shift; cmd_destroy "$@" ;;
  url) shift; print_env "$(resolve_dir "${1:-}")" ;;
  *) pg_die "usage: pg.sh start [DIR] | stop [DIR] | destroy [DIR] | url [DIR]" ;;
esac
