#!/usr/bin/env bash
# Installs what the web console's browser test (tests/console, docs/console.md) needs. Idempotent
# and cached; quiet unless a step fails. Run scripts/install.sh first (it makes the test venv this
# adds to).
#   - Debian's chromium (and a font, so screenshots show text) from apt when missing.
#   - Playwright for Python, pinned in scripts/requirements-console.txt, into $FIRN_VENV;
#     re-installed when that file changes or install.sh rebuilt the venv. Its own browser
#     download (`playwright install`) is never run: the test launches /usr/bin/chromium.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

install_apt() { apt_install_missing chromium fonts-dejavu-core; }
install_pip() {
  pip_install_stamped playwright "$FIRN_ROOT/scripts/requirements-console.txt" .firn-console-stamp
}

timed "install console: chromium" install_apt
timed "install console: playwright" install_pip
