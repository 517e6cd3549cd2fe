#!/usr/bin/env python3
"""Prepares the replication benchmark's tables (bench/run_replicate.sh) through a Firn server:
`bench.small` (APPENDS appends of FILES one-row data files: many small objects) and
`bench.big` (BIG appends of one data file of about 32 MiB of random bytes: bandwidth)."""
import argparse
import os
import time

import pyarrow as pa
from pyiceberg.catalog.rest import RestCatalog


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--uri", required=True)
    ap.add_argument("--appends", type=int, default=20)
    ap.add_argument("--files", type=int, default=100)
    ap.add_argument("--big", type=int, default=4)
    args = ap.parse_args()
    cat = RestCatalog("bench", uri=args.uri)
    cat.create_namespace("bench")
    t0 = time.monotonic()
    small_schema = pa.schema([("id", pa.int64())])
    small = cat.create_table("bench.small", schema=small_schema,
                             properties={"write.target-file-size-bytes": "1"})
    batch = pa.Table.from_batches(
        [pa.record_batch([pa.array([i], pa.int64())], schema=small_schema)
         for i in range(args.files)])
    for _ in range(args.appends):
        small.append(batch)
    big_schema = pa.schema([("payload", pa.binary())])
    big = cat.create_table("bench.big", schema=big_schema,
                           properties={"write.parquet.compression-codec": "uncompressed"})
    for _ in range(args.big):
        blob = pa.array([os.urandom(1 << 20) for _ in range(32)], pa.binary())
        big.append(pa.Table.from_arrays([blob], schema=big_schema))
    print(f"prepared bench.small ({args.appends * args.files} files) and bench.big "
          f"({args.big} files of ~32 MiB) in {time.monotonic() - t0:.1f}s")


if __name__ == "__main__":
    main()
