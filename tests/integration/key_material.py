"""Known Ed25519 keys and hand-signed tokens for the secrets-at-rest attack tests.

A test plants a key it knows into a signing-key row the way an earlier Firn stored it (PKCS#8
PEM in the clear), so it can (a) check that the key material is gone from every file and dump
after Firn sealed it, and (b) sign tokens with the realm's real key, as an attacker who had the
key would. Signing and key handling use the `openssl` command line (OpenSSL 3), so no Python
crypto package is needed.

Contract: plain functions; every file they write goes under the directory the caller passes.
"""

from __future__ import annotations

import base64
import json
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class KnownKey:
    pem_path: Path
    pem: str      # PKCS#8 PEM, as an earlier Firn stored it in the row
    seed: bytes   # the raw 32-byte Ed25519 private key

    def needles(self) -> list[bytes]:
        """Every form the private key could leak in: the PEM header, its base64 body, the raw
        seed and the seed in base64 / base64url / hex."""
        body = "".join(line for line in self.pem.splitlines() if not line.startswith("-----"))
        return [b"PRIVATE KEY", body.encode(), self.seed, base64.b64encode(self.seed),
                b64url(self.seed).encode(), self.seed.hex().encode()]


def generate_ed25519(directory: Path, name: str = "known") -> KnownKey:
    pem_path = directory / f"{name}.pem"
    subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(pem_path)],
                   check=True, capture_output=True)
    der = subprocess.run(["openssl", "pkey", "-in", str(pem_path), "-outform", "DER"],
                         check=True, capture_output=True).stdout
    assert len(der) == 48, "PKCS#8 Ed25519: 16-byte prefix + 32-byte seed"
    return KnownKey(pem_path, pem_path.read_text(), der[16:])


def sign_jwt(key_pem: Path, kid: str, claims: dict, work: Path) -> str:
    """A compact EdDSA JWS over `claims`, signed with the key in `key_pem`."""
    header = {"alg": "EdDSA", "typ": "JWT", "kid": kid}
    signing_input = (b64url(json.dumps(header, separators=(",", ":")).encode()) + "." +
                     b64url(json.dumps(claims, separators=(",", ":")).encode()))
    data = work / "signing-input"
    data.write_text(signing_input)
    sig = subprocess.run(["openssl", "pkeyutl", "-sign", "-rawin", "-inkey", str(key_pem),
                          "-in", str(data)], check=True, capture_output=True).stdout
    return signing_input + "." + b64url(sig)


def verifies_with(key_pem: Path, token: str, work: Path) -> bool:
    """True when `token`'s signature checks out under the public half of `key_pem`."""
    signing_input, _, sig = token.rpartition(".")
    pub = work / "verify.pub.pem"
    subprocess.run(["openssl", "pkey", "-in", str(key_pem), "-pubout", "-out", str(pub)],
                   check=True, capture_output=True)
    (work / "verify-input").write_text(signing_input)
    (work / "verify-sig").write_bytes(b64url_decode(sig))
    r = subprocess.run(["openssl", "pkeyutl", "-verify", "-rawin", "-pubin", "-inkey", str(pub),
                        "-in", str(work / "verify-input"), "-sigfile", str(work / "verify-sig")],
                       capture_output=True)
    return r.returncode == 0


def claims_of(token: str) -> dict:
    return json.loads(b64url_decode(token.split(".")[1]))


def header_of(token: str) -> dict:
    return json.loads(b64url_decode(token.split(".")[0]))


def firn_claims(template: dict, **changes) -> dict:
    """Claims shaped like the ones Firn issues (from a real token's), fresh times, `changes`
    applied (None removes a claim)."""
    now = int(time.time())
    lifetime = template["exp"] - template["iat"]
    claims = dict(template, iat=now, exp=now + lifetime, jti=f"forged-{now}")
    for k, v in changes.items():
        if v is None:
            claims.pop(k, None)
        else:
            claims[k] = v
    return claims


def legacy_key_body(key: KnownKey, created_at: int | None = None) -> str:
    """A signing-key row body as a Firn version before sealing wrote it."""
    return json.dumps({"alg": "EdDSA", "private_key_pem": key.pem,
                       "created_at": created_at or int(time.time()), "active": True,
                       "verify_until": 0})


def leaks(blob: bytes, key: KnownKey) -> list[bytes]:
    """The forms of `key` found in `blob` (empty = none)."""
    return [n for n in key.needles() if n in blob]
