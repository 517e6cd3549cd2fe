"""Small helpers shared by the engine tests: read a table back through each engine as sorted
tuples, so results from different engines compare with ==."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
FLINK_MAIN_CLASS = "dev.firn.flink.FirnFlinkJob"


def pyiceberg_rows(catalog, identifier: str, columns: list[str]) -> list[tuple]:
    """All rows of `identifier` as seen by PyIceberg (a fresh load), sorted."""
    table = catalog.load_table(identifier)
    arrow = table.scan(selected_fields=tuple(columns)).to_arrow()
    data = arrow.to_pydict()
    return sorted(zip(*(data[c] for c in columns)), key=_key)


def duckdb_rows(con, sql: str) -> list[tuple]:
    return sorted(con.execute(sql).fetchall(), key=_key)


def spark_rows(spark, sql: str) -> list[tuple]:
    return sorted((tuple(r) for r in spark.sql(sql).collect()), key=_key)


def _key(row: tuple):
    # None sorts first; mixed types never occur within one column here.
    return tuple((v is not None, v) for v in row)


def snapshot_chain(metadata: dict) -> list[dict]:
    """Snapshots from the oldest kept ancestor to the current one, following parent links.

    A parent id that is not in `snapshots` ends the chain (an expired ancestor)."""
    by_id = {s["snapshot-id"]: s for s in metadata.get("snapshots", [])}
    chain, sid = [], metadata.get("current-snapshot-id")
    if sid is not None and sid != -1:
        assert sid in by_id, f"current snapshot {sid} is not in the metadata"
    while sid is not None and sid in by_id:
        snap = by_id[sid]
        chain.append(snap)
        sid = snap.get("parent-snapshot-id")
    return list(reversed(chain))


def flink_job_dir() -> Path:
    """The built Flink job (tests/engines/flink): FIRN_FLINK_JOB, else what
    scripts/install_flink.sh prints (a no-op when it is cached; it builds the job otherwise)."""
    if os.environ.get("FIRN_FLINK_JOB"):
        return Path(os.environ["FIRN_FLINK_JOB"])
    p = subprocess.run([str(REPO_ROOT / "scripts/install_flink.sh")], capture_output=True,
                       text=True, timeout=1200)
    if p.returncode != 0:
        pytest.fail(f"scripts/install_flink.sh failed:\n{p.stderr[-3000:]}")
    return Path(p.stdout.strip().splitlines()[-1])


def flink_java() -> str:
    home = os.environ.get("JAVA_HOME") or "/usr/lib/jvm/java-17-openjdk-amd64"
    return str(Path(home) / "bin/java")


def flink_command(job: Path, tmpdir: Path, *args: str) -> list[str]:
    """`java` running the Flink job with `args` (key=value), scratch files under `tmpdir`."""
    classpath = f"{job / 'classes'}:{(job / 'classpath.txt').read_text().strip()}"
    return [flink_java(), f"@{job / 'jvm.args'}", f"-Djava.io.tmpdir={tmpdir}", "-cp", classpath,
            FLINK_MAIN_CLASS, *args]
