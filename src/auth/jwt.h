// Compact JWS / JWT (RFC 7515, 7519): the claims Firn uses, signing and verification.
//
// Contract: pure functions over immutable inputs; thread-safe. Verification failures are
// ErrorKind::kNotAuthorized with a short client-safe message ("Invalid token: <reason>");
// the detail carries more for the log and never contains the token. Verification order:
// size → structure → base64url → header JSON → alg allow-list → key by kid → alg equals
// the key's pinned alg → signature → claims JSON → exp (exp leeway) → nbf/iat (leeway) →
// lifetime (exp − iat, when capped) → iss → aud.
// Claims are never trusted before the signature checks out.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "auth/jws_key.h"
#include "common/result.h"

namespace firn::auth {

// Registered and Firn-specific claims. Unknown claims of a verified token stay readable in
// `payload` (external issuers' custom subject/roles claims).
struct Claims {
  std::string iss;
  std::string sub;    // principal id (Firn) / subject (external issuer)
  std::vector<std::string> aud;  // "aud" may be a string or an array on the wire
  std::string realm;  // Firn realm the token belongs to
  std::vector<std::string> roles;  // activated principal roles
  std::string scope;  // OAuth2 scope, e.g. "PRINCIPAL_ROLE:ALL" (Polaris)
  std::string client_id;
  std::string jti;
  std::optional<int64_t> iat;  // seconds since the epoch
  std::optional<int64_t> nbf;
  std::optional<int64_t> exp;
  // Principal credential version: rotation/reset bumps it, revoking tokens that carry less.
  std::optional<int64_t> ver;
  // The payload JSON object as received (set by ClaimsFromJson, so by VerifyJwt only after the
  // signature checked out; ignored by ClaimsToJson and by ==).
  std::string payload;

  bool operator==(const Claims& o) const {
    return iss == o.iss && sub == o.sub && aud == o.aud && realm == o.realm &&
           roles == o.roles && scope == o.scope && client_id == o.client_id && jti == o.jti &&
           iat == o.iat && nbf == o.nbf && exp == o.exp && ver == o.ver;
  }
};

struct VerifyOptions {
  std::string issuer;    // when non-empty, "iss" must equal it
  std::string audience;  // when non-empty, "aud" must contain it
  int64_t leeway_seconds = 30;  // clock skew tolerated for nbf and iat
  // Tolerated past exp; unset = leeway_seconds (external issuers). Firn's own tokens use 0:
  // they are never accepted at or after their exp.
  std::optional<int64_t> exp_leeway_seconds;
  bool require_exp = true;
  // When set, iat and exp are required and exp − iat must not exceed it ("lifetime too long"):
  // Firn's own tokens are capped at the configured token lifetime, so a token minted with a
  // far-away exp is refused even when its signature is good.
  std::optional<int64_t> max_lifetime_seconds;
  size_t max_token_bytes = 16 * 1024;
};

std::string ClaimsToJson(const Claims& claims);
// kNotAuthorized when a known claim has the wrong type.
Result<Claims> ClaimsFromJson(std::string_view json);

// Signs claims with `key` into a compact JWS; the header carries alg, typ "JWT" and kid.
Result<std::string> SignJwt(const SigningKey& key, const Claims& claims);

// Verifies a compact JWS against `keys` at `now_seconds`. The header's kid selects the key;
// a token without kid is accepted only when exactly one key is offered.
Result<Claims> VerifyJwt(std::string_view token, std::span<const VerificationKey> keys,
                         const VerifyOptions& options, int64_t now_seconds);

// Splits "a.b.c"; exposed for tests and for the cache (which needs no parse on a hit).
struct JwsParts {
  std::string_view header;
  std::string_view payload;
  std::string_view signature;
  std::string_view signing_input;  // "header.payload"
};
std::optional<JwsParts> SplitCompact(std::string_view token);

}  // namespace firn::auth
