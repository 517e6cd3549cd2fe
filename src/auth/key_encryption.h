// Key-encryption keys (KEKs): how Firn's token signing keys are sealed at rest.
//
// A KEK is an operator secret kept outside the database (a file or FIRN_KEK; docs/auth.md,
// "Signing keys at rest"). Its text must hold at least 32 bytes (`firn admin generate-kek`
// writes 32 random bytes as base64url); HKDF-SHA256 derives from it an AES-256 key and a
// public id, so the id names the KEK without revealing it and two texts never share an id in
// practice. Sealing is AES-256-GCM with a fresh random 96-bit IV and caller-chosen associated
// data (the record's identity): a sealed blob opens only under the KEK that sealed it and only
// for the record it was sealed for; any change to the blob, the id or the associated data fails
// the tag check.
//
// Contract: KeyEncryptionKey and KeyEncryptionKeys are immutable values, thread-safe to share.
// The derived key lives in firn::Secret (formats as ***); no error message or detail carries
// key material or plaintext. Errors: kIllegalArgument for a KEK text that is too short;
// kNotAuthorized when a blob does not open (wrong KEK, tampered blob or wrong record);
// kInternal when OpenSSL fails.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "common/secret.h"

namespace firn::auth {

class KeyEncryptionKey {
 public:
  static constexpr size_t kMinTextBytes = 32;

  // Derives the key and id from the operator's text (used as given: the caller trims a file's
  // trailing newline).
  static Result<KeyEncryptionKey> FromText(const Secret& text);
  // A new KEK text: 32 bytes from the OpenSSL CSPRNG, base64url (43 characters).
  static Secret GenerateText();

  // 16 base64url characters derived from the KEK (HKDF, its own label); safe to log and store.
  const std::string& id() const { return id_; }

  // base64url(iv || ciphertext || tag).
  Result<std::string> Seal(const Secret& plaintext, std::string_view associated_data) const;
  // The plaintext of a Seal() output; kNotAuthorized when it does not open.
  Result<Secret> Open(std::string_view sealed, std::string_view associated_data) const;

 private:
  KeyEncryptionKey(std::string id, Secret key) : id_(std::move(id)), key_(std::move(key)) {}

  std::string id_;
  Secret key_;  // 32 raw bytes
};

// The KEKs one process holds: the primary seals and opens; the others only open (rows still
// sealed under a previous KEK while a KEK rotation is under way).
class KeyEncryptionKeys {
 public:
  // Others with the primary's id (or repeated ids) are dropped.
  explicit KeyEncryptionKeys(KeyEncryptionKey primary, std::vector<KeyEncryptionKey> others = {});

  const KeyEncryptionKey& primary() const { return keys_.front(); }
  // The KEK with this id, or nullptr.
  const KeyEncryptionKey* Find(std::string_view id) const;
  // Every id, the primary's first (for messages).
  std::vector<std::string> ids() const;

 private:
  std::vector<KeyEncryptionKey> keys_;  // [0] is the primary
};

}  // namespace firn::auth
