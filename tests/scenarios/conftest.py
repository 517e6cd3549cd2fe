"""Fixtures for the durability scenarios: a PostgreSQL server, fresh databases, Firn instances.

PostgreSQL: uses FIRN_TEST_PG_URL + FIRN_TEST_PG_DIR when both are set (a server started with
scripts/pg.sh: the outage test stops and restarts it through that directory, and fresh
databases are created as its superuser over the unix socket). Otherwise the session starts
its own with scripts/pg.sh and destroys it at the end.

Firn instances reuse tests/integration/conftest.py's FirnServer (imported, not copied): the
subclass below only adds --db, --warehouse, the password environment and the session's
key-encryption key (firn_auth.kek_env()).
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlparse

import pytest

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
PG_SH = REPO_ROOT / "scripts" / "pg.sh"

sys.path.insert(0, str(REPO_ROOT / "tests" / "integration"))
_spec = importlib.util.spec_from_file_location(
    "firn_integration_conftest", REPO_ROOT / "tests" / "integration" / "conftest.py")
_integration = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_integration)
FirnServer = _integration.FirnServer
# Every instance bootstraps (or, on a shared database, finds) the session admin; Rest uses it.
import firn_auth  # noqa: E402
firn_auth.admin_credentials()  # generated now, so worker subprocesses inherit the same admin


def firn_bin() -> str:
    return os.environ.get("FIRN_BIN", str(REPO_ROOT / "build/release/src/cli/firn"))


class FirnInstance(FirnServer):
    """`firn serve` on a given database URL (no password inside) and a shared warehouse."""

    def __init__(self, data_dir: Path, log_path: Path, db_url: str | None = None,
                 warehouse: Path | None = None, password: str | None = None,
                 port: int | None = None) -> None:
        super().__init__(data_dir, log_path, port)
        self.db_url = db_url
        self.shared_warehouse = warehouse
        self.password = password

    def _command(self):
        cmd, env = super()._command()
        # One KEK for every instance of the session (PostgreSQL requires one, and databases
        # move between instances and backends here); an instance's own env entry wins.
        for key, value in firn_auth.kek_env().items():
            if key not in self.env:
                env[key] = value
        if self.db_url:
            cmd += ["--db", self.db_url]
        if self.shared_warehouse is not None:
            self.shared_warehouse.mkdir(parents=True, exist_ok=True)
            cmd += ["--warehouse", self.shared_warehouse.as_uri()]
        if self.password:
            env["FIRN_DB_PASSWORD"] = self.password
        env.setdefault("FIRN_LOG_LEVEL", "warn")
        return cmd, env

    def kill9(self) -> None:
        """SIGKILL, no drain: the crash."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc = None


class PgServer:
    """A scripts/pg.sh server: URLs for fresh databases, stop/start, superuser SQL."""

    def __init__(self, url: str, directory: str) -> None:
        self.url = url
        self.dir = directory
        parsed = urlparse(url)
        self.user = parsed.username
        self.password = parsed.password
        self.port = parsed.port
        self.host = parsed.hostname

    def db_url(self, database: str) -> str:
        """URL without the password (Firn gets it from FIRN_DB_PASSWORD)."""
        return f"postgresql://{self.user}@{self.host}:{self.port}/{database}"

    def db_url_with_password(self, database: str) -> str:
        return f"postgresql://{self.user}:{self.password}@{self.host}:{self.port}/{database}"

    def superuser_sql(self, sql: str) -> str:
        psql = ["/usr/lib/postgresql/15/bin/psql", "-h", f"{self.dir}/sock", "-p", str(self.port),
                "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql]
        if os.getuid() == 0:
            psql = ["runuser", "-u", "postgres", "--"] + psql
        return subprocess.run(psql, check=True, capture_output=True, text=True).stdout

    def fresh_database(self, prefix: str = "scen") -> str:
        name = f"{prefix}_{uuid.uuid4().hex[:10]}"
        self.superuser_sql(f"CREATE DATABASE {name} OWNER {self.user}")
        return name

    def stop(self) -> None:
        subprocess.run([str(PG_SH), "stop", self.dir], check=True, capture_output=True)

    def start(self) -> None:
        subprocess.run([str(PG_SH), "start", self.dir], check=True, capture_output=True)

    def tool_env(self) -> dict[str, str]:
        """Environment for pg_dump / pg_restore / psql as the firn role."""
        return {**os.environ, "PGPASSWORD": self.password or ""}


@pytest.fixture(scope="session")
def pg() -> PgServer:
    url, directory = os.environ.get("FIRN_TEST_PG_URL"), os.environ.get("FIRN_TEST_PG_DIR")
    started = None
    if not (url and directory):
        out = subprocess.run([str(PG_SH), "start"], check=True, capture_output=True,
                             text=True).stdout
        env = {}
        for line in out.splitlines():
            if line.startswith("export "):
                key, _, value = line[len("export "):].partition("=")
                env[key] = value.strip("'\"")
        url, directory = env["FIRN_TEST_PG_URL"], env["FIRN_TEST_PG_DIR"]
        started = directory
    server = PgServer(url, directory)
    yield server
    if started:
        subprocess.run([str(PG_SH), "destroy", started], check=False, capture_output=True)


_instances: list[FirnInstance] = []


@pytest.fixture
def instances(tmp_path):
    """Factory: instances(n, db_url=..., password=...) -> n running FirnInstances sharing one
    warehouse. Every instance is stopped at the end of the test."""
    created: list[FirnInstance] = []
    warehouse = tmp_path / "warehouse"

    def make(n: int, db_url: str | None = None, password: str | None = None,
             start: bool = True) -> list[FirnInstance]:
        out = []
        for _ in range(n):
            i = len(created)
            inst = FirnInstance(tmp_path / f"firn{i}", tmp_path / f"firn{i}.log", db_url=db_url,
                                warehouse=warehouse, password=password)
            created.append(inst)
            _instances.append(inst)
            if start:
                inst.start()
            out.append(inst)
        return out

    yield make
    for inst in created:
        if inst.proc is not None:
            inst.kill()
        _instances.remove(inst)


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        for inst in _instances:
            rep.sections.append((f"firn log tail ({inst.log_path})", inst.log_tail(30)))
