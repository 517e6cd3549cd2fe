// Client secrets: generation, slow salted hashing, constant-time verification.
//
// Contract: pure functions, thread-safe. Hashes are self-describing strings that carry their
// algorithm and cost parameters, so the defaults can be raised later and old hashes still
// verify (NeedsRehash tells the caller when to re-hash on the next successful login):
//   $scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt b64url>$<hash b64url>
//   $pbkdf2-sha256$i=<iterations>$<salt b64url>$<hash b64url>
// Hashing memory is N*r*128 bytes per concurrent call (16 MiB at the defaults): the caller
// bounds how many run at once. Errors: kInternal when the KDF fails; a malformed stored hash
// verifies as false, never as an error a client could distinguish.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"
#include "common/secret.h"

namespace firn::auth {

struct ScryptParams {
  // OWASP's scrypt row (N=2^14, r=8, p=5): same work as N=2^17,p=1 at an eighth of the memory.
  int log2_n = 14;
  int r = 8;
  int p = 5;
};

struct Pbkdf2Params {
  int iterations = 600000;  // OWASP 2023 floor for PBKDF2-HMAC-SHA256
};

// 32 random bytes, base64url (43 characters), never starting with '-' so that command
// lines take it as a value.
Secret GenerateClientSecret();
// 8 random bytes as 16 lowercase hex characters (Polaris-style client id).
std::string GenerateClientId();

Result<std::string> HashSecretScrypt(const Secret& secret, const ScryptParams& params = {});
Result<std::string> HashSecretPbkdf2(const Secret& secret, const Pbkdf2Params& params = {});

// Constant-time comparison of the derived key (CRYPTO_memcmp). False for a malformed hash.
bool VerifySecret(const Secret& secret, std::string_view encoded_hash);

// True when `encoded_hash` is weaker than `params` (or not scrypt at all).
bool NeedsRehash(std::string_view encoded_hash, const ScryptParams& params = {});

}  // namespace firn::auth
