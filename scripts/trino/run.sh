#!/usr/bin/env bash
# Opt-in end-to-end check: Trino's Iceberg connector (REST catalog type) against Firn.
# Starts Firn on a fresh temp data dir (file:// warehouse) and a single-node Trino on free
# loopback ports, runs SHOW SCHEMAS / CREATE SCHEMA / CREATE TABLE / INSERT / SELECT through the
# Trino CLI, prints PASS/FAIL per step with timings, and stops only the processes it started.
# Exit: 0 when every step passes, 1 otherwise. Not part of CI (2-3 GB RSS, ~30 s start).
#   scripts/trino/run.sh            file:// warehouse (scenarios A and B)
#   scripts/trino/run.sh --vended   s3:// warehouse on the S3 test bed (SeaweedFS with STS):
#                                   Trino holds no storage key and works on vended credentials
# Env: TRINO_VERSION (default 476), FIRN_BIN (default build/release/src/cli/firn),
#      JAVA_HOME (default /usr/lib/jvm/temurin-25-jdk-amd64), KEEP_TMP=1 keeps the temp dir,
#      FIRN_TESTBED_RUN (--vended: use the store it describes instead of starting one).
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TRINO_VERSION="${TRINO_VERSION:-476}"
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"  # FIRN_CACHE, now_s, elapsed
TRINO_HOME="$FIRN_CACHE/trino/$TRINO_VERSION"
FIRN_BIN="${FIRN_BIN:-$ROOT/build/release/src/cli/firn}"
export JAVA_HOME="${JAVA_HOME_TRINO:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"

log() { printf '[trino-run] %s\n' "$*" >&2; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

MODE=file
[[ "${1:-}" == --vended ]] && MODE=vended

[[ -x "$FIRN_BIN" ]] || { log "firn binary not found at $FIRN_BIN (build it or set FIRN_BIN)"; exit 1; }
[[ -x "$JAVA" ]] || { log "Java not found at $JAVA"; exit 1; }
"$HERE/install.sh" || { log "install failed"; exit 1; }

TMP="$(mktemp -d "${TMPDIR:-/tmp}/firn-trino.XXXXXX")"
FIRN_PORT="${FIRN_PORT:-$(free_port)}"
TRINO_PORT="$(free_port)"
FIRN_PID=""
TRINO_PID=""
STARTED_S3=""

cleanup() {
  # Stop only what this script started, by PID.
  if [[ -n "$TRINO_PID" ]] && kill -0 "$TRINO_PID" 2>/dev/null; then
    kill "$TRINO_PID" 2>/dev/null
    for _ in $(seq 1 30); do kill -0 "$TRINO_PID" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$TRINO_PID" 2>/dev/null
  fi
  if [[ -n "$FIRN_PID" ]] && kill -0 "$FIRN_PID" 2>/dev/null; then
    kill "$FIRN_PID" 2>/dev/null
    wait "$FIRN_PID" 2>/dev/null
  fi
  if [[ -n "$STARTED_S3" ]]; then FIRN_TESTBED_RUN="$STARTED_S3" "$ROOT/scripts/testbed/stop_s3.sh" || true; fi
  if [[ "${KEEP_TMP:-0}" == 1 ]]; then log "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT

FAILS=0
PASSES=0
# report NAME RC T0 [DETAIL]
report() {
  if [[ "$2" -eq 0 ]]; then
    printf 'PASS  %-28s %8s\n' "$1" "$(elapsed "$3")"; PASSES=$((PASSES + 1))
  else
    printf 'FAIL  %-28s %8s  %s\n' "$1" "$(elapsed "$3")" "${4:-}"; FAILS=$((FAILS + 1))
  fi
}

# --- the S3 test bed (--vended) --------------------------------------------------------------
FIRN_ARGS=()
if [[ $MODE == vended ]]; then
  if [[ -z "${FIRN_TESTBED_RUN:-}" || ! -f "${FIRN_TESTBED_RUN}/s3.env" ]]; then
    export FIRN_TESTBED_RUN="$TMP/testbed"
    "$ROOT/scripts/testbed/start_s3.sh" weed >/dev/null || { log "cannot start SeaweedFS"; exit 1; }
    STARTED_S3="$FIRN_TESTBED_RUN"
  fi
  # shellcheck disable=SC1091
  source "$FIRN_TESTBED_RUN/s3.env"
  S3_WAREHOUSE="s3://$FIRN_S3_BUCKET/trino-$$"
  FIRN_ARGS=(--warehouse "$S3_WAREHOUSE" --s3-endpoint "$FIRN_S3_ENDPOINT" --s3-region "$FIRN_S3_REGION"
             --s3-access-key-id "$FIRN_S3_ACCESS_KEY" --s3-role-arn "$FIRN_S3_ROLE_ARN"
             --vended-credentials-seconds 900)
  export FIRN_S3_SECRET_ACCESS_KEY="$FIRN_S3_SECRET_KEY"
fi

# --- Firn -------------------------------------------------------------------------------
t0=$(now_s)
mkdir -p "$TMP/firn"
# Authentication is on: the first start bootstraps an admin whose client credentials Trino uses
# (OAuth2 client credentials against Firn's token endpoint).
TRINO_CLIENT_ID="trino$$"
TRINO_SECRET="$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
export FIRN_BOOTSTRAP_CREDENTIALS="default,$TRINO_CLIENT_ID,$TRINO_SECRET"
# The store's keys stay with Firn: Trino's environment never has them.
"$FIRN_BIN" serve --data-dir "$TMP/firn" --listen "127.0.0.1:$FIRN_PORT" --log-level debug "${FIRN_ARGS[@]}" >"$TMP/firn.log" 2>&1 &
SECRET_TO_CHECK="${FIRN_S3_SECRET_KEY:-}"
unset FIRN_S3_SECRET_ACCESS_KEY FIRN_S3_SECRET_KEY FIRN_S3_ACCESS_KEY FIRN_BOOTSTRAP_CREDENTIALS
FIRN_PID=$!
rc=1
for _ in $(seq 1 100); do
  # Up once it answers (401 without a token).
  code="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$FIRN_PORT/v1/config")"
  if [[ "$code" == 401 || "$code" == 200 ]]; then rc=0; break; fi
  kill -0 "$FIRN_PID" 2>/dev/null || break
  sleep 0.1
done
report "firn start" "$rc" "$t0" "see $TMP/firn.log"
if [[ $rc -ne 0 ]]; then KEEP_TMP=1; tail -20 "$TMP/firn.log" >&2; exit 1; fi

# --- Trino config ------------------------------------------------------------------------
ETC="$TMP/trino/etc"
mkdir -p "$ETC/catalog" "$TMP/trino/data"
cat >"$ETC/node.properties" <<PROPS
node.environment=test
node.id=firn-trino-check
node.data-dir=$TMP/trino/data
PROPS
cat >"$ETC/config.properties" <<PROPS
coordinator=true
node-scheduler.include-coordinator=true
http-server.http.port=$TRINO_PORT
discovery.uri=http://127.0.0.1:$TRINO_PORT
query.max-memory=1GB
query.max-memory-per-node=512MB
PROPS
cat >"$ETC/jvm.config" <<PROPS
-server
-Xmx2G
-XX:+UseG1GC
-XX:+ExitOnOutOfMemoryError
-Djdk.attach.allowAttachSelf=true
PROPS
cat >"$ETC/log.properties" <<PROPS
io.trino=INFO
PROPS
# The catalog: Firn's REST endpoint, logged in with the bootstrapped admin's client credentials.
cat >"$ETC/catalog/iceberg.properties" <<PROPS
connector.name=iceberg
iceberg.catalog.type=rest
iceberg.rest-catalog.uri=${REST_URI:-http://127.0.0.1:$FIRN_PORT}
iceberg.rest-catalog.security=OAUTH2
iceberg.rest-catalog.oauth2.credential=$TRINO_CLIENT_ID:$TRINO_SECRET
iceberg.rest-catalog.oauth2.scope=PRINCIPAL_ROLE:ALL
iceberg.rest-catalog.oauth2.server-uri=http://127.0.0.1:$FIRN_PORT/v1/oauth/tokens
PROPS
if [[ $MODE == vended ]]; then
  # Vended credentials: Trino asks for them (X-Iceberg-Access-Delegation) and uses them for
  # every file of the table. It takes the endpoint, region and addressing from its own catalog
  # properties, not from the table's config, so `s3.endpoint` must name the endpoint Firn tells
  # clients (s3-client-endpoint / the profile's `endpoint`). No key anywhere.
  cat >>"$ETC/catalog/iceberg.properties" <<PROPS
iceberg.rest-catalog.vended-credentials-enabled=true
fs.native-s3.enabled=true
s3.endpoint=$FIRN_S3_ENDPOINT
s3.region=$FIRN_S3_REGION
s3.path-style-access=true
PROPS
else
  # Firn hands out file:// table locations; Trino's native local file system accepts the
  # 'file' and 'local' schemes and resolves paths under local.location, so the root is '/'.
  cat >>"$ETC/catalog/iceberg.properties" <<PROPS
fs.native-local.enabled=true
local.location=/
PROPS
fi

# --- Trino start --------------------------------------------------------------------------
t0=$(now_s)
# `launcher run` execs java in the foreground, so $! is the JVM's PID (or its launcher parent).
"$TRINO_HOME/server/bin/launcher" run --etc-dir="$ETC" --data-dir="$TMP/trino/data" \
  -Dnode.id=firn-trino-check >"$TMP/trino.log" 2>&1 &
TRINO_PID=$!
rc=1
for _ in $(seq 1 240); do
  if curl -fs "http://127.0.0.1:$TRINO_PORT/v1/info" 2>/dev/null | grep -q '"starting":false'; then rc=0; break; fi
  kill -0 "$TRINO_PID" 2>/dev/null || break
  sleep 0.5
done
report "trino start" "$rc" "$t0" "see $TMP/trino.log"
if [[ $rc -ne 0 ]]; then KEEP_TMP=1; grep -E "ERROR|Exception" "$TMP/trino.log" | head -20 >&2; exit 1; fi

# --- SQL steps -----------------------------------------------------------------------------
# sql SQL : runs one statement through the CLI; stdout in $OUT, stderr in $ERR, exit status
# returned. The CLI's JVM/jline warnings go to stderr and are ignored unless the statement fails.
OUT=""
ERR=""
sql() {
  local rc=0
  OUT="$("$JAVA" --enable-native-access=ALL-UNNAMED -jar "$TRINO_HOME/trino-cli.jar" \
           --server "http://127.0.0.1:$TRINO_PORT" --catalog iceberg --output-format CSV \
           --execute "$1" 2>"$TMP/cli.err")" || rc=$?
  ERR="$(grep -vE '^(WARNING|[A-Z][a-z]{2} [0-9]+, [0-9]{4} )' "$TMP/cli.err")"
  return "$rc"
}
# step NAME SQL [EXPECTED] : PASS when the statement succeeds and (if given) its output equals EXPECTED.
step() {
  local name="$1" q="$2" want="${3-}" t0 rc
  t0=$(now_s)
  rc=0; sql "$q" || rc=$?
  [[ $rc -ne 0 ]] && OUT="$ERR"
  if [[ $rc -eq 0 && $# -ge 3 && "$OUT" != "$want" ]]; then
    rc=1; OUT="expected [$(echo "$want" | tr '\n' '|')] got [$(echo "$OUT" | tr '\n' '|')]"
  fi
  report "$name" "$rc" "$t0" "$(echo "$OUT" | tail -n 3 | tr '\n' ' ')"
}

if [[ $MODE == vended ]]; then
  # Scenario V: Firn places the tables; Trino writes and reads them on vended credentials.
  V="firn_trino_v_$$"
  step "V CREATE SCHEMA"       "CREATE SCHEMA iceberg.$V"
  step "V CREATE TABLE"        "CREATE TABLE iceberg.$V.t (id BIGINT, name VARCHAR)"
  step "V INSERT"              "INSERT INTO iceberg.$V.t VALUES (1, 'one'), (2, 'two')"
  step "V SELECT rows"         "SELECT id, name FROM iceberg.$V.t ORDER BY id" $'"1","one"\n"2","two"'
  step "V INSERT (2nd commit)" "INSERT INTO iceberg.$V.t VALUES (3, 'three')"
  step "V SELECT count/sum"    "SELECT count(*), sum(id) FROM iceberg.$V.t" '"3","6"'
  step "V CTAS"                "CREATE TABLE iceberg.$V.t2 AS SELECT id * 10 AS x FROM iceberg.$V.t"
  step "V SELECT CTAS"         "SELECT sum(x) FROM iceberg.$V.t2" '"60"'
  step "V DROP TABLE t2"       "DROP TABLE iceberg.$V.t2"
  step "V DROP TABLE"          "DROP TABLE iceberg.$V.t"
  step "V DROP SCHEMA"         "DROP SCHEMA iceberg.$V"
  if grep -qF "$SECRET_TO_CHECK" "$TMP/firn.log" || grep -q 's3.session-token":"[^"]' "$TMP/firn.log"; then
    report "no secret in firn's log" 1 "$(now_s)"
  else
    report "no secret in firn's log" 0 "$(now_s)"
  fi
  echo "$PASSES passed, $FAILS failed"
  if [[ $FAILS -ne 0 ]]; then KEEP_TMP=1; exit 1; fi
  exit 0
fi

# The default catalog lives in <warehouse>/<catalog name> (docs/storage.md).
WH="file://$TMP/firn/warehouse/default"
# Scenario A: schema created with an explicit location. Trino then picks a unique table location
# under it and creates the table through a staged create (stage-create=true) + commit.
A="firn_trino_a_$$"
step "A SHOW SCHEMAS"        "SHOW SCHEMAS FROM iceberg"
step "A CREATE SCHEMA (loc)" "CREATE SCHEMA iceberg.$A WITH (location = '$WH/$A')"
step "A SHOW SCHEMAS (new)"  "SHOW SCHEMAS FROM iceberg LIKE '$A'" "\"$A\""
step "A CREATE TABLE"        "CREATE TABLE iceberg.$A.t (id BIGINT, name VARCHAR, ts TIMESTAMP(6)) WITH (format = 'PARQUET')"
step "A INSERT"              "INSERT INTO iceberg.$A.t VALUES (1, 'one', TIMESTAMP '2026-01-01 00:00:00'), (2, 'two', TIMESTAMP '2026-01-02 00:00:00'), (3, 'three', NULL)"
step "A SELECT rows"         "SELECT id, name FROM iceberg.$A.t ORDER BY id" $'"1","one"\n"2","two"\n"3","three"'
step "A SELECT count/sum"    "SELECT count(*), sum(id) FROM iceberg.$A.t" '"3","6"'
step "A INSERT (2nd commit)" "INSERT INTO iceberg.$A.t VALUES (4, 'four', NULL)"
# 3 snapshots: Trino commits an empty append when it finishes CREATE TABLE, then one per INSERT.
step "A SELECT \$snapshots"  "SELECT count(*) FROM iceberg.$A.\"t\$snapshots\"" '"3"'
step "A SELECT after 2nd"    "SELECT count(*) FROM iceberg.$A.t" '"4"'
step "A CTAS"                "CREATE TABLE iceberg.$A.t2 AS SELECT id * 10 AS x FROM iceberg.$A.t"
step "A SELECT CTAS"         "SELECT sum(x) FROM iceberg.$A.t2" '"100"'
step "A DROP TABLE t2"       "DROP TABLE iceberg.$A.t2"
step "A DROP TABLE"          "DROP TABLE iceberg.$A.t"
step "A DROP SCHEMA"         "DROP SCHEMA iceberg.$A"

# Scenario B: plain CREATE SCHEMA, so the table location comes from Firn's defaults.
B="firn_trino_b_$$"
step "B CREATE SCHEMA"       "CREATE SCHEMA iceberg.$B"
step "B CREATE TABLE"        "CREATE TABLE iceberg.$B.t (id BIGINT, name VARCHAR)"
step "B INSERT"              "INSERT INTO iceberg.$B.t VALUES (1, 'one'), (2, 'two')"
step "B SELECT rows"         "SELECT id, name FROM iceberg.$B.t ORDER BY id" $'"1","one"\n"2","two"'
step "B DROP TABLE"          "DROP TABLE iceberg.$B.t"
step "B DROP SCHEMA"         "DROP SCHEMA iceberg.$B"

echo "$PASSES passed, $FAILS failed"
if [[ $FAILS -ne 0 ]]; then KEEP_TMP=1; exit 1; fi
exit 0
