#include "auth/jwks.h"

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/param_build.h>

#include <boost/json/parse.hpp>

#include "common/encoding.h"
#include "common/macros.h"

namespace firn::auth {
namespace {

constexpr std::string_view kKeys = "keys";
constexpr std::string_view kKty = "kty";
constexpr std::string_view kKid = "kid";
constexpr std::string_view kAlg = "alg";
constexpr std::string_view kUse = "use";
constexpr std::string_view kCrv = "crv";
constexpr std::string_view kN = "n";
constexpr std::string_view kE = "e";
constexpr std::string_view kX = "x";
constexpr std::string_view kY = "y";
constexpr std::string_view kD = "d";

// Marker message for keys we skip rather than reject.
constexpr std::string_view kUnsupported = "Unsupported JWK";

std::unexpected<Error> Bad(std::string msg) {
  return Fail(ErrorKind::kBadRequest, "Invalid JWK: " + msg);
}

Result<std::string> B64Member(const boost::json::object& o, std::string_view name) {
  const auto* v = o.if_contains(name);
  if (v == nullptr || !v->is_string()) return Bad("missing member '" + std::string(name) + "'");
  auto decoded = Base64UrlDecode(std::string_view(v->as_string()));
  if (!decoded || decoded->empty()) return Bad("bad base64url in '" + std::string(name) + "'");
  return *decoded;
}

std::string_view StrMember(const boost::json::object& o, std::string_view name) {
  const auto* v = o.if_contains(name);
  return (v != nullptr && v->is_string()) ? std::string_view(v->as_string()) : std::string_view();
}

// Keys on other curves are skipped (kUnsupported), not rejected.
Status RequireCurve(const boost::json::object& jwk, std::string_view curve) {
  if (StrMember(jwk, kCrv) != curve) return Fail(ErrorKind::kBadRequest, std::string(kUnsupported));
  return Ok();
}

struct BldFree {
  void operator()(OSSL_PARAM_BLD* b) const { OSSL_PARAM_BLD_free(b); }
};
struct ParamFree {
  void operator()(OSSL_PARAM* p) const { OSSL_PARAM_free(p); }
};
struct CtxFree {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
struct BnFree {
  void operator()(BIGNUM* b) const { BN_free(b); }
};

Result<PkeyPtr> FromData(const char* type, OSSL_PARAM_BLD* bld) {
  std::unique_ptr<OSSL_PARAM, ParamFree> params(OSSL_PARAM_BLD_to_param(bld));
  std::unique_ptr<EVP_PKEY_CTX, CtxFree> ctx(EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr));
  EVP_PKEY* raw = nullptr;
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &raw, EVP_PKEY_PUBLIC_KEY, params.get()) != 1) {
    ERR_clear_error();
    return Bad(std::string("cannot build ") + type + " key");
  }
  return WrapPkey(raw);
}

Result<PkeyPtr> RsaKey(const boost::json::object& jwk) {
  FIRN_ASSIGN_OR_RETURN(std::string n, B64Member(jwk, kN));
  FIRN_ASSIGN_OR_RETURN(std::string e, B64Member(jwk, kE));
  std::unique_ptr<BIGNUM, BnFree> bn_n(
      BN_bin2bn(reinterpret_cast<const unsigned char*>(n.data()), static_cast<int>(n.size()),
                nullptr));
  std::unique_ptr<BIGNUM, BnFree> bn_e(
      BN_bin2bn(reinterpret_cast<const unsigned char*>(e.data()), static_cast<int>(e.size()),
                nullptr));
  std::unique_ptr<OSSL_PARAM_BLD, BldFree> bld(OSSL_PARAM_BLD_new());
  if (!bn_n || !bn_e || !bld ||
      OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_RSA_N, bn_n.get()) != 1 ||
      OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_RSA_E, bn_e.get()) != 1) {
    return Bad("cannot build RSA key");
  }
  return FromData("RSA", bld.get());
}

Result<PkeyPtr> EcKey(const boost::json::object& jwk) {
  FIRN_RETURN_IF_ERROR(RequireCurve(jwk, "P-256"));
  FIRN_ASSIGN_OR_RETURN(std::string x, B64Member(jwk, kX));
  FIRN_ASSIGN_OR_RETURN(std::string y, B64Member(jwk, kY));
  if (x.size() != 32 || y.size() != 32) return Bad("P-256 coordinates must be 32 bytes");
  std::string point = "\x04" + x + y;  // SEC1 uncompressed point
  std::unique_ptr<OSSL_PARAM_BLD, BldFree> bld(OSSL_PARAM_BLD_new());
  if (!bld ||
      OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) !=
          1 ||
      OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(),
                                       point.size()) != 1) {
    return Bad("cannot build EC key");
  }
  // EVP_PKEY_fromdata checks the point lies on the curve.
  return FromData("EC", bld.get());
}

Result<PkeyPtr> OkpKey(const boost::json::object& jwk) {
  FIRN_RETURN_IF_ERROR(RequireCurve(jwk, "Ed25519"));
  FIRN_ASSIGN_OR_RETURN(std::string x, B64Member(jwk, kX));
  if (x.size() != 32) return Bad("Ed25519 x must be 32 bytes");
  EVP_PKEY* raw = EVP_PKEY_new_raw_public_key(
      EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(x.data()), x.size());
  if (raw == nullptr) {
    ERR_clear_error();
    return Bad("cannot build Ed25519 key");
  }
  return WrapPkey(raw);
}

}  // namespace

const VerificationKey* JwkSet::Find(std::string_view kid) const {
  for (const auto& k : keys) {
    if (k.kid == kid) return &k;
  }
  return nullptr;
}

Result<VerificationKey> ParseJwk(const boost::json::object& jwk) {
  std::string_view kty = StrMember(jwk, kKty);
  std::string_view use = StrMember(jwk, kUse);
  if (!use.empty() && use != "sig") return Fail(ErrorKind::kBadRequest, std::string(kUnsupported));
  // A JWKS endpoint publishing private members is a misconfiguration we refuse to use.
  if (jwk.contains(kD)) return Bad("private key material in a public JWK");

  VerificationKey out;
  out.kid = std::string(StrMember(jwk, kKid));
  PkeyPtr key;
  if (kty == "RSA") {
    out.alg = JwsAlg::kRS256;
    FIRN_ASSIGN_OR_RETURN(key, RsaKey(jwk));
  } else if (kty == "EC") {
    out.alg = JwsAlg::kES256;
    FIRN_ASSIGN_OR_RETURN(key, EcKey(jwk));
  } else if (kty == "OKP") {
    out.alg = JwsAlg::kEdDSA;
    FIRN_ASSIGN_OR_RETURN(key, OkpKey(jwk));
  } else {
    return Fail(ErrorKind::kBadRequest, std::string(kUnsupported));
  }
  std::string_view alg = StrMember(jwk, kAlg);
  if (!alg.empty()) {
    auto parsed = ParseJwsAlg(alg);
    // RSA keys may be published for RS384/PS256 etc.; those are skipped, not fatal.
    if (!parsed) return Fail(ErrorKind::kBadRequest, std::string(kUnsupported));
    if (*parsed != out.alg) return Bad("'alg' " + std::string(alg) + " does not match kty");
  }
  FIRN_RETURN_IF_ERROR(CheckKeyMatchesAlg(key.get(), out.alg));
  out.key = std::move(key);
  return out;
}

Result<JwkSet> ParseJwks(std::string_view json) {
  boost::system::error_code ec;
  boost::json::value doc = boost::json::parse(json, ec);
  if (ec || !doc.is_object()) {
    return Fail(ErrorKind::kBadRequest, "Invalid JWKS: not a JSON object");
  }
  const auto* keys = doc.as_object().if_contains(kKeys);
  if (keys == nullptr || !keys->is_array()) {
    return Fail(ErrorKind::kBadRequest, "Invalid JWKS: missing 'keys' array");
  }
  JwkSet set;
  for (const auto& k : keys->as_array()) {
    if (!k.is_object()) return Fail(ErrorKind::kBadRequest, "Invalid JWKS: key is not an object");
    auto parsed = ParseJwk(k.as_object());
    if (!parsed) {
      if (parsed.error().message == kUnsupported) {
        ++set.skipped;
        continue;
      }
      return std::unexpected(parsed.error());
    }
    set.keys.push_back(std::move(*parsed));
  }
  return set;
}

Result<boost::json::object> Ed25519PublicJwk(const VerificationKey& key) {
  if (key.alg != JwsAlg::kEdDSA || !key.key) {
    return Fail(ErrorKind::kInternal, "Not an Ed25519 key");
  }
  unsigned char pub[32];
  size_t len = sizeof(pub);
  if (EVP_PKEY_get_raw_public_key(key.key.get(), pub, &len) != 1 || len != 32) {
    ERR_clear_error();
    return Fail(ErrorKind::kInternal, "Cannot export Ed25519 public key");
  }
  boost::json::object o;
  o[kKty] = "OKP";
  o[kCrv] = "Ed25519";
  o[kUse] = "sig";
  o[kAlg] = "EdDSA";
  o[kKid] = key.kid;
  o[kX] = Base64UrlEncode(std::string_view(reinterpret_cast<const char*>(pub), len));
  return o;
}

}  // namespace firn::auth
