# shellcheck shell=bash
# Shared helpers for scripts/*.sh. Source it; do not run it.
# Contract: sets FIRN_ROOT, FIRN_CACHE, FIRN_VENV, CCACHE_DIR, FIRN_MAVEN_REPO; defines stage
# timing, quiet-run and Maven helpers. Every function returns the wrapped command's exit status.
# Every download is cached under FIRN_CACHE (default $XDG_CACHE_HOME/firn, else ~/.cache/firn),
# keyed by version: pip wheels in pip's own cache beside it, Maven artefacts in FIRN_MAVEN_REPO
# (group/artifact/version paths), Go modules and the weed binary per version, the venvs stamped
# with their pinned requirements.

FIRN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_HOME="${XDG_CACHE_HOME:-$HOME/.cache}"
FIRN_CACHE="${FIRN_CACHE:-$CACHE_HOME/firn}"
FIRN_VENV="${FIRN_VENV:-$FIRN_CACHE/venv}"
FIRN_BUILD_DIR="$FIRN_ROOT/build/release"   # the `release` preset's binaryDir
export FIRN_ROOT FIRN_CACHE FIRN_VENV FIRN_BUILD_DIR
export CCACHE_DIR="${CCACHE_DIR:-$CACHE_HOME/ccache}"
# Maven's local repository: in the cache rather than ~/.m2 (see firn_mvn).
export FIRN_MAVEN_REPO="${FIRN_MAVEN_REPO:-$FIRN_CACHE/m2}"
# Paths under the checkout are hashed relative to it, so a fresh clone (CI) or a second
# worktree hits the cache a first build filled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$FIRN_ROOT}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
mkdir -p "$FIRN_CACHE" "$CCACHE_DIR"

log() { printf '[firn] %s\n' "$*" >&2; }
die() { printf '[firn] ERROR: %s\n' "$*" >&2; exit 1; }

now_s() { date +%s.%N; }
# elapsed START -> "12.3s"
elapsed() { awk -v a="$1" -v b="$(now_s)" 'BEGIN { printf "%.1fs", b - a }'; }

# run_quiet LABEL CMD... : runs CMD with output captured; prints it only when CMD fails.
run_quiet() {
  local label="$1"; shift
  local out; out="$(mktemp "${TMPDIR:-/tmp}/firn-${label// /_}.XXXXXX")"
  local rc=0
  "$@" >"$out" 2>&1 || rc=$?
  if [[ $rc -eq 0 ]]; then
    rm -f "$out"
    return 0
  fi
  log "$label failed (exit $rc); output follows:"
  cat "$out" >&2
  rm -f "$out"
  return "$rc"
}

# timed LABEL CMD... : runs CMD and prints how long it took.
timed() {
  local label="$1"; shift
  local t0; t0="$(now_s)"
  local rc=0
  "$@" || rc=$?
  if [[ $rc -eq 0 ]]; then
    log "$label: ok ($(elapsed "$t0"))"
  else
    log "$label: FAILED with exit $rc ($(elapsed "$t0"))"
  fi
  return "$rc"
}

# firn_mvn ARGS... : batch-mode, quiet mvn whose downloads land in FIRN_MAVEN_REPO.
firn_mvn() { mvn -B -q -Dmaven.repo.local="$FIRN_MAVEN_REPO" "$@"; }

# as_root CMD... : CMD as root (directly when already root, else through sudo -n).
as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo -n "$@"; fi
}

# apt_install_missing PKG... : apt-get installs those of PKG not installed yet (nothing to do:
# no apt-get at all).
apt_install_missing() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' \
      || missing+=("$pkg")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  log "installing apt packages: ${missing[*]}"
  run_quiet "apt-get update" as_root apt-get update -q
  run_quiet "apt-get install" as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# pip_install_stamped LABEL REQUIREMENTS STAMP : pip-installs REQUIREMENTS into $FIRN_VENV unless
# the stamp file $FIRN_VENV/STAMP records this requirements file and this venv (install.sh's own
# stamp: a rebuilt venv installs again).
pip_install_stamped() {
  local label="$1" requirements="$2" stamp="$FIRN_VENV/$3" want
  [[ -x "$FIRN_VENV/bin/python" ]] || die "no test venv at $FIRN_VENV: run scripts/install.sh first"
  want="$(sha256sum "$requirements" | cut -d' ' -f1) $(cat "$FIRN_VENV/.firn-stamp" 2>/dev/null)"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then return 0; fi
  log "installing $label into $FIRN_VENV"
  run_quiet "pip install $label" "$FIRN_VENV/bin/pip" install -q --disable-pip-version-check \
    -r "$requirements"
  printf '%s' "$want" >"$stamp"
}
