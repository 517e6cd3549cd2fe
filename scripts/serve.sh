#!/usr/bin/env bash
# Installs build dependencies, builds, then runs `firn serve` with the given arguments.
# With no arguments: data in ./.firn (SQLite + file:// warehouse; the signing-key KEK in
# ./.firn.kek), listening on 127.0.0.1:8181.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

"$FIRN_ROOT/scripts/install.sh" --build-deps
"$FIRN_ROOT/scripts/build.sh" --target firn >&2
exec "$FIRN_BUILD_DIR/src/cli/firn" serve "$@"
