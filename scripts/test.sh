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
trap summary EXIT

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

mkdir -p "$RESULTS_DIR"
if ! stage install "$FIRN_ROOT/scripts/install.sh"; then
  skip build "install failed"; skip unit "install failed"; skip integration "install failed"
  exit 1
fi
if ! stage build "$FIRN_ROOT/scripts/build.sh"; then
  skip unit "build failed"; skip integration "build failed"
  exit 1
fi
stage unit unit_tests
stage integration integration_tests "$@"
exit "$failed"
