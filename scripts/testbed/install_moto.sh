#!/usr/bin/env bash
# Installs moto[server]==$FIRN_MOTO_VERSION into its own venv ($FIRN_MOTO_VENV), the fallback
# store when weed cannot be built. Idempotent (stamp file per version). Prints the venv path.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

stamp="$FIRN_MOTO_VENV/.firn-moto-$FIRN_MOTO_VERSION"
if [[ ! -f "$stamp" ]]; then
  python="${FIRN_PYTHON:-$(command -v python3.11 || command -v python3)}"
  rm -rf "$FIRN_MOTO_VENV"
  "$python" -m venv "$FIRN_MOTO_VENV"
  "$FIRN_MOTO_VENV/bin/pip" install -q --disable-pip-version-check "moto[server]==$FIRN_MOTO_VERSION"
  touch "$stamp"
fi
echo "$FIRN_MOTO_VENV"
