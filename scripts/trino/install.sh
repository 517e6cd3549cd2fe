#!/usr/bin/env bash
# Opt-in: installs Trino (server core + Iceberg plugin + CLI) from Maven Central into
# ~/.cache/firn/trino/<version>. Default version 476: 483 is not served by the registry this
# machine reaches (see README.md). Idempotent: a stamp file marks a finished install.
# Needs mvn on PATH and Java 25 at /usr/lib/jvm/temurin-25-jdk-amd64 (Trino 476+ requires Java 24+).
# Env: TRINO_VERSION (default 476), FIRN_CACHE (default ~/.cache/firn).
set -euo pipefail

TRINO_VERSION="${TRINO_VERSION:-476}"
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"  # FIRN_CACHE, firn_mvn
ROOT="$FIRN_CACHE/trino/$TRINO_VERSION"
STAMP="$ROOT/.installed"
MVN_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy"

log() { printf '[trino-install] %s\n' "$*" >&2; }

if [[ -f "$STAMP" ]]; then
  log "already installed in $ROOT"
  exit 0
fi

mkdir -p "$ROOT/dl"
# fetch ARTIFACT: copies one artifact (g:a:v:type[:classifier]) into $ROOT/dl.
fetch() {
  log "fetching $1"
  firn_mvn "$MVN_PLUGIN" -Dartifact="$1" -DoutputDirectory="$ROOT/dl" -Dmdep.useBaseVersion=true
}

t0=$(date +%s)
server_tgz=""
if fetch "io.trino:trino-server-core:$TRINO_VERSION:tar.gz"; then
  server_tgz="$ROOT/dl/trino-server-core-$TRINO_VERSION.tar.gz"
else
  log "trino-server-core unavailable; falling back to the full trino-server tarball"
  fetch "io.trino:trino-server:$TRINO_VERSION:tar.gz"
  server_tgz="$ROOT/dl/trino-server-$TRINO_VERSION.tar.gz"
fi
fetch "io.trino:trino-cli:$TRINO_VERSION:jar:executable"

rm -rf "$ROOT/server"
mkdir -p "$ROOT/server"
tar -xzf "$server_tgz" -C "$ROOT/server" --strip-components=1

if [[ ! -d "$ROOT/server/plugin/iceberg" ]]; then
  fetch "io.trino:trino-iceberg:$TRINO_VERSION:zip"
  mkdir -p "$ROOT/server/plugin/iceberg.tmp"
  (cd "$ROOT/server/plugin/iceberg.tmp" && jar xf "$ROOT/dl/trino-iceberg-$TRINO_VERSION.zip" 2>/dev/null \
     || python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(".")' \
          "$ROOT/dl/trino-iceberg-$TRINO_VERSION.zip")
  # The zip may wrap its jars in one top-level folder; flatten it into plugin/iceberg.
  src="$ROOT/server/plugin/iceberg.tmp"
  if [[ $(find "$src" -maxdepth 1 -name '*.jar' | wc -l) -eq 0 ]]; then
    src="$(find "$src" -mindepth 1 -maxdepth 1 -type d | head -n1)"
  fi
  mv "$src" "$ROOT/server/plugin/iceberg"
  rm -rf "$ROOT/server/plugin/iceberg.tmp"
fi

cp "$ROOT/dl/trino-cli-$TRINO_VERSION-executable.jar" "$ROOT/trino-cli.jar"
rm -rf "$ROOT/dl"
touch "$STAMP"
log "installed Trino $TRINO_VERSION in $ROOT ($(( $(date +%s) - t0 ))s)"
