#include "auth/jwt.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <cmath>
#include <limits>

#include "common/encoding.h"
#include "common/macros.h"

namespace firn::auth {
namespace {

constexpr std::string_view kIss = "iss";
constexpr std::string_view kSub = "sub";
constexpr std::string_view kAud = "aud";
constexpr std::string_view kRealm = "realm";
constexpr std::string_view kRoles = "roles";
constexpr std::string_view kScope = "scope";
constexpr std::string_view kClientId = "client_id";
constexpr std::string_view kJti = "jti";
constexpr std::string_view kIat = "iat";
constexpr std::string_view kNbf = "nbf";
constexpr std::string_view kExp = "exp";
constexpr std::string_view kVer = "ver";
constexpr std::string_view kAlg = "alg";
constexpr std::string_view kTyp = "typ";
constexpr std::string_view kKid = "kid";
constexpr std::string_view kCrit = "crit";

std::unexpected<Error> Reject(std::string_view reason, std::string detail = {}) {
  return Fail(ErrorKind::kNotAuthorized, "Invalid token: " + std::string(reason),
              std::move(detail));
}

Status ReadString(const boost::json::object& o, std::string_view name, std::string& out) {
  const auto* v = o.if_contains(name);
  if (v == nullptr) return Ok();
  if (!v->is_string()) return Reject("malformed claims", std::string(name) + " is not a string");
  out = std::string(v->as_string());
  return Ok();
}

Status ReadStrings(const boost::json::object& o, std::string_view name,
                   std::vector<std::string>& out) {
  const auto* v = o.if_contains(name);
  if (v == nullptr) return Ok();
  if (v->is_string()) {
    out = {std::string(v->as_string())};
    return Ok();
  }
  if (!v->is_array()) return Reject("malformed claims", std::string(name) + " has a bad type");
  for (const auto& e : v->as_array()) {
    if (!e.is_string()) return Reject("malformed claims", std::string(name) + " has a non-string");
    out.emplace_back(e.as_string());
  }
  return Ok();
}

// NumericDate: a JSON number of seconds; fractions are truncated (RFC 7519 §2).
Status ReadTime(const boost::json::object& o, std::string_view name,
                std::optional<int64_t>& out) {
  const auto* v = o.if_contains(name);
  if (v == nullptr) return Ok();
  if (v->is_int64()) {
    out = v->as_int64();
  } else if (v->is_uint64() &&
             v->as_uint64() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    out = static_cast<int64_t>(v->as_uint64());
  } else if (v->is_double() && std::isfinite(v->as_double()) &&
             std::fabs(v->as_double()) < 9.0e18) {
    out = static_cast<int64_t>(v->as_double());
  } else {
    return Reject("malformed claims", std::string(name) + " is not a number");
  }
  return Ok();
}

}  // namespace

std::string ClaimsToJson(const Claims& c) {
  boost::json::object o;
  if (!c.iss.empty()) o[kIss] = c.iss;
  if (!c.sub.empty()) o[kSub] = c.sub;
  if (c.aud.size() == 1) {
    o[kAud] = c.aud.front();
  } else if (!c.aud.empty()) {
    boost::json::array a;
    for (const auto& s : c.aud) a.emplace_back(s);
    o[kAud] = std::move(a);
  }
  if (!c.realm.empty()) o[kRealm] = c.realm;
  if (!c.roles.empty()) {
    boost::json::array a;
    for (const auto& s : c.roles) a.emplace_back(s);
    o[kRoles] = std::move(a);
  }
  if (!c.scope.empty()) o[kScope] = c.scope;
  if (!c.client_id.empty()) o[kClientId] = c.client_id;
  if (!c.jti.empty()) o[kJti] = c.jti;
  if (c.iat) o[kIat] = *c.iat;
  if (c.nbf) o[kNbf] = *c.nbf;
  if (c.exp) o[kExp] = *c.exp;
  if (c.ver) o[kVer] = *c.ver;
  return boost::json::serialize(o);
}

Result<Claims> ClaimsFromJson(std::string_view json) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(json, ec);
  if (ec || !v.is_object()) return Reject("malformed claims", "payload is not a JSON object");
  const auto& o = v.as_object();
  Claims c;
  FIRN_RETURN_IF_ERROR(ReadString(o, kIss, c.iss));
  FIRN_RETURN_IF_ERROR(ReadString(o, kSub, c.sub));
  FIRN_RETURN_IF_ERROR(ReadStrings(o, kAud, c.aud));
  FIRN_RETURN_IF_ERROR(ReadString(o, kRealm, c.realm));
  FIRN_RETURN_IF_ERROR(ReadStrings(o, kRoles, c.roles));
  FIRN_RETURN_IF_ERROR(ReadString(o, kScope, c.scope));
  FIRN_RETURN_IF_ERROR(ReadString(o, kClientId, c.client_id));
  FIRN_RETURN_IF_ERROR(ReadString(o, kJti, c.jti));
  FIRN_RETURN_IF_ERROR(ReadTime(o, kIat, c.iat));
  FIRN_RETURN_IF_ERROR(ReadTime(o, kNbf, c.nbf));
  FIRN_RETURN_IF_ERROR(ReadTime(o, kExp, c.exp));
  FIRN_RETURN_IF_ERROR(ReadTime(o, kVer, c.ver));
  c.payload = std::string(json);
  return c;
}

std::optional<JwsParts> SplitCompact(std::string_view token) {
  size_t a = token.find('.');
  if (a == std::string_view::npos) return std::nullopt;
  size_t b = token.find('.', a + 1);
  if (b == std::string_view::npos || token.find('.', b + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  JwsParts p;
  p.header = token.substr(0, a);
  p.payload = token.substr(a + 1, b - a - 1);
  p.signature = token.substr(b + 1);
  p.signing_input = token.substr(0, b);
  if (p.header.empty() || p.payload.empty() || p.signature.empty()) return std::nullopt;
  return p;
}

Result<std::string> SignJwt(const SigningKey& key, const Claims& claims) {
  boost::json::object header;
  header[kAlg] = JwsAlgName(key.alg());
  header[kTyp] = "JWT";
  header[kKid] = key.kid();
  std::string input = Base64UrlEncode(boost::json::serialize(header));
  input.push_back('.');
  input += Base64UrlEncode(ClaimsToJson(claims));
  FIRN_ASSIGN_OR_RETURN(std::string sig, SignBytes(key.alg(), key.pkey(), input));
  input.push_back('.');
  input += Base64UrlEncode(sig);
  return input;
}

Result<Claims> VerifyJwt(std::string_view token, std::span<const VerificationKey> keys,
                         const VerifyOptions& options, int64_t now) {
  if (token.size() > options.max_token_bytes) return Reject("too large");
  auto parts = SplitCompact(token);
  if (!parts) return Reject("malformed", "not three non-empty dot-separated parts");
  auto header_json = Base64UrlDecode(parts->header);
  auto signature = Base64UrlDecode(parts->signature);
  if (!header_json || !signature) return Reject("malformed", "bad base64url");

  boost::system::error_code ec;
  boost::json::value header = boost::json::parse(*header_json, ec);
  if (ec || !header.is_object()) return Reject("malformed", "header is not a JSON object");
  const auto& h = header.as_object();
  const auto* alg_v = h.if_contains(kAlg);
  if (alg_v == nullptr || !alg_v->is_string()) return Reject("malformed", "header has no alg");
  auto alg = ParseJwsAlg(std::string_view(alg_v->as_string()));
  if (!alg) {
    return Reject("unsupported algorithm",
                  "alg '" + std::string(alg_v->as_string()) + "' is not allowed");
  }
  // We understand no critical extensions, so any "crit" must be refused (RFC 7515 §4.1.11).
  if (h.contains(kCrit)) return Reject("unsupported header", "crit present");

  const VerificationKey* key = nullptr;
  const auto* kid_v = h.if_contains(kKid);
  if (kid_v != nullptr) {
    if (!kid_v->is_string()) return Reject("malformed", "kid is not a string");
    std::string_view kid(kid_v->as_string());
    for (const auto& k : keys) {
      if (k.kid == kid) {
        key = &k;
        break;
      }
    }
    if (key == nullptr) return Reject("unknown key", "kid '" + std::string(kid) + "'");
  } else if (keys.size() == 1) {
    key = &keys.front();
  } else {
    return Reject("unknown key", "no kid and more than one key");
  }
  // The key's pinned algorithm decides; the header may only agree with it.
  if (*alg != key->alg) {
    return Reject("algorithm mismatch", "header alg " + std::string(JwsAlgName(*alg)) +
                                            " but key " + key->kid + " is " +
                                            std::string(JwsAlgName(key->alg)));
  }
  if (!VerifyBytes(key->alg, key->key.get(), parts->signing_input, *signature)) {
    return Reject("bad signature", "kid '" + key->kid + "'");
  }

  auto payload = Base64UrlDecode(parts->payload);
  if (!payload) return Reject("malformed", "bad base64url payload");
  FIRN_ASSIGN_OR_RETURN(Claims claims, ClaimsFromJson(*payload));

  const int64_t leeway = options.leeway_seconds;
  const int64_t exp_leeway = options.exp_leeway_seconds.value_or(leeway);
  if (claims.exp) {
    if (now - exp_leeway >= *claims.exp) return Reject("expired");
  } else if (options.require_exp) {
    return Reject("missing exp");
  }
  if (claims.nbf && now + leeway < *claims.nbf) return Reject("not yet valid");
  if (claims.iat && now + leeway < *claims.iat) return Reject("issued in the future");
  if (options.max_lifetime_seconds) {
    if (!claims.iat) return Reject("missing iat");
    if (!claims.exp) return Reject("missing exp");
    if (*claims.exp - *claims.iat > *options.max_lifetime_seconds) {
      return Reject("lifetime too long",
                    "exp - iat = " + std::to_string(*claims.exp - *claims.iat) +
                        " s, at most " + std::to_string(*options.max_lifetime_seconds));
    }
  }
  if (!options.issuer.empty() && claims.iss != options.issuer) {
    return Reject("wrong issuer", "iss '" + claims.iss + "'");
  }
  if (!options.audience.empty()) {
    bool found = false;
    for (const auto& a : claims.aud) found = found || a == options.audience;
    if (!found) return Reject("wrong audience");
  }
  return claims;
}

}  // namespace firn::auth
