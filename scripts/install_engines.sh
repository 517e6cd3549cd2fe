#!/usr/bin/env bash
# Installs the query engines the engine tests (tests/engines) drive against Firn. Idempotent and
# cached under ~/.cache/firn; quiet unless a step fails. Run scripts/install.sh first (it makes
# the test venv this adds to).
#   - DuckDB 1.5.5 with its iceberg/httpfs/avro extension wheels, pyspark 4.0.1: pip, into
#     $FIRN_VENV, pinned in scripts/requirements-engines.txt. Re-installed when that file changes
#     or install.sh rebuilt the venv.
#   - Iceberg's Spark runtime and AWS bundle jars: Maven Central through mvn (its repository
#     in $FIRN_MAVEN_REPO), into $FIRN_SPARK_JARS (default ~/.cache/firn/jars/spark-iceberg-<ver>).
#   - s3fs and its pinned botocore for PyIceberg's remote-signing mode: pip --target into
#     $FIRN_PYSIGNER (default ~/.cache/firn/pysigner-<hash of scripts/requirements-signer.txt>),
#     apart from the venv, whose boto3 needs a newer botocore.
#   - Java 17 and Maven from apt when missing (Spark 4.0 runs on 17 or 21).
#   - The Flink job of tests/engines/test_flink.py: scripts/install_flink.sh (Flink 2.0 and
#     Iceberg's Flink runtime from Maven Central, the job compiled with javac; cached by a hash
#     of its sources).
# Prints nothing on success except timing lines; env: FIRN_ICEBERG_VERSION (default 1.10.1).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

FIRN_ICEBERG_VERSION="${FIRN_ICEBERG_VERSION:-1.10.1}"
FIRN_SPARK_JARS="${FIRN_SPARK_JARS:-$FIRN_CACHE/jars/spark-iceberg-$FIRN_ICEBERG_VERSION}"
REQUIREMENTS="$FIRN_ROOT/scripts/requirements-engines.txt"
SIGNER_REQUIREMENTS="$FIRN_ROOT/scripts/requirements-signer.txt"
FIRN_PYSIGNER="${FIRN_PYSIGNER:-$FIRN_CACHE/pysigner-$(sha256sum "$SIGNER_REQUIREMENTS" | cut -c1-12)}"
JAR_ARTIFACTS=(
  "org.apache.iceberg:iceberg-spark-runtime-4.0_2.13:$FIRN_ICEBERG_VERSION"
  "org.apache.iceberg:iceberg-aws-bundle:$FIRN_ICEBERG_VERSION"
)
# The dependency plugin bundled with Maven 3.8 is too old for -Dartifact=...:copy.
DEP_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.8.1"

install_java() {
  local missing=()
  [[ -x /usr/lib/jvm/java-17-openjdk-amd64/bin/java ]] || missing+=(openjdk-17-jre-headless)
  command -v mvn >/dev/null 2>&1 || missing+=(maven)
  [[ ${#missing[@]} -eq 0 ]] || apt_install_missing "${missing[@]}"
}

# Re-installed when requirements-engines.txt changes or install.sh rebuilt the venv.
install_pip() { pip_install_stamped engines "$REQUIREMENTS" .firn-engines-stamp; }

install_signer() {
  [[ -f "$FIRN_PYSIGNER/.complete" ]] && return 0
  log "installing PyIceberg's signer dependencies into $FIRN_PYSIGNER"
  local tmp="$FIRN_PYSIGNER.tmp.$$"
  rm -rf "$tmp"
  run_quiet "pip install signer" "$FIRN_VENV/bin/pip" install -q --disable-pip-version-check \
    --no-deps --target "$tmp" -r "$SIGNER_REQUIREMENTS" || { rm -rf "$tmp"; return 1; }
  touch "$tmp/.complete"
  rm -rf "$FIRN_PYSIGNER" && mv "$tmp" "$FIRN_PYSIGNER"  # a half-done install never has the name
}

install_jars() {
  local a name version file tmp
  mkdir -p "$FIRN_SPARK_JARS"
  for a in "${JAR_ARTIFACTS[@]}"; do
    IFS=: read -r _ name version <<<"$a"
    file="$FIRN_SPARK_JARS/$name-$version.jar"
    [[ -s "$file" ]] && continue
    log "fetching $a"
    tmp="$(mktemp -d "$FIRN_SPARK_JARS/.fetch.XXXXXX")"
    if ! run_quiet "mvn copy $name" firn_mvn "$DEP_PLUGIN:copy" -Dartifact="$a" \
        -DoutputDirectory="$tmp"; then
      rm -rf "$tmp"
      return 1
    fi
    mv "$tmp/$name-$version.jar" "$file"  # atomic: a half-fetched jar never has the final name
    rm -rf "$tmp"
  done
}

timed "install engines: java + maven" install_java
timed "install engines: pip" install_pip
timed "install engines: pyiceberg signer" install_signer
timed "install engines: spark jars" install_jars
"$FIRN_ROOT/scripts/install_flink.sh" >/dev/null  # prints its own timing lines
