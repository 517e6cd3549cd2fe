#!/usr/bin/env bash
# Runs the durability scenarios (tests/scenarios, issue 4): three instances on one PostgreSQL,
# a 30 s PostgreSQL outage, kill -9 during 1,000 commits on both backends, backup/restore and
# copy-store. Starts a throwaway PostgreSQL 15 (scripts/pg.sh) unless FIRN_TEST_PG_URL and
# FIRN_TEST_PG_DIR describe a running one, and destroys only the one it started. Exit status
# is pytest's.
#   scripts/test_scenarios.sh [pytest args]      e.g. -k outage -x
# Env: FIRN_BIN (default build/release/src/cli/firn); scale with FIRN_SCEN_WRITERS (8),
# FIRN_SCEN_COMMITS (250 per writer), FIRN_SCEN_READERS (4), FIRN_SCEN_INSTANCES (3),
# FIRN_SCEN_RYW_EVERY (5), FIRN_SCEN_OUTAGE_S (30), FIRN_SCEN_CRASH_COMMITS (1000).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$FIRN_ROOT"

export FIRN_BIN="${FIRN_BIN:-$FIRN_BUILD_DIR/src/cli/firn}"
[[ -x "$FIRN_BIN" ]] || die "firn binary not found at $FIRN_BIN (scripts/build.sh)"
[[ -x "$FIRN_VENV/bin/python" ]] || die "test venv missing at $FIRN_VENV (scripts/install.sh)"

started_pg=""
cleanup() {
  [[ -n "$started_pg" ]] && "$FIRN_ROOT/scripts/pg.sh" destroy "$started_pg" || true
}
trap cleanup EXIT

if [[ -z "${FIRN_TEST_PG_URL:-}" || -z "${FIRN_TEST_PG_DIR:-}" ]]; then
  eval "$("$FIRN_ROOT/scripts/pg.sh" start)" || die "could not start PostgreSQL"
  started_pg="$FIRN_TEST_PG_DIR"
fi

RESULTS_DIR="$FIRN_BUILD_DIR/test-results"
mkdir -p "$RESULTS_DIR"
t0="$(now_s)"
"$FIRN_VENV/bin/python" -m pytest -c tests/scenarios/pytest.ini tests/scenarios -v -s \
  -p no:cacheprovider --junitxml="$RESULTS_DIR/scenarios.xml" "$@"
rc=$?
log "scenarios: exit $rc in $(elapsed "$t0")"
exit "$rc"
