#!/usr/bin/env bash
# Builds SeaweedFS's `weed` from the Go module proxy into $FIRN_WEED_BIN (cached per version).
# Idempotent: exits at once when the binary exists. Prints the binary path on stdout.
# SeaweedFS's go.mod carries `replace` directives, so `go install mod@ver` is refused; we build
# through a throwaway wrapper module that copies those replace lines.
# Env: FIRN_WEED_VERSION (a pseudo-version), FIRN_WEED_JOBS (go build -p, default 2).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

MOD=github.com/seaweedfs/seaweedfs
if [[ -x "$FIRN_WEED_BIN" ]]; then
  echo "$FIRN_WEED_BIN"
  exit 0
fi
command -v go >/dev/null || tb_die "go is not installed"
# Modules and the build cache live with Firn's other downloads (not in ~/go), so a cached
# ~/.cache carries everything a rebuild needs.
export GOMODCACHE="${GOMODCACHE:-$FIRN_CACHE/go/mod}" GOCACHE="${GOCACHE:-$FIRN_CACHE/go/build}"

t0=$(date +%s)
wrap="$FIRN_CACHE/go/wrap-$FIRN_WEED_VERSION"
rm -rf "$wrap" && mkdir -p "$wrap" && cd "$wrap"
go mod init firn.local/weedwrap >/dev/null 2>&1

# Copy the upstream module's active replace lines (single-line form; `//` comments skipped).
gomod="$(go mod download -json "$MOD@$FIRN_WEED_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')"
[[ -f "$gomod" ]] || tb_die "could not download $MOD@$FIRN_WEED_VERSION"
while read -r old _arrow new newver; do
  [[ -n "$newver" ]] || continue            # local-path replaces have no version: skip them
  go mod edit -replace "$old=$new@$newver"
done < <(sed -n 's/^replace \(.*\)$/\1/p' "$gomod")
tb_log "wrapper replaces: $(grep -c '^replace' go.mod || true)"

go get "$MOD/weed@$FIRN_WEED_VERSION" >/dev/null
tmp="$FIRN_WEED_BIN.tmp.$$"
nice -n 10 go build -p "${FIRN_WEED_JOBS:-2}" -trimpath -ldflags "-s -w" -o "$tmp" "$MOD/weed"
mv -f "$tmp" "$FIRN_WEED_BIN"
tb_log "built weed $FIRN_WEED_VERSION in $(( $(date +%s) - t0 ))s -> $FIRN_WEED_BIN"
echo "$FIRN_WEED_BIN"
