// Test helpers: key generation and hand-made tokens (for headers the library refuses to sign).
#pragma once

#include <openssl/core_names.h>
#include <openssl/evp.h>

#include <string>

#include "auth/jws_key.h"
#include "auth/jwt.h"
#include "common/encoding.h"

namespace firn::auth::testing {

inline PkeyPtr GenerateKey(const char* type, const char* arg = nullptr) {
  if (arg == nullptr) return WrapPkey(EVP_PKEY_Q_keygen(nullptr, nullptr, type));
  if (std::string(type) == "RSA") {
    size_t bits = std::stoul(arg);
    return WrapPkey(EVP_PKEY_Q_keygen(nullptr, nullptr, type, bits));
  }
  return WrapPkey(EVP_PKEY_Q_keygen(nullptr, nullptr, type, arg));
}

// header JSON and claims JSON signed with `alg` by `key` (no checks of what the header says).
inline std::string MakeToken(const std::string& header_json, const std::string& claims_json,
                             JwsAlg alg, EVP_PKEY* key) {
  std::string input = Base64UrlEncode(header_json) + "." + Base64UrlEncode(claims_json);
  auto sig = SignBytes(alg, key, input);
  return input + "." + Base64UrlEncode(sig ? *sig : std::string("x"));
}

inline std::string BnParamB64(EVP_PKEY* key, const char* name) {
  BIGNUM* bn = nullptr;
  EVP_PKEY_get_bn_param(key, name, &bn);
  std::string out(BN_num_bytes(bn), '\0');
  BN_bn2bin(bn, reinterpret_cast<unsigned char*>(out.data()));
  BN_free(bn);
  return Base64UrlEncode(out);
}

}  // namespace firn::auth::testing
