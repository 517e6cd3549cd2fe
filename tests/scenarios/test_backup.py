"""Issue 4, item 6: backup and restore on both backends, and copy-store between them.

PostgreSQL: pg_dump (custom format) -> drop a table with purge=false -> pg_restore into a fresh
database -> Firn on it loads the table at exactly the metadata location it had.
SQLite: `firn admin backup` while a background process keeps committing -> the same
drop/restore check on the copy, and the busy table's pointer in the copy is one that was
acknowledged. copy-store: SQLite -> PostgreSQL -> SQLite round trip, everything equal;
a non-empty destination is refused without --force.
"""

from __future__ import annotations

import json
import stat
import subprocess
import sys
import time
from pathlib import Path

from conftest import firn_bin
from helpers import die_with_parent, local_path
from scenario_rest import Rest, append_body, new_snapshot_id

HERE = Path(__file__).resolve().parent

VIEW_SCHEMA = {"type": "struct", "schema-id": 0,
               "fields": [{"id": 1, "name": "x", "required": False, "type": "int"}]}


def commit_n(rest: Rest, ns: str, table: str, n: int) -> str:
    meta = rest.load(ns, table).json()["metadata"]
    body = None
    for _ in range(n):
        r = rest.commit(ns, table, append_body(meta, new_snapshot_id()))
        assert r.status_code == 200, r.text
        body = r.json()
        meta = body["metadata"]
    return body["metadata-location"]


def populate(rest: Rest) -> dict[str, str]:
    """Nested namespaces with properties, three tables with history, one view."""
    assert rest.create_namespace(["bk"], {"owner": "durability", "k": "v"}).status_code == 200
    assert rest.create_namespace(["bk", "inner"], {"depth": "2"}).status_code == 200
    assert rest.create_namespace(["other"]).status_code == 200
    locations = {}
    for ns, t in (("bk", "t1"), ("bk", "t2"), ("bk\x1finner", "t3")):
        rest.create_table(ns, t)
        locations[f"{ns}.{t}"] = commit_n(rest, ns, t, 3)
    r = rest.request("POST", f"{rest.v1}/namespaces/other/views", json={
        "name": "v1", "schema": VIEW_SCHEMA,
        "view-version": {"version-id": 1, "timestamp-ms": int(time.time() * 1000),
                         "schema-id": 0, "summary": {"engine-name": "test"},
                         "default-namespace": ["other"],
                         "representations": [{"type": "sql", "sql": "select 1 as x",
                                              "dialect": "spark"}]},
        "properties": {}})
    assert r.status_code == 200, r.text
    locations["other.v1"] = r.json()["metadata-location"]
    return locations


def walk(rest: Rest) -> dict:
    """Everything the catalog holds, via REST: namespaces with properties, table and view
    pointers."""
    out = {}

    def visit(parent: list[str]):
        params = {"parent": "\x1f".join(parent)} if parent else {}
        r = rest.request("GET", f"{rest.v1}/namespaces", params=params)
        assert r.status_code == 200, r.text
        for ns in r.json()["namespaces"]:
            key = "\x1f".join(ns)
            props = rest.request("GET", f"{rest.v1}/namespaces/{key}").json()["properties"]
            out[f"ns:{'.'.join(ns)}"] = props
            for kind in ("tables", "views"):
                ids = rest.request("GET", f"{rest.v1}/namespaces/{key}/{kind}").json()
                for ident in ids["identifiers"]:
                    r2 = rest.request("GET", f"{rest.v1}/namespaces/{key}/{kind}/{ident['name']}")
                    assert r2.status_code == 200, r2.text
                    out[f"{kind}:{'.'.join(ns)}.{ident['name']}"] = r2.json()["metadata-location"]
            visit(ns)

    visit([])
    return out


def run_firn(*args, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([firn_bin(), *args], capture_output=True, text=True, env=env,
                          timeout=120)


def test_pg_dump_restore_brings_back_a_dropped_table(pg, instances, tmp_path):
    db = pg.fresh_database("dump")
    (live,) = instances(1, db_url=pg.db_url(db), password=pg.password)
    rest = Rest(live.uri)
    locations = populate(rest)
    dump = tmp_path / "catalog.dump"
    subprocess.run(["pg_dump", "-Fc", "-d", pg.db_url(db), "-f", str(dump)], check=True,
                   env=pg.tool_env(), capture_output=True)
    assert rest.drop("bk", "t1", purge=False).status_code == 204
    assert rest.load("bk", "t1").status_code == 404

    fresh = pg.fresh_database("restored")
    subprocess.run(["pg_restore", "--no-owner", "--exit-on-error", "-d", pg.db_url(fresh),
                    str(dump)], check=True, env=pg.tool_env(), capture_output=True)
    (restored,) = instances(1, db_url=pg.db_url(fresh), password=pg.password)
    r = Rest(restored.uri).load("bk", "t1")
    assert r.status_code == 200, r.text
    assert r.json()["metadata-location"] == locations["bk.t1"]
    assert local_path(locations["bk.t1"]).is_file(), "purge=false kept the metadata file"
    assert walk(Rest(restored.uri)) == {**walk(rest), "tables:bk.t1": locations["bk.t1"]}


def test_sqlite_online_backup_while_committing(instances, tmp_path):
    (live,) = instances(1)
    rest = Rest(live.uri)
    locations = populate(rest)
    rest.create_table("bk", "busy")
    acked_log = tmp_path / "busy-acked.jsonl"
    stop_file = tmp_path / "stop"
    # A separate process commits to bk.busy for the whole backup.
    script = (
        "import json, os, sys\n"
        f"sys.path.insert(0, {str(HERE)!r})\n"
        "from scenario_rest import Rest, append_body, new_snapshot_id\n"
        f"rest = Rest({live.uri!r})\n"
        "meta = rest.load('bk', 'busy').json()['metadata']\n"
        f"with open({str(acked_log)!r}, 'a') as out:\n"
        f"    while not os.path.exists({str(stop_file)!r}):\n"
        "        r = rest.commit('bk', 'busy', append_body(meta, new_snapshot_id()))\n"
        "        assert r.status_code == 200, r.text\n"
        "        meta = r.json()['metadata']\n"
        "        out.write(json.dumps(r.json()['metadata-location']) + '\\n'); out.flush()\n")
    writer = subprocess.Popen([sys.executable, "-c", script], preexec_fn=die_with_parent)
    try:
        deadline = time.monotonic() + 30
        while (not acked_log.exists() or len(acked_log.read_text().splitlines()) < 20):
            assert time.monotonic() < deadline and writer.poll() is None, "writer did not start"
            time.sleep(0.05)
        before = len(acked_log.read_text().splitlines())
        copy = tmp_path / "copy.db"
        db_path = live.data_dir / "firn.db"
        result = run_firn("admin", "backup", "--db", f"sqlite://{db_path}", "--to", str(copy))
        assert result.returncode == 0, result.stderr
        after = len(acked_log.read_text().splitlines())
        time.sleep(0.5)
    finally:
        stop_file.write_text("stop")
        assert writer.wait(timeout=30) == 0, "the background writer failed"
    total = len(acked_log.read_text().splitlines())
    backup = json.loads(result.stdout)  # not a terminal: one JSON object
    assert backup["to"] == str(copy) and backup["pages"] > 0 and backup["bytes"] > 0, backup
    print(f"\nbackup: {result.stdout.strip()}; commits acknowledged during it: "
          f"{after - before}, in all {total}")
    assert total > after, "commits continued while and after the backup ran"
    assert not Path(str(copy) + "-wal").exists(), "the copy is one self-contained file"

    assert rest.drop("bk", "t1", purge=False).status_code == 204
    (restored,) = instances(1, db_url=f"sqlite://{copy}")
    rrest = Rest(restored.uri)
    r = rrest.load("bk", "t1")
    assert r.status_code == 200, r.text
    assert r.json()["metadata-location"] == locations["bk.t1"]
    # The busy table is at a state that was acknowledged at some point during the backup.
    acked = [json.loads(line) for line in acked_log.read_text().splitlines()]
    busy = rrest.load("bk", "busy").json()["metadata-location"]
    assert busy in acked[before - 1: after], "copy holds one committed state from the backup"
    # A second backup onto an existing file is refused.
    again = run_firn("admin", "backup", "--db", f"sqlite://{live.data_dir / 'firn.db'}",
                     "--to", str(copy))
    assert again.returncode == 1 and "already exists" in again.stderr


def test_copy_store_sqlite_to_postgres_and_back(pg, instances, tmp_path):
    (src,) = instances(1)
    populate(Rest(src.uri))
    expected = walk(Rest(src.uri))
    src.stop()  # a quiesced source: a consistent cut

    db = pg.fresh_database("copy")
    sqlite_url = f"sqlite://{src.data_dir / 'firn.db'}"
    env = {**pg.tool_env(), "FIRN_DB_PASSWORD": pg.password}
    to_pg = run_firn("admin", "copy-store", "--from", sqlite_url, "--to", pg.db_url(db), env=env)
    assert to_pg.returncode == 0, to_pg.stderr
    summary = json.loads(to_pg.stdout)  # not a terminal: one JSON object
    assert summary["tables"] == 3 and summary["views"] == 1, to_pg.stdout
    assert pg.password not in to_pg.stdout + to_pg.stderr

    refused = run_firn("admin", "copy-store", "--from", sqlite_url, "--to", pg.db_url(db),
                       env=env)
    assert refused.returncode == 1 and "not empty" in refused.stderr
    forced = run_firn("admin", "copy-store", "--from", sqlite_url, "--to", pg.db_url(db),
                      "--force", env=env)
    assert forced.returncode == 0, forced.stderr

    back = tmp_path / "back.db"
    to_sqlite = run_firn("admin", "copy-store", "--from", pg.db_url(db), "--to",
                         f"sqlite://{back}", env=env)
    assert to_sqlite.returncode == 0, to_sqlite.stderr
    # The copy holds secret hashes and sealed keys: owner-only like the database it came from.
    assert stat.S_IMODE(back.stat().st_mode) == 0o600

    on_pg, on_back = instances(2, start=False)
    on_pg.db_url, on_pg.password = pg.db_url(db), pg.password
    on_back.db_url = f"sqlite://{back}"
    on_pg.start()
    on_back.start()
    assert walk(Rest(on_pg.uri)) == expected
    assert walk(Rest(on_back.uri)) == expected
    assert len([k for k in expected if k.startswith("tables:")]) == 3
