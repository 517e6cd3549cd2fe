#!/usr/bin/env bash
# Installs the Apache Iceberg REST Compatibility Kit (RCK) jars from Maven Central.
#
# Contract: idempotent. Jars land in $FIRN_RCK_CACHE/<version>/ (default ~/.cache/firn/rck);
# a stamp file listing the artifacts marks a complete install, so a second run does nothing.
# A partial download never leaves a stamp (files are fetched into a temp dir, then moved).
# Prints the install directory on stdout's last line. Needs `mvn` and Java 17.
#
# Why 1.10.1: it is the newest release that still publishes the fat `iceberg-open-api-<v>.jar`
# (fixtures + iceberg-core + core test classes + hadoop + jetty + sqlite + jupiter), which doubles
# as the reference REST server. 1.11.0 removed it; see docs/conformance.md.
set -euo pipefail

RCK_VERSION="${RCK_VERSION:-1.10.1}"
JUNIT_CONSOLE_VERSION="${JUNIT_CONSOLE_VERSION:-1.13.4}"  # matches Iceberg 1.10.x's JUnit 5.13.4
ASSERTJ_VERSION="${ASSERTJ_VERSION:-3.27.4}"
BYTE_BUDDY_VERSION="${BYTE_BUDDY_VERSION:-1.15.11}"        # what assertj-core 3.27.4's POM declares
DEP_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.8.1"

CACHE_ROOT="${FIRN_RCK_CACHE:-$HOME/.cache/firn/rck}"
DEST="$CACHE_ROOT/$RCK_VERSION"
STAMP="$DEST/.installed"

ARTIFACTS=(
  "org.apache.iceberg:iceberg-open-api:$RCK_VERSION"            # fat fixture jar (server + deps)
  "org.apache.iceberg:iceberg-open-api:$RCK_VERSION:jar:tests"  # RESTCompatibilityKit* classes
  "org.apache.iceberg:iceberg-core:$RCK_VERSION:jar:tests"      # CatalogTests, ViewCatalogTests
  "org.apache.iceberg:iceberg-api:$RCK_VERSION:jar:tests"       # TestHelpers
  "org.assertj:assertj-core:$ASSERTJ_VERSION"
  "net.bytebuddy:byte-buddy:$BYTE_BUDDY_VERSION"                # AssertJ's runtime dependency
  "org.junit.platform:junit-platform-console-standalone:$JUNIT_CONSOLE_VERSION"
)
WANT="$(printf '%s\n' "${ARTIFACTS[@]}")"

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
for a in "${ARTIFACTS[@]}"; do
  echo "rck: fetching $a" >&2
  if ! mvn -B -q "$DEP_PLUGIN:copy" -Dartifact="$a" -DoutputDirectory="$TMP" \
      >"$TMP/.mvn.log" 2>&1; then
    echo "rck: failed to fetch $a:" >&2; tail -n 30 "$TMP/.mvn.log" >&2; exit 1
  fi
done

rm -f "$TMP/.mvn.log"
# Replace any stale/partial install atomically enough for a single user.
rm -rf "$DEST"
mv "$TMP" "$DEST"
trap - EXIT
printf '%s\n' "$WANT" >"$STAMP"
echo "rck: installed $RCK_VERSION into $DEST in $((SECONDS - start))s" >&2
echo "$DEST"
