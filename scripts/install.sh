#!/usr/bin/env bash
# Installs what building and testing Firn needs. Idempotent and cached; quiet unless a step fails.
#   scripts/install.sh              apt build packages + Python test venv
#   scripts/install.sh --build-deps apt build packages only (what scripts/serve.sh needs)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

APT_PACKAGES=(
  build-essential cmake ninja-build ccache g++
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
  libcurl4-openssl-dev libssl-dev libsqlite3-dev sqlite3 zlib1g-dev
  libspdlog-dev libfmt-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev
  libavro-dev libpq-dev postgresql-15 wrk maven openjdk-17-jdk-headless
  # libFuzzer targets (scripts/fuzz.sh): clang 16, its sanitizer/fuzzer runtimes, llvm-symbolizer.
  # clang 14 cannot compile libstdc++ 12's std::expected (docs/decisions.md).
  clang-16 libclang-rt-16-dev llvm-16
)
PYTHON="${FIRN_PYTHON:-python3.11}"
REQUIREMENTS="$FIRN_ROOT/scripts/requirements-test.txt"

with_venv=1
case "${1:-}" in
  --build-deps) with_venv=0 ;;
  "") ;;
  *) die "usage: $0 [--build-deps]" ;;
esac

install_apt() { apt_install_missing "${APT_PACKAGES[@]}"; }

# The venv is rebuilt when requirements-test.txt or the interpreter version changes.
install_venv() {
  local stamp="$FIRN_VENV/.firn-stamp" want
  want="$( { sha256sum "$REQUIREMENTS" | cut -d' ' -f1; "$PYTHON" --version; } | tr '\n' ' ')"
  if [[ -x "$FIRN_VENV/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    return 0
  fi
  log "creating Python venv at $FIRN_VENV"
  rm -rf "$FIRN_VENV"
  run_quiet "venv" "$PYTHON" -m venv "$FIRN_VENV"
  run_quiet "pip install" "$FIRN_VENV/bin/pip" install -q --disable-pip-version-check \
    -r "$REQUIREMENTS"
  printf '%s' "$want" >"$stamp"
}

timed "install: apt packages" install_apt
if [[ $with_venv -eq 1 ]]; then
  timed "install: python venv" install_venv
fi
