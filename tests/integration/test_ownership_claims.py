"""Ownership across catalogs (issue 12, items 1 and 2; docs/ownership-claims.md), played as the
fork of the multi-engine chapter: two Firn deployments share one warehouse, and another product
(PyIceberg's SQL catalog) registers and writes a table Firn owns.

- every table Firn creates or registers has a claim beside it, written create-only, naming the
  deployment, realm, catalog, table and UUID;
- a second deployment's register, or create at the same location, is refused with 409 naming
  the owner and how to release it, and writes nothing; after a drop the claim is gone and the
  table can move;
- a foreign commit is noticed on Firn's next commit: the table is fenced (409, nothing written,
  loads still served) until `firn admin fence keep-ours|adopt|release`;
- a crafted claim (unreadable, or naming someone else) refuses a create and writes no file.
"""
from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
import requests
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.exceptions import CommitFailedException, TableAlreadyExistsError

import firn_auth
from conftest import FIRN_BINARY, make_catalog
from helpers import SCHEMA, deployment_of, ids_of, local_path, rows, sample

pytestmark = pytest.mark.firn_only

CLAIM = ".firn-claim.json"


def firn_admin(srv, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(FIRN_BINARY), "admin", *args, "--data-dir", str(srv.data_dir)],
                          capture_output=True, text=True, timeout=60)


def metadata_files(tbl) -> list[Path]:
    return sorted(local_path(tbl.metadata.location).joinpath("metadata").glob("*.metadata.json"))


@pytest.fixture
def two_deployments(server_factory, tmp_path):
    """Deployments A and B: separate databases, one shared warehouse (same default paths)."""
    shared = tmp_path / "shared-warehouse"
    shared.mkdir()
    a = server_factory(args=["--warehouse", str(shared)])
    b = server_factory(args=["--warehouse", str(shared)])
    assert deployment_of(a) != deployment_of(b)
    return a, b, shared


def test_every_table_is_claimed_and_a_second_deployment_cannot_take_it(two_deployments):
    a, b, _ = two_deployments
    ca, cb = make_catalog(a), make_catalog(b)
    ca.create_namespace("lake")
    cb.create_namespace("lake")
    tbl = ca.create_table("lake.events", schema=SCHEMA)
    tbl.append(rows([1, 2]))
    location = local_path(tbl.metadata.location)
    claim = json.loads((location / CLAIM).read_text())
    assert claim["format"] == "firn-table-claim" and claim["format-version"] == 1
    assert claim["deployment"] == deployment_of(a)
    assert (claim["realm"], claim["namespace"], claim["name"]) == ("default", ["lake"], "events")
    assert claim["table-uuid"] == str(tbl.metadata.table_uuid)
    assert claim["state"] == "active" and claim["claimed-at-ms"] > 0

    # The fork of the chapter: B registers A's current file. Refused, naming A.
    before = sorted(p.name for p in location.rglob("*"))
    with pytest.raises(TableAlreadyExistsError) as refused:
        cb.register_table("lake.events", tbl.metadata_location)
    message = str(refused.value)
    assert deployment_of(a) in message and "purgeRequested=false" in message, message
    # B creating a table of its own at the same default path: refused the same way.
    with pytest.raises(TableAlreadyExistsError) as created:
        cb.create_table("lake.events", schema=SCHEMA)
    assert deployment_of(a) in str(created.value)
    assert sorted(p.name for p in location.rglob("*")) == before, "a refusal wrote files"
    assert cb.list_tables("lake") == []
    assert json.loads((location / CLAIM).read_text()) == claim

    # A keeps writing; after A drops the table (files kept), its claim goes and B may take it.
    tbl.append(rows([3]))
    current = ca.load_table("lake.events").metadata_location
    ca.drop_table("lake.events")
    assert not (location / CLAIM).exists()
    moved = cb.register_table("lake.events", current)
    assert sorted(ids_of(moved.scan())) == [1, 2, 3]
    assert json.loads((location / CLAIM).read_text())["deployment"] == deployment_of(b)
    # ... and A, its old owner, is now the one refused.
    with pytest.raises(TableAlreadyExistsError):
        ca.register_table("lake.events", current)


def test_a_deployment_takes_over_its_own_claim_of_a_dropped_table(fresh_server):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    tbl = cat.create_table("lake.t", schema=SCHEMA)
    tbl.append(rows([7]))
    current = cat.load_table("lake.t").metadata_location
    location = local_path(tbl.metadata.location)
    # A claim left behind as a crash between drop and claim removal would leave it.
    stale = (location / CLAIM).read_text()
    cat.drop_table("lake.t")
    (location / CLAIM).write_text(stale)
    again = cat.register_table("lake.renamed", current)
    assert ids_of(again.scan()) == [7]
    claim = json.loads((location / CLAIM).read_text())
    assert claim["name"] == "renamed" and claim["deployment"] == deployment_of(fresh_server)


@pytest.mark.parametrize("crafted", [
    b"not json at all",
    json.dumps({"format": "firn-table-claim", "format-version": 1,
                "deployment": "11111111-2222-4333-8444-555555555555", "realm": "default",
                "catalog": "elsewhere", "namespace": ["x"], "name": "y",
                "table-uuid": "u", "claimed-at-ms": 1, "state": "active"}).encode(),
])
def test_a_crafted_claim_refuses_a_create_and_nothing_is_written(fresh_server, tmp_path, crafted):
    cat = make_catalog(fresh_server)
    cat.create_namespace("lake")
    target = fresh_server.catalog_dir / "lake" / "explicit"
    target.mkdir(parents=True)
    (target / CLAIM).write_bytes(crafted)
    with pytest.raises(TableAlreadyExistsError) as refused:
        cat.create_table("lake.explicit", schema=SCHEMA, location=target.as_uri())
    assert "claim" in str(refused.value) or "owned by another catalog" in str(refused.value)
    assert sorted(p.name for p in target.rglob("*")) == [CLAIM]
    assert (target / CLAIM).read_bytes() == crafted
    assert cat.list_tables("lake") == []


@pytest.fixture
def forked(fresh_server, tmp_path):
    """A Firn table with data, registered and written by another product (PyIceberg's SQL
    catalog on its own SQLite file), as the fixture catalog of the chapter did."""
    firn = make_catalog(fresh_server)
    firn.create_namespace("lake")
    tbl = firn.create_table("lake.events", schema=SCHEMA)
    tbl.append(rows([1, 2]))
    other = SqlCatalog("other", uri=f"sqlite:///{tmp_path / 'other.db'}",
                       warehouse=fresh_server.warehouse_dir.as_uri())
    other.create_namespace("lake")
    theirs = other.register_table("lake.events", tbl.metadata_location)
    theirs.append(rows([100]))
    return fresh_server, firn, other


def test_a_foreign_commit_fences_the_table_and_keep_ours_resumes(forked):
    srv, firn, other = forked
    admin = firn_auth.Management(srv.uri)
    fenced_before = sample(requests.get(f"{srv.uri}/metrics", timeout=10).text,
                           "firn_foreign_writers_total")
    events_from = admin.ok("GET", "/events", params={"after": "latest"}).json()["next"]
    tbl = firn.load_table("lake.events")
    foreign = other.load_table("lake.events").metadata_location
    files_before = metadata_files(tbl)
    with pytest.raises(CommitFailedException) as refused:
        tbl.append(rows([3]))
    message = str(refused.value)
    assert "fenced" in message and Path(foreign).name in message, message
    assert metadata_files(tbl) == files_before, "a fenced commit wrote a metadata file"
    # Loads are still served, at Firn's version.
    assert sorted(ids_of(firn.load_table("lake.events").scan())) == [1, 2]
    # The refusal stays until an admin acts, even for a commit that would not see the file.
    with pytest.raises(CommitFailedException):
        firn.load_table("lake.events").append(rows([4]))
    listed = firn_admin(srv, "fences")
    assert listed.returncode == 1, listed.stderr
    line = json.loads(listed.stdout.splitlines()[0])
    assert line["table"] == "lake.events" and line["state"] == "fenced"
    assert any(f.endswith(Path(foreign).name) for f in line["files"])
    audit = subprocess.run([str(FIRN_BINARY), "admin", "audit", "--db",
                            f"sqlite://{srv.data_dir / 'firn.db'}", "--operation",
                            "updateTable"], capture_output=True, text=True, timeout=60)
    assert "fenced" in audit.stdout, audit.stdout[-2000:]
    # An operator finds fences by their outcome, and counts them on /metrics.
    fences = admin.ok("GET", "/audit", params={"outcome": "fenced"}).json()["entries"]
    assert [(e["object"], e["outcome"]) for e in fences] == [("table lake.events", "fenced")]
    assert sample(requests.get(f"{srv.uri}/metrics", timeout=10).text,
                  "firn_foreign_writers_total") == fenced_before + 1

    # A fenced table's files may be the other catalog's too: no purge until it is resolved.
    with pytest.raises(Exception) as no_purge:  # noqa: B017 - PyIceberg's class for a 409 drop
        firn.purge_table("lake.events")
    assert "fenced" in str(no_purge.value), no_purge.value
    assert metadata_files(tbl) == files_before
    kept = firn_admin(srv, "fence", "keep-ours", "--table", "lake.events")
    assert kept.returncode == 0, kept.stderr
    # The fence is no change event (a refusal); its resolution is one.
    events = admin.ok("GET", "/events", params={"after": events_from}).json()["events"]
    assert [(e["type"], e["subject"]) for e in events] == \
        [("firn.resolveFence", "table lake.events")], events
    tbl = firn.load_table("lake.events")
    tbl.append(rows([5]))
    tbl.append(rows([6]))  # the acknowledged file does not fence again
    assert sorted(ids_of(firn.load_table("lake.events").scan())) == [1, 2, 5, 6]
    assert firn_admin(srv, "fences").returncode == 0


def test_a_load_alone_notices_a_foreign_commit(forked):
    """Nobody commits through Firn after the other catalog did: a load is enough (checked off
    the request, once per table version per interval), and the next commit meets the fence."""
    srv, firn, other = forked
    foreign = Path(other.load_table("lake.events").metadata_location).name
    started = time.monotonic()
    tbl = firn.load_table("lake.events")  # served at Firn's version, without waiting
    assert sorted(ids_of(tbl.scan())) == [1, 2]
    line = None
    while time.monotonic() - started < 20:
        listed = firn_admin(srv, "fences")
        if listed.returncode == 1:
            line = json.loads(listed.stdout.splitlines()[0])
            break
        time.sleep(0.2)
    assert line is not None, "no load noticed the foreign commit"
    assert line["state"] == "fenced" and any(f.endswith(foreign) for f in line["files"])
    audit = subprocess.run([str(FIRN_BINARY), "admin", "audit", "--db",
                            f"sqlite://{srv.data_dir / 'firn.db'}", "--operation",
                            "loadTable"], capture_output=True, text=True, timeout=60)
    assert "fenced" in audit.stdout and foreign in audit.stdout, audit.stdout[-2000:]
    with pytest.raises(CommitFailedException) as refused:
        tbl.append(rows([3]))
    assert "fenced" in str(refused.value)


def test_adopt_takes_the_foreign_chain_when_it_descends_from_ours(forked):
    srv, firn, other = forked
    ours = firn.load_table("lake.events").metadata_location
    with pytest.raises(CommitFailedException):
        firn.load_table("lake.events").append(rows([3]))
    admin = firn_auth.Management(srv.uri)
    events_from = admin.ok("GET", "/events", params={"after": "latest"}).json()["next"]
    adopted = firn_admin(srv, "fence", "adopt", "--table", "lake.events")
    assert adopted.returncode == 0, adopted.stderr
    foreign = other.load_table("lake.events").metadata_location
    tbl = firn.load_table("lake.events")
    assert tbl.metadata_location == foreign
    # The pointer's move is a change event, with both ends of the swap.
    events = admin.ok("GET", "/events", params={"after": events_from}).json()["events"]
    assert [(e["type"], e["data"]["previousMetadataLocation"], e["data"]["metadataLocation"])
            for e in events] == [("firn.resolveFence", ours, foreign)], events
    assert sorted(ids_of(tbl.scan())) == [1, 2, 100]
    tbl.append(rows([4]))
    assert sorted(ids_of(firn.load_table("lake.events").scan())) == [1, 2, 4, 100]


def test_release_hands_the_table_to_the_other_catalog(forked):
    srv, firn, other = forked
    with pytest.raises(CommitFailedException):
        firn.load_table("lake.events").append(rows([3]))
    location = local_path(firn.load_table("lake.events").metadata.location)
    files = sorted(p.name for p in location.rglob("*") if p.name != CLAIM)
    released = firn_admin(srv, "fence", "release", "--table", "lake.events")
    assert released.returncode == 0, released.stderr
    assert firn.list_tables("lake") == []
    assert not (location / CLAIM).exists()
    assert sorted(p.name for p in location.rglob("*")) == files, "release deleted files"
    theirs = other.load_table("lake.events")
    theirs.append(rows([200]))
    assert sorted(ids_of(other.load_table("lake.events").scan())) == [1, 2, 100, 200]


def test_adopt_refuses_a_chain_that_forked_from_ours(forked):
    srv, firn, other = forked
    # Firn gets ahead first (keep ours), then the other catalog writes on its old base again.
    with pytest.raises(CommitFailedException):
        firn.load_table("lake.events").append(rows([3]))
    assert firn_admin(srv, "fence", "keep-ours", "--table", "lake.events").returncode == 0
    firn.load_table("lake.events").append(rows([4]))
    other.load_table("lake.events").append(rows([101]))
    with pytest.raises(CommitFailedException):
        firn.load_table("lake.events").append(rows([5]))
    refused = firn_admin(srv, "fence", "adopt", "--table", "lake.events")
    assert refused.returncode == 1
    assert "does not descend" in refused.stderr, refused.stderr
    assert sorted(ids_of(firn.load_table("lake.events").scan())) == [1, 2, 4]


def test_the_scan_finds_a_foreign_file_the_commit_check_cannot_see(fresh_server, tmp_path):
    """A writer forked far behind (several versions back) is invisible to the per-commit check,
    which lists only the versions next to the current one; the full scan fences it."""
    firn = make_catalog(fresh_server)
    firn.create_namespace("lake")
    tbl = firn.create_table("lake.events", schema=SCHEMA)
    tbl.append(rows([1]))
    early = firn.load_table("lake.events").metadata_location  # version 1
    firn.load_table("lake.events").append(rows([2]))
    firn.load_table("lake.events").append(rows([3]))  # Firn is at version 3
    other = SqlCatalog("other", uri=f"sqlite:///{tmp_path / 'other.db'}",
                       warehouse=fresh_server.warehouse_dir.as_uri())
    other.create_namespace("lake")
    other.register_table("lake.events", early).append(rows([100]))  # writes version 2
    firn.load_table("lake.events").append(rows([4]))  # looks at versions 3 and 4 only
    assert firn_admin(fresh_server, "fences").returncode == 0
    scanned = firn_admin(fresh_server, "fences", "--scan")
    assert scanned.returncode == 1, scanned.stderr
    assert "lake.events" in scanned.stdout
    with pytest.raises(CommitFailedException):
        firn.load_table("lake.events").append(rows([9]))


def test_firn_verify_names_and_fences_a_fork_far_behind(fresh_server, tmp_path):
    """`firn verify` runs the full scan per table: the same far-behind fork fails verification
    with the foreign file named, fences the table, and the next commit through Firn is refused."""
    firn = make_catalog(fresh_server)
    firn.create_namespace("lake")
    firn.create_table("lake.events", schema=SCHEMA).append(rows([1]))
    early = firn.load_table("lake.events").metadata_location
    firn.load_table("lake.events").append(rows([2]))
    firn.load_table("lake.events").append(rows([3]))
    clean = subprocess.run([str(FIRN_BINARY), "verify", "--data-dir", str(fresh_server.data_dir),
                            "--json"], capture_output=True, text=True, timeout=60)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    other = SqlCatalog("other", uri=f"sqlite:///{tmp_path / 'other.db'}",
                       warehouse=fresh_server.warehouse_dir.as_uri())
    other.create_namespace("lake")
    other.register_table("lake.events", early).append(rows([100]))
    foreign = Path(other.load_table("lake.events").metadata_location).name
    found = subprocess.run([str(FIRN_BINARY), "verify", "--data-dir", str(fresh_server.data_dir),
                            "--json"], capture_output=True, text=True, timeout=60)
    assert found.returncode == 1, found.stdout + found.stderr
    line = json.loads(found.stdout.splitlines()[0])
    assert not line["ok"] and line.get("fenced") is True, line
    assert any(f.endswith(foreign) for f in line["foreign-writer"]), line
    with pytest.raises(CommitFailedException) as refused:
        firn.load_table("lake.events").append(rows([9]))
    assert "fenced" in str(refused.value)
