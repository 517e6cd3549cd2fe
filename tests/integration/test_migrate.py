"""Migrating in (issue 13, item 5; docs/recovery.md "Migrating in"): `firn migrate` registers
every table of another REST catalog into Firn, with claims, and with --release drops each one
at the source afterwards (register, then release). Proved against Apache Iceberg's reference
REST server (RESTCatalogServer from the compatibility kit's jars), read back with PyIceberg.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from pathlib import Path

import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog

from conftest import FIRN_BINARY, session_storage_root
import firn_auth
from firn_auth import Management
from helpers import SCHEMA, deployment_of, ids_of, local_path, rows

pytestmark = pytest.mark.firn_only

RCK = Path(os.environ.get("FIRN_RCK_DIR", Path.home() / ".cache/firn/rck/1.11.0"))


@pytest.fixture
def reference(tmp_path):
    """The reference REST catalog server on a file warehouse of its own."""
    if not (RCK / "iceberg-open-api-1.11.0-test-fixtures.jar").is_file():
        pytest.fail(f"the compatibility kit's jars are not installed in {RCK} "
                    "(tests/conformance/install.sh)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    warehouse = tmp_path / "reference-warehouse"
    warehouse.mkdir()
    env = {**os.environ, "CATALOG_REST_PORT": str(port),
           "CATALOG_WAREHOUSE": warehouse.as_uri(),
           "CATALOG_URI": f"jdbc:sqlite:{tmp_path / 'reference.db'}"}
    log = open(tmp_path / "reference.log", "wb")
    proc = subprocess.Popen(["java", "-cp", f"{RCK}/*", "org.apache.iceberg.rest.RESTCatalogServer"],
                            env=env, stdout=log, stderr=subprocess.STDOUT)
    uri = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{uri}/v1/config", timeout=1).status_code == 200:
                break
        except requests.RequestException:
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("the reference server did not start: " + (tmp_path / "reference.log").read_text()[-2000:])
    yield uri, warehouse
    proc.terminate()
    proc.wait(timeout=30)
    log.close()


def test_migrate_registers_every_table_with_claims_then_releases_the_source(server_factory,
                                                                           reference):
    uri, warehouse = reference
    other = RestCatalog("other", uri=uri)
    other.create_namespace("sales")
    other.create_namespace(("sales", "eu"))
    expected = {}
    for name in ("sales.orders", "sales.eu.returns"):
        tbl = other.create_table(name, schema=SCHEMA)
        tbl.append(rows([1, 2, 3]))
        tbl.append(rows([4]))
        tbl = other.load_table(name)
        expected[name] = (tbl.metadata_location, ids_of(tbl))

    srv = server_factory()
    admin = Management(srv.uri)
    admin.create_catalog("migrated", warehouse.as_uri())
    args = [str(FIRN_BINARY), "migrate", "--from", uri, "--catalog", "migrated", "--json",
            "--data-dir", str(srv.data_dir),
            "--storage-roots", session_storage_root(srv.data_dir)]
    dry = subprocess.run([*args, "--dry-run"], capture_output=True, text=True, timeout=120)
    assert dry.returncode == 0, dry.stdout + dry.stderr
    planned = [json.loads(x) for x in dry.stdout.splitlines()]
    assert sorted(o["name"] for o in planned if o.get("kind") == "table") == ["orders", "returns"]

    p = subprocess.run([*args, "--release"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    out = [json.loads(x) for x in p.stdout.splitlines()]
    tables = [o for o in out if o.get("kind") == "table"]
    assert all(o["action"] == "registered" and o["released"] == "released" for o in tables), out
    assert out[-1]["registered"] == 2 and out[-1]["failed"] == 0

    firn = RestCatalog("firn", uri=srv.uri, warehouse="migrated",
                       **firn_auth.pyiceberg_auth_properties(srv.uri))
    for name, (location, ids) in expected.items():
        tbl = firn.load_table(name)
        assert tbl.metadata_location == location, name
        assert ids_of(tbl) == ids, name
        claim = json.loads((local_path(tbl.location()) / ".firn-claim.json").read_text())
        assert claim["deployment"] == deployment_of(srv) and claim["catalog"] == "migrated"
        # Released at the source: the table is Firn's alone, and writable there.
        assert not other.table_exists(name)
        tbl.append(rows([99]))
        assert 99 in ids_of(firn.load_table(name))
    # Files stay where they were: the migration moved pointers, not data.
    assert all(local_path(loc).exists() for loc, _ in expected.values())


def test_migrate_refuses_a_source_it_cannot_read_and_changes_nothing(server_factory):
    srv = server_factory()
    p = subprocess.run([str(FIRN_BINARY), "migrate", "--from", "http://127.0.0.1:9", "--json",
                        "--data-dir", str(srv.data_dir)], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 1 and "firn migrate" in p.stderr, p.stderr
    bad = subprocess.run([str(FIRN_BINARY), "migrate", "--from", "not a uri",
                          "--data-dir", str(srv.data_dir)], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2
