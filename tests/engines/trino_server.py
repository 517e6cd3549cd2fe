"""A single-node Trino (coordinator and worker in one JVM) whose Iceberg catalogs point at Firn
backends, for the Trino tests (test_trino.py) and the three-engine scenario.

Trino is installed by scripts/trino/install.sh into ~/.cache/firn/trino/<version> (server core,
Iceberg plugin, CLI; Java 25 from the machine). Each catalog logs in to Firn with OAuth2 client
credentials; a file:// backend is read through Trino's native local file system, an s3://
backend with vended credentials through its native S3 file system, with no storage key of its
own (the endpoint and region are the ones Firn tells clients). docs/engines.md, "Trino".
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

import requests

TRINO_VERSION = os.environ.get("TRINO_VERSION", "476")
FIRN_CACHE = Path(os.environ.get("FIRN_CACHE", Path.home() / ".cache/firn"))
TRINO_HOME = Path(os.environ.get("FIRN_TRINO_HOME", FIRN_CACHE / "trino" / TRINO_VERSION))
JAVA_HOME = os.environ.get("JAVA_HOME_TRINO", "/usr/lib/jvm/temurin-25-jdk-amd64")
START_TIMEOUT_S = 180
NODES_TIMEOUT_S = 90  # how long a statement waits for a node to take its catalog


def installed() -> bool:
    return (TRINO_HOME / ".installed").is_file()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def catalog_properties(backend, creds) -> dict[str, str]:
    """Trino's Iceberg catalog for one Firn backend, logged in as `creds`."""
    props = {
        "connector.name": "iceberg",
        "iceberg.catalog.type": "rest",
        "iceberg.rest-catalog.uri": backend.uri,
        "iceberg.rest-catalog.warehouse": backend.catalog,
        "iceberg.rest-catalog.security": "OAUTH2",
        "iceberg.rest-catalog.oauth2.credential": creds.credential,
        "iceberg.rest-catalog.oauth2.scope": "PRINCIPAL_ROLE:ALL",
        "iceberg.rest-catalog.oauth2.server-uri": backend.uri + "/v1/oauth/tokens",
        # Views are kept in the catalog (Iceberg views through Firn's REST view endpoints).
        "iceberg.rest-catalog.view-endpoints-enabled": "true",
    }
    if backend.s3 and backend.vended:
        props.update({
            "iceberg.rest-catalog.vended-credentials-enabled": "true",
            "fs.native-s3.enabled": "true",
            # Trino takes these from its own properties, not from the table's config: the
            # endpoint Firn tells clients.
            "s3.endpoint": backend.s3.endpoint,
            "s3.region": backend.s3.region,
            "s3.path-style-access": "true",
        })
    else:
        # Firn hands out file:// locations; the native local file system resolves them under /.
        props.update({"fs.native-local.enabled": "true", "local.location": "/"})
    return props


class TrinoServer:
    def __init__(self, work: Path, catalogs: dict[str, dict[str, str]]) -> None:
        self.work = work
        self.port = _free_port()
        self.catalogs = catalogs
        self.proc: subprocess.Popen | None = None
        self.log_path = work / "trino.log"

    def start(self) -> None:
        etc = self.work / "etc"
        (etc / "catalog").mkdir(parents=True, exist_ok=True)
        data = self.work / "data"
        data.mkdir(exist_ok=True)
        (etc / "node.properties").write_text(
            f"node.environment=test\nnode.id=firn-trino\nnode.data-dir={data}\n")
        (etc / "config.properties").write_text(
            "coordinator=true\nnode-scheduler.include-coordinator=true\n"
            f"http-server.http.port={self.port}\ndiscovery.uri=http://127.0.0.1:{self.port}\n"
            "query.max-memory=1GB\nquery.max-memory-per-node=512MB\n")
        (etc / "jvm.config").write_text(
            "-server\n-Xmx1536M\n-XX:+UseG1GC\n-XX:+ExitOnOutOfMemoryError\n"
            "-Djdk.attach.allowAttachSelf=true\n")
        (etc / "log.properties").write_text("io.trino=WARN\n")
        for name, props in self.catalogs.items():
            (etc / "catalog" / f"{name}.properties").write_text(
                "".join(f"{k}={v}\n" for k, v in props.items()))
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("FIRN_S3_", "AWS_"))}  # Trino holds no storage key
        env["JAVA_HOME"] = JAVA_HOME
        env["PATH"] = f"{JAVA_HOME}/bin:{env.get('PATH', '')}"
        log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [str(TRINO_HOME / "server/bin/launcher"), "run", f"--etc-dir={etc}",
             f"--data-dir={data}"], stdout=log, stderr=subprocess.STDOUT, env=env,
            start_new_session=True)
        deadline = time.time() + START_TIMEOUT_S
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Trino exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                info = requests.get(f"http://127.0.0.1:{self.port}/v1/info", timeout=2).json()
                # Started is not yet ready: the node registers itself a moment later, and until
                # then queries fail with NO_NODES_AVAILABLE.
                if info.get("starting") is False and self._answers():
                    return
            except (requests.RequestException, ValueError):
                pass
            time.sleep(0.5)
        raise RuntimeError(f"Trino did not start in {START_TIMEOUT_S}s:\n{self.log_tail()}")

    def _answers(self) -> bool:
        import trino

        try:
            cur = self.connect("system").cursor()
            cur.execute("SELECT count(*) FROM system.runtime.nodes WHERE state = 'active'")
            return cur.fetchall()[0][0] > 0
        except trino.exceptions.TrinoQueryError:
            return False

    def wait_until_it_reads(self, catalog: str, table: str) -> None:
        """Blocks until a scan of `table` runs (query() waits out NO_NODES_AVAILABLE)."""
        self.query(catalog, f"SELECT count(*) FROM {table}")

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return "(no log)"

    def connect(self, catalog: str, schema: str | None = None):
        import trino  # the Trino client (scripts/requirements-engines.txt)

        return trino.dbapi.connect(host="127.0.0.1", port=self.port, user="firn-tests",
                                   catalog=catalog, schema=schema,
                                   http_scheme="http", request_timeout=120)

    def query(self, catalog: str, sql: str, timeout: float = NODES_TIMEOUT_S) -> list[list]:
        """Runs one statement. Right after start, and on a loaded machine a while later, the
        node has not yet announced a catalog to the scheduler: the first statement that scans a
        catalog's data fails with NO_NODES_AVAILABLE (system tables and VALUES need no catalog
        node, so a readiness probe passes before it). Trino raises it while scheduling, before
        any task has run and before anything is committed (the Iceberg connector commits on the
        coordinator when the statement finishes), so running the statement again cannot apply
        a write twice; every other error is raised at once."""
        import trino

        deadline = time.time() + timeout
        while True:
            cur = self.connect(catalog).cursor()
            try:
                cur.execute(sql)
                return cur.fetchall()
            except trino.exceptions.TrinoQueryError as e:
                if e.error_name != "NO_NODES_AVAILABLE" or time.time() > deadline:
                    raise
                time.sleep(0.5)

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None
