#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, `fuzz` preset: clang 16 with
# -fsanitize=fuzzer,address,undefined, into build/fuzz) and runs each for a bounded time.
# Fails when any target finds a crash, a sanitizer report, a leak, a timeout or an OOM; the
# reproducer is left in build/fuzz/artifacts/<target>/. Prints executions per target.
#
#   scripts/fuzz.sh [--seconds N] [--jobs J] [--only t1,t2] [--no-build|--build-only] [--merge]
#     --seconds N  time per target (default 20)
#     --build-only build the targets and stop (CI builds them beside other stages)
#     --jobs J     targets run at once (default 1; each uses one core)
#     --only       a comma-separated subset of targets
#     --merge      afterwards, minimise what was found into build/fuzz/corpus-min/<target>
#                  (to review and copy into tests/fuzz/corpus/ by hand)
#
# Each target reads its seed corpus tests/fuzz/corpus/<target>/ (never written) and keeps what
# it discovers in build/fuzz/corpus/<target>/, so local runs build on earlier ones.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$FIRN_ROOT"

SECONDS_PER_TARGET=20
JOBS=1
ONLY=""
BUILD=1
MERGE=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) SECONDS_PER_TARGET="$2"; shift 2 ;;
    --jobs) JOBS="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    --build-only) BUILD=2; shift ;;
    --merge) MERGE=1; shift ;;
    *) die "usage: $0 [--seconds N] [--jobs J] [--only t1,t2] [--no-build|--build-only] [--merge]" ;;
  esac
done

FUZZ_DIR="$FIRN_ROOT/build/fuzz"
SRC_DIR="$FIRN_ROOT/tests/fuzz"
# Every target: tests/fuzz/<name>_fuzz.cc.
mapfile -t ALL < <(find "$SRC_DIR" -maxdepth 1 -name '*_fuzz.cc' -printf '%f\n' |
                   sed 's/_fuzz\.cc$//' | sort)
if [[ -n "$ONLY" ]]; then IFS=',' read -r -a TARGETS <<<"$ONLY"; else TARGETS=("${ALL[@]}"); fi

build() {
  if [[ ! -f "$FUZZ_DIR/build.ninja" ]]; then
    run_quiet "cmake configure (fuzz)" cmake --preset fuzz || return 1
  fi
  run_quiet "fuzz build" cmake --build "$FUZZ_DIR" -j"${FIRN_JOBS:-2}" --target firn_fuzzers
}

# ASan: leaks fail the run; UBSan reports abort (the preset also sets no-recover).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
SYMBOLIZER="$(command -v llvm-symbolizer-16 || command -v llvm-symbolizer || true)"
[[ -n "$SYMBOLIZER" ]] && export ASAN_SYMBOLIZER_PATH="$SYMBOLIZER"

# run_target NAME: one bounded libFuzzer run; the log is build/fuzz/logs/NAME.log.
run_target() {
  local name="$1" bin="$FUZZ_DIR/bin/fuzz_$1"
  local work="$FUZZ_DIR/corpus/$name" seeds="$SRC_DIR/corpus/$name"
  local artifacts="$FUZZ_DIR/artifacts/$name/" log="$FUZZ_DIR/logs/$name.log"
  mkdir -p "$work" "$artifacts" "$(dirname "$log")"
  [[ -x "$bin" ]] || { echo "missing $bin" >"$log"; return 1; }
  local args=(-max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2560
              -print_final_stats=1 -artifact_prefix="$artifacts")
  [[ -f "$SRC_DIR/dict/$name.dict" ]] && args+=(-dict="$SRC_DIR/dict/$name.dict")
  "$bin" "${args[@]}" "$work" "$seeds" >"$log" 2>&1
}

report() {
  local name="$1" rc="$2" log="$FUZZ_DIR/logs/$1.log" execs cov
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  cov="$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)"
  printf '%-16s %-8s %12s execs  cov %s\n' "$name" "$([[ $rc -eq 0 ]] && echo ok || echo FAILED)" \
    "${execs:-?}" "${cov:-?}" >&2
  if [[ $rc -ne 0 ]]; then
    log "fuzz_$name failed (exit $rc); the end of its log ($log):"
    tail -60 "$log" >&2
    ls "$FUZZ_DIR/artifacts/$name/" >&2 2>/dev/null || true
  fi
  echo "${execs:-0}" >>"$FUZZ_DIR/logs/.execs"
}

if [[ $BUILD -ge 1 ]]; then timed "fuzz: build" build || exit 1; fi
[[ $BUILD -eq 2 ]] && exit 0

failed=0
rm -f "$FUZZ_DIR/logs/.execs"
mkdir -p "$FUZZ_DIR/logs"
T0="$(now_s)"
declare -A PIDS=()
for name in "${TARGETS[@]}"; do
  while [[ ${#PIDS[@]} -ge $JOBS ]]; do
    wait -n -p done_pid || true
    for n in "${!PIDS[@]}"; do
      if [[ "${PIDS[$n]}" == "$done_pid" ]]; then
        wait "$done_pid"; rc=$?; unset "PIDS[$n]"; report "$n" "$rc"; [[ $rc -ne 0 ]] && failed=1
      fi
    done
  done
  run_target "$name" &
  PIDS[$name]=$!
done
for n in "${!PIDS[@]}"; do
  wait "${PIDS[$n]}"; rc=$?; report "$n" "$rc"; [[ $rc -ne 0 ]] && failed=1
done
total="$(awk '{ s += $1 } END { print s + 0 }' "$FUZZ_DIR/logs/.execs")"
log "fuzz: ${#TARGETS[@]} targets x ${SECONDS_PER_TARGET}s, $total executions ($(elapsed "$T0"))"

if [[ $MERGE -eq 1 ]]; then
  for name in "${TARGETS[@]}"; do
    mkdir -p "$FUZZ_DIR/corpus-min/$name"
    run_quiet "merge $name" "$FUZZ_DIR/bin/fuzz_$name" -merge=1 "$FUZZ_DIR/corpus-min/$name" \
      "$SRC_DIR/corpus/$name" "$FUZZ_DIR/corpus/$name" || failed=1
  done
fi
exit "$failed"
