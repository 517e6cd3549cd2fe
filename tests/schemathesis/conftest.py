"""Fixtures for the schemathesis stage: one authenticated `firn serve` for the session.

The server is tests/integration/conftest.py's FirnServer (imported, not copied), so it
bootstraps the session admin exactly as the integration suite does (firn_auth.py).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]

sys.path.insert(0, str(REPO_ROOT / "tests" / "integration"))
_spec = importlib.util.spec_from_file_location(
    "firn_integration_conftest", REPO_ROOT / "tests" / "integration" / "conftest.py")
_integration = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_integration)
FirnServer = _integration.FirnServer
import firn_auth  # noqa: E402


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("schemathesis")
    srv = FirnServer(base / "data", base / "server.log")
    srv.start()
    yield srv
    srv.stop()
