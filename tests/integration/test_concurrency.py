"""Concurrent writers on one table: the commit protocol's proof on the embedded (SQLite) store.

Two workloads, each of 8 writer processes (FIRN_CONC_WRITERS) racing on one table of its own:

  * rest: 100 commits per writer (FIRN_CONC_COMMITS) over raw REST, each the request every
    engine's append sends (add-snapshot + set-snapshot-ref main, guarded by
    assert-ref-snapshot-id), written by the multi-instance scenario's writer loop
    (tests/scenarios/scenario_worker.py: a 409 reloads and retries with jittered backoff). A
    commit costs the client a few milliseconds, so the 8 writers collide far more often than
    PyIceberg appends can, and the 800 commits take seconds instead of minutes.
  * pyiceberg: 8 commits per writer (FIRN_CONC_PYICEBERG_COMMITS) as real PyIceberg appends of
    one row each, with PyIceberg's own retry switched off so every refused commit comes back to
    the writer: the same guarantees with data files, checked row by row.

For both: every acknowledged commit is exactly one snapshot (the acknowledged set, no more, no
less), the snapshots form one chain from main, the metadata-log chain on disk has no gap and no
fork and one version per commit, and no metadata file outside the chain is left in the table's
metadata folder (refused commits delete the file they wrote)."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import re
import sys
import time
import uuid
from pathlib import Path

import pytest

from concurrency_worker import ROW_SCHEMA, write
from conftest import REPO_ROOT, catalog_properties, make_catalog
from helpers import die_with_parent, local_path

sys.path.insert(0, str(REPO_ROOT / "tests" / "scenarios"))
import scenario_worker  # noqa: E402  (the raw REST writer loop, shared with the scenarios)
from scenario_rest import Rest, parent_chain  # noqa: E402

WRITERS = int(os.environ.get("FIRN_CONC_WRITERS", "8"))
COMMITS = {"rest": int(os.environ.get("FIRN_CONC_COMMITS", "100")),
           "pyiceberg": int(os.environ.get("FIRN_CONC_PYICEBERG_COMMITS", "8"))}
MAX_ATTEMPTS = 1000

# Iceberg metadata file names: "<version>-<uuid>.metadata.json" or "v<version>.metadata.json",
# optionally with a compression codec before ".metadata.json".
VERSION_RE = re.compile(r"^(?:v)?(\d+)[-.].*metadata\.json$")


def version_of(path: Path) -> int:
    m = VERSION_RE.match(path.name)
    assert m, f"metadata file name without a version: {path.name}"
    return int(m.group(1))


def read_metadata(path: Path) -> dict:
    return json.loads(path.read_text())


def metadata_chain(head: Path) -> list[Path]:
    """Follows metadata-log back from `head` to the first file; checks each step.

    Each file's metadata-log must be its predecessor's log plus the predecessor itself (allowing
    the oldest entries to be trimmed by write.metadata.previous-versions-max), and versions must
    be consecutive. Returns the chain oldest first."""
    chain = [head]
    md = read_metadata(head)
    while md.get("metadata-log"):
        log = [e["metadata-file"] for e in md["metadata-log"]]
        pred = local_path(log[-1])
        assert pred.is_file(), f"{chain[-1].name} names a missing predecessor {pred.name}"
        assert version_of(pred) == version_of(chain[-1]) - 1, (
            f"version gap: {pred.name} -> {chain[-1].name}"
        )
        pred_md = read_metadata(pred)
        pred_log = [e["metadata-file"] for e in pred_md.get("metadata-log", [])]
        # No fork: the successor's log, minus its last entry, is a suffix of the predecessor's.
        rest = log[:-1]
        if rest:
            assert pred_log[-len(rest):] == rest, (
                f"fork: metadata-log of {chain[-1].name} does not extend {pred.name}'s"
            )
        assert len(log) >= min(len(pred_log) + 1, 100), (
            f"metadata-log of {chain[-1].name} dropped entries"
        )
        chain.append(pred)
        md = pred_md
    chain.reverse()
    assert version_of(chain[0]) in (0, 1), f"chain starts at {chain[0].name}"
    return chain


def _run_rest_writers(server, ns: str) -> tuple[str, list[dict]]:
    rest = Rest(server.uri)
    rest.create_table(ns, "hot")
    args = [{"uris": [server.uri], "ns": ns, "table": "hot", "writer": w,
             "commits": COMMITS["rest"], "ryw_every": 0} for w in range(WRITERS)]
    with mp.get_context("spawn").Pool(WRITERS, initializer=die_with_parent) as pool:
        results = pool.map(scenario_worker.writer, args)
    # scenario_worker acknowledges snapshot ids; keep them as the commits' identities.
    return f"{ns}.hot", [{"writer": r["writer"], "acked": r["acked"], "unknown": r["unknown"],
                          "conflicts": r["conflicts"]} for r in results]


def _run_pyiceberg_writers(server, ns: str) -> tuple[str, list[dict]]:
    catalog = make_catalog(server)
    ident = f"{ns}.hot"
    catalog.create_table(ident, schema=ROW_SCHEMA, properties={"commit.retry.num-retries": "0"})
    args = [(catalog_properties(server), ident, w, COMMITS["pyiceberg"], MAX_ATTEMPTS)
            for w in range(WRITERS)]
    with mp.get_context("spawn").Pool(WRITERS, initializer=die_with_parent) as pool:
        results = pool.map(write, args)
    return ident, results


@pytest.fixture(scope="module", params=["rest", "pyiceberg"])
def workload(request, server):
    """Runs one kind of writers once per module; returns (kind, table identifier, results)."""
    kind = request.param
    ns = f"conc_{kind}_{uuid.uuid4().hex[:8]}"
    make_catalog(server).create_namespace(ns)
    t0 = time.monotonic()
    run = _run_rest_writers if kind == "rest" else _run_pyiceberg_writers
    ident, results = run(server, ns)
    print(
        f"\n{kind}: {WRITERS} writers x {COMMITS[kind]} commits in {time.monotonic() - t0:.1f}s: "
        f"acked={sum(len(r['acked']) for r in results)} "
        f"refused attempts={sum(r['conflicts'] for r in results)} "
        f"unknown={sum(len(r['unknown']) for r in results)}"
    )
    return kind, ident, results


@pytest.mark.timeout(900)
def test_every_acknowledged_commit_is_one_snapshot_and_one_version(workload, catalog, server):
    kind, ident, results = workload
    acked = sum(len(r["acked"]) for r in results)
    unknown = [u for r in results for u in r["unknown"]]
    assert not unknown, f"commits with unknown outcome (server answered 5xx): {unknown[:5]}"
    assert acked == WRITERS * COMMITS[kind]

    tbl = catalog.load_table(ident)
    snaps = tbl.snapshots()
    assert len(snaps) == acked, "every acknowledged commit is exactly one snapshot"
    if kind == "rest":
        expected = sorted(sid for r in results for sid in r["acked"])
        assert sorted(s.snapshot_id for s in snaps) == expected, (
            "the snapshots are the acknowledged commits"
        )
        ns, name = ident.split(".")
        meta = Rest(server.uri).load(ns, name).json()["metadata"]
        assert sorted(parent_chain(meta)) == expected, "main's ancestry holds every commit"
    else:
        got = tbl.scan().to_arrow()
        pairs = list(zip(got["writer"].to_pylist(), got["seq"].to_pylist()))
        expected = [(r["writer"], s) for r in results for s in r["acked"]]
        assert sorted(pairs) == sorted(expected), "rows do not match the acknowledged commits"

    # The snapshot history is linear: each snapshot's parent is the previous one.
    for prev, cur in zip(snaps, snaps[1:]):
        assert cur.parent_snapshot_id == prev.snapshot_id

    chain = metadata_chain(local_path(tbl.metadata_location))
    assert len(chain) == acked + 1, f"{len(chain)} metadata versions for {acked} commits + create"


@pytest.mark.timeout(900)
@pytest.mark.firn_only("the reference server leaves the files of refused commits behind")
def test_refused_commits_leave_no_metadata_files(workload, catalog):
    _, ident, results = workload
    assert sum(r["conflicts"] for r in results) > 0, "the writers never collided: no proof"
    head = local_path(catalog.load_table(ident).metadata_location)
    chain = metadata_chain(head)
    on_disk = sorted(p for p in head.parent.iterdir() if p.name.endswith(".metadata.json"))
    orphans = sorted(set(p.name for p in on_disk) - set(p.name for p in chain))
    assert orphans == [], f"{len(orphans)} metadata files outside the chain, e.g. {orphans[:3]}"
