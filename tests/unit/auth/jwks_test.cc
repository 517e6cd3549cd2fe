#include "auth/jwks.h"

#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include "test_keys.h"

namespace firn::auth {
namespace {

constexpr int64_t kNow = 1'700'000'000;

std::string EcCoordinate(EVP_PKEY* key, bool y) {
  // Uncompressed point 04 || X || Y.
  unsigned char buf[65];
  size_t len = 0;
  EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, buf, sizeof(buf), &len);
  return Base64UrlEncode(std::string_view(reinterpret_cast<char*>(buf) + (y ? 33 : 1), 32));
}

class JwksTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    rsa_holder_ = testing::GenerateKey("RSA", "2048");
    ec_holder_ = testing::GenerateKey("EC", "P-256");
    rsa_ = rsa_holder_.get();
    ec_ = ec_holder_.get();
  }
  static void TearDownTestSuite() {
    rsa_holder_.reset();
    ec_holder_.reset();
  }

  static std::string JwksJson() {
    boost::json::object rsa{{"kty", "RSA"},
                            {"kid", "rsa-1"},
                            {"use", "sig"},
                            {"alg", "RS256"},
                            {"n", testing::BnParamB64(rsa_, OSSL_PKEY_PARAM_RSA_N)},
                            {"e", testing::BnParamB64(rsa_, OSSL_PKEY_PARAM_RSA_E)}};
    boost::json::object ec{{"kty", "EC"},
                           {"kid", "ec-1"},
                           {"crv", "P-256"},
                           {"x", EcCoordinate(ec_, false)},
                           {"y", EcCoordinate(ec_, true)}};
    boost::json::object enc{{"kty", "RSA"}, {"kid", "enc"}, {"use", "enc"}, {"n", "AQAB"},
                            {"e", "AQAB"}};
    boost::json::object oct{{"kty", "oct"}, {"kid", "sym"}, {"k", "c2VjcmV0"}};
    boost::json::object doc{{"keys", boost::json::array{rsa, ec, enc, oct}}};
    return boost::json::serialize(doc);
  }

  static std::string Token(const char* alg, const char* kid, JwsAlg sign_alg, EVP_PKEY* key) {
    Claims c;
    c.iss = "https://idp.example";
    c.sub = "alice";
    c.exp = kNow + 60;
    return testing::MakeToken(std::string(R"({"alg":")") + alg + R"(","kid":")" + kid + R"("})",
                              ClaimsToJson(c), sign_alg, key);
  }

  static inline PkeyPtr rsa_holder_;
  static inline PkeyPtr ec_holder_;
  static EVP_PKEY* rsa_;
  static EVP_PKEY* ec_;
};
EVP_PKEY* JwksTest::rsa_ = nullptr;
EVP_PKEY* JwksTest::ec_ = nullptr;

TEST_F(JwksTest, ParsesRsaAndEcKeysAndSkipsUnusableOnes) {
  auto set = ParseJwks(JwksJson());
  ASSERT_TRUE(set) << set.error().message;
  ASSERT_EQ(set->keys.size(), 2u);
  EXPECT_EQ(set->skipped, 2);
  EXPECT_EQ(set->Find("rsa-1")->alg, JwsAlg::kRS256);
  EXPECT_EQ(set->Find("ec-1")->alg, JwsAlg::kES256);
  EXPECT_EQ(set->Find("enc"), nullptr);
}

TEST_F(JwksTest, VerifiesRs256AndEs256TokensFromTheSet) {
  auto set = *ParseJwks(JwksJson());
  VerifyOptions opts;
  opts.issuer = "https://idp.example";
  auto rs = VerifyJwt(Token("RS256", "rsa-1", JwsAlg::kRS256, rsa_), set.keys, opts, kNow);
  ASSERT_TRUE(rs) << rs.error().message;
  EXPECT_EQ(rs->sub, "alice");
  auto es = VerifyJwt(Token("ES256", "ec-1", JwsAlg::kES256, ec_), set.keys, opts, kNow);
  ASSERT_TRUE(es) << es.error().message;
}

TEST_F(JwksTest, Es256SignatureIsRawFixedLength) {
  auto sig = SignBytes(JwsAlg::kES256, ec_, "input");
  ASSERT_TRUE(sig);
  EXPECT_EQ(sig->size(), 64u);
}

TEST_F(JwksTest, RejectsTokenSignedByADifferentKeyUnderAKnownKid) {
  auto set = *ParseJwks(JwksJson());
  auto other = testing::GenerateKey("EC", "P-256");
  auto r = VerifyJwt(Token("ES256", "ec-1", JwsAlg::kES256, other.get()), set.keys, {}, kNow);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "Invalid token: bad signature");
}

TEST_F(JwksTest, RejectsAlgSwapBetweenKeysOfTheSet) {
  auto set = *ParseJwks(JwksJson());
  // ES256 header naming the RSA key.
  auto r = VerifyJwt(Token("ES256", "rsa-1", JwsAlg::kES256, ec_), set.keys, {}, kNow);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "Invalid token: algorithm mismatch");
}

TEST_F(JwksTest, RejectsAlgContradictingKty) {
  boost::json::object jwk{{"kty", "EC"}, {"alg", "EdDSA"}, {"crv", "P-256"},
                          {"x", EcCoordinate(ec_, false)}, {"y", EcCoordinate(ec_, true)}};
  EXPECT_FALSE(ParseJwk(jwk));
}

TEST_F(JwksTest, RejectsPrivateMembersAndBadCoordinates) {
  boost::json::object with_d{{"kty", "OKP"}, {"crv", "Ed25519"},
                             {"x", "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"},
                             {"d", "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}};
  EXPECT_FALSE(ParseJwk(with_d));
  boost::json::object off_curve{{"kty", "EC"}, {"crv", "P-256"},
                                {"x", EcCoordinate(ec_, false)}, {"y", EcCoordinate(ec_, false)}};
  EXPECT_FALSE(ParseJwk(off_curve));
  boost::json::object short_x{{"kty", "OKP"}, {"crv", "Ed25519"}, {"x", "AQAB"}};
  EXPECT_FALSE(ParseJwk(short_x));
}

TEST_F(JwksTest, RejectsShortRsaKeys) {
  auto small = testing::GenerateKey("RSA", "1024");
  boost::json::object jwk{{"kty", "RSA"},
                          {"n", testing::BnParamB64(small.get(), OSSL_PKEY_PARAM_RSA_N)},
                          {"e", testing::BnParamB64(small.get(), OSSL_PKEY_PARAM_RSA_E)}};
  EXPECT_FALSE(ParseJwk(jwk));
}

TEST_F(JwksTest, RejectsMalformedDocuments) {
  EXPECT_FALSE(ParseJwks("not json"));
  EXPECT_FALSE(ParseJwks("{}"));
  EXPECT_FALSE(ParseJwks(R"({"keys":[1]})"));
  EXPECT_FALSE(ParseJwks(R"({"keys":[{"kty":"RSA","n":"@@","e":"AQAB"}]})"));
}

TEST_F(JwksTest, Ed25519PublicJwkRoundTrips) {
  auto key = *SigningKey::GenerateEd25519("mine");
  auto jwk = Ed25519PublicJwk(key.Verifier());
  ASSERT_TRUE(jwk);
  auto parsed = ParseJwk(*jwk);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->kid, "mine");
  Claims c;
  c.exp = kNow + 10;
  auto token = *SignJwt(key, c);
  std::vector<VerificationKey> keys{*parsed};
  EXPECT_TRUE(VerifyJwt(token, keys, {}, kNow));
}

}  // namespace
}  // namespace firn::auth
