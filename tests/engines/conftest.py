"""Fixtures for the engine suite: real query engines (DuckDB, Spark, PyIceberg) against Firn.

Each *backend* is one `firn serve` process with its own warehouse:
  file  file://<data-dir>/warehouse (always available)
  s3    s3://<bucket>/engines-<uuid> on the test bed's store, read from
        $FIRN_TESTBED_RUN/s3.env (default /tmp/firn-testbed/s3.env, written by
        scripts/testbed/start_s3.sh). Without it the s3 tests FAIL when CI=true and skip
        otherwise, with the reason.
Clients bring static store credentials (no credential vending yet). Authentication is on (issue
5): each server bootstraps the session admin of tests/integration/firn_auth.py, and every engine
authenticates with client credentials -- PyIceberg and Spark with `credential` (Spark refreshes
by token exchange), DuckDB with an iceberg secret (CLIENT_ID/CLIENT_SECRET, scope
PRINCIPAL_ROLE:ALL). Pass `creds=` to act as another principal.

The server process is the integration suite's FirnServer (imported, not copied), started with
extra flags. One Spark session serves the whole run (starting one takes 15-20 s); each backend
is a Spark catalog registered on first use.

Environment:
  FIRN_BIN            firn binary (default build/release/src/cli/firn)
  FIRN_SPARK_JARS     folder with the Iceberg Spark runtime and AWS bundle jars
                      (default ~/.cache/firn/jars/spark-iceberg-1.10.1, see install_engines.sh)
  FIRN_TESTBED_RUN    where start_s3.sh wrote s3.env
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
CATALOG_NAME = "firn"  # --catalog-name: the REST prefix and the warehouse name clients send
ICEBERG_VERSION = "1.10.1"


def _load_integration_conftest():
    # Imported under its own name (both files are conftest.py); it imports its folder's modules.
    folder = REPO_ROOT / "tests/integration"
    sys.path.append(str(folder))
    spec = importlib.util.spec_from_file_location("firn_integration_conftest", folder / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


_itc = _load_integration_conftest()
FirnServer = _itc.FirnServer
http_headers = _itc.http_headers
expunge_dropped = _itc.expunge_dropped
short_token_lifetime = _itc.short_token_lifetime
import firn_auth  # noqa: E402  (tests/integration is on sys.path now)


class EngineServer(FirnServer):
    """FirnServer with extra flags and a scrubbed environment (no stray FIRN_* settings)."""

    def __init__(self, data_dir: Path, log_path: Path, args: list[str], env: dict[str, str]):
        super().__init__(data_dir, log_path, args=args, env=env)
        self.reference = False  # the engine suite always runs Firn itself

    def _command(self):
        cmd, env = super()._command()
        # s3.env exports FIRN_S3_*; Firn reads FIRN_* settings from its environment. Keep only
        # ours: the bootstrap credentials and this server's own settings.
        keep = {**firn_auth.bootstrap_env(), **self.env}
        env = {k: v for k, v in env.items() if not k.startswith("FIRN_") or k in keep}
        return cmd, env


# ---------------------------------------------------------------------------------------------
# The S3 test bed
# ---------------------------------------------------------------------------------------------
def s3_env_path() -> Path:
    run = os.environ.get("FIRN_TESTBED_RUN") or os.path.join(
        os.environ.get("TMPDIR", "/tmp"), "firn-testbed"
    )
    return Path(run) / "s3.env"


def read_s3_env(path: Path) -> dict[str, str]:
    """Parses the `export K=V` lines start_s3.sh writes."""
    out = {}
    for line in path.read_text().splitlines():
        m = re.match(r"^\s*(?:export\s+)?(FIRN_S3_[A-Z_]+)=(.*)$", line)
        if m:
            value = shlex.split(m.group(2))
            out[m.group(1)] = value[0] if value else ""
    return out


@dataclass
class S3Store:
    endpoint: str  # http://127.0.0.1:PORT
    region: str
    access_key: str
    secret_key: str
    bucket: str
    flavor: str
    role_arn: str = ""            # the role vended credentials are assumed from
    session_policy: bool = False  # whether the store enforces STS session policies
    tenant_access_key: str = ""   # a second identity (weed): a catalog's named server keys
    tenant_secret_key: str = ""

    @property
    def host_port(self) -> str:
        return re.sub(r"^https?://", "", self.endpoint).rstrip("/")


# ---------------------------------------------------------------------------------------------
# Backends: one Firn server + how each engine talks to it
# ---------------------------------------------------------------------------------------------
@dataclass
class Backend:
    name: str  # "file" | "s3"
    server: EngineServer
    warehouse: str  # the warehouse URI Firn was started with
    s3: S3Store | None = None
    # True: engines get no storage key at all and ask Firn for vended credentials.
    vended: bool = False
    catalog: str = CATALOG_NAME  # the warehouse name clients send
    _spark_catalogs: set = field(default_factory=set)

    @property
    def uri(self) -> str:
        return self.server.uri

    # PyIceberg ------------------------------------------------------------------------------
    def pyiceberg_properties(self, creds: "firn_auth.Credentials | None" = None
                             ) -> dict[str, str]:
        props = {"uri": self.uri, "warehouse": self.catalog}
        if self.server.auth:
            props.update(firn_auth.pyiceberg_auth_properties(self.uri, creds))
        if self.s3 and self.vended:
            # Nothing about the store: endpoint, region and keys all come from Firn.
            props["header.X-Iceberg-Access-Delegation"] = "vended-credentials"
        elif self.s3:
            props.update(
                {
                    "s3.endpoint": self.s3.endpoint,
                    "s3.access-key-id": self.s3.access_key,
                    "s3.secret-access-key": self.s3.secret_key,
                    "s3.region": self.s3.region,
                }
            )
        return props

    def pyiceberg(self, creds: "firn_auth.Credentials | None" = None) -> RestCatalog:
        return RestCatalog(f"firn_{self.name}", **self.pyiceberg_properties(creds))

    # DuckDB ---------------------------------------------------------------------------------
    def duckdb(self, alias: str = "ice", creds: "firn_auth.Credentials | None" = None):
        """A new DuckDB connection with Firn attached as `alias` (extensions from the wheels),
        authenticated as `creds` (default: the session admin)."""
        con = duckdb_connection()
        for ext in DUCKDB_EXTENSIONS:
            con.execute(f"LOAD {ext}")
        if self.s3 and not self.vended:
            con.execute(
                "CREATE SECRET store (TYPE s3, KEY_ID ?, SECRET ?, REGION ?, ENDPOINT ?, "
                "URL_STYLE 'path', USE_SSL false)",
                [self.s3.access_key, self.s3.secret_key, self.s3.region, self.s3.host_port],
            )
        if self.server.auth:
            creds = creds or firn_auth.admin_credentials()
            # Client credentials in HTTP Basic, scope PRINCIPAL_ROLE:ALL (DuckDB's OAuth2 flow).
            con.execute(
                f"CREATE SECRET {alias}_auth (TYPE iceberg, CLIENT_ID ?, CLIENT_SECRET ?, "
                "OAUTH2_SCOPE 'PRINCIPAL_ROLE:ALL', OAUTH2_SERVER_URI ?)",
                [creds.client_id, creds.client_secret, self.uri + firn_auth.TOKEN_PATH],
            )
            auth = f"SECRET {alias}_auth"
        else:
            auth = "AUTHORIZATION_TYPE 'none'"
        con.execute(
            f"ATTACH '{self.catalog}' AS {alias} (TYPE iceberg, ENDPOINT '{self.uri}', "
            f"{auth}, ACCESS_DELEGATION_MODE "
            f"'{'vended_credentials' if self.vended else 'none'}')"
        )
        return con

    # Spark ----------------------------------------------------------------------------------
    def spark_catalog(self, spark, creds: "firn_auth.Credentials | None" = None,
                      suffix: str = "", extra: dict[str, str] | None = None) -> str:
        """Registers this backend as Spark catalog `firn_<name><suffix>` (once) and returns that
        name. It authenticates as `creds` (default: the session admin) with client credentials;
        Iceberg refreshes the token by token exchange before it expires."""
        name = f"firn_{self.name}{suffix}"
        if name not in self._spark_catalogs:
            conf = {
                "": "org.apache.iceberg.spark.SparkCatalog",
                ".type": "rest",
                ".uri": self.uri,
                ".warehouse": self.catalog,
                # Every query sees the catalog's current state (other engines write too).
                ".cache-enabled": "false",
            }
            if self.server.auth:
                creds = creds or firn_auth.admin_credentials()
                conf.update(
                    {
                        ".rest.auth.type": "oauth2",
                        ".credential": creds.credential,
                        ".scope": "PRINCIPAL_ROLE:ALL",
                        ".oauth2-server-uri": self.uri + firn_auth.TOKEN_PATH,
                        ".token-refresh-enabled": "true",
                        f".header.{firn_auth.REALM_HEADER}": creds.realm,
                    }
                )
            if self.s3 and self.vended:
                conf.update(
                    {
                        ".io-impl": "org.apache.iceberg.aws.s3.S3FileIO",
                        ".header.X-Iceberg-Access-Delegation": "vended-credentials",
                    }
                )
            elif self.s3:
                conf.update(
                    {
                        ".io-impl": "org.apache.iceberg.aws.s3.S3FileIO",
                        ".s3.endpoint": self.s3.endpoint,
                        ".s3.path-style-access": "true",
                        ".client.region": self.s3.region,
                        ".s3.access-key-id": self.s3.access_key,
                        ".s3.secret-access-key": self.s3.secret_key,
                    }
                )
            conf.update(extra or {})  # last: a test's settings win
            for key, value in conf.items():
                spark.conf.set(f"spark.sql.catalog.{name}{key}", value)
            self._spark_catalogs.add(name)
        return name

    # Raw REST -------------------------------------------------------------------------------
    def load_table_json(self, namespace: str, table: str) -> dict:
        r = requests.get(
            f"{self.uri}/v1/{self.catalog}/namespaces/{namespace}/tables/{table}",
            headers=http_headers(self.server),
            timeout=30,
        )
        assert r.status_code == 200, f"load {namespace}.{table}: HTTP {r.status_code} {r.text}"
        return r.json()


def _start(tmp_path_factory, name: str, args: list[str], env: dict[str, str],
           catalog_name: str | None = CATALOG_NAME, generated_admin: bool = False
           ) -> EngineServer:
    """Starts `firn serve` with `args` and `env`. catalog_name None: Firn's own default
    (`default`). generated_admin: no bootstrap credentials, so Firn generates the admin's and
    writes them to <data-dir>/admin-credentials (firn_auth.read_admin_credentials)."""
    base = tmp_path_factory.mktemp(f"firn-{name}")
    flags = ["--catalog-name", catalog_name] if catalog_name else []
    if generated_admin:
        env = {**env, "FIRN_BOOTSTRAP_CREDENTIALS": None}
    srv = EngineServer(base / "data", base / "server.log", [*flags, *args], env)
    _itc._servers.append(srv)  # the integration hook is not loaded here; ours reads this list
    if generated_admin:
        srv.auth_override = False  # ready before anyone knows the credentials (a 401 will do)
    srv.start()
    srv.auth_override = None
    return srv


def _stop(srv: EngineServer) -> None:
    if srv.proc is not None:
        srv.stop()
    if srv in _itc._servers:
        _itc._servers.remove(srv)


@pytest.fixture(scope="session")
def file_backend(tmp_path_factory):
    srv = _start(tmp_path_factory, "file", [], {})
    yield Backend("file", srv, srv.warehouse_dir.as_uri())
    _stop(srv)


@pytest.fixture(scope="session")
def s3_store() -> S3Store:
    path = s3_env_path()
    if not path.is_file():
        reason = (
            f"no S3 test bed: {path} is missing (start one with scripts/testbed/start_s3.sh, "
            "or run scripts/test_engines.sh)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    env = read_s3_env(path)
    return S3Store(
        endpoint=env["FIRN_S3_ENDPOINT"],
        region=env.get("FIRN_S3_REGION", "us-east-1"),
        access_key=env["FIRN_S3_ACCESS_KEY"],
        secret_key=env["FIRN_S3_SECRET_KEY"],
        bucket=env["FIRN_S3_BUCKET"],
        flavor=env.get("FIRN_S3_FLAVOR", "?"),
        role_arn=env.get("FIRN_S3_ROLE_ARN", ""),
        session_policy=env.get("FIRN_S3_SESSION_POLICY") == "1",
        tenant_access_key=env.get("FIRN_S3_TENANT_ACCESS_KEY", ""),
        tenant_secret_key=env.get("FIRN_S3_TENANT_SECRET_KEY", ""),
    )


def _s3_server_args(s3_store: S3Store, folder: str) -> tuple[str, list[str]]:
    """A fresh warehouse folder in the test bed's bucket and the flags that serve it."""
    warehouse = f"s3://{s3_store.bucket}/{folder}-{uuid.uuid4().hex[:12]}"
    return warehouse, ["--warehouse", warehouse, "--s3-endpoint", s3_store.endpoint,
                       "--s3-region", s3_store.region, "--s3-access-key-id", s3_store.access_key]


@pytest.fixture(scope="session")
def s3_backend(tmp_path_factory, s3_store):
    warehouse, args = _s3_server_args(s3_store, "engines")
    srv = _start(tmp_path_factory, "s3", args, {"FIRN_S3_SECRET_ACCESS_KEY": s3_store.secret_key})
    yield Backend("s3", srv, warehouse, s3_store)
    _stop(srv)


# The secret of the `wrong` key set of vended_backend (it must never appear in a log).
WRONG_KEY_SECRET = "wrong-secret-" + uuid.uuid4().hex


@pytest.fixture(scope="session")
def vended_backend(tmp_path_factory, s3_store):
    """An s3:// warehouse whose engines hold no storage key: Firn vends STS credentials
    confined to each table (docs/vending.md). Needs a store with STS that enforces session
    policies (SeaweedFS); on another store the tests are skipped (failed under CI)."""
    if not (s3_store.role_arn and s3_store.session_policy):
        reason = f"the S3 test bed ({s3_store.flavor}) does not enforce STS session policies"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    warehouse, args = _s3_server_args(s3_store, "vended")
    args += ["--s3-role-arn", s3_store.role_arn, "--vended-credentials-seconds", "900"]
    # Named server-side keys (docs/vending.md): the test bed's second identity, and a set the
    # store does not know.
    keys = tmp_path_factory.mktemp("key-sets")
    (keys / "tenant.keys").write_text(f"access_key_id = {s3_store.tenant_access_key}\n"
                                      f"secret_access_key = {s3_store.tenant_secret_key}\n")
    (keys / "wrong.keys").write_text(f"access_key_id = FIRNWRONGKEY\n"
                                     f"secret_access_key = {WRONG_KEY_SECRET}\n")
    for f in keys.iterdir():
        f.chmod(0o600)
    args += ["--s3-key-sets", f"tenant={keys / 'tenant.keys'},wrong={keys / 'wrong.keys'}"]
    srv = _start(tmp_path_factory, "vended", args,
                 {"FIRN_S3_SECRET_ACCESS_KEY": s3_store.secret_key})
    yield Backend("vended", srv, warehouse, s3_store, vended=True)
    _stop(srv)


@pytest.fixture(params=["file", "s3"])
def backend(request) -> Backend:
    return request.getfixturevalue(f"{request.param}_backend")


# ---------------------------------------------------------------------------------------------
# DuckDB
# ---------------------------------------------------------------------------------------------
DUCKDB_EXTENSIONS = ("httpfs", "avro", "iceberg")


def duckdb_connection():
    """A new in-memory DuckDB with the httpfs, avro and iceberg extensions installed from their
    wheels, never from the network (`INSTALL iceberg` then finds it installed); not loaded."""
    import duckdb
    import duckdb_extensions

    ext_dir = Path(os.environ.get("FIRN_CACHE", Path.home() / ".cache/firn")) / "duckdb-ext"
    con = duckdb.connect(
        config={
            "extension_directory": str(ext_dir),
            "autoinstall_known_extensions": False,  # never reach for the network
            "autoload_known_extensions": True,
        }
    )
    for ext in DUCKDB_EXTENSIONS:
        duckdb_extensions.import_extension(ext, con=con)
    return con


# ---------------------------------------------------------------------------------------------
# Spark: one session for the whole run
# ---------------------------------------------------------------------------------------------
def spark_jars() -> list[str]:
    folder = Path(
        os.environ.get(
            "FIRN_SPARK_JARS",
            Path(os.environ.get("FIRN_CACHE", Path.home() / ".cache/firn"))
            / f"jars/spark-iceberg-{ICEBERG_VERSION}",
        )
    )
    jars = [
        folder / f"iceberg-spark-runtime-4.0_2.13-{ICEBERG_VERSION}.jar",
        folder / f"iceberg-aws-bundle-{ICEBERG_VERSION}.jar",
    ]
    missing = [str(j) for j in jars if not j.is_file()]
    if missing:
        pytest.fail(f"Spark jars missing (run scripts/install_engines.sh): {missing}")
    return [str(j) for j in jars]


@pytest.fixture(scope="session")
def spark():
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")  # don't pick a non-loopback address
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("firn-engines")
        .config("spark.jars", ",".join(spark_jars()))
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.driver.memory", "1g")
        .config(
            "spark.sql.extensions",
            "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions",
        )
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


# ---------------------------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------------------------
@pytest.fixture
def ns(backend, request) -> str:
    """A namespace created (through PyIceberg) for this test only."""
    base = re.sub(r"[^a-z0-9_]", "_", request.node.originalname.lower())[:30]
    name = f"{base}_{uuid.uuid4().hex[:8]}"
    backend.pyiceberg().create_namespace(name)
    return name


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        for srv in list(_itc._servers):
            rep.sections.append((f"server log tail ({srv.log_path})", srv.log_tail()))


# ---------------------------------------------------------------------------------------------
# Trino (tests marked `trino` run in their own CI stage: scripts/test_engines.sh -m trino)
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def trino(tmp_path_factory, file_backend, request):
    """One single-node Trino for the session with catalog `firn_file` on the file backend and,
    when the S3 test bed is up, `firn_vended` on the vended backend (no storage key)."""
    import trino_server

    if not trino_server.installed():
        reason = f"Trino is not installed in {trino_server.TRINO_HOME} (scripts/trino/install.sh)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    creds = firn_auth.admin_credentials()
    catalogs = {"firn_file": trino_server.catalog_properties(file_backend, creds)}
    if s3_env_path().is_file():
        vended = request.getfixturevalue("vended_backend")
        catalogs["firn_vended"] = trino_server.catalog_properties(vended, creds)
    srv = trino_server.TrinoServer(tmp_path_factory.mktemp("trino"), catalogs)
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()
