#include "access/authenticator.h"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <spdlog/spdlog.h>

#include <atomic>
#include <mutex>

#include "access/jwks_fetch.h"
#include "auth/jwks.h"
#include "common/encoding.h"
#include "common/log.h"
#include "common/strings.h"

namespace firn::access {
namespace {

using auth::Caller;
using auth::Claims;

constexpr int64_t kJwksRefetchSeconds = 30;  // at most one refetch per issuer per 30 s

std::unexpected<Error> Unauthorized(std::string message, std::string detail = {}) {
  return Fail(ErrorKind::kNotAuthorized, std::move(message), std::move(detail));
}

// HTTP optional whitespace (RFC 9110 §5.6.3).
constexpr std::string_view kOws = " \t";

// Follows a dotted path ("realm_access.roles") through nested objects.
const boost::json::value* FindClaim(const boost::json::object& o, std::string_view path) {
  const boost::json::object* cur = &o;
  while (true) {
    size_t dot = path.find('.');
    const auto* v = cur->if_contains(path.substr(0, dot));
    if (v == nullptr || dot == std::string_view::npos) {
      if (v == nullptr && dot != std::string_view::npos) return nullptr;
      return v;
    }
    if (!v->is_object()) return nullptr;
    cur = &v->as_object();
    path.remove_prefix(dot + 1);
  }
}

}  // namespace

Result<std::string_view> ParseBearer(std::string_view authorization) {
  std::string_view h = Trim(authorization, kOws);
  size_t sp = h.find_first_of(kOws);
  if (sp == std::string_view::npos) return Unauthorized("Malformed Authorization header");
  std::string_view scheme = h.substr(0, sp);
  std::string_view token = Trim(h.substr(sp), kOws);
  if (!EqualsIgnoreCase(scheme, "bearer")) {
    return Unauthorized("Unsupported authorization scheme; use Bearer");
  }
  if (token.empty() || token.find_first_of(kOws) != std::string_view::npos) {
    return Unauthorized("Malformed Authorization header");
  }
  return token;
}

struct Authenticator::External {
  ExternalIssuer config;
  auth::TokenCache cache{16384};
  auth::VerifyOptions options;
  std::atomic<std::shared_ptr<const std::vector<auth::VerificationKey>>> keys;
  std::mutex fetch_mu;
  int64_t last_fetch = 0;  // guarded by fetch_mu

  Status Load(int64_t now) {
    Result<std::string> text = !config.jwks_file.empty() ? ReadJwksFile(config.jwks_file)
                                                         : FetchJwksUrl(config.jwks_url);
    if (!text) return std::unexpected(text.error());
    auto set = auth::ParseJwks(*text);
    if (!set) return std::unexpected(set.error());
    keys.store(std::make_shared<const std::vector<auth::VerificationKey>>(std::move(set->keys)));
    spdlog::info(R"("msg":"oidc issuer keys loaded","issuer":"{}","keys":{},"skipped":{})", log::Escape(config.issuer),
                 keys.load()->size(), set->skipped);
    (void)now;
    return Ok();
  }

  // Refetches on an unknown kid, at most once per kJwksRefetchSeconds. True when reloaded.
  bool MaybeRefresh(int64_t now) {
    if (config.jwks_url.empty() && config.jwks_file.empty()) return false;
    std::lock_guard lock(fetch_mu);
    if (now - last_fetch < kJwksRefetchSeconds) return false;
    last_fetch = now;
    auto s = Load(now);
    if (!s) {
      spdlog::warn(R"("msg":"oidc JWKS refresh failed","issuer":"{}","error":"{}","detail":"{}")", log::Escape(config.issuer),
                   log::Escape(s.error().message), log::Escape(s.error().detail));
      return false;
    }
    return true;
  }
};

Authenticator::Authenticator(AuthConfig config) : config_(std::move(config)) {
  for (const auto& issuer : config_.external_issuers) {
    auto ext = std::make_unique<External>();
    ext->config = issuer;
    ext->options.issuer = issuer.issuer;
    ext->options.audience = issuer.audience;
    ext->keys.store(std::make_shared<const std::vector<auth::VerificationKey>>());
    external_.push_back(std::move(ext));
  }
}

Authenticator::~Authenticator() = default;

Status Authenticator::Start() {
  if (!config_.enabled) return Ok();
  int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  for (auto& ext : external_) {
    if (ext->config.issuer.empty()) {
      return Fail(ErrorKind::kIllegalArgument, "An external issuer needs an issuer (iss)");
    }
    if (ext->config.audience.empty()) {
      // Without an audience any token the IdP issued to any other application would do.
      return Fail(ErrorKind::kIllegalArgument,
                  "External issuer " + ext->config.issuer + " needs an audience (aud)");
    }
    if (ext->config.jwks_file.empty() == ext->config.jwks_url.empty()) {
      return Fail(ErrorKind::kIllegalArgument,
                  "External issuer " + ext->config.issuer + " needs exactly one JWKS source");
    }
    std::lock_guard lock(ext->fetch_mu);
    ext->last_fetch = now;
    auto s = ext->Load(now);
    // A URL that is down at start is retried on the first token (unknown kid); a bad file is
    // an operator error worth failing for.
    if (!s && !ext->config.jwks_file.empty()) return s;
    if (!s) {
      spdlog::warn(R"("msg":"oidc JWKS not loaded at start","issuer":"{}","error":"{}","detail":"{}")",
                   log::Escape(ext->config.issuer), log::Escape(s.error().message),
                   log::Escape(s.error().detail));
      ext->last_fetch = 0;
    }
  }
  return Ok();
}

Result<std::shared_ptr<const Caller>> Authenticator::Authenticate(
    std::string_view realm, std::string_view authorization, const AccessSnapshot& snapshot,
    int64_t now) const {
  if (!config_.enabled) {
    auto caller = std::make_shared<Caller>();
    caller->subject.realm = std::string(realm);
    return std::shared_ptr<const Caller>(std::move(caller));
  }
  if (Trim(authorization, kOws).empty()) return Unauthorized("Authentication required");
  auto token = ParseBearer(authorization);
  if (!token) return std::unexpected(token.error());

  // Route to the verifier: a cache hit first; on a miss, the unverified "iss" only picks which
  // keys to try — nothing in it is trusted before the signature checks out.
  if (!external_.empty() && !own_cache_.Lookup(*token, now)) {
    External* ext = nullptr;
    for (const auto& e : external_) {
      if (e->cache.Lookup(*token, now)) {
        ext = e.get();
        break;
      }
    }
    if (ext == nullptr) {
      std::string iss = PeekIssuer(*token);
      for (const auto& e : external_) {
        if (!iss.empty() && e->config.issuer == iss) ext = e.get();
      }
    }
    if (ext != nullptr) return AuthenticateExternal(*ext, realm, *token, snapshot, now);
  }
  return AuthenticateOwn(realm, *token, snapshot, now);
}

std::string Authenticator::PeekIssuer(std::string_view token) {
  auto parts = auth::SplitCompact(token);
  if (!parts || parts->payload.size() > 16 * 1024) return {};
  auto payload = Base64UrlDecode(parts->payload);
  if (!payload) return {};
  boost::system::error_code ec;
  auto v = boost::json::parse(*payload, ec);
  if (ec || !v.is_object()) return {};
  const auto* iss = v.as_object().if_contains("iss");
  return iss && iss->is_string() ? std::string(iss->as_string()) : std::string();
}

Result<std::shared_ptr<const Caller>> Authenticator::AuthenticateOwn(
    std::string_view realm, std::string_view token, const AccessSnapshot& snapshot,
    int64_t now) const {
  const RealmState* state = snapshot.FindRealm(realm);
  if (state == nullptr || !state->keys) {
    return Unauthorized("Invalid token", "realm '" + std::string(realm) + "' has no keys");
  }
  std::shared_ptr<const Claims> claims = own_cache_.Lookup(token, now);
  if (!claims) {
    // Recomputed on a miss so a retiree past its overlap window stops verifying on time.
    std::vector<auth::VerificationKey> keys = state->keys->VerificationKeysAt(now);
    auth::VerifyOptions options;
    options.issuer = config_.issuer;
    options.exp_leeway_seconds = 0;  // Firn's own tokens die exactly at exp
    // Never longer-lived than this server issues them, whatever the signature says.
    options.max_lifetime_seconds = config_.token_lifetime_seconds;
    auto verified = auth::VerifyCached(own_cache_, token, keys, options, now);
    if (!verified) return std::unexpected(verified.error());
    claims = std::move(*verified);
  }
  if (claims->realm != realm) {
    return Unauthorized("Invalid token: wrong realm",
                        "token realm '" + claims->realm + "', request realm '" +
                            std::string(realm) + "'");
  }
  auto id = state->principal_by_id.find(claims->sub);
  if (id == state->principal_by_id.end()) {
    return Unauthorized("Invalid token: unknown principal");
  }
  const PrincipalInfo* principal = snapshot.FindPrincipal(realm, id->second);
  if (principal == nullptr) return Unauthorized("Invalid token: unknown principal");
  // Exactly the current version: a lower one was revoked by a rotation or reset; a higher one
  // was never issued for these credentials (forged, or from before a restore).
  if (claims->ver.value_or(0) != principal->credential_version) {
    return Unauthorized("Invalid token: revoked",
                        "token ver " + std::to_string(claims->ver.value_or(0)) +
                            ", principal credential version " +
                            std::to_string(principal->credential_version));
  }
  auto caller = std::make_shared<Caller>();
  caller->subject.realm = std::string(realm);
  caller->subject.principal = principal->name;
  caller->subject.all_roles = ScopeActivatesAllRoles(claims->scope);
  if (!caller->subject.all_roles) caller->subject.active_roles = claims->roles;
  caller->grants = snapshot.grants;
  caller->client_id = claims->client_id;
  return std::shared_ptr<const Caller>(std::move(caller));
}

Result<std::shared_ptr<const Caller>> Authenticator::AuthenticateExternal(
    External& ext, std::string_view realm, std::string_view token,
    const AccessSnapshot& snapshot, int64_t now) const {
  if (ext.config.realm != realm) {
    return Unauthorized("Invalid token: wrong realm",
                        "issuer " + ext.config.issuer + " serves realm " + ext.config.realm);
  }
  auto keys = ext.keys.load();
  auto verified = auth::VerifyCached(ext.cache, token, *keys, ext.options, now);
  if (!verified && verified.error().message == "Invalid token: unknown key" &&
      ext.MaybeRefresh(now)) {
    keys = ext.keys.load();
    verified = auth::VerifyCached(ext.cache, token, *keys, ext.options, now);
  }
  if (!verified) return std::unexpected(verified.error());
  const Claims& claims = **verified;

  boost::system::error_code ec;
  auto payload = boost::json::parse(claims.payload, ec);
  if (ec || !payload.is_object()) return Unauthorized("Invalid token: malformed claims");
  const auto* sub = FindClaim(payload.as_object(), ext.config.subject_claim);
  if (sub == nullptr || !sub->is_string() || sub->as_string().empty()) {
    return Unauthorized("Invalid token: no subject",
                        "claim '" + ext.config.subject_claim + "' missing or not a string");
  }
  auto caller = std::make_shared<Caller>();
  caller->subject.realm = std::string(realm);
  // Prefixed so an IdP user can never pass for (or be audited as) a Firn principal.
  caller->subject.principal = std::string(kExternalPrincipalPrefix) + std::string(sub->as_string());
  caller->subject.all_roles = false;
  caller->subject.trusted_roles = true;
  auto add_role = [&](std::string_view role) {
    if (!ext.config.role_prefix.empty()) {
      if (!role.starts_with(ext.config.role_prefix)) return;
      role.remove_prefix(ext.config.role_prefix.size());
    }
    if (!role.empty()) caller->subject.active_roles.emplace_back(role);
  };
  if (const auto* roles = FindClaim(payload.as_object(), ext.config.roles_claim)) {
    if (roles->is_array()) {
      for (const auto& r : roles->as_array()) {
        if (r.is_string()) add_role(r.as_string());
      }
    } else if (roles->is_string()) {
      std::string_view s = roles->as_string();
      while (!s.empty()) {
        size_t sp = s.find(' ');
        add_role(s.substr(0, sp));
        if (sp == std::string_view::npos) break;
        s.remove_prefix(sp + 1);
      }
    }
  }
  caller->grants = snapshot.grants;
  caller->external = true;
  return std::shared_ptr<const Caller>(std::move(caller));
}

bool ScopeActivatesAllRoles(std::string_view scope) {
  while (!scope.empty()) {
    size_t sp = scope.find(' ');
    std::string_view s = scope.substr(0, sp);
    if (s == "PRINCIPAL_ROLE:ALL" || s == "catalog") return true;
    if (sp == std::string_view::npos) break;
    scope.remove_prefix(sp + 1);
  }
  return false;
}

}  // namespace firn::access
