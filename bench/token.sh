#!/usr/bin/env bash
# Prints a bearer token for CLIENT_ID/CLIENT_SECRET from the Firn at $1 (http://host:port).
# Usage: bench/token.sh URL CLIENT_ID CLIENT_SECRET [SCOPE]
set -euo pipefail
curl -fsS "$1/v1/oauth/tokens" \
  --data-urlencode grant_type=client_credentials \
  --data-urlencode "client_id=$2" --data-urlencode "client_secret=$3" \
  --data-urlencode "scope=${4:-PRINCIPAL_ROLE:ALL}" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])'
