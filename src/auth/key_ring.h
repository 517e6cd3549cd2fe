// KeyRing: Firn's token signing keys — one active signer plus verify-only predecessors kept
// for an overlap window after a rotation, so tokens signed just before a rotation stay valid
// until they expire.
//
// Contract: a KeyRing is an immutable value; share it as shared_ptr<const KeyRing> and swap
// the pointer to publish a rotation. All const methods are thread-safe. Rotation returns a new
// ring and never mutates the old one. The storable form (StoredKey rows) carries each private
// key as PKCS#8 PEM inside firn::Secret so it never reaches a log; the database row seals it
// with a key-encryption key (access/access_records.h, auth/key_encryption.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "auth/jws_key.h"
#include "auth/jwt.h"
#include "common/result.h"
#include "common/secret.h"

namespace firn::auth {

// One key as the ring stores and loads it (the row seals private_key_pem).
struct StoredKey {
  std::string kid;
  std::string alg;          // "EdDSA" | "RS256" | "ES256"
  Secret private_key_pem;   // PKCS#8
  int64_t created_at = 0;   // seconds
  bool active = false;      // exactly one stored key is active
  int64_t verify_until = 0; // seconds; for retired keys, when they stop verifying (0 = never)
};

class KeyRing {
 public:
  // A ring holding one freshly generated Ed25519 key with a random kid.
  static Result<KeyRing> CreateEd25519(int64_t now);
  // Loads stored rows; exactly one must be active. Retired keys past verify_until are dropped.
  static Result<KeyRing> FromStored(std::span<const StoredKey> rows, int64_t now);

  // A new ring whose active key is `next`; the current active key becomes verify-only until
  // now + overlap_seconds (choose ≥ the longest token lifetime). Expired retirees are dropped.
  Result<KeyRing> Rotate(SigningKey next, int64_t now, int64_t overlap_seconds) const;
  // Same, generating a new Ed25519 key.
  Result<KeyRing> RotateEd25519(int64_t now, int64_t overlap_seconds) const;

  const SigningKey& active() const { return entries_.front().key; }
  // The key with this kid (active or retired), or nullptr.
  const SigningKey* Find(std::string_view kid) const;
  // Every key that may verify at `now` (the active one first).
  std::vector<VerificationKey> VerificationKeysAt(int64_t now) const;

  Result<std::string> Sign(const Claims& claims) const { return SignJwt(active(), claims); }
  Result<Claims> Verify(std::string_view token, const VerifyOptions& options,
                        int64_t now) const;

  Result<std::vector<StoredKey>> ToStored() const;
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    SigningKey key;
    int64_t created_at;
    int64_t verify_until;  // 0 for the active key
  };
  explicit KeyRing(std::vector<Entry> entries);

  std::vector<Entry> entries_;            // [0] is the active key
  std::vector<VerificationKey> verifiers_;  // parallel to entries_
};

// 16 random bytes, base64url: a key id that reveals nothing.
std::string NewKeyId();

}  // namespace firn::auth
