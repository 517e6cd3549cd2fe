"""PyIceberg through remote signing only, in a process of its own (run by test_vending.py).

PyIceberg signs through its fsspec FileIO, which needs s3fs; s3fs's botocore is older than the
test venv's, so the test puts scripts/install_engines.sh's signer directory first on PYTHONPATH
for this process alone. Argument: a JSON object {"props": catalog properties, "table": "ns.t"}.
Creates the table, appends three rows, reads them back, and prints {"rows": [...], "signed": n}
with n the number of S3 requests Firn signed. The process holds no storage key.
"""

from __future__ import annotations

import json
import os
import sys

import pyarrow as pa
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.io import fsspec as pyiceberg_fsspec


def main() -> None:
    args = json.loads(sys.argv[1])
    assert not any(k.startswith("AWS_") for k in os.environ), "no ambient storage keys"
    signed = 0
    base = pyiceberg_fsspec.SIGNERS["S3V4RestSigner"]

    class Counting(base):  # type: ignore[misc, valid-type]
        def __call__(self, request, **kw):
            nonlocal signed
            super().__call__(request, **kw)
            signed += 1

    pyiceberg_fsspec.SIGNERS["S3V4RestSigner"] = Counting
    props = {**args["props"], "py-io-impl": "pyiceberg.io.fsspec.FsspecFileIO",
             "header.X-Iceberg-Access-Delegation": "remote-signing"}
    cat = RestCatalog("signed", **props)
    schema = pa.schema([("id", pa.int64()), ("name", pa.string())])
    table = cat.create_table(args["table"], schema=schema)
    table.append(pa.table({"id": [1, 2, 3], "name": ["a", "b", "c"]}, schema))
    rows = cat.load_table(args["table"]).scan().to_arrow().sort_by("id").to_pylist()
    print(json.dumps({"rows": rows, "signed": signed}))


if __name__ == "__main__":
    main()
