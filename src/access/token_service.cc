#include "access/token_service.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>

#include "access/access_records.h"
#include "auth/secrets.h"
#include "common/digest.h"
#include "common/metrics.h"
#include "common/encoding.h"
#include "common/strings.h"
#include "common/uuid.h"

namespace firn::access {
namespace {

using Form = FormPairs;

constexpr std::string_view kClientCredentials = "client_credentials";
constexpr std::string_view kTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange";
constexpr std::string_view kAccessTokenType = "urn:ietf:params:oauth:token-type:access_token";
constexpr std::string_view kJwtTokenType = "urn:ietf:params:oauth:token-type:jwt";
constexpr std::string_view kRolePrefix = "PRINCIPAL_ROLE:";
// Longest realm or client id a token request may name.
constexpr size_t kMaxKeyPart = 256;

TokenResponse InvalidClient(bool basic) {
  auto r = OAuthError(401, "invalid_client", "Client authentication failed");
  if (basic) r.headers.emplace_back("WWW-Authenticate", "Basic realm=\"firn\"");
  return r;
}

// The single value of `key`; "" when absent; error text when repeated.
std::optional<std::string> Single(const Form& form, std::string_view key, bool& repeated) {
  std::optional<std::string> out;
  for (const auto& [k, v] : form) {
    if (k != key) continue;
    if (out) repeated = true;
    out = v;
  }
  return out;
}

std::optional<std::string> Base64Decode(std::string_view in) {
  if (in.empty() || in.size() % 4 != 0 || in.size() > 4096) return std::nullopt;
  std::string out(in.size() / 4 * 3, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(in.data()),
                          static_cast<int>(in.size()));
  if (n < 0) return std::nullopt;
  size_t pad = in.ends_with("==") ? 2 : in.ends_with("=") ? 1 : 0;
  out.resize(static_cast<size_t>(n) - pad);
  return out;
}

struct BasicCredentials {
  std::string client_id;
  Secret secret;
};

// "Basic base64(urlencode(id) ':' urlencode(secret))" (RFC 6749 §2.3.1).
std::optional<BasicCredentials> ParseBasic(std::string_view header, bool& malformed) {
  while (!header.empty() && header.front() == ' ') header.remove_prefix(1);
  if (!StartsWithIgnoreCase(header, "basic ")) return std::nullopt;
  std::string_view b64 = Trim(header.substr(6), " ");
  auto raw = Base64Decode(b64);
  size_t colon = raw ? raw->find(':') : std::string::npos;
  if (colon == std::string::npos) {
    malformed = true;
    return std::nullopt;
  }
  auto id = PercentDecodeForm(std::string_view(*raw).substr(0, colon));
  auto secret = PercentDecodeForm(std::string_view(*raw).substr(colon + 1));
  if (!id || !secret) {
    malformed = true;
    return std::nullopt;
  }
  return BasicCredentials{std::move(*id), Secret(std::move(*secret))};
}

// Principal roles `principal` holds in `realm` (assignment rows whose role exists).
std::vector<std::string> HeldRoles(const RealmState& realm, std::string_view principal) {
  std::vector<std::string> out;
  for (const auto& r : realm.links) {
    if (r.kind != store::AccessKind::kPrincipalRoleGrant) continue;
    auto a = DecodePrincipalRoleGrant(r);
    if (a && a->principal == principal && realm.principal_roles.contains(a->principal_role)) {
      out.push_back(std::move(a->principal_role));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct ScopeResult {
  bool all = false;
  std::vector<std::string> roles;  // when !all
  std::string normalized;
  std::string error;  // invalid_scope description
};

ScopeResult ParseScope(std::string_view scope, const std::vector<std::string>& held) {
  ScopeResult out;
  std::set<std::string> wanted;
  bool any = false;
  while (!scope.empty()) {
    size_t sp = scope.find(' ');
    std::string_view s = scope.substr(0, sp);
    scope = sp == std::string_view::npos ? std::string_view() : scope.substr(sp + 1);
    if (s.empty()) continue;
    any = true;
    if (s == "PRINCIPAL_ROLE:ALL" || s == "catalog") {
      out.all = true;
    } else if (s.starts_with(kRolePrefix) && s.size() > kRolePrefix.size()) {
      std::string role(s.substr(kRolePrefix.size()));
      if (!std::binary_search(held.begin(), held.end(), role)) {
        // The role name is the caller's own input, safe to echo.
        out.error = "Principal does not hold principal role '" + role + "'";
        return out;
      }
      wanted.insert(std::move(role));
    } else {
      out.error = "Unsupported scope '" + std::string(s) + "'";
      return out;
    }
  }
  if (!any) out.all = true;  // no scope: every role, as PRINCIPAL_ROLE:ALL
  if (out.all) {
    out.normalized = "PRINCIPAL_ROLE:ALL";
    out.roles = held;
  } else {
    out.roles.assign(wanted.begin(), wanted.end());
    for (const auto& r : out.roles) {
      if (!out.normalized.empty()) out.normalized.push_back(' ');
      out.normalized += std::string(kRolePrefix) + r;
    }
  }
  return out;
}

// Why exchanging a token of `subject` for `scope` would widen it ("" when it does not): a
// subject limited to some roles may only ask for a subset of them.
std::string NarrowingError(std::string_view scope, const auth::Subject& subject) {
  if (subject.all_roles) return {};
  while (!scope.empty()) {
    size_t sp = scope.find(' ');
    std::string_view s = scope.substr(0, sp);
    scope = sp == std::string_view::npos ? std::string_view() : scope.substr(sp + 1);
    if (s.empty()) continue;
    if (s == "PRINCIPAL_ROLE:ALL" || s == "catalog") {
      return "Token exchange cannot widen the subject token's principal roles";
    }
    if (s.starts_with(kRolePrefix)) {
      std::string_view role = s.substr(kRolePrefix.size());
      if (std::find(subject.active_roles.begin(), subject.active_roles.end(), role) ==
          subject.active_roles.end()) {
        return "Subject token does not activate principal role '" + std::string(role) + "'";
      }
    }
  }
  return {};
}

}  // namespace

TokenResponse OAuthError(int status, std::string_view error, std::string_view description) {
  boost::json::object o;
  o["error"] = error;
  o["error_description"] = description;
  TokenResponse r;
  r.status = status;
  r.body = boost::json::serialize(o);
  r.headers = {{"Cache-Control", "no-store"}, {"Pragma", "no-cache"}};
  return r;
}

namespace {

// firn_token_requests_total{outcome}: issued (200), invalid_client (401), throttled (429),
// invalid_request (other 4xx), error (5xx).
metrics::Counter& TokenOutcome(int status) {
  static auto& family = metrics::Default().Counters(
      "firn_token_requests_total", "Token endpoint requests by outcome", {"outcome"});
  static metrics::Counter& issued = family.With({"issued"});
  static metrics::Counter& invalid_client = family.With({"invalid_client"});
  static metrics::Counter& throttled = family.With({"throttled"});
  static metrics::Counter& invalid_request = family.With({"invalid_request"});
  static metrics::Counter& error = family.With({"error"});
  if (status == 200) return issued;
  if (status == 401) return invalid_client;
  if (status == 429) return throttled;
  return status < 500 ? invalid_request : error;
}

}  // namespace

TokenService::TokenService(const Authenticator& authenticator, SnapshotFn snapshot,
                           TokenServiceOptions options)
    : authenticator_(authenticator),
      snapshot_(std::move(snapshot)),
      options_(options),
      hash_slots_(std::clamp(options.max_concurrent_hashes, 1, 64)),
      verified_key_(auth::GenerateClientSecret().Reveal()) {
  (void)TokenOutcome(200);  // the family is exposed from the start, at 0
  // Same cost parameters as real rows, so a miss and a hit take the same time.
  auto h = options_.make_dummy_hash ? options_.make_dummy_hash()
                                    : auth::HashSecretScrypt(auth::GenerateClientSecret());
  if (h && !h->empty()) {
    dummy_hash_ = std::move(*h);
  } else {
    // Without a dummy an unknown client id would answer faster than a known one.
    status_ = Fail(ErrorKind::kInternal, "Token service cannot generate its dummy secret hash",
                   h ? "empty hash" : h.error().message);
    spdlog::critical(R"("msg":"token service disabled: cannot generate the dummy secret hash")");
  }
}

TokenService::~TokenService() = default;


TokenResponse TokenService::Handle(const TokenRequest& request, int64_t now) {
  TokenResponse r = Answer(request, now);
  TokenOutcome(r.status).Inc();
  return r;
}

TokenResponse TokenService::Answer(const TokenRequest& request, int64_t now) {
  if (!status_) return OAuthError(500, "server_error", "Token service unavailable");
  auto form = ParseFormEncoded(request.body);
  if (!form) return OAuthError(400, "invalid_request", "Malformed form body");
  bool repeated = false;
  auto grant = Single(*form, "grant_type", repeated);
  if (repeated) return OAuthError(400, "invalid_request", "Repeated parameter");
  if (!grant || grant->empty()) return OAuthError(400, "invalid_request", "Missing grant_type");
  if (*grant == kClientCredentials) return ClientCredentials(request, *form, now);
  if (*grant == kTokenExchange) return Exchange(request, *form, now);
  return OAuthError(400, "unsupported_grant_type", "Unsupported grant_type");
}

bool TokenService::CheckSecret(const Secret& secret, const PrincipalInfo* principal,
                               const std::string& client_key) {
  std::string mac;
  if (principal != nullptr && options_.verified_secrets > 0) {
    mac = HmacSha256(verified_key_, secret.Reveal());
    std::shared_lock lock(verified_mu_);
    auto it = verified_.find(client_key);
    if (it != verified_.end() &&
        (it->second.hash == principal->secret_hash ||
         it->second.hash == principal->previous_secret_hash) &&
        CRYPTO_memcmp(it->second.mac.data(), mac.data(), mac.size()) == 0) {
      cached_.fetch_add(1);
      return true;
    }
  }
  // Always exactly two verifications, both run: the cost does not depend on whether the
  // client exists, has a previous secret, or which hash matched.
  const std::string& current = principal != nullptr && !principal->secret_hash.empty()
                                   ? principal->secret_hash
                                   : dummy_hash_;
  const std::string& previous =
      principal != nullptr && !principal->previous_secret_hash.empty()
          ? principal->previous_secret_hash
          : dummy_hash_;
  hash_slots_.acquire();
  bool current_ok = auth::VerifySecret(secret, current);
  bool previous_ok = auth::VerifySecret(secret, previous);
  hash_slots_.release();
  verifications_.fetch_add(2);
  if (principal == nullptr) return false;
  const std::string* matched = current_ok && &current != &dummy_hash_     ? &current
                               : previous_ok && &previous != &dummy_hash_ ? &previous
                                                                          : nullptr;
  if (matched == nullptr) return false;
  if (!mac.empty()) {
    std::unique_lock lock(verified_mu_);
    if (verified_.size() >= options_.verified_secrets) verified_.clear();  // bounded, cheap
    verified_[client_key] = Verified{*matched, std::move(mac)};
  }
  return true;
}

TokenResponse TokenService::ClientCredentials(const TokenRequest& request, const Form& form,
                                              int64_t now) {
  bool repeated = false;
  auto form_id = Single(form, "client_id", repeated);
  auto form_secret = Single(form, "client_secret", repeated);
  auto scope = Single(form, "scope", repeated);
  if (repeated) return OAuthError(400, "invalid_request", "Repeated parameter");
  bool malformed = false;
  auto basic = ParseBasic(request.authorization, malformed);
  if (malformed) return OAuthError(400, "invalid_request", "Malformed Basic credentials");
  std::string client_id;
  Secret secret;
  if (basic) {
    if (form_secret) {
      return OAuthError(400, "invalid_request", "Use one client authentication method");
    }
    if (form_id && *form_id != basic->client_id) {
      return OAuthError(400, "invalid_request", "client_id does not match Basic credentials");
    }
    client_id = std::move(basic->client_id);
    secret = std::move(basic->secret);
  } else {
    if (!form_id || form_id->empty() || !form_secret || form_secret->empty()) {
      return OAuthError(400, "invalid_request", "Missing client_id or client_secret");
    }
    client_id = std::move(*form_id);
    secret = Secret(std::move(*form_secret));
  }
  // No such id or realm exists; and the throttle keys below stay small.
  if (client_id.size() > kMaxKeyPart || request.realm.size() > kMaxKeyPart) {
    return InvalidClient(basic.has_value());
  }

  // Counted per realm (failures against one tenant never lock out another's client) and per
  // source address (failures from one address never lock out the client elsewhere, nor other
  // clients from there).
  const std::string client_key = request.realm + '\x1f' + client_id;
  const std::string source_key = client_key + '\x1f' + request.remote_address;
  if (int64_t wait = BlockedFor(client_key, source_key, now); wait > 0) {
    auto r = OAuthError(429, "slow_down", "Too many failed attempts; retry later");
    r.headers.emplace_back("Retry-After", std::to_string(wait));
    return r;
  }
  auto snapshot = snapshot_();
  const RealmState* realm = snapshot ? snapshot->FindRealm(request.realm) : nullptr;
  const PrincipalInfo* principal = nullptr;
  if (realm != nullptr && realm->keys) {
    if (auto it = realm->principal_by_client.find(client_id);
        it != realm->principal_by_client.end()) {
      principal = snapshot->FindPrincipal(request.realm, it->second);
    }
  }
  if (!CheckSecret(secret, principal, client_key)) {
    RecordFailure(client_key, source_key, now);
    return InvalidClient(basic.has_value());
  }
  RecordSuccess(source_key);
  return Issue(*realm, *principal, scope.value_or(""), client_id, now);
}

TokenResponse TokenService::Exchange(const TokenRequest& request, const Form& form,
                                     int64_t now) {
  bool repeated = false;
  auto subject = Single(form, "subject_token", repeated);
  auto subject_type = Single(form, "subject_token_type", repeated);
  auto scope = Single(form, "scope", repeated);
  if (repeated) return OAuthError(400, "invalid_request", "Repeated parameter");
  if (!subject || subject->empty()) return OAuthError(400, "invalid_request", "Missing subject_token");
  if (subject_type && !subject_type->empty() && *subject_type != kAccessTokenType &&
      *subject_type != kJwtTokenType) {
    return OAuthError(400, "invalid_request", "Unsupported subject_token_type");
  }
  auto snapshot = snapshot_();
  if (!snapshot) return OAuthError(400, "invalid_grant", "Invalid subject token");
  auto caller = authenticator_.Authenticate(request.realm, "Bearer " + *subject, *snapshot, now);

  // Iceberg Java refreshes an already expired token by exchanging it while authenticating
  // with its client credentials. The client authentication then decides (exactly as
  // client_credentials, throttling included); a still-valid subject token must name the same
  // principal, so one client cannot exchange another principal's token.
  bool malformed = false;
  const bool client_auth = ParseBasic(request.authorization, malformed).has_value() ||
                           malformed || Single(form, "client_secret", repeated).has_value();
  if (client_auth) {
    if (caller && !(*caller)->external) {
      auto client_id = Single(form, "client_id", repeated);
      bool bad = false;
      if (auto basic = ParseBasic(request.authorization, bad)) client_id = basic->client_id;
      const RealmState* realm = snapshot->FindRealm(request.realm);
      bool same_principal = false;
      if (realm != nullptr && client_id) {
        auto it = realm->principal_by_client.find(*client_id);
        same_principal = it != realm->principal_by_client.end() &&
                         it->second == (*caller)->subject.principal;
      }
      if (!same_principal) {
        return OAuthError(400, "invalid_grant", "Subject token belongs to another principal");
      }
    }
    return ClientCredentials(request, form, now);
  }
  if (!caller || (*caller)->external || (*caller)->subject.principal.empty()) {
    return OAuthError(400, "invalid_grant", "Invalid subject token");
  }
  const RealmState* realm = snapshot->FindRealm(request.realm);
  const PrincipalInfo* principal = snapshot->FindPrincipal(request.realm,
                                                           (*caller)->subject.principal);
  if (realm == nullptr || principal == nullptr) {
    return OAuthError(400, "invalid_grant", "Invalid subject token");
  }
  std::string next_scope;
  if (scope && !scope->empty()) {
    if (auto error = NarrowingError(*scope, (*caller)->subject); !error.empty()) {
      return OAuthError(400, "invalid_scope", error);
    }
    next_scope = *scope;
  } else if ((*caller)->subject.all_roles) {
    next_scope = "PRINCIPAL_ROLE:ALL";
  } else {
    for (const auto& r : (*caller)->subject.active_roles) {
      if (!next_scope.empty()) next_scope.push_back(' ');
      next_scope += std::string(kRolePrefix) + r;
    }
  }
  if (next_scope.empty()) {
    return OAuthError(400, "invalid_scope", "Subject token activates no principal role");
  }
  std::string client_id = (*caller)->client_id.empty() ? principal->client_id
                                                        : (*caller)->client_id;
  return Issue(*realm, *principal, next_scope, client_id, now);
}

TokenResponse TokenService::Issue(const RealmState& realm, const PrincipalInfo& principal,
                                  std::string_view scope, std::string_view client_id,
                                  int64_t now) {
  ScopeResult s = ParseScope(scope, HeldRoles(realm, principal.name));
  if (!s.error.empty()) return OAuthError(400, "invalid_scope", s.error);
  const AuthConfig& config = authenticator_.config();
  auth::Claims claims;
  claims.iss = config.issuer;
  claims.sub = principal.id;
  claims.realm = realm.name;
  claims.roles = s.roles;
  claims.scope = s.normalized;
  claims.client_id = std::string(client_id);
  claims.jti = NewUuidV4();
  claims.iat = now;
  claims.exp = now + config.token_lifetime_seconds;
  claims.ver = principal.credential_version;
  auto token = realm.keys->Sign(claims);
  if (!token) return OAuthError(500, "server_error", "Token signing failed");
  boost::json::object o;
  o["access_token"] = *token;
  o["token_type"] = "bearer";
  o["expires_in"] = config.token_lifetime_seconds;
  o["issued_token_type"] = kAccessTokenType;
  o["scope"] = s.normalized;
  TokenResponse r;
  r.body = boost::json::serialize(o);
  r.headers = {{"Cache-Control", "no-store"}, {"Pragma", "no-cache"}};
  return r;
}

int64_t TokenService::BlockedFor(const std::string& client_key, const std::string& source_key,
                                 int64_t now) {
  std::lock_guard lock(failures_mu_);
  int64_t wait = 0;
  auto check = [&](const FailureTable& t, const std::string& key) {
    auto it = t.find(key);
    if (it != t.end() && it->second.blocked_until > now) {
      wait = std::max(wait, it->second.blocked_until - now);
    }
    wait = std::max(wait, FullOfLockouts(t, key, options_, now));
  };
  check(source_failures_, source_key);
  check(client_failures_, client_key);
  return wait;
}

int64_t TokenService::FullOfLockouts(const FailureTable& table, const std::string& key,
                                     const TokenServiceOptions& o, int64_t now) {
  if (table.size() < o.max_tracked || table.contains(key)) return 0;
  int64_t soonest = 0;
  for (const auto& entry : table) {
    if (entry.second.blocked_until <= now) return 0;  // something can be evicted
    int64_t left = entry.second.blocked_until - now;
    soonest = soonest == 0 ? left : std::min(soonest, left);
  }
  return soonest;
}

void TokenService::Bump(FailureTable& table, const std::string& key, int limit,
                        const TokenServiceOptions& o, int64_t now) {
  if (table.size() >= o.max_tracked && !table.contains(key)) {
    std::erase_if(table, [&](const auto& e) {
      return e.second.blocked_until <= now && now - e.second.window_start >= o.failure_window_seconds;
    });
    if (table.size() >= o.max_tracked) {
      // Still full: forget the oldest entry that is not locked out. A lockout is never
      // evicted, or an attacker could flush it by failing with many other keys.
      auto oldest = table.end();
      for (auto it = table.begin(); it != table.end(); ++it) {
        if (it->second.blocked_until > now) continue;
        if (oldest == table.end() || it->second.window_start < oldest->second.window_start) {
          oldest = it;
        }
      }
      if (oldest == table.end()) return;  // all locked out: BlockedFor throttles new keys
      table.erase(oldest);
    }
  }
  Failures& f = table[key];
  if (now - f.window_start >= o.failure_window_seconds) {
    f.count = 0;
    f.window_start = now;
  }
  if (++f.count >= limit) {
    f.blocked_until = now + o.lockout_seconds;
    f.count = 0;
    f.window_start = now;
  }
}

void TokenService::RecordFailure(const std::string& client_key, const std::string& source_key,
                                 int64_t now) {
  std::lock_guard lock(failures_mu_);
  Bump(source_failures_, source_key, options_.max_failures_per_source, options_, now);
  Bump(client_failures_, client_key, options_.max_failures_per_client, options_, now);
}

// The source proved it knows the secret; failures counted for the client from every address
// stay until their window passes (a success must not reset guessing from elsewhere).
void TokenService::RecordSuccess(const std::string& source_key) {
  std::lock_guard lock(failures_mu_);
  source_failures_.erase(source_key);
}

}  // namespace firn::access
