"""PyIceberg writer process for test_concurrency.py (a module of its own so `spawn` can import
it)."""

from __future__ import annotations

import random
import time

import pyarrow as pa
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import CommitFailedException, CommitStateUnknownException

ROW_SCHEMA = pa.schema([pa.field("writer", pa.int32()), pa.field("seq", pa.int32())])


def write(args: tuple) -> dict:
    """Appends `commits` one-row commits, retrying refused ones. Returns what was acknowledged.

    Only an append that returned normally counts as acknowledged. A refused commit
    (CommitFailedException, HTTP 409) is retried after a reload; an unknown outcome is recorded
    and not retried (its row may or may not exist)."""
    props, ident, writer, commits, max_attempts = args
    catalog = RestCatalog(f"w{writer}", **props)
    tbl = catalog.load_table(ident)
    acked, unknown, conflicts = [], [], 0
    t0 = time.monotonic()
    for seq in range(commits):
        data = pa.Table.from_pydict({"writer": [writer], "seq": [seq]}, schema=ROW_SCHEMA)
        for attempt in range(max_attempts):
            try:
                tbl.append(data)
                acked.append(seq)
                break
            except CommitFailedException:
                conflicts += 1
                # Full-jitter exponential backoff: losers sleep so the winner's work is not wasted.
                time.sleep(random.uniform(0, min(0.01 * 2**attempt, 1.0)))
                tbl = catalog.load_table(ident)
            except CommitStateUnknownException as e:
                unknown.append((seq, str(e)[:200]))
                tbl = catalog.load_table(ident)
                break
        else:
            raise RuntimeError(f"writer {writer}: seq {seq} refused {max_attempts} times")
    return {
        "writer": writer,
        "acked": acked,
        "unknown": unknown,
        "conflicts": conflicts,
        "seconds": time.monotonic() - t0,
    }
