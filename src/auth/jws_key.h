// JWS keys and the raw sign/verify primitives over OpenSSL EVP_PKEY.
//
// Contract: keys are immutable after construction and safe to share between threads (the
// EVP_PKEY is reference-counted and only read). Every key is pinned to exactly one algorithm:
// a token is verified only with the algorithm the *key* declares, never the one the token's
// header asks for, so "alg":"none" and HMAC-with-a-public-key confusion cannot happen (Firn
// implements no HMAC at all). Errors are Result values, never exceptions.
#pragma once

#include <openssl/evp.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "common/secret.h"

namespace firn::auth {

// The algorithms Firn accepts. EdDSA (Ed25519) signs Firn's own tokens; RS256 and ES256 are
// for verifying tokens from external OIDC issuers.
enum class JwsAlg { kEdDSA, kRS256, kES256 };

std::string_view JwsAlgName(JwsAlg alg);
// nullopt for anything not in JwsAlg, including "none" and every HS*.
std::optional<JwsAlg> ParseJwsAlg(std::string_view name);

using PkeyPtr = std::shared_ptr<EVP_PKEY>;
PkeyPtr WrapPkey(EVP_PKEY* raw);  // takes ownership; nullptr stays nullptr

// A public key that may verify signatures of one algorithm.
struct VerificationKey {
  std::string kid;
  JwsAlg alg = JwsAlg::kEdDSA;
  PkeyPtr key;
};

// Checks that `key` has the type (and curve/size) `alg` needs: Ed25519 for EdDSA, RSA ≥ 2048
// bits for RS256, P-256 for ES256.
Status CheckKeyMatchesAlg(const EVP_PKEY* key, JwsAlg alg);

// Signs `signing_input` (the "header.payload" bytes). ES256 output is the JWS raw R||S form.
Result<std::string> SignBytes(JwsAlg alg, EVP_PKEY* private_key, std::string_view signing_input);

// True only for a valid signature; any malformed input is simply "false".
bool VerifyBytes(JwsAlg alg, EVP_PKEY* public_key, std::string_view signing_input,
                 std::string_view signature);

// A private key Firn signs its own tokens with, identified by `kid`.
class SigningKey {
 public:
  // A fresh Ed25519 key from the OpenSSL CSPRNG.
  static Result<SigningKey> GenerateEd25519(std::string kid);
  // A PKCS#8 PEM private key (any of the three algorithms, `alg` must match it).
  static Result<SigningKey> FromPem(std::string kid, JwsAlg alg, const Secret& pem);

  const std::string& kid() const { return kid_; }
  JwsAlg alg() const { return alg_; }
  EVP_PKEY* pkey() const { return key_.get(); }

  // PKCS#8 PEM of the private key, for storing in the database.
  Result<Secret> PrivateKeyPem() const;
  // The public half, as a verifier pinned to this key's algorithm.
  VerificationKey Verifier() const;

 private:
  SigningKey(std::string kid, JwsAlg alg, PkeyPtr key)
      : kid_(std::move(kid)), alg_(alg), key_(std::move(key)) {}

  std::string kid_;
  JwsAlg alg_;
  PkeyPtr key_;
};

}  // namespace firn::auth
