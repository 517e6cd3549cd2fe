#!/usr/bin/env bash
# Installs the Flink job of the engine tests (tests/engines/flink, run by test_flink.py): Flink
# 2.0 embedded (a local mini-cluster in the job's JVM; no flink-dist, which Maven Central does
# not serve) with Iceberg's Flink runtime. Idempotent and cached; quiet on success except timing
# lines on stderr; prints the job's directory as stdout's last line.
#   - Java 17 (a JDK: the job is compiled here) and Maven from apt when missing.
#   - The runtime classpath of tests/engines/flink/pom.xml: Maven Central through mvn, into
#     $FIRN_MAVEN_REPO (about 205 MB: Flink 2.0.0, iceberg-flink-runtime-2.0 1.10.1, Hadoop's
#     client jars), listed in classpath.txt.
#   - The job: tests/engines/flink/src compiled with javac into
#     $FIRN_FLINK_JOBS/<hash of pom.xml, jvm.args and src/>/classes (default
#     ~/.cache/firn/flink/job-<hash>), beside classpath.txt and jvm.args. A changed source is a
#     new directory; a directory is complete once it has .complete (built in a temp dir, then
#     renamed). A cached job whose classpath lost a jar (a pruned Maven cache) is rebuilt.
# Run it as:  java @<dir>/jvm.args -cp <dir>/classes:$(cat <dir>/classpath.txt) \
#               dev.firn.flink.FirnFlinkJob key=value...   (see test_flink.py and docs/engines.md)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

JOB_SRC="$FIRN_ROOT/tests/engines/flink"
FIRN_FLINK_JOBS="${FIRN_FLINK_JOBS:-$FIRN_CACHE/flink}"
JAVA_HOME_17=/usr/lib/jvm/java-17-openjdk-amd64
DEP_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.8.1"

# The job's identity: the POM, the JVM arguments and every source file (path and content).
job_hash() {
  (cd "$JOB_SRC" && find pom.xml jvm.args src -type f -print0 | LC_ALL=C sort -z \
     | xargs -0 sha256sum) | sha256sum | cut -c1-16
}
JOB_DIR="$FIRN_FLINK_JOBS/job-$(job_hash)"

install_java() {
  local missing=()
  [[ -x "$JAVA_HOME_17/bin/javac" ]] || missing+=(openjdk-17-jdk-headless)
  command -v mvn >/dev/null 2>&1 || missing+=(maven)
  [[ ${#missing[@]} -eq 0 ]] || apt_install_missing "${missing[@]}"
}

job_complete() {
  [[ -f "$JOB_DIR/.complete" ]] || return 1
  local jar
  IFS=: read -r -a jars <"$JOB_DIR/classpath.txt"
  for jar in "${jars[@]}"; do [[ -s "$jar" ]] || return 1; done
}

build_job() {
  job_complete && return 0
  log "building the Flink job into $JOB_DIR"
  mkdir -p "$FIRN_FLINK_JOBS"
  local tmp; tmp="$(mktemp -d "$FIRN_FLINK_JOBS/.build.XXXXXX")"
  # JAVA_HOME for mvn too: Debian's mvn would otherwise take the default java.
  if ! JAVA_HOME="$JAVA_HOME_17" run_quiet "mvn build-classpath" firn_mvn -f "$JOB_SRC/pom.xml" \
      "$DEP_PLUGIN:build-classpath" -Dmdep.outputFile="$tmp/classpath.txt" \
      -Dmdep.includeScope=runtime; then
    rm -rf "$tmp"; return 1
  fi
  local sources=()
  mapfile -t sources < <(find "$JOB_SRC/src" -name '*.java' | LC_ALL=C sort)
  if ! run_quiet "javac" "$JAVA_HOME_17/bin/javac" --release 17 -Xlint:none -d "$tmp/classes" \
      -cp "$(cat "$tmp/classpath.txt")" "${sources[@]}"; then
    rm -rf "$tmp"; return 1
  fi
  cp "$JOB_SRC/jvm.args" "$tmp/jvm.args"
  touch "$tmp/.complete"
  rm -rf "$JOB_DIR" && mv "$tmp" "$JOB_DIR"  # a half-built job never has the final name
}

timed "install flink: java + maven" install_java
timed "install flink: job" build_job
echo "$JOB_DIR"
