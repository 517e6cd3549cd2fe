# shellcheck shell=bash
# Test-bed settings shared by scripts/testbed/*.sh. Source it; do not run it.
# Contract: only sets and exports variables (and creates the cache dirs); every value can be
# overridden from the environment. No side effects beyond mkdir.

# FIRN_CACHE and the other project-wide settings come from scripts/lib.sh.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# SeaweedFS has no semver tags; the Go proxy serves pseudo-versions. This one (2026-11-09, after
# tag 4.44) builds with go1.26 through a wrapper module; see docs/testbed.md for how it was chosen.
FIRN_WEED_VERSION="${FIRN_WEED_VERSION:-v0.0.0-20261109003541-7506e5f91cd6}"
FIRN_WEED_BIN="${FIRN_WEED_BIN:-$FIRN_CACHE/bin/weed-$FIRN_WEED_VERSION}"
FIRN_MOTO_VERSION="${FIRN_MOTO_VERSION:-5.2.5}"
FIRN_MOTO_VENV="${FIRN_MOTO_VENV:-$FIRN_CACHE/moto-venv}"
# Go state stays under the firn cache so CI machines reuse it and nothing leaks into ~/go.
export GOPATH="${GOPATH:-$FIRN_CACHE/go}"
export GOMODCACHE="${GOMODCACHE:-$FIRN_CACHE/go/mod}"
export GOCACHE="${GOCACHE:-$FIRN_CACHE/go/build}"
# Where start_s3.sh keeps data, logs, the pid and s3.env. One run dir per started store.
FIRN_TESTBED_RUN="${FIRN_TESTBED_RUN:-${TMPDIR:-/tmp}/firn-testbed}"
# 0 = pick a free loopback port.
FIRN_S3_PORT="${FIRN_S3_PORT:-0}"
FIRN_S3_BUCKET="${FIRN_S3_BUCKET:-warehouse}"
FIRN_S3_REGION="${FIRN_S3_REGION:-us-east-1}"
export FIRN_CACHE FIRN_WEED_VERSION FIRN_WEED_BIN FIRN_MOTO_VERSION FIRN_MOTO_VENV
export FIRN_TESTBED_RUN FIRN_S3_PORT FIRN_S3_BUCKET FIRN_S3_REGION
mkdir -p "$FIRN_CACHE/bin" "$GOMODCACHE" "$GOCACHE"

tb_log() { printf '[testbed] %s\n' "$*" >&2; }
tb_die() { printf '[testbed] ERROR: %s\n' "$*" >&2; exit 1; }
