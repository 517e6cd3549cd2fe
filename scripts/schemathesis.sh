#!/usr/bin/env bash
# Schemathesis against a live, authenticated `firn serve` (tests/schemathesis), from the
# OpenAPI documents Firn serves. Bounded and seeded: FIRN_ST_MAX_EXAMPLES (default 12) examples
# per operation, FIRN_ST_SEED, FIRN_ST_MAX_TIME seconds per document. Fails on any 5xx or any
# answer that contradicts the document. Extra arguments go to pytest.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$FIRN_ROOT"
FIRN_BIN="${FIRN_BIN:-$FIRN_BUILD_DIR/src/cli/firn}" \
  "$FIRN_VENV/bin/python" -m pytest tests/schemathesis -ra -s \
    --junitxml="$FIRN_BUILD_DIR/test-results/schemathesis.xml" "$@"
