#include "auth/key_ring.h"

#include <openssl/rand.h>

#include <algorithm>

#include "common/encoding.h"
#include "common/macros.h"

namespace firn::auth {

std::string NewKeyId() {
  unsigned char buf[16];
  if (RAND_bytes(buf, sizeof(buf)) != 1) std::abort();  // no CSPRNG: nothing is safe
  return Base64UrlEncode(std::string_view(reinterpret_cast<const char*>(buf), sizeof(buf)));
}

KeyRing::KeyRing(std::vector<Entry> entries) : entries_(std::move(entries)) {
  verifiers_.reserve(entries_.size());
  for (const auto& e : entries_) verifiers_.push_back(e.key.Verifier());
}

Result<KeyRing> KeyRing::CreateEd25519(int64_t now) {
  FIRN_ASSIGN_OR_RETURN(SigningKey key, SigningKey::GenerateEd25519(NewKeyId()));
  std::vector<Entry> entries;
  entries.push_back(Entry{std::move(key), now, 0});
  return KeyRing(std::move(entries));
}

Result<KeyRing> KeyRing::FromStored(std::span<const StoredKey> rows, int64_t now) {
  std::vector<Entry> entries;
  std::vector<Entry> retired;
  for (const auto& row : rows) {
    auto alg = ParseJwsAlg(row.alg);
    if (!alg) return Fail(ErrorKind::kInternal, "Stored signing key has unknown alg " + row.alg);
    if (!row.active && row.verify_until != 0 && row.verify_until <= now) continue;
    auto key = SigningKey::FromPem(row.kid, *alg, row.private_key_pem);
    if (!key) {
      return Fail(ErrorKind::kInternal, "Stored signing key " + row.kid + " is unreadable",
                  key.error().detail);
    }
    Entry e{std::move(*key), row.created_at, row.active ? 0 : row.verify_until};
    if (row.active) {
      if (!entries.empty()) return Fail(ErrorKind::kInternal, "More than one active signing key");
      entries.push_back(std::move(e));
    } else {
      retired.push_back(std::move(e));
    }
  }
  if (entries.empty()) return Fail(ErrorKind::kInternal, "No active signing key");
  for (auto& e : retired) {
    if (e.key.kid() == entries.front().key.kid()) {
      return Fail(ErrorKind::kInternal, "Duplicate signing key id " + e.key.kid());
    }
    entries.push_back(std::move(e));
  }
  return KeyRing(std::move(entries));
}

Result<KeyRing> KeyRing::Rotate(SigningKey next, int64_t now, int64_t overlap_seconds) const {
  for (const auto& e : entries_) {
    if (e.key.kid() == next.kid()) {
      return Fail(ErrorKind::kInternal, "Signing key id reused: " + next.kid());
    }
  }
  std::vector<Entry> entries;
  entries.push_back(Entry{std::move(next), now, 0});
  Entry old = entries_.front();
  old.verify_until = now + std::max<int64_t>(overlap_seconds, 1);
  entries.push_back(std::move(old));
  for (size_t i = 1; i < entries_.size(); ++i) {
    if (entries_[i].verify_until > now) entries.push_back(entries_[i]);
  }
  return KeyRing(std::move(entries));
}

Result<KeyRing> KeyRing::RotateEd25519(int64_t now, int64_t overlap_seconds) const {
  FIRN_ASSIGN_OR_RETURN(SigningKey key, SigningKey::GenerateEd25519(NewKeyId()));
  return Rotate(std::move(key), now, overlap_seconds);
}

const SigningKey* KeyRing::Find(std::string_view kid) const {
  for (const auto& e : entries_) {
    if (e.key.kid() == kid) return &e.key;
  }
  return nullptr;
}

std::vector<VerificationKey> KeyRing::VerificationKeysAt(int64_t now) const {
  std::vector<VerificationKey> out;
  out.reserve(entries_.size());
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (i == 0 || entries_[i].verify_until > now) out.push_back(verifiers_[i]);
  }
  return out;
}

Result<Claims> KeyRing::Verify(std::string_view token, const VerifyOptions& options,
                               int64_t now) const {
  if (entries_.size() == 1) return VerifyJwt(token, verifiers_, options, now);
  return VerifyJwt(token, VerificationKeysAt(now), options, now);
}

Result<std::vector<StoredKey>> KeyRing::ToStored() const {
  std::vector<StoredKey> rows;
  for (size_t i = 0; i < entries_.size(); ++i) {
    const auto& e = entries_[i];
    FIRN_ASSIGN_OR_RETURN(Secret pem, e.key.PrivateKeyPem());
    rows.push_back(StoredKey{e.key.kid(), std::string(JwsAlgName(e.key.alg())), std::move(pem),
                             e.created_at, i == 0, e.verify_until});
  }
  return rows;
}

}  // namespace firn::auth
