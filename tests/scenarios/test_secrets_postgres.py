"""Secrets at rest on PostgreSQL (issue 9, item 4), where the path differs from the embedded
default: a KEK is required (no default file), every instance must hold the same one, and the
attacker's loot is a pg_dump rather than a file.

- serve on PostgreSQL without a KEK is refused with a clear message;
- a database whose key rows an earlier version stored in the clear is sealed by the first
  instance that starts with a KEK (same key kept), after which a pg_dump holds no "PRIVATE KEY"
  and no form of the raw key; an instance with another KEK refuses to start;
- KEK rotation with two running instances: `firn admin rotate-kek` re-seals every row, the
  running instances keep serving (they hold the keys), each restarts onto the new KEK (the old
  one as previous-kek during the switch), and an instance with only the old KEK is refused.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import requests

from conftest import firn_bin

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
import firn_auth  # noqa: E402
import key_material as km  # noqa: E402

PSQL = "/usr/lib/postgresql/15/bin/psql"
TIMEOUT_S = 60


def _token(inst) -> str:
    a = firn_auth.admin_credentials()
    r = firn_auth.request_token(inst.uri, a.client_id, a.client_secret)
    assert r.status_code == 200, r.text
    return r.json()["access_token"]


def _config_status(inst, token: str) -> int:
    return requests.get(inst.uri + "/v1/config", headers={"Authorization": f"Bearer {token}"},
                        timeout=30).status_code


def _sql(pg, db: str, sql: str, *params: str) -> str:
    """psql as the firn role on `db`; params bound as :'p0', :'p1', ..."""
    cmd = [PSQL, "-h", pg.host, "-p", str(pg.port), "-U", pg.user, "-d", db, "-v",
           "ON_ERROR_STOP=1", "-qAt"]
    for i, p in enumerate(params):
        cmd += ["-v", f"p{i}={p}"]
    return subprocess.run(cmd, input=sql, env=pg.tool_env(), check=True, capture_output=True,
                          text=True).stdout


def _key_rows(pg, db: str) -> list[dict]:
    out = _sql(pg, db, "SELECT body FROM access_records WHERE kind = 'signing_key';")
    return [json.loads(line) for line in out.splitlines() if line]


def _pg_dump(pg, db: str, path: Path) -> bytes:
    subprocess.run(["pg_dump", "-d", pg.db_url(db), "-f", str(path)], check=True,
                   env=pg.tool_env(), capture_output=True)
    return path.read_bytes()


def _start_refused(inst) -> str:
    cmd, env = inst._command()  # noqa: SLF001 -- exactly what start() runs
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=inst.data_dir,
                       timeout=TIMEOUT_S)
    assert p.returncode != 0, f"started:\n{p.stdout}{p.stderr}"
    return p.stdout + p.stderr


def test_serve_on_postgres_without_a_kek_is_refused(pg, instances):
    db = pg.fresh_database("nokek")
    (inst,) = instances(1, db_url=pg.db_url(db), password=pg.password, start=False)
    inst.env["FIRN_KEK"] = None
    out = _start_refused(inst)
    assert "PostgreSQL needs a key-encryption key" in out and "kek-file" in out
    assert _key_rows(pg, db) == [], "nothing was bootstrapped without a KEK"


def test_plaintext_rows_are_sealed_and_a_pg_dump_holds_no_key(pg, instances, tmp_path):
    db = pg.fresh_database("seal")
    (first,) = instances(1, db_url=pg.db_url(db), password=pg.password)
    first.stop()
    # The rows as a version before sealing left them: the known key's PEM in the clear.
    key = km.generate_ed25519(tmp_path)
    (kid,) = _sql(pg, db, "SELECT name FROM access_records WHERE kind = 'signing_key';").split()
    _sql(pg, db, "UPDATE access_records SET body = :'p0' WHERE kind = 'signing_key';",
         km.legacy_key_body(key))
    assert km.leaks(_pg_dump(pg, db, tmp_path / "before.sql"), key), "control: in the clear"

    firn_auth.forget_tokens()
    a, b = instances(2, db_url=pg.db_url(db), password=pg.password)  # the session KEK
    (row,) = _key_rows(pg, db)
    assert "private_key_pem" not in row and row["kek_id"]
    assert km.leaks(_pg_dump(pg, db, tmp_path / "after.sql"), key) == []
    # The same key signs on both instances: nobody was logged out, any instance verifies.
    token = _token(a)
    assert km.header_of(token)["kid"] == kid and km.verifies_with(key.pem_path, token, tmp_path)
    assert _config_status(b, token) == 200
    # The attack: an instance (or a thief with the dump restored) with its own KEK.
    (thief,) = instances(1, db_url=pg.db_url(db), password=pg.password, start=False)
    thief.env["FIRN_KEK"] = "a key-encryption key that is not the cluster's"
    out = _start_refused(thief)
    assert f"sealed with key-encryption key {row['kek_id']}" in out
    assert _key_rows(pg, db) == [row], "the refused instance wrote nothing"


def test_kek_rotation_across_two_running_instances(pg, instances, tmp_path):
    db = pg.fresh_database("rotkek")
    a, b = instances(2, db_url=pg.db_url(db), password=pg.password)
    token = _token(a)
    old_kek = firn_auth.session_kek()
    (before,) = _key_rows(pg, db)
    new_kek_file = tmp_path / "new.kek"
    p = subprocess.run([firn_bin(), "admin", "generate-kek", "--to", str(new_kek_file)],
                       capture_output=True, text=True, timeout=TIMEOUT_S)
    assert p.returncode == 0, p.stderr
    new_kek = new_kek_file.read_text().strip()

    env = {**pg.tool_env(), "FIRN_DB_PASSWORD": pg.password, "FIRN_KEK": old_kek}
    p = subprocess.run([firn_bin(), "admin", "rotate-kek", "--db", pg.db_url(db),
                        "--new-kek-file", str(new_kek_file)],
                       capture_output=True, text=True, env=env, timeout=TIMEOUT_S)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["previous_kek_id"] == before["kek_id"] and out["resealed"] == 1
    assert new_kek not in p.stdout + p.stderr and old_kek not in p.stdout + p.stderr
    (after,) = _key_rows(pg, db)
    assert after["kek_id"] == out["kek_id"]
    # Both instances still hold the key: old tokens verify and new ones are issued.
    for inst in (a, b):
        assert _config_status(inst, token) == 200
        assert _config_status(inst, _token(inst)) == 200
    # Roll them onto the new KEK, one with the old as previous-kek (the switch).
    a.stop()
    a.env["FIRN_KEK"] = new_kek
    a.start()
    b.stop()
    b.env.update(FIRN_KEK=new_kek, FIRN_PREVIOUS_KEK=old_kek)
    b.start()
    for inst in (a, b):
        assert _config_status(inst, token) == 200
    # An instance left on the old KEK alone is refused instead of serving without keys.
    (stale,) = instances(1, db_url=pg.db_url(db), password=pg.password, start=False)
    assert "which is not configured" in _start_refused(stale)


def test_a_refused_login_says_why_and_never_prints_the_password(pg, tmp_path):
    """First contact (issue 14, item 7): a failed start on PostgreSQL used to say only
    "Catalog database is unavailable"; it now gives libpq's reason, with the password blanked."""
    wrong = "Wr0ng-pass-" + tmp_path.name
    url = f"postgresql://{pg.user}:{wrong}@{pg.host}:{pg.port}/firn"
    env = {**os.environ, **firn_auth.kek_env()}
    p = subprocess.run([str(firn_bin()), "serve", "--data-dir", str(tmp_path / "d"), "--db", url,
                        "--listen", "127.0.0.1:0"],
                       capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
    assert p.returncode == 2, p.stderr
    assert "password authentication failed" in p.stderr, p.stderr
    assert wrong not in p.stderr + p.stdout
    down = subprocess.run([str(firn_bin()), "serve", "--data-dir", str(tmp_path / "e"), "--db",
                           f"postgresql://{pg.user}:{wrong}@127.0.0.1:1/firn",
                           "--listen", "127.0.0.1:0"],
                          capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
    assert down.returncode == 2 and "Connection refused" in down.stderr, down.stderr
    assert wrong not in down.stderr
