#!/usr/bin/env python3
"""Purge throughput (docs/tasks.md): a table of real files (PyIceberg appends, many small data
files each), dropped with purgeRequested=true; prints the files the purge task deleted, the
drop request's time and files per second. With --others N, N other live tables (5 appends
each) share the catalog: the purge reads all their manifests to spare any file they reference
(ReferencedByOthers), so their number is part of the cost. Run by bench/run_purge.sh against a
live server."""
import argparse
import json
import subprocess
import time

import pyarrow as pa
from pyiceberg.catalog.rest import RestCatalog


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--uri", required=True)
    ap.add_argument("--credential", required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--data-dir", required=True)
    ap.add_argument("--appends", type=int, default=20)
    ap.add_argument("--files-per-append", type=int, default=100)
    ap.add_argument("--others", type=int, default=0)
    args = ap.parse_args()
    cat = RestCatalog("bench", uri=args.uri, credential=args.credential, scope="PRINCIPAL_ROLE:ALL")
    try:
        cat.create_namespace("purge")
    except Exception:  # noqa: BLE001 - exists from an earlier round
        pass
    schema = pa.schema([("id", pa.int64())])
    if args.others:
        try:
            cat.create_namespace("others")
        except Exception:  # noqa: BLE001 - exists from an earlier round
            pass
        have = {t[-1] for t in cat.list_tables("others")}
        for i in range(args.others):
            if f"o{i}" in have:
                continue
            other = cat.create_table(f"others.o{i}", schema=schema)
            for j in range(5):
                other.append(pa.Table.from_batches(
                    [pa.record_batch([pa.array([j], pa.int64())], schema=schema)]))
    name = f"purge.t{int(time.time() * 1000)}"
    tbl = cat.create_table(name, schema=schema,
                           properties={"write.target-file-size-bytes": "1"})
    batches = [pa.record_batch([pa.array([i], pa.int64())], schema=schema)
               for i in range(args.files_per_append)]
    t0 = time.monotonic()
    for _ in range(args.appends):
        tbl.append(pa.Table.from_batches(batches))
    prep = time.monotonic() - t0
    t0 = time.monotonic()
    cat.purge_table(name)
    elapsed = time.monotonic() - t0
    out = subprocess.run([args.bin, "admin", "tasks", "--data-dir", args.data_dir, "--kind",
                          "purge-table", "--limit", "1"], capture_output=True, text=True,
                         check=True).stdout
    task = json.loads(out.splitlines()[0])
    deleted = task["progress"]["deleted"]
    print(f"table: {args.appends} appends in {prep:.1f}s; {args.others} other tables; "
          f"purge: state={task['state']} "
          f"deleted={deleted} files in {elapsed * 1000:.0f} ms (drop request) = "
          f"{deleted / elapsed:.0f} files/s")


if __name__ == "__main__":
    main()
