#!/usr/bin/env bash
# Starts the test bed's S3-compatible store (SeaweedFS `weed mini`, or moto as a fallback) on
# 127.0.0.1 and writes $FIRN_TESTBED_RUN/s3.env for tests to source:
#   FIRN_S3_FLAVOR=weed|moto  FIRN_S3_ENDPOINT=http://127.0.0.1:PORT  FIRN_S3_REGION
#   FIRN_S3_ACCESS_KEY / FIRN_S3_SECRET_KEY (static admin identity for the catalog)
#   FIRN_S3_TENANT_ACCESS_KEY / FIRN_S3_TENANT_SECRET_KEY (a second identity, weed only: a
#   catalog's named server-side keys)
#   FIRN_S3_BUCKET (created, empty)  FIRN_S3_ROLE_ARN (role to AssumeRole for vending)
#   FIRN_S3_SESSION_POLICY=1|0 (whether session policies are enforced)  FIRN_S3_PID
# Usage: start_s3.sh [auto|weed|moto]   (default auto: weed if built, else moto)
# Fails if a store started from the same run dir is still alive. Stop with stop_s3.sh.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/env.sh"

flavor="${1:-${FIRN_S3_FLAVOR:-auto}}"
RUN="$FIRN_TESTBED_RUN"
mkdir -p "$RUN"
if [[ -f "$RUN/s3.pid" ]] && kill -0 "$(cat "$RUN/s3.pid")" 2>/dev/null; then
  tb_die "a store is already running from $RUN (pid $(cat "$RUN/s3.pid")); run stop_s3.sh first"
fi
rm -f "$RUN/s3.env" "$RUN/s3.pid"

if [[ "$flavor" == auto ]]; then
  if [[ -x "$FIRN_WEED_BIN" ]]; then flavor=weed; else flavor=moto; fi
fi

# free_ports N -> N distinct loopback ports P below 55000 with P and P+10000 both free, all
# held open together while choosing so none is handed out twice.
free_ports() {
  python3 - "$1" <<'PY'
import random, socket, sys
held, ports = [], []
while len(ports) < int(sys.argv[1]):
    p = random.randint(20000, 54999)
    if p in ports or p + 10000 in ports:
        continue
    pair = []
    for q in (p, p + 10000):  # weed's gRPC port is HTTP+10000: both must be free
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", q))
        except OSError:
            s.close()
            break
        pair.append(s)
    if len(pair) < 2:
        for s in pair:
            s.close()
        continue
    held.extend(pair); ports.append(p)
print(" ".join(map(str, ports)))
PY
}

rand_hex() { python3 -c "import secrets,sys; print(secrets.token_hex(int(sys.argv[1])))" "$1"; }

# wait_http URL SECONDS PID : polls URL until it answers 2xx, the process dies, or time runs out.
wait_http() {
  local url="$1" secs="$2" pid="$3" i
  for ((i = 0; i < secs * 4; i++)); do
    curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.25
  done
  return 1
}

# s3_curl METHOD PATH : a SigV4-signed request with the static keys (curl >= 7.75).
s3_curl() {
  curl -fsS -o /dev/null --max-time 5 -X "$1" --aws-sigv4 "aws:amz:$FIRN_S3_REGION:s3" \
    --user "$ACCESS_KEY:$SECRET_KEY" "http://127.0.0.1:$S3_PORT$2"
}

write_env() {
  cat >"$RUN/s3.env.tmp" <<ENV
# Written by scripts/testbed/start_s3.sh; source it.
export FIRN_S3_FLAVOR=$1
export FIRN_S3_ENDPOINT=http://127.0.0.1:$S3_PORT
export FIRN_S3_REGION=$FIRN_S3_REGION
export FIRN_S3_ACCESS_KEY=$ACCESS_KEY
export FIRN_S3_SECRET_KEY=$SECRET_KEY
export FIRN_S3_TENANT_ACCESS_KEY=${TENANT_ACCESS_KEY:-}
export FIRN_S3_TENANT_SECRET_KEY=${TENANT_SECRET_KEY:-}
export FIRN_S3_BUCKET=$FIRN_S3_BUCKET
export FIRN_S3_ROLE_ARN=$ROLE_ARN
export FIRN_S3_SESSION_POLICY=$2
export FIRN_S3_PID=$PID
export FIRN_S3_LOG=$LOG
ENV
  mv "$RUN/s3.env.tmp" "$RUN/s3.env"
  echo "$PID" >"$RUN/s3.pid"
}

start_weed() {
  [[ -x "$FIRN_WEED_BIN" ]] || tb_die "weed binary missing: $FIRN_WEED_BIN (run install_weed.sh)"
  local data="$RUN/weed"
  rm -rf "$data" && mkdir -p "$data"
  ACCESS_KEY="${FIRN_S3_ACCESS_KEY:-FIRNCATALOG$(rand_hex 4 | tr a-f A-F)}"
  SECRET_KEY="${FIRN_S3_SECRET_KEY:-$(rand_hex 20)}"
  TENANT_ACCESS_KEY="FIRNTENANT$(rand_hex 4 | tr a-f A-F)"
  TENANT_SECRET_KEY="$(rand_hex 20)"
  ROLE_ARN="arn:aws:iam::role/vend"
  local signing; signing="$(python3 -c 'import base64,secrets; print(base64.b64encode(secrets.token_bytes(32)).decode())')"
  sed -e "s|@ACCESS_KEY@|$ACCESS_KEY|" -e "s|@SECRET_KEY@|$SECRET_KEY|" \
      -e "s|@TENANT_ACCESS_KEY@|$TENANT_ACCESS_KEY|" -e "s|@TENANT_SECRET_KEY@|$TENANT_SECRET_KEY|" \
      -e "s|@SIGNING_KEY_B64@|$signing|" -e "s|@BUCKET@|$FIRN_S3_BUCKET|g" \
      "$HERE/seaweed.json" >"$data/s3.json"
  chmod 600 "$data/s3.json"
  # weed reads security.toml from the working dir first: an empty one keeps host files out.
  : >"$data/security.toml"
  # Unix socket paths must stay under ~108 bytes: a deep run dir gets its sockets in /tmp.
  local sock="$data"
  (( ${#data} < 90 )) || sock="$(mktemp -d "${TMPDIR:-/tmp}/firn-weed.XXXXXX")"

  local p; read -r -a p <<<"$(free_ports 6)"
  S3_PORT="${FIRN_S3_PORT:-0}"; [[ "$S3_PORT" != 0 ]] || S3_PORT="${p[0]}"
  LOG="$RUN/weed.log"
  # Every port explicit: mini silently moves a busy *default* port, which would make the
  # endpoint we advertise wrong. gRPC ports are port+10000 (free_ports keeps them valid).
  (cd "$data" && exec "$FIRN_WEED_BIN" mini -dir="$data" -ip=127.0.0.1 -ip.bind=127.0.0.1 \
      -s3.port="$S3_PORT" -s3.port.grpc=$((S3_PORT + 10000)) \
      -master.port="${p[1]}" -master.port.grpc=$((p[1] + 10000)) \
      -volume.port="${p[2]}" -volume.port.grpc=$((p[2] + 10000)) \
      -filer.port="${p[3]}" -filer.port.grpc=$((p[3] + 10000)) \
      -admin.port="${p[4]}" -admin.port.grpc=$((p[4] + 10000)) -admin.port.legacy=0 \
      -admin.ui=false -webdav=false -s3.port.iceberg=0 -s3.port.lance=0 \
      -master.telemetry=false -s3.iam.readOnly=true \
      -filer.localSocket="$sock/filer.sock" -s3.localSocket="$sock/s3.sock" \
      -s3.config="$data/s3.json" -s3.iam.config="$data/s3.json" \
      -bucket="$FIRN_S3_BUCKET" -s3.autoCreateBucket=false \
      >"$LOG" 2>&1 </dev/null) &
  PID=$!
  echo "$PID" >"$RUN/s3.pid"
  local t0=$SECONDS
  wait_http "http://127.0.0.1:$S3_PORT/status" 90 "$PID" \
    || { tail -30 "$LOG" >&2; tb_die "weed mini did not become ready (log: $LOG)"; }
  # The -bucket is created asynchronously after S3 is up: wait until a signed list succeeds.
  local i
  for ((i = 0; i < 120; i++)); do
    s3_curl GET "/$FIRN_S3_BUCKET?list-type=2" 2>/dev/null && break
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.25
  done
  s3_curl GET "/$FIRN_S3_BUCKET?list-type=2" \
    || { tail -30 "$LOG" >&2; tb_die "bucket $FIRN_S3_BUCKET not reachable with the static keys"; }
  write_env weed 1
  tb_log "weed mini ready on 127.0.0.1:$S3_PORT in $((SECONDS - t0))s (pid $PID, log $LOG)"
}

start_moto() {
  "$HERE/install_moto.sh" >/dev/null
  S3_PORT="${FIRN_S3_PORT:-0}"; [[ "$S3_PORT" != 0 ]] || S3_PORT="$(free_ports 1)"
  LOG="$RUN/moto.log"
  # Auth stays off until moto_bootstrap.py has made the user, role and bucket, then turns it on.
  (cd "$RUN" && exec "$FIRN_MOTO_VENV/bin/moto_server" -H 127.0.0.1 -p "$S3_PORT" \
      >"$LOG" 2>&1 </dev/null) &
  PID=$!
  echo "$PID" >"$RUN/s3.pid"
  local t0=$SECONDS
  wait_http "http://127.0.0.1:$S3_PORT/moto-api/" 60 "$PID" \
    || { tail -30 "$LOG" >&2; tb_die "moto did not become ready (log: $LOG)"; }
  local keys
  keys="$("$FIRN_MOTO_VENV/bin/python" "$HERE/moto_bootstrap.py" "http://127.0.0.1:$S3_PORT" \
    "$FIRN_S3_BUCKET" "$FIRN_S3_REGION")" || tb_die "moto bootstrap failed"
  read -r ACCESS_KEY SECRET_KEY ROLE_ARN <<<"$keys"
  write_env moto 0
  tb_log "moto ready on 127.0.0.1:$S3_PORT in $((SECONDS - t0))s (pid $PID; session policies NOT enforced)"
}

# A failed start must not leave the half-started server behind.
on_fail() { [[ -n "${PID:-}" ]] && "$HERE/stop_s3.sh"; }
trap '[[ $? -eq 0 ]] || on_fail' EXIT
PID=""

case "$flavor" in
  weed) start_weed ;;
  moto) start_moto ;;
  *) tb_die "unknown flavor: $flavor (auto|weed|moto)" ;;
esac
echo "$RUN/s3.env"
