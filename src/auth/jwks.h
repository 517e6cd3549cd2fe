// JWKS (RFC 7517) parsing for external OIDC issuers, and the Ed25519 JWK Firn publishes.
//
// Contract: pure functions, thread-safe. Supported keys: RSA (n, e) → RS256, EC P-256 (x, y)
// → ES256, OKP Ed25519 (x) → EdDSA. A key whose "alg" contradicts its type is an error; keys
// Firn cannot use (other kty/crv, "use" other than "sig", private members present) are skipped
// and counted, so one exotic key in an issuer's set does not take the whole set down.
#pragma once

#include <boost/json/object.hpp>

#include <string_view>
#include <vector>

#include "auth/jws_key.h"
#include "common/result.h"

namespace firn::auth {

struct JwkSet {
  std::vector<VerificationKey> keys;
  int skipped = 0;  // keys present but unusable by Firn

  const VerificationKey* Find(std::string_view kid) const;
};

// Parses a JWKS document ({"keys":[...]}). kBadRequest for malformed JSON or a malformed key.
Result<JwkSet> ParseJwks(std::string_view json);

// Parses one JWK object.
Result<VerificationKey> ParseJwk(const boost::json::object& jwk);

// The public JWK of an Ed25519 verifier ({"kty":"OKP","crv":"Ed25519","x":..,"kid":..}).
Result<boost::json::object> Ed25519PublicJwk(const VerificationKey& key);

}  // namespace firn::auth
