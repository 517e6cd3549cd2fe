#!/usr/bin/env bash
# Builds the unit tests under the `asan-ubsan` preset (g++ -fsanitize=address,undefined, into
# build/asan-ubsan; incremental, and ccache makes a fresh checkout cheap) and runs them with
# ctest. Any sanitizer report fails the test that triggered it (UBSan does not recover; ASan
# aborts and reports leaks). Benchmarks are not built here.
#   scripts/test_asan.sh [--build-only|--no-build] [ctest args...]
#                                           e.g. scripts/test_asan.sh -R firn_rest_test
# (CI builds with --build-only beside other stages, then runs the tests with --no-build.)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$FIRN_ROOT"

ASAN_DIR="$FIRN_ROOT/build/asan-ubsan"
configure() {
  [[ -f "$ASAN_DIR/build.ninja" ]] && return 0
  run_quiet "cmake configure (asan-ubsan)" cmake --preset asan-ubsan -DFIRN_BUILD_BENCH=OFF
}
build() { run_quiet "asan-ubsan build" cmake --build "$ASAN_DIR" -j"${FIRN_JOBS:-2}"; }

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

step=all
case "${1:-}" in
  --build-only) step=build; shift ;;
  --no-build) step=test; shift ;;
esac
if [[ $step != test ]]; then
  timed "asan: configure" configure || exit 1
  timed "asan: build" build || exit 1
fi
[[ $step == build ]] && exit 0
mkdir -p "$FIRN_BUILD_DIR/test-results"
ctest --test-dir "$ASAN_DIR" --output-on-failure --no-tests=error -j2 \
  --output-junit "$FIRN_BUILD_DIR/test-results/unit-asan.xml" "$@"
