"""Fixtures for the web console's browser tests: a real `firn serve` (the integration suite's
FirnServer and credentials, from tests/integration) and Debian's headless Chromium driven by
Playwright for Python.

Playwright's own browser download is never used: Chromium is /usr/bin/chromium (apt,
scripts/install_console.sh), launched with a fresh profile directory per browser. Screenshots
go to $FIRN_CONSOLE_RESULTS (scripts/test.sh: build/release/test-results/console), else
build/release/test-results/console; each test prints the paths it saved.

Environment:
  FIRN_BIN               the firn binary (default build/release/src/cli/firn)
  FIRN_CHROMIUM          the browser (default /usr/bin/chromium)
  FIRN_CONSOLE_RESULTS   where screenshots go
"""

from __future__ import annotations

import importlib.util
import os
import sys
import uuid
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
INTEGRATION = REPO_ROOT / "tests" / "integration"
sys.path.insert(0, str(INTEGRATION))

import firn_auth  # noqa: E402  (tests/integration, put on the path above)

_spec = importlib.util.spec_from_file_location("firn_integration_conftest",
                                               INTEGRATION / "conftest.py")
integration = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(integration)
FirnServer = integration.FirnServer

CHROMIUM = os.environ.get("FIRN_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
RESULTS = Path(os.environ.get("FIRN_CONSOLE_RESULTS",
                              REPO_ROOT / "build/release/test-results/console"))
# How long the console may take to show what a test waits for (it talks to a local server).
UI_TIMEOUT_MS = 15_000


# The integration suite's fixtures: `server` (one Firn server for the session) and
# `server_factory` (private servers with extra flags, stopped at the end of the test).
server = integration.server
server_factory = integration.server_factory


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Headless Chromium (Debian's), one per module; each test opens its own context."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).is_file():
        pytest.fail(f"no Chromium at {CHROMIUM}: run scripts/install_console.sh")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1400, "height": 1000})
        yield context
        context.close()


class Console:
    """One browser tab on the console, recording script errors and CSP violations (a test
    fails on any: the console must run under its own Content-Security-Policy)."""

    def __init__(self, context, srv: FirnServer, name: str) -> None:
        self.srv = srv
        self.name = name
        self.page = context.new_page()
        self.page.set_default_timeout(UI_TIMEOUT_MS)
        self.problems: list[str] = []
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("console", self._on_console)
        self.screenshots: list[Path] = []

    def _on_console(self, msg) -> None:
        text = msg.text
        if "Content Security Policy" in text or (msg.type == "error" and "Uncaught" in text):
            self.problems.append(f"console {msg.type}: {text}")

    def open(self, fragment: str = "") -> None:
        self.page.goto(f"{self.srv.uri}/ui/{fragment}")

    def go(self, fragment: str) -> None:
        """Navigates inside the console (hash route), as a typed address would."""
        self.page.evaluate("f => { window.location.hash = f; }", fragment)

    def login(self, creds: firn_auth.Credentials, realm: str = "") -> None:
        self.page.fill("#client-id", creds.client_id)
        self.page.fill("#client-secret", creds.client_secret)
        self.page.fill("#realm", realm)
        self.page.click("#login-submit")

    def text(self) -> str:
        return self.page.inner_text("main")

    def screenshot(self, label: str) -> Path:
        RESULTS.mkdir(parents=True, exist_ok=True)
        path = RESULTS / f"{self.name}-{label}.png"
        self.page.screenshot(path=str(path), full_page=True)
        self.screenshots.append(path)
        print(f"screenshot: {path}")
        return path

    def close(self) -> None:
        self.page.close()


@pytest.fixture
def console(browser, server, request):
    """A fresh tab (its own sessionStorage) on the module's server."""
    c = Console(browser, server, request.node.name)
    yield c
    problems = list(c.problems)
    c.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def tag() -> str:
    return uuid.uuid4().hex[:8]
