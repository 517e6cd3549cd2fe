// JWKS documents fetched from an external OIDC issuer.
// Properties: no crash; every key accepted is usable (non-null, matches its algorithm).
#include "auth/jwks.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto set = firn::auth::ParseJwks(firn::fuzz::AsView(data, size));
  if (!set) return 0;
  for (const firn::auth::VerificationKey& key : set->keys) {
    FIRN_FUZZ_CHECK(key.key != nullptr, "accepted key has a public key");
    FIRN_FUZZ_CHECK(firn::auth::CheckKeyMatchesAlg(key.key.get(), key.alg).has_value(),
                    "accepted key matches its algorithm");
    (void)set->Find(key.kid);
  }
  return 0;
}
