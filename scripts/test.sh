#!/usr/bin/env bash
# Installs, builds and runs every suite: unit tests (ctest, and again under asan-ubsan),
# integration, schemathesis, fuzz, scenarios, the web console in headless Chromium, the REST
# Compatibility Kit and the engines. This is what CI runs (.ci/run). Stages run as soon as what
# they need is done, several at once where the machine's cores allow (FIRN_CI_SLOTS, default 2;
# see "Stages" below). Each stage writes its output to
# build/release/test-results/logs/<stage>.log; the console gets one line when a stage starts and
# one when it ends (a failed stage's log tail follows), and a summary with each stage's status,
# start, wall time and CPU. Exits non-zero if anything failed.
#
#   scripts/test.sh [pytest args]      extra arguments go to the integration pytest
# Env: FIRN_CI_SLOTS (CPU slots, default 2), FIRN_CI_SERIAL=1 (one stage at a time),
#      FIRN_CI_LOG_TAIL (lines of a failed stage's log shown, default 150; 0 = all),
#      FIRN_CI_KEEP_TMP=1 (keep the run's scratch directory: server logs, data),
#      FIRN_CONC_WRITERS / FIRN_CONC_COMMITS shrink the concurrency test for quick local runs.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$FIRN_ROOT"
# Every stage job is its own process group, so an interrupted run can stop exactly its own.
set -m

RESULTS_DIR="$FIRN_BUILD_DIR/test-results"
LOG_DIR="$RESULTS_DIR/logs"
SLOTS="${FIRN_CI_SLOTS:-2}"
[[ "${FIRN_CI_SERIAL:-0}" == 1 ]] && SLOTS=1
LOG_TAIL="${FIRN_CI_LOG_TAIL:-150}"
PYTEST_ARGS=("$@")
T_ALL="$(now_s)"
failed=0
rm -rf "$LOG_DIR"
mkdir -p "$LOG_DIR"

# Scratch space of this run only (pytest trees, PostgreSQL, the S3 store, mktemp): removed at
# the end, so nothing is left behind and nothing another run made is touched.
RUN_TMP="$(mktemp -d "${TMPDIR:-/tmp}/firn-ci.XXXXXX")"
# Traversable (not listable) by others: as root, PostgreSQL runs as the `postgres` user in a
# directory of its own below this one (scripts/pg.sh).
chmod 711 "$RUN_TMP"
export TMPDIR="$RUN_TMP"

# ---------------------------------------------------------------------------------------------
# What each stage runs
# ---------------------------------------------------------------------------------------------
install_base() { "$FIRN_ROOT/scripts/install.sh"; }

# Engines (pip + Maven jars, and the Flink job compiled against Flink 2.0 from Maven: about
# 18 s on an empty cache), moto (the fallback store) and the RCK jars: mostly downloads.
install_peers() {
  "$FIRN_ROOT/scripts/install_engines.sh" &&
    "$FIRN_ROOT/scripts/testbed/install_moto.sh" >/dev/null &&
    "$FIRN_ROOT/tests/conformance/install.sh" >/dev/null
}

# SeaweedFS is the S3 store with real STS and session policies; building it takes minutes on
# an empty cache (cached per version afterwards; on a busy 2-core machine an empty-cache build
# was seen to need more than 30 minutes, hence 40). If it cannot be built in time, moto stands
# in and the tests that need session-policy enforcement say they were skipped.
install_weed() {
  timeout "${FIRN_WEED_BUILD_TIMEOUT:-2400}" "$FIRN_ROOT/scripts/testbed/install_weed.sh" \
    || log "weed build failed or timed out: S3 tests run on moto"
  return 0
}

# Trino's server core, Iceberg plugin and CLI from Maven Central (cached per version; it runs
# on the machine's Java 25).
install_trino() { "$FIRN_ROOT/scripts/trino/install.sh"; }

# Debian's Chromium and Playwright for Python, for the web console's browser test.
install_console_deps() { "$FIRN_ROOT/scripts/install_console.sh"; }

build_release() { "$FIRN_ROOT/scripts/build.sh"; }
build_asan() { "$FIRN_ROOT/scripts/test_asan.sh" --build-only; }
build_fuzz() { "$FIRN_ROOT/scripts/fuzz.sh" --build-only; }

# A throwaway PostgreSQL for the unit tests (scenarios start their own: the outage scenario
# stops its server). Runs in this shell so the stages started after it inherit the URL.
PG_DIR=""
start_pg() {
  local out
  out="$("$FIRN_ROOT/scripts/pg.sh" start)" || return 1
  eval "$out"
  PG_DIR="$FIRN_TEST_PG_DIR"
}

# The S3 store (weed, else moto), checked by selfcheck.py. The unit suite's real-server S3
# tests read FIRN_TEST_S3_*; FIRN_S3_* (which `firn serve` would read as its own settings) stay
# out of this shell's environment. The engines read $FIRN_TESTBED_RUN/s3.env.
export FIRN_TESTBED_RUN="$RUN_TMP/testbed"
start_s3() {
  "$FIRN_ROOT/scripts/testbed/start_s3.sh" >/dev/null || return 1
  "$FIRN_CACHE/moto-venv/bin/python" "$FIRN_ROOT/scripts/testbed/selfcheck.py" \
    "$FIRN_TESTBED_RUN/s3.env" || return 1
  eval "$(set -a; source "$FIRN_TESTBED_RUN/s3.env"; set +a
          printf 'export FIRN_TEST_S3_ENDPOINT=%q FIRN_TEST_S3_ACCESS_KEY=%q ' \
            "$FIRN_S3_ENDPOINT" "$FIRN_S3_ACCESS_KEY"
          printf 'FIRN_TEST_S3_SECRET_KEY=%q FIRN_TEST_S3_BUCKET=%q FIRN_TEST_S3_REGION=%q ' \
            "$FIRN_S3_SECRET_KEY" "$FIRN_S3_BUCKET" "$FIRN_S3_REGION"
          printf 'FIRN_TEST_S3_ROLE_ARN=%q FIRN_TEST_S3_SESSION_POLICY=%q\n' \
            "$FIRN_S3_ROLE_ARN" "$FIRN_S3_SESSION_POLICY")"
}

unit_tests() {
  ctest --test-dir "$FIRN_BUILD_DIR" --output-on-failure --no-tests=error -j2 \
    --output-junit "$RESULTS_DIR/unit.xml"
}

asan_unit_tests() { "$FIRN_ROOT/scripts/test_asan.sh" --no-build; }

integration_tests() {
  local rc=0
  FIRN_BIN="$FIRN_BUILD_DIR/src/cli/firn" \
    "$FIRN_VENV/bin/python" -m pytest tests/integration -ra --durations=15 \
      --junitxml="$RESULTS_DIR/integration.xml" "${PYTEST_ARGS[@]}" || rc=$?
  # Exit 5 means pytest collected no tests: that is a broken suite, not a pass.
  [[ $rc -eq 5 ]] && log "pytest collected no tests"
  return "$rc"
}

# The web console in Debian's headless Chromium (tests/console, docs/console.md); its
# screenshots land in RESULTS_DIR/console and their paths reach the console.
console_tests() {
  local rc=0 shot
  rm -rf "$RESULTS_DIR/console"
  FIRN_BIN="$FIRN_BUILD_DIR/src/cli/firn" FIRN_CONSOLE_RESULTS="$RESULTS_DIR/console" \
    "$FIRN_VENV/bin/python" -m pytest tests/console -ra --junitxml="$RESULTS_DIR/console.xml" \
    || rc=$?
  [[ $rc -eq 5 ]] && log "pytest collected no tests"
  for shot in "$RESULTS_DIR"/console/*.png; do
    [[ -f "$shot" ]] && echo "screenshot: $shot"
  done
  return "$rc"
}

# Schemathesis on a live server from Firn's own OpenAPI documents (bounded, seeded).
schemathesis_tests() {
  FIRN_BIN="$FIRN_BUILD_DIR/src/cli/firn" "$FIRN_ROOT/scripts/schemathesis.sh"
}

# Every libFuzzer target for FIRN_FUZZ_SECONDS (default 15) each, one at a time (one core);
# longer runs are for developers (docs/fuzzing.md).
fuzz_tests() {
  "$FIRN_ROOT/scripts/fuzz.sh" --no-build --seconds "${FIRN_FUZZ_SECONDS:-15}" --jobs 1
}

# Scenarios on their own PostgreSQL (test_scenarios.sh starts and destroys it).
scenario_tests() {
  env -u FIRN_TEST_PG_URL -u FIRN_TEST_PG_DIR FIRN_BIN="$FIRN_BUILD_DIR/src/cli/firn" \
    "$FIRN_ROOT/scripts/test_scenarios.sh"
}

conformance_tests() {
  FIRN_BIN="$FIRN_BUILD_DIR/src/cli/firn" "$FIRN_ROOT/tests/conformance/run.sh" \
    --reports-dir "$RESULTS_DIR/rck"
}

engine_tests() {
  FIRN_BIN="$FIRN_BUILD_DIR/src/cli/firn" "$FIRN_ROOT/scripts/test_engines.sh"
}

# The engine suite's own stages (tests/engines, by marker): Flink 2.0 embedded
# (test_flink.py); Trino on file:// and on vended credentials with one single-node Trino
# (test_trino.py); and the three-engine scenario, a minute of Flink and Spark writing while Trino
# and DuckDB read (test_three_engines.py).
flink_tests() {
  FIRN_BIN="$FIRN_BUILD_DIR/src/cli/firn" "$FIRN_ROOT/scripts/test_engines.sh" -m flink \
    --junitxml="$RESULTS_DIR/flink.xml"
}
trino_tests() {
  FIRN_BIN="$FIRN_BUILD_DIR/src/cli/firn" "$FIRN_ROOT/scripts/test_engines.sh" -m trino \
    --junitxml="$RESULTS_DIR/trino.xml"
}
three_engine_tests() {
  FIRN_BIN="$FIRN_BUILD_DIR/src/cli/firn" "$FIRN_ROOT/scripts/test_engines.sh" -m three_engines \
    --junitxml="$RESULTS_DIR/three-engines.xml"
}

# Vended credentials expire at the store and a refresh replaces them: STS's shortest session is
# 15 minutes, so this waits (idle) beside the other stages.
expiry_tests() {
  FIRN_BIN="$FIRN_BUILD_DIR/src/cli/firn" "$FIRN_ROOT/scripts/test_engines.sh" -m expiry \
    --junitxml="$RESULTS_DIR/expiry.xml"
}

# ---------------------------------------------------------------------------------------------
# Stages: name, the stages it needs, CPU slots it occupies, how it runs, its function.
# A stage starts once every stage it needs is ok (a failed or skipped need skips it) and its
# slots fit beside the running stages' (a stage always starts when nothing else runs). The
# order below is the order of preference when several are ready. Slots are measured CPU
# (docs/testbed.md, "CI stages"): compilers and ctest -j2 take both cores, the pytest suites
# about one (their servers wait on disk and network), downloads and the fuzzers' one core
# beside schemathesis' mostly idle server hardly any. "inline" stages run in this shell (their
# exports reach every stage started after them) and are short.
# ---------------------------------------------------------------------------------------------
declare -a ORDER=()
declare -A NEEDS=() CPU=() MODE=() FUNC=() STATE=() PID_OF=() T_START=() RESULT=() WHY=()

add_stage() {  # add_stage NAME "NEEDS" CPU bg|inline FUNCTION
  ORDER+=("$1"); NEEDS[$1]="$2"; CPU[$1]="$3"; MODE[$1]="$4"; FUNC[$1]="$5"; STATE[$1]=wait
}

add_stage install      ""                            1 bg     install_base
add_stage peers        "install"                     0 bg     install_peers
add_stage build        "install"                     2 bg     build_release
add_stage weed         "install"                     1 bg     install_weed
add_stage pg           "install"                     0 inline start_pg
add_stage console-deps "install"                     0 bg     install_console_deps
add_stage trino-deps   "peers"                       0 bg     install_trino
add_stage integration  "build"                       1 bg     integration_tests
add_stage s3           "peers weed"                  0 inline start_s3
add_stage unit         "build pg s3"                 2 bg     unit_tests
add_stage scenarios    "build"                       1 bg     scenario_tests
add_stage console      "build console-deps"          1 bg     console_tests
add_stage asan-build   "install"                     2 bg     build_asan
add_stage asan-unit    "asan-build pg s3"            2 bg     asan_unit_tests
add_stage expiry       "build peers s3"              0 bg     expiry_tests
add_stage engines      "build peers s3"              1 bg     engine_tests
add_stage flink        "build peers s3"              1 bg     flink_tests
add_stage trino        "build peers s3 trino-deps"   1 bg     trino_tests
add_stage three-engines "build peers s3 trino-deps"  1 bg     three_engine_tests
add_stage conformance  "build peers"                 1 bg     conformance_tests
add_stage schemathesis "build"                       1 bg     schemathesis_tests
add_stage fuzz-build   "install"                     2 bg     build_fuzz
add_stage fuzz         "fuzz-build"                  1 bg     fuzz_tests

# mm:ss since the run started.
offset() { awk -v a="$T_ALL" -v b="${1:-$(now_s)}" 'BEGIN { s = b - a; printf "%d:%02d", s / 60, s % 60 }'; }

used_slots() {
  local n=0 s
  for s in "${ORDER[@]}"; do [[ ${STATE[$s]} == run ]] && n=$((n + CPU[$s])); done
  echo "$n"
}

# run_stage NAME: the stage's function with its output in its log; its last line in
# LOG_DIR/NAME.rc is "exit-status wall-seconds cpu-seconds".
run_stage() {
  local name="$1" t0 rc=0 cpu0 cpu1
  t0="$(now_s)"
  child_cpu_s cpu0
  "${FUNC[$name]}" >"$LOG_DIR/$name.log" 2>&1 </dev/null || rc=$?
  child_cpu_s cpu1
  printf '%s %s %s\n' "$rc" "$(awk -v a="$t0" -v b="$(now_s)" 'BEGIN { printf "%.1f", b - a }')" \
    "$(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN { printf "%.0f", b - a }')" >"$LOG_DIR/$name.rc"
  return "$rc"
}

# child_cpu_s VAR: sets VAR to the user + system seconds of this shell's finished child
# processes (`times`, second line). `times` must run in this shell itself — a pipeline's or a
# $(…) subshell has no children of its own — so it writes to a file and VAR is set by name.
child_cpu_s() {
  local f="$LOG_DIR/.times.$BASHPID"
  times >"$f"
  printf -v "$1" '%s' "$(sed -n 2p "$f" | awk '{ n = 0; for (i = 1; i <= NF; i++) {
    split($i, p, "m"); n += p[1] * 60 + p[2] } printf "%.1f", n }')"
  rm -f "$f"
}

start_stage() {
  local name="$1"
  T_START[$name]="$(now_s)"
  STATE[$name]=run
  log "$(offset) start  $name"
  if [[ ${MODE[$name]} == inline ]]; then
    local rc=0
    run_stage "$name" || rc=$?
    finish_stage "$name" "$rc"
  else
    run_stage "$name" &
    PID_OF[$name]=$!
  fi
}

finish_stage() {
  local name="$1" rc="$2" wall cpu
  read -r _ wall cpu <"$LOG_DIR/$name.rc" 2>/dev/null || { wall="?"; cpu="?"; }
  RESULT[$name]="$wall $cpu"
  # The test runners' closing lines (pytest, ctest, the kit, the fuzzers) reach the console.
  grep -E "$CLOSING_LINES" "$LOG_DIR/$name.log" 2>/dev/null | sed "s/^/  $name | /" >&2
  if [[ $rc -eq 0 ]]; then
    STATE[$name]=ok
    log "$(offset) ok     $name (${wall}s)"
  else
    STATE[$name]=failed
    failed=1
    log "$(offset) FAILED $name (exit $rc, ${wall}s); log: $LOG_DIR/$name.log"
    if [[ $LOG_TAIL == 0 ]]; then cat "$LOG_DIR/$name.log" >&2
    else tail -n "$LOG_TAIL" "$LOG_DIR/$name.log" >&2; fi
    log "--- end of $name's log"
  fi
}

CLOSING_LINES='^=+ .*[0-9]+ (passed|failed|error|errors|skipped|deselected).* in [0-9.]+s.*=+$'
CLOSING_LINES+='|tests passed, [0-9]+ tests failed out of|^\[firn\] fuzz: [0-9]+ targets'
CLOSING_LINES+='|^rck: [0-9]+ passed|^selfcheck |^screenshot: '

# ready NAME: 0 = may start now, 1 = not yet, 2 = never (a need failed or was skipped).
ready() {
  local need
  for need in ${NEEDS[$1]}; do
    case "${STATE[$need]}" in
      ok) ;;
      failed|skipped) WHY[$1]="$need ${STATE[$need]}"; return 2 ;;
      *) return 1 ;;
    esac
  done
  return 0
}

schedule() {
  local name r used started
  while :; do
    started=0
    for name in "${ORDER[@]}"; do
      [[ ${STATE[$name]} == wait ]] || continue
      r=0; ready "$name" || r=$?
      if [[ $r -eq 2 ]]; then
        STATE[$name]=skipped
        log "$(offset) skip   $name (${WHY[$name]})"
        started=1
        continue
      fi
      [[ $r -eq 0 ]] || continue
      used="$(used_slots)"
      if [[ $used -eq 0 || $((used + CPU[$name])) -le $SLOTS ]]; then
        start_stage "$name"
        started=1
      fi
    done
    [[ $started -eq 1 ]] && continue
    local running=() pid
    for name in "${ORDER[@]}"; do [[ ${STATE[$name]} == run ]] && running+=("$name"); done
    [[ ${#running[@]} -eq 0 ]] && return
    local pids=() done_pid="" rc=0
    for name in "${running[@]}"; do pids+=("${PID_OF[$name]}"); done
    wait -n -p done_pid "${pids[@]}" || rc=$?
    for name in "${running[@]}"; do
      if [[ "${PID_OF[$name]}" == "$done_pid" ]]; then finish_stage "$name" "$rc"; fi
    done
  done
}

summary() {
  log "=== summary (slots: $SLOTS; wall and CPU seconds per stage; CPU/wall = cores used)"
  log "$(printf '  %-13s %-9s %6s %8s %8s %6s' stage status start wall cpu cores)"
  local name wall cpu cores start
  for name in "${ORDER[@]}"; do
    wall="-"; cpu="-"; cores="-"; start="-"
    if [[ -n "${RESULT[$name]:-}" ]]; then
      read -r wall cpu <<<"${RESULT[$name]}"
      cores="$(awk -v w="$wall" -v c="$cpu" 'BEGIN { if (w > 0) printf "%.2f", c / w }')"
      start="$(offset "${T_START[$name]}")"
    fi
    log "$(printf '  %-13s %-9s %6s %8s %8s %6s' "$name" "${STATE[$name]}" "$start" "$wall" \
           "$cpu" "$cores")"
  done
  log "  total $(elapsed "$T_ALL")"
  if [[ $failed -ne 0 ]]; then log "RESULT: FAILED"; else log "RESULT: ok"; fi
}

# On any exit: stop the stages still running (their process groups: this run's own), then
# the services, then remove the run's scratch space.
cleanup() {
  local name
  for name in "${ORDER[@]}"; do
    if [[ ${STATE[$name]} == run && -n "${PID_OF[$name]:-}" ]]; then
      kill -TERM -- "-${PID_OF[$name]}" 2>/dev/null || true
      STATE[$name]=failed
      failed=1
    fi
  done
  "$FIRN_ROOT/scripts/testbed/stop_s3.sh" >/dev/null 2>&1 || true
  [[ -n "$PG_DIR" ]] && "$FIRN_ROOT/scripts/pg.sh" destroy "$PG_DIR" >/dev/null 2>&1 || true
  summary
  if [[ "${FIRN_CI_KEEP_TMP:-0}" == 1 ]]; then log "scratch kept in $RUN_TMP"
  else rm -rf "$RUN_TMP"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "stages log to $LOG_DIR/<stage>.log"
schedule
exit "$failed"
