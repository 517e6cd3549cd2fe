"""Secrets at rest (issue 9, item 4), written as the attacks, on the real server and the embedded
SQLite default:

- file modes: the data directory 0700 (created so, and a looser one tightened), firn.db and its
  -wal/-shm 0600 even under umask 000, the generated KEK 0600 beside (not inside) the data dir,
  `firn admin backup` copies 0600;
- the signing-key rows are sealed: no file, WAL or backup holds "PRIVATE KEY" or the raw key;
  a database from an earlier version (the key in the clear) is sealed on the first start that has
  a KEK, keeping the key (issued tokens survive);
- a stolen database cannot mint tokens: the sealed blob is no key, an attacker's Firn on the
  copy refuses to start (no KEK, or its own KEK) instead of making a new key;
- tokens signed by the realm's real key are still refused when their lifetime exceeds the
  configured one or their `ver` is not the principal's current credential version;
- a wrong KEK refuses the start; KEK rotation keeps every token and retires the old KEK.

The known key is planted into the row the way a Firn before sealing stored it (key_material.py),
which is what lets the tests both search files for it and sign with it."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import time
from pathlib import Path

import pytest
import requests

import firn_auth
import key_material as km
from conftest import FIRN_BINARY
from firn_auth import Management, request_token

pytestmark = pytest.mark.firn_only("secrets at rest (issue 9)")

FIRN = str(FIRN_BINARY)
TIMEOUT_S = 60


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _kek_file(srv) -> Path:
    """The embedded default's generated KEK: a sibling of the data directory."""
    return Path(str(srv.data_dir) + ".kek")


def _db(srv) -> Path:
    return srv.data_dir / "firn.db"


def _plain_env(**extra: str) -> dict[str, str]:
    """The environment of an admin command: no KEK from the environment (the default file)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FIRN_KEK")
           and not k.startswith("FIRN_PREVIOUS_KEK")}
    env.update(extra)
    return env


def _firn(*args: str, env: dict[str, str] | None = None, umask: int | None = None):
    def pre():
        if umask is not None:
            os.umask(umask)
    return subprocess.run([FIRN, *args], capture_output=True, text=True, timeout=TIMEOUT_S,
                          env=env if env is not None else _plain_env(), preexec_fn=pre)


def _signing_rows(db: Path) -> list[tuple[str, str, dict]]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT realm, name, body FROM access_records "
                           "WHERE kind = 'signing_key'").fetchall()
    finally:
        con.close()
    return [(realm, kid, json.loads(body)) for realm, kid, body in rows]


def _db_bytes(db: Path) -> bytes:
    out = b""
    for suffix in ("", "-wal", "-shm"):
        p = Path(str(db) + suffix)
        if p.exists():
            out += p.read_bytes()
    return out


def _token(srv, creds: firn_auth.Credentials | None = None) -> str:
    a = creds or firn_auth.admin_credentials()
    r = request_token(srv.uri, a.client_id, a.client_secret)
    assert r.status_code == 200, r.text
    return r.json()["access_token"]


def _get_config(srv, token: str) -> requests.Response:
    return requests.get(srv.uri + "/v1/config", headers={"Authorization": f"Bearer {token}"},
                        timeout=30)


def _assert_401(r: requests.Response) -> dict:
    assert r.status_code == 401, r.text
    err = r.json()["error"]
    assert err["code"] == 401 and err["type"] == "NotAuthorizedException", err
    return err


def _start_refused(srv, env: dict[str, str] | None = None) -> str:
    """Runs the server's command expecting a refusal; returns its output."""
    cmd, base_env = srv._command()  # noqa: SLF001 -- the same command FirnServer.start runs
    for k, v in (env or {}).items():
        if v is None:
            base_env.pop(k, None)
        else:
            base_env[k] = v
    p = subprocess.run(cmd, capture_output=True, text=True, env=base_env, cwd=srv.data_dir,
                       timeout=TIMEOUT_S)
    assert p.returncode != 0, f"the server started:\n{p.stdout}{p.stderr}"
    return p.stdout + p.stderr


def _plant_legacy_key(srv, key: km.KnownKey) -> str:
    """Stopped server: its realm's only signing-key row becomes the row an earlier version
    wrote (the known key's PEM in the clear) and the generated KEK file goes away (earlier
    versions had none). Returns the kid."""
    assert srv.proc is None
    con = sqlite3.connect(_db(srv))
    try:
        (kid,) = con.execute("SELECT name FROM access_records WHERE kind = 'signing_key' "
                             "AND realm = 'default'").fetchone()
        con.execute("UPDATE access_records SET body = ? WHERE kind = 'signing_key' AND name = ?",
                    (km.legacy_key_body(key), kid))
        con.commit()
    finally:
        con.close()
    _kek_file(srv).unlink()
    assert km.leaks(_db_bytes(_db(srv)), key), "the planted key is in the clear before the start"
    return kid


@pytest.fixture
def legacy(server_factory, tmp_path):
    """A server whose database came from a version before sealing, started once with the new
    one: (server, known key, kid)."""
    srv = server_factory()
    srv.stop()
    key = km.generate_ed25519(tmp_path)
    kid = _plant_legacy_key(srv, key)
    firn_auth.forget_tokens(srv.uri)  # signed by the key the planted one replaced
    srv.start()
    return srv, key, kid


# ---------------------------------------------------------------------------------------------
# File modes
# ---------------------------------------------------------------------------------------------
def test_files_are_owner_only_from_the_first_byte_even_under_umask_000(tmp_path):
    data = tmp_path / "fresh" / "data"
    p = _firn("bootstrap", "--data-dir", str(data), "--admin", "boss", umask=0)
    assert p.returncode == 0, p.stderr
    assert _mode(data) == 0o700
    assert _mode(data / "firn.db") == 0o600
    kek = tmp_path / "fresh" / "data.kek"
    assert _mode(kek) == 0o600
    assert not any(f.name.endswith(".kek") for f in data.iterdir()), "the KEK is not inside"
    # The generated admin credentials printed once; nothing secret lies around readable.
    for f in [data, *data.rglob("*"), kek]:
        assert _mode(f) & 0o077 == 0, f"{f} is {oct(_mode(f))}"


def test_wal_and_shm_of_a_running_server_are_owner_only(server_factory):
    srv = server_factory()
    Management(srv.uri).create_principal("wal-writer")  # something in the WAL
    for suffix in ("-wal", "-shm"):
        f = Path(str(_db(srv)) + suffix)
        assert f.exists(), f"{f} exists while serving"
        assert _mode(f) == 0o600, f"{f} is {oct(_mode(f))}"
    assert _mode(_kek_file(srv)) == 0o600


def test_a_loose_data_dir_and_database_are_tightened_with_a_log_line(server_factory):
    srv = server_factory(start=False)
    srv.data_dir.chmod(0o755)
    srv.start()
    assert _mode(srv.data_dir) == 0o700
    srv.stop()
    _db(srv).chmod(0o644)
    _kek_file(srv).chmod(0o644)
    srv.data_dir.chmod(0o777)
    srv.start()
    assert _mode(srv.data_dir) == 0o700
    assert _mode(_db(srv)) == 0o600
    assert _mode(_kek_file(srv)) == 0o600
    log = srv.log_path.read_text()
    for what in ("data directory", "database file", "key-encryption key file"):
        assert f'"msg":"{what} was accessible to other users; tightened' in log, what


def test_generate_kek_writes_an_owner_only_file_and_never_overwrites(tmp_path):
    f = tmp_path / "ops" / "firn.kek"
    f.parent.mkdir()
    p = _firn("admin", "generate-kek", "--to", str(f), umask=0)
    assert p.returncode == 0, p.stderr
    assert _mode(f) == 0o600
    text = f.read_text().strip()
    assert len(text) >= 32 and text not in p.stdout, "the KEK is not printed with --to"
    again = _firn("admin", "generate-kek", "--to", str(f))
    assert again.returncode != 0 and f.read_text().strip() == text


# ---------------------------------------------------------------------------------------------
# Sealed rows, migration of a plaintext database, backups
# ---------------------------------------------------------------------------------------------
def test_a_plaintext_database_from_an_earlier_version_is_sealed_on_first_start(legacy, tmp_path):
    srv, key, kid = legacy
    assert "sealed signing keys an earlier version stored in the clear" in srv.log_path.read_text()
    ((_, row_kid, body),) = _signing_rows(_db(srv))
    assert row_kid == kid
    assert "private_key_pem" not in body and body["kek_id"] and body["sealed_private_key"]
    assert _mode(_kek_file(srv)) == 0o600, "the first start with a KEK generated one"
    # The planted key is gone from the database, its WAL and SHM, while serving...
    assert km.leaks(_db_bytes(_db(srv)), key) == []
    # ...and it is still the realm's key: new tokens are signed by it (nobody was logged out).
    token = _token(srv)
    assert km.header_of(token)["kid"] == kid
    assert km.verifies_with(key.pem_path, token, tmp_path)
    assert srv.restart() == 0
    assert _get_config(srv, token).status_code == 200
    assert km.leaks(_db_bytes(_db(srv)), key) == []


def test_a_backup_is_owner_only_and_holds_no_key_material(legacy, tmp_path):
    srv, key, _ = legacy
    copy = tmp_path / "backups" / "firn-copy.db"
    copy.parent.mkdir()
    p = _firn("admin", "backup", "--db", f"sqlite://{_db(srv)}", "--to", str(copy), umask=0)
    assert p.returncode == 0, p.stderr
    assert _mode(copy) == 0o600
    blob = copy.read_bytes()
    assert b"sealed_private_key" in blob, "the copy holds the sealed rows"
    assert km.leaks(blob, key) == []


# ---------------------------------------------------------------------------------------------
# A stolen database
# ---------------------------------------------------------------------------------------------
def test_a_stolen_database_cannot_mint_tokens(legacy, tmp_path):
    srv, key, kid = legacy
    victim_token = _token(srv)
    template = km.claims_of(victim_token)
    # The thief has a copy of the database (a backup), not the KEK beside the data directory.
    loot = tmp_path / "thief" / "data"
    loot.mkdir(parents=True)
    p = _firn("admin", "backup", "--db", f"sqlite://{_db(srv)}", "--to", str(loot / "firn.db"))
    assert p.returncode == 0, p.stderr
    ((_, _, body),) = _signing_rows(loot / "firn.db")
    sealed = km.b64url_decode(body["sealed_private_key"])
    assert "private_key_pem" not in body

    # 1. Treat the sealed bytes as the key: every 32-byte window as an Ed25519 seed signs a
    #    token for the victim's admin with the victim's kid. The victim refuses every one.
    prefix = bytes.fromhex("302e020100300506032b657004220420")  # PKCS#8 Ed25519 header
    for start in range(0, len(sealed) - 31, 8):
        der = tmp_path / "guess.der"
        der.write_bytes(prefix + sealed[start:start + 32])
        pem = tmp_path / "guess.pem"
        subprocess.run(["openssl", "pkey", "-inform", "DER", "-in", str(der), "-out", str(pem)],
                       check=True, capture_output=True)
        forged = km.sign_jwt(pem, kid, km.firn_claims(template), tmp_path)
        _assert_401(_get_config(srv, forged))

    # 2. Run Firn on the stolen copy: without the KEK it refuses to start and makes no new one.
    thief_env = _plain_env()
    out = subprocess.run([FIRN, "serve", "--data-dir", str(loot), "--listen", "127.0.0.1:0"],
                         capture_output=True, text=True, timeout=TIMEOUT_S, env=thief_env)
    assert out.returncode != 0
    assert f"sealed with key-encryption key {body['kek_id']}" in out.stdout + out.stderr
    assert not Path(str(loot) + ".kek").exists(), "no silent new KEK"
    # 3. With a KEK of its own: refused too, and the rows stay as they were.
    own = _plain_env(FIRN_KEK="the thief's own key-encryption key, long enough")
    out = subprocess.run([FIRN, "serve", "--data-dir", str(loot), "--listen", "127.0.0.1:0"],
                         capture_output=True, text=True, timeout=TIMEOUT_S, env=own)
    assert out.returncode != 0 and "which is not configured" in out.stdout + out.stderr
    # 4. Nor can it rotate in a key of its own or bootstrap the realm again.
    rot = _firn("admin", "rotate-keys", "--db", f"sqlite://{loot / 'firn.db'}", env=own)
    assert rot.returncode != 0
    boot = _firn("bootstrap", "--data-dir", str(loot), "--admin", "thief", env=own)
    assert boot.returncode != 0
    ((_, _, after),) = _signing_rows(loot / "firn.db")
    assert after == body, "the stolen copy is unchanged"
    # The victim is intact.
    assert _get_config(srv, victim_token).status_code == 200


def test_a_wrong_kek_refuses_to_start_and_the_right_one_keeps_every_token(server_factory):
    srv = server_factory()
    token = _token(srv)
    srv.stop()
    right = _kek_file(srv).read_text()
    _kek_file(srv).write_text("a different key-encryption key, equally long\n")
    out = _start_refused(srv)
    assert "is sealed with key-encryption key" in out and "which is not configured" in out
    assert right.strip() not in out, "the KEK never reaches the log"
    # Missing altogether: refused as well, and no new KEK is generated over the sealed rows.
    _kek_file(srv).unlink()
    out = _start_refused(srv)
    assert "does not exist" in out and not _kek_file(srv).exists()
    _kek_file(srv).write_text(right)
    srv.start()
    assert _get_config(srv, token).status_code == 200, "the same key, no forced re-login"


# ---------------------------------------------------------------------------------------------
# Tokens signed by the real key
# ---------------------------------------------------------------------------------------------
def test_a_long_lived_token_signed_by_the_real_key_is_refused(legacy, tmp_path):
    srv, key, kid = legacy
    template = km.claims_of(_token(srv))
    lifetime = template["exp"] - template["iat"]
    good = km.sign_jwt(key.pem_path, kid, km.firn_claims(template), tmp_path)
    assert _get_config(srv, good).status_code == 200, "control: a normal forged token works"
    now = int(time.time())
    for claims in (km.firn_claims(template, exp=now + 30 * 86400),
                   km.firn_claims(template, exp=now + lifetime + 1),
                   km.firn_claims(template, iat=None, exp=now + 600)):
        forged = km.sign_jwt(key.pem_path, kid, claims, tmp_path)
        err = _assert_401(_get_config(srv, forged))
        assert "token" in err["message"].lower()


def test_a_token_with_ver_plus_one_is_refused_before_and_after_rotation(legacy, tmp_path):
    srv, key, kid = legacy
    admin = Management(srv.uri)
    p = admin.create_principal("rotating")
    template = km.claims_of(_token(srv, firn_auth.Credentials(p.realm, p.client_id,
                                                              p.client_secret)))
    assert template["ver"] == 1

    def with_ver(ver: int) -> requests.Response:
        forged = km.sign_jwt(key.pem_path, kid, km.firn_claims(template, ver=ver), tmp_path)
        return _get_config(srv, forged)

    assert with_ver(1).status_code == 200  # control
    _assert_401(with_ver(2))
    admin.rotate("rotating")  # credential version 2
    _assert_401(with_ver(1))
    assert with_ver(2).status_code == 200
    _assert_401(with_ver(3))


# ---------------------------------------------------------------------------------------------
# KEK rotation on the embedded default
# ---------------------------------------------------------------------------------------------
def test_kek_rotation_keeps_tokens_and_retires_the_old_kek(server_factory):
    srv = server_factory()
    token = _token(srv)
    old = _kek_file(srv).read_text().strip()
    ((_, _, before),) = _signing_rows(_db(srv))
    p = _firn("admin", "rotate-kek", "--db", f"sqlite://{_db(srv)}")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["previous_kek_id"] == before["kek_id"] and out["kek_id"] != before["kek_id"]
    assert out["resealed"] == 1 and out["kek_file"] == str(_kek_file(srv))
    assert old not in p.stdout + p.stderr
    new = _kek_file(srv).read_text().strip()
    assert new != old and _mode(_kek_file(srv)) == 0o600
    assert not Path(str(_kek_file(srv)) + ".next").exists()
    ((_, _, after),) = _signing_rows(_db(srv))
    assert after["kek_id"] == out["kek_id"]
    # The running server still holds the key: old and new tokens both work.
    assert _get_config(srv, token).status_code == 200
    assert _get_config(srv, _token(srv)).status_code == 200
    assert srv.restart() == 0
    assert _get_config(srv, token).status_code == 200
    # The old KEK opens nothing any more.
    srv.stop()
    out = _start_refused(srv, env={"FIRN_KEK": old})
    assert "which is not configured" in out
