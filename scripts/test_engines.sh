#!/usr/bin/env bash
# Runs the engine tests (tests/engines): DuckDB 1.5.5, Spark 4.0.1 + Iceberg 1.10.1 and PyIceberg
# against `firn serve`, on a file:// warehouse and on the S3 test bed. Installs the engines
# (cached, see install_engines.sh), starts the S3 store unless a live one is already described
# by $FIRN_TESTBED_RUN/s3.env, and stops only a store it started. Exit status is pytest's
# (5, "no tests collected", is reported as a failure too).
#   scripts/test_engines.sh [pytest args]      e.g. -k duckdb -x
# Env: FIRN_BIN (default build/release/src/cli/firn), FIRN_TESTBED_RUN, FIRN_ENGINES_S3=0 (do
# not start a store: the s3 tests then fail when CI=true and skip otherwise),
# FIRN_ENGINES_WRITES (rows per engine in the concurrency test, default 20).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$FIRN_ROOT"

RESULTS_DIR="$FIRN_BUILD_DIR/test-results"
mkdir -p "$RESULTS_DIR"
export FIRN_BIN="${FIRN_BIN:-$FIRN_BUILD_DIR/src/cli/firn}"
# Spark 4.0 wants Java 17 or 21; pin 17 when the caller did not choose.
if [[ -z "${JAVA_HOME:-}" && -x /usr/lib/jvm/java-17-openjdk-amd64/bin/java ]]; then
  export JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
fi

"$FIRN_ROOT/scripts/install_engines.sh" || die "engine install failed"

store_alive() {  # store_alive RUN_DIR: s3.env exists and its store process is running
  [[ -f "$1/s3.env" && -f "$1/s3.pid" ]] && kill -0 "$(cat "$1/s3.pid")" 2>/dev/null
}

rc=0
started_s3=""
stop_started_s3() {
  [[ -n "$started_s3" ]] || return 0
  FIRN_TESTBED_RUN="$started_s3" "$FIRN_ROOT/scripts/testbed/stop_s3.sh" || true
  # Keep the store's data and log only when something failed.
  if [[ $rc -eq 0 ]]; then rm -rf "$started_s3"; else log "engines: S3 store files kept in $started_s3"; fi
}
trap stop_started_s3 EXIT

existing="${FIRN_TESTBED_RUN:-${TMPDIR:-/tmp}/firn-testbed}"
if store_alive "$existing"; then
  export FIRN_TESTBED_RUN="$existing"
  log "engines: using the running S3 store described by $FIRN_TESTBED_RUN/s3.env"
elif [[ "${FIRN_ENGINES_S3:-1}" != 0 ]]; then
  # A private run dir: never disturb a store someone else runs from the default one.
  export FIRN_TESTBED_RUN="$(mktemp -d "${TMPDIR:-/tmp}/firn-engines-s3.XXXXXX")"
  t0="$(now_s)"
  if "$FIRN_ROOT/scripts/testbed/start_s3.sh" >/dev/null; then
    started_s3="$FIRN_TESTBED_RUN"
    log "engines: started S3 store ($(grep -o 'FLAVOR=.*' "$FIRN_TESTBED_RUN/s3.env")) in $(elapsed "$t0")"
  else
    log "engines: could not start the S3 store; s3 tests will fail (CI) or skip (locally)"
  fi
fi

"$FIRN_VENV/bin/python" -m pytest tests/engines -ra --junitxml="$RESULTS_DIR/engines.xml" "$@" || rc=$?
[[ $rc -eq 5 ]] && log "pytest collected no engine tests"
exit "$rc"
