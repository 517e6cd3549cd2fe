#!/usr/bin/env bash
# Stops the store that start_s3.sh started from $FIRN_TESTBED_RUN: only the PID it recorded
# (TERM, then KILL after 10 s). Leaves the run dir (logs, data) for inspection; safe to re-run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

pidfile="$FIRN_TESTBED_RUN/s3.pid"
[[ -f "$pidfile" ]] || exit 0
pid="$(cat "$pidfile")"
if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 40; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.25
  done
  if kill -0 "$pid" 2>/dev/null; then
    tb_log "pid $pid ignored TERM; sending KILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
fi
rm -f "$pidfile"
