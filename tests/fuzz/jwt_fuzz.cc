// Bearer tokens (compact JWS) and their claims JSON.
// The input is used three ways: as a whole token (structure, base64url, header, alg, kid —
// the signature never verifies), as a claims document, and as the payload of a token this
// target signs with its own key, so the claim checks after the signature are reached too.
// Properties: no crash; every refusal is kNotAuthorized (a 401, never a 500); claims that
// parse survive ClaimsToJson → ClaimsFromJson unchanged.
#include <string>
#include <vector>

#include "common/encoding.h"
#include "auth/jwt.h"
#include "fuzz_support.h"

namespace {

constexpr int64_t kNow = 1'700'000'000;

const firn::auth::SigningKey& Key() {
  static const firn::auth::SigningKey key = [] {
    auto k = firn::auth::SigningKey::GenerateEd25519("k1");
    FIRN_FUZZ_CHECK(k.has_value(), "key generation");
    return std::move(*k);
  }();
  return key;
}

void CheckVerify(std::string_view token) {
  static const std::vector<firn::auth::VerificationKey> keys = {Key().Verifier()};
  firn::auth::VerifyOptions options;
  options.issuer = "firn";
  options.audience = "firn";
  auto claims = firn::auth::VerifyJwt(token, keys, options, kNow);
  if (!claims) {
    FIRN_FUZZ_CHECK(claims.error().kind == firn::ErrorKind::kNotAuthorized,
                    "token refusal is kNotAuthorized");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input = firn::fuzz::AsView(data, size);
  (void)firn::auth::SplitCompact(input);
  CheckVerify(input);

  auto claims = firn::auth::ClaimsFromJson(input);
  if (claims) {
    auto again = firn::auth::ClaimsFromJson(firn::auth::ClaimsToJson(*claims));
    FIRN_FUZZ_CHECK(again.has_value() && *again == *claims, "claims round trip");
  }

  // A correctly signed token whose payload is the input.
  std::string header = R"({"alg":"EdDSA","typ":"JWT","kid":"k1"})";
  std::string signing_input =
      firn::Base64UrlEncode(header) + "." + firn::Base64UrlEncode(input);
  auto signature = firn::auth::SignBytes(firn::auth::JwsAlg::kEdDSA, Key().pkey(), signing_input);
  FIRN_FUZZ_CHECK(signature.has_value(), "signing");
  CheckVerify(signing_input + "." + firn::Base64UrlEncode(*signature));
  return 0;
}
