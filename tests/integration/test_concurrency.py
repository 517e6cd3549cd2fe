"""Concurrent writers: 8 processes x 100 appends to one table through PyIceberg.

Checks the catalog's commit protocol end to end: every acknowledged commit is a snapshot (and a
row), the metadata-log chain has no gap and no fork, and no metadata file outside the chain is
left in the table's metadata folder (refused commits delete the file they wrote).

FIRN_CONC_WRITERS and FIRN_CONC_COMMITS override 8 and 100 for quick local runs."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import re
import time
import uuid
from pathlib import Path

import pytest

from concurrency_worker import ROW_SCHEMA, write
from conftest import catalog_properties, make_catalog
from helpers import die_with_parent, local_path

WRITERS = int(os.environ.get("FIRN_CONC_WRITERS", "8"))
COMMITS = int(os.environ.get("FIRN_CONC_COMMITS", "100"))
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


@pytest.fixture(scope="module")
def workload(server):
    """Runs the writers once per module; returns (table identifier, per-writer results)."""
    catalog = make_catalog(server)
    ns = f"conc_{uuid.uuid4().hex[:8]}"
    catalog.create_namespace(ns)
    ident = f"{ns}.hot"
    # PyIceberg's own retry loop is switched off so every refused commit comes back to the
    # writer, which reloads and retries (and counts it).
    catalog.create_table(ident, schema=ROW_SCHEMA, properties={"commit.retry.num-retries": "0"})
    args = [(catalog_properties(server), ident, w, COMMITS, MAX_ATTEMPTS) for w in range(WRITERS)]
    t0 = time.monotonic()
    with mp.get_context("spawn").Pool(WRITERS, initializer=die_with_parent) as pool:
        results = pool.map(write, args)
    print(
        f"\n{WRITERS} writers x {COMMITS} commits in {time.monotonic() - t0:.1f}s: "
        f"acked={sum(len(r['acked']) for r in results)} "
        f"refused attempts={sum(r['conflicts'] for r in results)} "
        f"unknown={sum(len(r['unknown']) for r in results)}"
    )
    return ident, results


@pytest.mark.timeout(1800)
def test_every_acknowledged_commit_is_one_snapshot_and_one_version(workload, catalog):
    ident, results = workload
    acked = sum(len(r["acked"]) for r in results)
    unknown = [u for r in results for u in r["unknown"]]
    assert not unknown, f"commits with unknown outcome (server answered 5xx): {unknown[:5]}"
    assert acked == WRITERS * COMMITS

    tbl = catalog.load_table(ident)
    assert len(tbl.snapshots()) == acked, "every acknowledged commit is exactly one snapshot"

    got = tbl.scan().to_arrow()
    pairs = list(zip(got["writer"].to_pylist(), got["seq"].to_pylist()))
    expected = [(r["writer"], s) for r in results for s in r["acked"]]
    assert sorted(pairs) == sorted(expected), "rows do not match the acknowledged commits"

    # The snapshot history is linear: each snapshot's parent is the previous one.
    snaps = tbl.snapshots()
    for prev, cur in zip(snaps, snaps[1:]):
        assert cur.parent_snapshot_id == prev.snapshot_id

    chain = metadata_chain(local_path(tbl.metadata_location))
    assert len(chain) == acked + 1, f"{len(chain)} metadata versions for {acked} commits + create"


@pytest.mark.timeout(1800)
@pytest.mark.firn_only("the reference server leaves the files of refused commits behind")
def test_refused_commits_leave_no_metadata_files(workload, catalog):
    ident, _ = workload
    head = local_path(catalog.load_table(ident).metadata_location)
    chain = metadata_chain(head)
    on_disk = sorted(p for p in head.parent.iterdir() if p.name.endswith(".metadata.json"))
    orphans = sorted(set(p.name for p in on_disk) - set(p.name for p in chain))
    assert orphans == [], f"{len(orphans)} metadata files outside the chain, e.g. {orphans[:3]}"
