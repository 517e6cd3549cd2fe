#!/usr/bin/env bash
# Configures (first time only; Ninja re-runs CMake when lists change) and builds the `release`
# preset into build/release. Extra arguments go to `cmake --build` (e.g. --target firn).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$FIRN_ROOT"

JOBS="${FIRN_JOBS:-2}"

configure() {
  if [[ -f "$FIRN_BUILD_DIR/build.ninja" ]]; then return 0; fi
  run_quiet "cmake configure" cmake --preset release
}

build() {
  cmake --build --preset release -j"$JOBS" "$@"
}

timed "build: configure" configure
timed "build: compile" build "$@"
