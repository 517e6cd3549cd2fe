"""Small shared helpers for the integration tests (data builders, file checks)."""

from __future__ import annotations

import ctypes
import re
import signal
from pathlib import Path
from urllib.parse import unquote, urlparse

import pyarrow as pa

SCHEMA = pa.schema([pa.field("id", pa.int64()), pa.field("name", pa.string())])


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one series in a Prometheus text exposition (0 when absent)."""
    for line in text.splitlines():
        if line.startswith("#") or not line.startswith(name):
            continue
        m = re.fullmatch(r"([a-z_]+)(\{(.*)\})? (\S+)", line)
        if not m or m.group(1) != name:
            continue
        got = dict(re.findall(r'([a-z_]+)="((?:[^"\\]|\\.)*)"', m.group(3) or ""))
        if got == labels:
            return float(m.group(4))
    return 0.0


def rows(ids, schema: pa.Schema = SCHEMA) -> pa.Table:
    ids = list(ids)
    return pa.Table.from_pydict({"id": ids, "name": [f"n{i}" for i in ids]}, schema=schema)


def ids_of(tbl_or_scan) -> list[int]:
    """Sorted ids from a Table (current snapshot) or a DataScan."""
    scan = tbl_or_scan.scan() if hasattr(tbl_or_scan, "scan") else tbl_or_scan
    return sorted(scan.to_arrow()["id"].to_pylist())


def local_path(uri: str) -> Path:
    """file:///x/y -> Path('/x/y'); a bare absolute path is returned as is."""
    parsed = urlparse(uri)
    if parsed.scheme in ("", "file"):
        return Path(unquote(parsed.path))
    raise AssertionError(f"test expects a local warehouse, got {uri}")


def referenced_files(tbl) -> set[Path]:
    """Every file the table's metadata references: metadata file, manifest lists, manifests,
    data files, across all snapshots."""
    files = {local_path(tbl.metadata_location)}
    for snap in tbl.metadata.snapshots:
        files.add(local_path(snap.manifest_list))
        for manifest in snap.manifests(tbl.io):
            files.add(local_path(manifest.manifest_path))
            for entry in manifest.fetch_manifest_entry(tbl.io, discard_deleted=False):
                files.add(local_path(entry.data_file.file_path))
    return files


def deployment_of(srv) -> str:
    """The deployment id a Firn server logged at start (its claims and writer tag name it)."""
    found = re.findall(r'"msg":"deployment","id":"([0-9a-f-]{36})"', srv.log_path.read_text())
    assert found, srv.log_tail()
    return found[-1]


def die_with_parent() -> None:
    """Linux: have the kernel SIGKILL this process when its parent dies, so a killed pytest
    leaves no server or writer processes behind. Used as preexec_fn / Pool initializer."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def make_catalogs(admin, tmp_path: Path, names: dict[str, str]) -> dict[str, Path]:
    """One catalog per `names` value, each on its own new directory tmp_path/<key>_wh (named
    by the key, never by the catalog); returns the directories by key."""
    bases = {}
    for key, name in names.items():
        base = (tmp_path / f"{key}_wh").resolve()
        base.mkdir()
        admin.create_catalog(name, base.as_uri())
        bases[key] = base
    return bases
