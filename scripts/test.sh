#!/usr/bin/env bash
# Installs, builds, runs the unit tests (ctest) and the integration tests (pytest against the
# firn binary). Prints each stage's duration and a summary; exits non-zero if anything failed.
# Extra arguments go to pytest, e.g. scripts/test.sh -k pagination -x
# Env: FIRN_CONC_WRITERS / FIRN_CONC_COMMITS shrink the concurrency test for quick local runs.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$FIRN_ROOT"

RESULTS_DIR="$FIRN_BUILD_DIR/test-results"
declare -a SUMMARY=()
failed=0
T_ALL="$(now_s)"

# stage NAME CMD... : runs one stage, records "NAME ok|FAILED (time)".
stage() {
  local name="$1"; shift
  local t0 rc=0; t0="$(now_s)"
  log "=== $name"
  "$@" || rc=$?
  local status="ok"
  [[ $rc -ne 0 ]] && { status="FAILED (exit $rc)"; failed=1; }
  SUMMARY+=("$(printf '%-12s %-18s %s' "$name" "$status" "$(elapsed "$t0")")")
  return "$rc"
}

skip() { SUMMARY+=("$(printf '%-12s %-18s' "$1" "skipped ($2)")"); }

summary() {
  log "=== summary"
  local line
  for line in "${SUMMARY[@]}"; do log "  $line"; done
  log "  total        $(elapsed "$T_ALL")"
  if [[ $failed -ne 0 ]]; then log "RESULT: FAILED"; else log "RESULT: ok"; fi
}

unit_tests() {
  ctest --test-dir "$FIRN_BUILD_DIR" --output-on-failure --no-tests=error -j2 \
    --output-junit "$RESULTS_DIR/unit.xml"
}

integration_tests() {
  local rc=0
  FIRN_BIN="${FIRN_BIN:-$FIRN_BUILD_DIR/src/cli/firn}" \
    "$FIRN_VENV/bin/python" -m pytest tests/integration -ra \
      --junitxml="$RESULTS_DIR/integration.xml" "$@" || rc=$?
  # Exit 5 means pytest collected no tests: that is a broken suite, not a pass.
  [[ $rc -eq 5 ]] && log "pytest collected no tests"
  return "$rc"
}

install_testbed() {
  "$FIRN_ROOT/scripts/install_engines.sh" &&
    "$FIRN_ROOT/scripts/testbed/install_moto.sh" >/dev/null &&
    "$FIRN_ROOT/tests/conformance/install.sh" >/dev/null || return 1
  # SeaweedFS is the S3 store with real STS and session policies; building it takes minutes
  # on a fresh machine (cached afterwards). If it cannot be built in time, moto stands in and
  # the tests that need session-policy enforcement say they were skipped.
  timeout "${FIRN_WEED_BUILD_TIMEOUT:-1800}" "$FIRN_ROOT/scripts/testbed/install_weed.sh" \
    >/dev/null || log "weed build failed or timed out: S3 tests run on moto"
  return 0
}

# Services the suites share: a throwaway PostgreSQL and the S3 store. Both are stopped on exit.
export FIRN_TESTBED_RUN="${FIRN_TESTBED_RUN:-$(mktemp -d "${TMPDIR:-/tmp}/firn-tb.XXXXXX")}"
PG_DIR=""
start_services() {
  local out
  out="$("$FIRN_ROOT/scripts/pg.sh" start)" || return 1
  eval "$out"
  PG_DIR="$FIRN_TEST_PG_DIR"
  "$FIRN_ROOT/scripts/testbed/start_s3.sh" >/dev/null || return 1
  "$FIRN_CACHE/moto-venv/bin/python" "$FIRN_ROOT/scripts/testbed/selfcheck.py" \
    "$FIRN_TESTBED_RUN/s3.env" || return 1
  # The unit suite's real-server S3 tests read FIRN_TEST_S3_*; keep FIRN_S3_* (which `firn
  # serve` would read as its own settings) out of this shell's environment.
  eval "$(set -a; source "$FIRN_TESTBED_RUN/s3.env"; set +a
          printf 'export FIRN_TEST_S3_ENDPOINT=%q FIRN_TEST_S3_ACCESS_KEY=%q ' \
            "$FIRN_S3_ENDPOINT" "$FIRN_S3_ACCESS_KEY"
          printf 'FIRN_TEST_S3_SECRET_KEY=%q FIRN_TEST_S3_BUCKET=%q FIRN_TEST_S3_REGION=%q\n' \
            "$FIRN_S3_SECRET_KEY" "$FIRN_S3_BUCKET" "$FIRN_S3_REGION")"
}
stop_services() {
  "$FIRN_ROOT/scripts/testbed/stop_s3.sh" >/dev/null 2>&1 || true
  [[ -n "$PG_DIR" ]] && "$FIRN_ROOT/scripts/pg.sh" destroy "$PG_DIR" >/dev/null 2>&1 || true
}
trap 'stop_services; summary' EXIT

scenario_tests() {
  FIRN_BIN="$FIRN_BUILD_DIR/src/cli/firn" "$FIRN_ROOT/scripts/test_scenarios.sh"
}

conformance_tests() {
  FIRN_BIN="$FIRN_BUILD_DIR/src/cli/firn" "$FIRN_ROOT/tests/conformance/run.sh" \
    --reports-dir "$RESULTS_DIR/rck"
}

engine_tests() {
  FIRN_BIN="$FIRN_BUILD_DIR/src/cli/firn" "$FIRN_ROOT/scripts/test_engines.sh"
}

mkdir -p "$RESULTS_DIR"
if ! stage install "$FIRN_ROOT/scripts/install.sh" ||
   ! stage install-peers install_testbed; then
  for s in build services unit integration scenarios conformance engines; do skip "$s" "install failed"; done
  exit 1
fi
if ! stage build "$FIRN_ROOT/scripts/build.sh"; then
  for s in services unit integration scenarios conformance engines; do skip "$s" "build failed"; done
  exit 1
fi
if ! stage services start_services; then
  for s in unit integration scenarios conformance engines; do skip "$s" "services failed"; done
  exit 1
fi
stage unit unit_tests
stage integration integration_tests "$@"
stage scenarios scenario_tests
stage conformance conformance_tests
stage engines engine_tests
exit "$failed"
