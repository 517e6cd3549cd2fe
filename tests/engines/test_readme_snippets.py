"""The README's client snippets (PyIceberg, DuckDB, Spark) run as written against `firn serve` as
a newcomer starts it: no --catalog-name (so the catalog is `default`), authentication on, the
admin's credentials generated into <data-dir>/admin-credentials.

Each block marked `<!-- snippet: NAME -->` in README.md is read from the repository at test
time. Only its placeholders are replaced: the endpoint `http://127.0.0.1:8181` by the test
server's address, `<client-id>` and `<client-secret>` by the credentials read from that
server's admin-credentials file. The one other substitution is Spark's: `spark.jars.packages`
(Maven Central) becomes `spark.jars` naming the same artifact's jar from the local cache, and
the snippet's `getOrCreate()` joins the suite's Spark session, whose start-up settings must
equal the ones the snippet asks for (checked below).

Each snippet creates `demo.events` if it is missing, adds its own row and reads the table back;
the README says they run in any order. Every snippet runs first on a fresh server (the create
path) and after another (the existing table). Spark binds catalog `firn` to the first server it
meets in the session, so one test runs the Spark snippet.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re

import pytest

import firn_auth
from conftest import REPO_ROOT, Backend, _start, _stop, duckdb_connection, spark_jars
from engines_util import pyiceberg_rows

README = REPO_ROOT / "README.md"
ENDPOINT = "http://127.0.0.1:8181"
PLACEHOLDERS = (ENDPOINT, "<client-id>", "<client-secret>")
LANGUAGE = {"pyiceberg": "python", "duckdb": "sql", "spark": "python"}
ROW = {"pyiceberg": (1, "pyiceberg"), "duckdb": (2, "duckdb"), "spark": (3, "spark")}
TABLE = "demo.events"


def readme_snippets() -> dict[str, tuple[str, str]]:
    """{name: (fence language, code)} for every `<!-- snippet: name -->` line followed by a
    fenced block."""
    text = README.read_text()
    found = re.findall(r"^<!-- snippet: (\S+) -->\n```(\w*)\n(.*?)^```$", text, re.M | re.S)
    names = [name for name, _, _ in found]
    assert len(names) == len(set(names)), f"a snippet marker repeats in README.md: {names}"
    markers = re.findall(r"<!-- snippet: (\S+) -->", text)
    assert sorted(markers) == sorted(names), f"a marker without a fenced block after it: {markers}"
    return {name: (lang, code) for name, lang, code in found}


def snippet(name: str, uri: str, creds: firn_auth.Credentials) -> str:
    """The README's block `name` with its placeholders filled in for this server."""
    snippets = readme_snippets()
    assert name in snippets, f"README.md lost the `<!-- snippet: {name} -->` block"
    lang, code = snippets[name]
    assert lang == LANGUAGE[name], f"snippet {name} is fenced as {lang!r}"
    for placeholder in PLACEHOLDERS:
        assert placeholder in code, f"snippet {name} does not use {placeholder}"
    code = (code.replace(ENDPOINT, uri).replace("<client-id>", creds.client_id)
            .replace("<client-secret>", creds.client_secret))
    left = re.findall(r"<[a-z][a-z-]*>", code)
    assert not left, f"snippet {name} has placeholders this test does not fill: {left}"
    return code


def test_readme_marks_each_client_snippet():
    snippets = readme_snippets()
    assert set(snippets) == set(LANGUAGE), f"README.md snippets: {sorted(snippets)}"
    for name, (lang, _) in snippets.items():
        assert lang == LANGUAGE[name], f"snippet {name} is fenced as {lang!r}"


@pytest.fixture
def readme_server(tmp_path_factory):
    """A fresh `firn serve` with Firn's defaults, and the credentials it generated."""
    srv = _start(tmp_path_factory, "readme", [], {}, catalog_name=None, generated_admin=True)
    creds = firn_auth.read_admin_credentials(srv.data_dir / "admin-credentials")
    yield Backend("readme", srv, srv.warehouse_dir.as_uri(), catalog="default"), creds
    _stop(srv)


def _exec(code: str, name: str) -> str:
    """Runs Python `code` as a script of its own; returns what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"README.md snippet {name}", "exec"), {"__name__": "__main__"})
    return out.getvalue()


def run_pyiceberg(code: str, request) -> list[tuple]:
    printed = _exec(code, "pyiceberg").strip().splitlines()
    assert printed, "the PyIceberg snippet printed nothing"
    return sorted((r["id"], r["engine"]) for r in ast.literal_eval(printed[-1]))


def run_duckdb(code: str, request) -> list[tuple]:
    # Extensions installed from the wheels (offline); the snippet's INSTALL finds them there.
    return duckdb_connection().execute(code).fetchall()  # the last statement's rows


def run_spark(code: str, request) -> list[tuple]:
    spark = request.getfixturevalue("spark")
    packages = re.search(r'\.config\("spark\.jars\.packages", "([^"]+)"\)', code)
    assert packages, "the Spark snippet has no spark.jars.packages line"
    group, artifact, version = packages.group(1).split(":")
    jar = [j for j in spark_jars() if j.endswith(f"/{artifact}-{version}.jar")]
    assert group == "org.apache.iceberg" and jar, (
        f"the Spark snippet asks for {packages.group(1)}; the suite runs {spark_jars()}")
    code = code.replace(packages.group(0), f'.config("spark.jars", "{jar[0]}")')
    # The session exists, so Spark applies only the runtime settings: those it was started with
    # must be the snippet's.
    started = dict(spark.sparkContext.getConf().getAll())
    for key, value in re.findall(r'\.config\("([^"]+)", "([^"]+)"\)', code):
        if key == "spark.jars":
            assert value in started[key].split(","), f"the session runs {started[key]}"
        elif key == "spark.sql.extensions":
            assert started.get(key) == value, f"the session runs {key}={started.get(key)}"
    shown = [line for line in _exec(code, "spark").splitlines() if line.startswith("|")]
    assert shown, "the Spark snippet showed no table"
    header, *rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in shown]
    assert header == ["id", "engine"], header
    return sorted((int(i), engine) for i, engine in rows)


RUN = {"pyiceberg": run_pyiceberg, "duckdb": run_duckdb, "spark": run_spark}


@pytest.mark.parametrize(
    "order",
    [("pyiceberg", "duckdb"), ("duckdb", "pyiceberg"), ("spark", "pyiceberg", "duckdb")],
    ids="-".join,
)
def test_readme_snippets_run_as_written(order, readme_server, request):
    backend, creds = readme_server
    want = []
    for name in order:
        want = sorted([*want, ROW[name]])
        got = RUN[name](snippet(name, backend.uri, creds), request)
        assert got == want, f"the {name} snippet read {got}, after {order[:order.index(name)]}"
    # What the snippets wrote is in the catalog for any client.
    assert pyiceberg_rows(backend.pyiceberg(creds), TABLE, ["id", "engine"]) == want
