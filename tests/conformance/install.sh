#!/usr/bin/env bash
# Installs the Apache Iceberg REST Compatibility Kit (RCK) jars from Maven Central.
#
# Contract: idempotent. Jars land in $FIRN_RCK_CACHE/<version>/ (default ~/.cache/firn/rck);
# a stamp file listing the artifacts marks a complete install, so a second run does nothing.
# A partial download never leaves a stamp (files are fetched into a temp dir, then moved).
# Prints the install directory on stdout's last line. Needs `mvn` and Java 17.
#
# Two routes, chosen by RCK_VERSION:
#   1.11.0 (default, pinned; the spec Firn targets): a throwaway pom.xml beside this script lists
#     the kit's runtime classpath (open-api tests + test-fixtures jars, whose POM declares no
#     dependencies, iceberg-core/api + their test jars, Hadoop client, Jetty 12 + SQLite for
#     the reference server, JUnit console 1.14.4, AssertJ) and `copy-dependencies` fetches it.
#   1.8.0-1.10.1: the fat `iceberg-open-api-<v>.jar` (fixtures, core, core tests, Hadoop, Jetty,
#     SQLite, Jupiter) plus the test jars, fetched one by one with `dependency:copy`.
# See docs/conformance.md for why 1.11.0 is pinned.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/../../scripts/lib.sh"  # FIRN_CACHE, firn_mvn (Maven's repository in the cache)
RCK_VERSION="${RCK_VERSION:-1.11.0}"
DEP_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.8.1"

CACHE_ROOT="${FIRN_RCK_CACHE:-$FIRN_CACHE/rck}"
DEST="$CACHE_ROOT/$RCK_VERSION"
STAMP="$DEST/.installed"

case "$RCK_VERSION" in
  1.8.*|1.9.*|1.10.0|1.10.1) route=fatjar ;;
  *) route=pom ;;
esac

if [[ $route == fatjar ]]; then
  JUNIT_CONSOLE_VERSION="1.13.4"  # matches Iceberg 1.10.x's JUnit 5.13.4
  ARTIFACTS=(
    "org.apache.iceberg:iceberg-open-api:$RCK_VERSION"            # fat fixture jar (server + deps)
    "org.apache.iceberg:iceberg-open-api:$RCK_VERSION:jar:tests"  # RESTCompatibilityKit* classes
    "org.apache.iceberg:iceberg-core:$RCK_VERSION:jar:tests"      # CatalogTests, ViewCatalogTests
    "org.apache.iceberg:iceberg-api:$RCK_VERSION:jar:tests"       # TestHelpers
    "org.assertj:assertj-core:3.27.4"
    "net.bytebuddy:byte-buddy:1.15.11"  # AssertJ's runtime dependency (assumeThat proxies)
    "org.junit.platform:junit-platform-console-standalone:$JUNIT_CONSOLE_VERSION"
  )
  WANT="$(printf '%s\n' "fatjar" "${ARTIFACTS[@]}")"
else
  WANT="$(printf '%s\n' "pom $RCK_VERSION" "$(sha256sum "$HERE/pom.xml" | cut -d' ' -f1)")"
fi

if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$WANT" ]]; then
  echo "rck: $RCK_VERSION already installed" >&2
  echo "$DEST"
  exit 0
fi

command -v mvn >/dev/null || { echo "rck: mvn not found (apt-get install maven)" >&2; exit 1; }
command -v java >/dev/null || { echo "rck: java not found (Java 17 needed)" >&2; exit 1; }

mkdir -p "$CACHE_ROOT"
TMP="$(mktemp -d "$CACHE_ROOT/.tmp.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

start=$SECONDS
fetch() {  # fetch WHAT MVN_ARGS...: quiet mvn, its log shown only on failure
  local what="$1"; shift
  echo "rck: fetching $what" >&2
  if ! firn_mvn "$@" >"$TMP/.mvn.log" 2>&1; then
    echo "rck: failed to fetch $what:" >&2; tail -n 30 "$TMP/.mvn.log" >&2; exit 1
  fi
}
if [[ $route == fatjar ]]; then
  for a in "${ARTIFACTS[@]}"; do
    fetch "$a" "$DEP_PLUGIN:copy" -Dartifact="$a" -DoutputDirectory="$TMP"
  done
else
  fetch "RCK $RCK_VERSION classpath (pom.xml)" -f "$HERE/pom.xml" "$DEP_PLUGIN:copy-dependencies" \
    -Drck.version="$RCK_VERSION" -DincludeScope=runtime -DoutputDirectory="$TMP"
fi

rm -f "$TMP/.mvn.log"
# Replace any stale/partial install atomically enough for a single user.
rm -rf "$DEST"
mv "$TMP" "$DEST"
trap - EXIT
printf '%s\n' "$WANT" >"$STAMP"
echo "rck: installed $RCK_VERSION into $DEST in $((SECONDS - start))s" >&2
echo "$DEST"
