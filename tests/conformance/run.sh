#!/usr/bin/env bash
# Runs the Apache Iceberg REST Compatibility Kit (RCK) against a REST catalog.
#
# Usage: tests/conformance/run.sh [--uri URL | --reference] [--reports-dir DIR]
#                                 [--select CLASS_OR_METHOD]...
#   (default)    start Firn ($FIRN_BIN, default build/release/src/cli/firn) on a fresh data dir
#                and a free loopback port, and test it.
#   --reference  start the upstream Java REST fixture (RESTCatalogServer of the same Iceberg
#                release, in-memory SQLite backend) instead; validates this runner (baseline in
#                docs/conformance.md).
#   --uri URL    test an already running server; nothing is started or stopped.
#   --trace      log every HTTP request/response header line of the kit's client into the JUnit
#                XML (per test, <system-err>); failures.txt then shows each failing test's
#                exchange. Slower and large; use with --select.
#   --expected DIR  reports dir of a `--reference --trace` run: failures.txt then also shows,
#                for each failing test, the reference server's exchange (what the kit expected).
#   --select X   run only class X or method X#name (JUnit selectors: --select-class/-method);
#                default: both RESTCompatibilityKit{Catalog,ViewCatalog}Tests classes.
#
# Contract: the kit's JVM and the server share this machine's filesystem (file: warehouse; the
# kit writes manifests itself and uses file:/tmp/<ns>/<tbl> locations). Only the server process
# this script started is stopped. Exit status: 0 iff tests ran and none failed or errored.
# Env: RCK_VERSION, FIRN_RCK_CACHE (see install.sh), FIRN_BIN, FIRN_ARGS (extra serve flags),
#      FIRN_KEK (the key-encryption key; generated for the run when unset),
#      RCK_WAREHOUSE (the kit's `warehouse` = Firn catalog name, default rck_warehouse),
#      RCK_JAVA_OPTS (extra -D flags for the kit JVM), RCK_TIMEOUT (seconds, default 1200),
#      RCK_AUTH=off (Firn started with --auth off in FIRN_ARGS: the kit sends no credentials),
#      RCK_CREDENTIAL=id:secret (--uri mode: the credential of a running server's principal).
# Authentication: Firn runs with authentication on (its default). This script bootstraps a
# generated admin (FIRN_BOOTSTRAP_CREDENTIALS) and the kit authenticates as it with client
# credentials, scope PRINCIPAL_ROLE:ALL (CATALOG_* environment variables the kit reads).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
RCK_VERSION="${RCK_VERSION:-1.11.0}"
export RCK_VERSION

mode=firn
uri=""
reports_dir="$REPO/build/rck/reports"
selects=()
trace=""
expected_dir=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --uri) mode=external; uri="$2"; shift 2 ;;
    --uri=*) mode=external; uri="${1#*=}"; shift ;;
    --reference) mode=reference; shift ;;
    --trace) trace=1; shift ;;
    --expected) expected_dir="$2"; shift 2 ;;
    --expected=*) expected_dir="${1#*=}"; shift ;;
    --reports-dir) reports_dir="$2"; shift 2 ;;
    --reports-dir=*) reports_dir="${1#*=}"; shift ;;
    --select) selects+=("$2"); shift 2 ;;
    --select=*) selects+=("${1#*=}"); shift ;;
    -h|--help) sed -n '2,/^set -e/{/^set -e/!p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "rck: unknown argument: $1" >&2; exit 2 ;;
  esac
done

t_total=$SECONDS
JARS="$("$HERE/install.sh" | tail -n1)"

RUN="$(mktemp -d "${TMPDIR:-/tmp}/firn-rck.XXXXXX")"
server_pid=""
stop_pid() {  # stop_pid PID: TERM, up to 5 s grace, then KILL; only ever our own children
  local pid="$1"
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}
cleanup() {
  if [[ -n "$server_pid" && -f "$RUN/firn.pid" ]]; then  # supervised Firn (see supervise)
    touch "$RUN/stop"
    stop_pid "$(cat "$RUN/firn.pid")"
    wait "$server_pid" 2>/dev/null || true
  elif [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [[ -z "${RCK_KEEP_RUN:-}" ]]; then rm -rf "$RUN"; else echo "rck: kept $RUN" >&2; fi
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# probe URL: GET /v1/config answers 200, with a token for CATALOG_CREDENTIAL when set (read
# from the environment, so the secret never appears on a command line).
probe() {
  python3 - "$1" <<'PY' 2>/dev/null
import json, os, sys, urllib.parse, urllib.request
base = sys.argv[1].rstrip("/")
headers = {}
cred = os.environ.get("CATALOG_CREDENTIAL")
if cred:
    cid, secret = cred.split(":", 1)
    form = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": cid,
                                   "client_secret": secret, "scope": "PRINCIPAL_ROLE:ALL"})
    with urllib.request.urlopen(base + "/v1/oauth/tokens", form.encode(), timeout=2) as r:
        headers["Authorization"] = "Bearer " + json.load(r)["access_token"]
with urllib.request.urlopen(urllib.request.Request(base + "/v1/config", headers=headers),
                            timeout=2) as r:
    sys.exit(0 if r.status == 200 else 1)
PY
}

# configure_catalog URL CATALOG LOCATION...: set the catalog's allowedLocations, its
# firn.schema-evolution property to `spec` (the kit drops and renames columns, which Firn's
# default compatible policy refuses; docs/schema-policy.md), and firn.drop.retention to 0 (the
# kit drops tables and creates new ones at the same explicit locations, which a dropped table
# holds for its retention; docs/soft-delete.md).
configure_catalog() {
  python3 - "$@" <<'PY'
import json, os, sys, urllib.parse, urllib.request
base, catalog, locations = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3:]
headers = {"Content-Type": "application/json"}
cred = os.environ.get("CATALOG_CREDENTIAL")
if cred:
    cid, secret = cred.split(":", 1)
    form = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": cid,
                                   "client_secret": secret, "scope": "PRINCIPAL_ROLE:ALL"})
    with urllib.request.urlopen(base + "/v1/oauth/tokens", form.encode(), timeout=10) as r:
        headers["Authorization"] = "Bearer " + json.load(r)["access_token"]
url = f"{base}/api/management/v1/catalogs/{urllib.parse.quote(catalog)}"
with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as r:
    current = json.load(r)
storage = dict(current.get("storageConfigInfo") or {"storageType": "FILE"})
storage["allowedLocations"] = locations
properties = {**(current.get("properties") or {}), "firn.schema-evolution": "spec",
              "firn.drop.retention": "0"}
body = {"currentEntityVersion": current["entityVersion"], "storageConfigInfo": storage,
        "properties": properties}
req = urllib.request.Request(url, json.dumps(body).encode(), headers=headers, method="PUT")
with urllib.request.urlopen(req, timeout=10) as r:
    print(f"rck: catalog {catalog} allowed locations: {locations}, firn.schema-evolution=spec, "
          "firn.drop.retention=0",
          file=sys.stderr)
PY
}

wait_ready() {  # wait_ready URL LOG: poll GET /v1/config until 200 or the server dies
  local url="$1" log="$2" i
  for i in $(seq 600); do
    if probe "$url"; then return 0; fi
    if ! kill -0 "$server_pid" 2>/dev/null; then
      echo "rck: server exited during start-up; last log lines:" >&2; tail -n 30 "$log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "rck: server not ready after 60s; last log lines:" >&2; tail -n 30 "$log" >&2
  return 1
}

# The kit's `warehouse` property is sent as GET /v1/config?warehouse=<name>. Firn (like Polaris)
# reads it as a catalog name and answers 404 for an unknown one, so Firn is started with that
# catalog name and a file: warehouse in the temp dir. The Java fixture ignores the parameter.
warehouse="${RCK_WAREHOUSE:-rck_warehouse}"
mkdir -p "$RUN/warehouse"
t_start=$SECONDS
case "$mode" in
  firn)
    bin="${FIRN_BIN:-$REPO/build/release/src/cli/firn}"
    [[ -x "$bin" ]] || { echo "rck: Firn binary not found: $bin (set FIRN_BIN)" >&2; exit 2; }
    if [[ "${RCK_AUTH:-on}" != "off" ]]; then
      rck_id="rck$(python3 -c 'import secrets; print(secrets.token_hex(6))')"
      rck_secret="$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
      export FIRN_BOOTSTRAP_CREDENTIALS="default,$rck_id,$rck_secret"
      export CATALOG_CREDENTIAL="$rck_id:$rck_secret"
    fi
    # The KEK that seals the signing keys: PostgreSQL (FIRN_ARGS --db postgresql://...)
    # requires one; on the SQLite default it replaces the generated <data-dir>.kek.
    export FIRN_KEK="${FIRN_KEK:-$("$bin" admin generate-kek)}"
    port="$(free_port)"
    uri="http://127.0.0.1:$port/"
    # A supervisor restarts Firn (same port, same data dir) if it dies, so one crash does not
    # fail every later test; each death is recorded in crashes.log and fails the run.
    supervise() {
      local deaths=0 rc
      while :; do
        # shellcheck disable=SC2086  # FIRN_ARGS is a flag list on purpose
        "$bin" serve --data-dir "$RUN/data" --listen "127.0.0.1:$port" \
          --catalog-name "$warehouse" --warehouse "file://$RUN/warehouse" \
          --storage-roots "file://$RUN/warehouse,file:///tmp" ${FIRN_ARGS:-} \
          >>"$RUN/server.log" 2>&1 &
        echo $! >"$RUN/firn.pid"
        rc=0; wait $! || rc=$?
        [[ -f "$RUN/stop" ]] && return 0
        deaths=$((deaths + 1))
        echo "$(date -u +%H:%M:%S) Firn exited with status $rc; restart $deaths" >>"$RUN/crashes.log"
        [[ $deaths -ge 100 ]] && return 1
        sleep 0.2
      done
    }
    supervise &
    server_pid=$!
    for _ in $(seq 50); do [[ -f "$RUN/firn.pid" ]] && break; sleep 0.1; done
    echo "rck: started Firn ($bin) pid $(cat "$RUN/firn.pid") on $uri, data dir $RUN/data" >&2
    wait_ready "$uri" "$RUN/server.log"
    # The kit hard-codes table/view locations under /tmp (file:/tmp/ns/tbl, JUnit temp dirs);
    # Firn refuses locations outside a catalog's allowed locations, so allow /tmp for this
    # catalog through the management API, as an operator would (and let its schemas evolve
    # as the spec allows).
    configure_catalog "$uri" "$warehouse" "file://$RUN/warehouse" "file:///tmp"
    ;;
  reference)
    port="$(free_port)"
    uri="http://127.0.0.1:$port/"
    # The fixture binds all interfaces on rest.port; keep the run short. Its backend is an
    # in-memory SQLite JDBC catalog, so every run starts empty. Same classpath as the kit
    # (the fat jar for <=1.10.1, Jetty 12 + SQLite from pom.xml for 1.11.0).
    env CATALOG_REST_PORT="$port" CATALOG_WAREHOUSE="file:$RUN/warehouse" \
      java -cp "$JARS/*" org.apache.iceberg.rest.RESTCatalogServer >"$RUN/server.log" 2>&1 &
    server_pid=$!
    echo "rck: started reference fixture pid $server_pid on $uri" >&2
    wait_ready "$uri" "$RUN/server.log"
    ;;
  external)
    [[ -n "$uri" ]] || { echo "rck: --uri needs a URL" >&2; exit 2; }
    [[ -n "${RCK_CREDENTIAL:-}" ]] && export CATALOG_CREDENTIAL="$RCK_CREDENTIAL"
    probe "$uri" || { echo "rck: $uri/v1/config not reachable" >&2; exit 2; }
    ;;
esac
echo "rck: server ready in $((SECONDS - t_start))s" >&2
if [[ -n "${CATALOG_CREDENTIAL:-}" ]]; then
  # RCKUtils maps CATALOG_X__Y_Z to the catalog property x-y.z.
  export CATALOG_SCOPE="PRINCIPAL_ROLE:ALL"
  export CATALOG_OAUTH2__SERVER__URI="${uri%/}/v1/oauth/tokens"
  echo "rck: the kit authenticates with client credentials (scope $CATALOG_SCOPE)" >&2
fi

selectors=()
if [[ ${#selects[@]} -eq 0 ]]; then
  selects=(org.apache.iceberg.rest.RESTCompatibilityKitCatalogTests
           org.apache.iceberg.rest.RESTCompatibilityKitViewCatalogTests)
fi
for s in "${selects[@]}"; do
  if [[ "$s" == *"#"* ]]; then selectors+=("--select-method=$s"); else selectors+=("--select-class=$s"); fi
done

trace_opts=()
if [[ -n "$trace" ]]; then
  trace_opts=(-Dorg.slf4j.simpleLogger.log.org.apache.hc.client5.http.headers=debug
              -Dorg.slf4j.simpleLogger.showDateTime=false -Dorg.slf4j.simpleLogger.showThreadName=false)
  selectors+=(--config=junit.platform.output.capture.stdout=true
              --config=junit.platform.output.capture.stderr=true)
fi

rm -rf "$reports_dir"
mkdir -p "$reports_dir"
t_kit=$SECONDS
set +e
# rck.local=false both as a system property and a JUnit config parameter: otherwise the
# extension starts its own Java server on 8181 and the kit tests that instead.
# shellcheck disable=SC2086  # RCK_JAVA_OPTS is a flag list on purpose
timeout "${RCK_TIMEOUT:-1200}" java \
  -Drck.local=false \
  -Duri="$uri" \
  -Dwarehouse="$warehouse" \
  -Drck.requires-namespace-create=true \
  ${RCK_JAVA_OPTS:-} "${trace_opts[@]}" \
  -cp "$JARS/*" org.junit.platform.console.ConsoleLauncher execute \
  --config=rck.local=false \
  --disable-banner --details=none --fail-if-no-tests \
  --reports-dir="$reports_dir" \
  "${selectors[@]}" >"$reports_dir/console.log" 2>&1
kit_rc=$?
set -e
kit_secs=$((SECONDS - t_kit))
if [[ -n "$server_pid" ]]; then cp "$RUN/server.log" "$reports_dir/server.log" 2>/dev/null || true; fi
crashes=0
if [[ -f "$RUN/crashes.log" ]]; then
  cp "$RUN/crashes.log" "$reports_dir/crashes.log"
  crashes=$(wc -l <"$RUN/crashes.log")
fi

set +e
python3 "$HERE/summarize.py" "$reports_dir" ${expected_dir:+"$expected_dir"}
sum_rc=$?
set -e
echo "rck: kit ${kit_secs}s, total $((SECONDS - t_total))s (RCK $RCK_VERSION, $mode, $uri); reports in $reports_dir" >&2
if [[ $crashes -gt 0 ]]; then
  echo "rck: Firn died $crashes time(s) during the run and was restarted:" >&2
  cat "$reports_dir/crashes.log" >&2
  [[ $sum_rc -eq 0 ]] && sum_rc=1
fi
if [[ $kit_rc -ne 0 && $sum_rc -eq 0 ]]; then
  echo "rck: the test launcher exited $kit_rc; see $reports_dir/console.log" >&2
  tail -n 20 "$reports_dir/console.log" >&2
  exit "$kit_rc"
fi
exit "$sum_rc"
