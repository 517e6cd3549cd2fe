// Authenticator: Authorization header → auth::Caller, with no database access.
//
// Firn tokens: EdDSA JWTs signed by the realm's key ring (AccessSnapshot); verified once, then
// served from a TokenCache until exp. After verification (or a cache hit) the token's realm
// must equal the request's realm, its "sub" must name a principal that still exists in the
// snapshot, and its "ver" must equal the principal's credential_version (rotation and reset
// revoke; a higher ver was never issued); its exp − iat must not exceed token_lifetime_seconds.
// External (OIDC) tokens are verified against the issuer's JWKS with their own cache; the
// subject claim maps to the principal name "ext:<subject>" (never a Firn principal's name, so
// audit and 403 messages tell them apart) and the roles claim to principal roles that need not
// exist beforehand (trusted as-is, so grants do not depend on the name).
// Every refusal is kNotAuthorized (401) with a client-safe message; the token never appears in
// a message or a log line.
// Thread-safety: Authenticate is thread-safe.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "access/access_snapshot.h"
#include "auth/caller.h"
#include "auth/token_cache.h"
#include "common/result.h"

namespace firn::access {

// An external OpenID Connect issuer whose JWTs Firn accepts (docs/auth.md, "External identity").
struct ExternalIssuer {
  std::string issuer;         // required "iss"
  std::string audience;       // required; must be in "aud" (Start refuses an empty one)
  std::string jwks_file;      // one of jwks_file / jwks_url
  std::string jwks_url;       // fetched at start and refreshed on an unknown kid
  std::string realm = "default";    // the realm its principals live in
  std::string subject_claim = "sub";    // dotted paths reach nested objects ("a.b")
  std::string roles_claim = "roles";  // string array (or space-separated string); dotted ok
  std::string role_prefix;    // stripped from role values, e.g. "PRINCIPAL_ROLE:"
};

struct AuthConfig {
  bool enabled = true;  // false: every request is anonymous and every check allows
  std::string realm_header = "Polaris-Realm";
  std::string default_realm = "default";
  int64_t token_lifetime_seconds = 3600;
  std::string issuer = "firn";  // "iss" of Firn's own tokens
  std::vector<ExternalIssuer> external_issuers;
};

class Authenticator {
 public:
  explicit Authenticator(AuthConfig config);
  ~Authenticator();

  // Loads external JWKS (file or URL). Call once before serving. kIllegalArgument when an
  // external issuer lacks an issuer, an audience or exactly one JWKS source.
  Status Start();

  const AuthConfig& config() const { return config_; }

  // `authorization` is the raw Authorization header ("" when absent). `realm` is the resolved
  // request realm. With authentication off, returns a Caller with grants == nullptr.
  Result<std::shared_ptr<const auth::Caller>> Authenticate(std::string_view realm,
                                                           std::string_view authorization,
                                                           const AccessSnapshot& snapshot,
                                                           int64_t now_seconds) const;

 private:
  struct External;
  static std::string PeekIssuer(std::string_view token);
  Result<std::shared_ptr<const auth::Caller>> AuthenticateOwn(std::string_view realm,
                                                              std::string_view token,
                                                              const AccessSnapshot& snapshot,
                                                              int64_t now) const;
  Result<std::shared_ptr<const auth::Caller>> AuthenticateExternal(
      External& ext, std::string_view realm, std::string_view token,
      const AccessSnapshot& snapshot, int64_t now) const;

  AuthConfig config_;
  mutable auth::TokenCache own_cache_;
  std::vector<std::unique_ptr<External>> external_;
};

// Prefix of an external (OIDC) caller's principal name: "ext:<subject claim>".
inline constexpr std::string_view kExternalPrincipalPrefix = "ext:";

// The token of "Bearer <token>" (scheme case-insensitive); kNotAuthorized otherwise.
Result<std::string_view> ParseBearer(std::string_view authorization);

// True when an OAuth scope string activates every principal role ("PRINCIPAL_ROLE:ALL" or
// "catalog" among its space-separated entries).
bool ScopeActivatesAllRoles(std::string_view scope);

}  // namespace firn::access
