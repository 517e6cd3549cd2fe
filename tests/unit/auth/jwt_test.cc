#include "auth/jwt.h"

#include <gtest/gtest.h>
#include <openssl/hmac.h>

#include "auth/jwks.h"
#include "common/encoding.h"
#include "test_keys.h"

namespace firn::auth {
namespace {

constexpr int64_t kNow = 1'700'000'000;

Claims SampleClaims() {
  Claims c;
  c.iss = "firn";
  c.sub = "42";
  c.aud = {"firn"};
  c.realm = "POLARIS";
  c.roles = {"engineers", "readers"};
  c.scope = "PRINCIPAL_ROLE:ALL";
  c.client_id = "abcdef0123456789";
  c.jti = "j-1";
  c.iat = kNow;
  c.exp = kNow + 3600;
  c.ver = 3;
  return c;
}

class JwtTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto key = SigningKey::GenerateEd25519("k1");
    ASSERT_TRUE(key);
    key_.emplace(std::move(*key));
    keys_ = {key_->Verifier()};
    options_.issuer = "firn";
    options_.audience = "firn";
  }

  Result<Claims> Verify(const std::string& token, int64_t now = kNow) {
    return VerifyJwt(token, keys_, options_, now);
  }
  static std::string Reason(const Result<Claims>& r) {
    return r ? "accepted" : r.error().message;
  }

  std::optional<SigningKey> key_;
  std::vector<VerificationKey> keys_;
  VerifyOptions options_;
};

TEST_F(JwtTest, SignsAndVerifiesEd25519RoundTrip) {
  auto token = SignJwt(*key_, SampleClaims());
  ASSERT_TRUE(token);
  auto claims = Verify(*token);
  ASSERT_TRUE(claims) << claims.error().message;
  EXPECT_EQ(*claims, SampleClaims());
}

TEST_F(JwtTest, HeaderCarriesAlgTypAndKid) {
  auto token = SignJwt(*key_, SampleClaims());
  auto parts = SplitCompact(*token);
  ASSERT_TRUE(parts);
  EXPECT_EQ(Base64UrlDecode(parts->header), R"({"alg":"EdDSA","typ":"JWT","kid":"k1"})");
}

TEST_F(JwtTest, ClaimsJsonRoundTripsAndAcceptsStringAud) {
  auto c = ClaimsFromJson(ClaimsToJson(SampleClaims()));
  ASSERT_TRUE(c);
  EXPECT_EQ(*c, SampleClaims());
  auto single = ClaimsFromJson(R"({"aud":"x","exp":1.9})");
  ASSERT_TRUE(single);
  EXPECT_EQ(single->aud, std::vector<std::string>{"x"});
  EXPECT_EQ(single->exp, 1);
}

TEST_F(JwtTest, RejectsBadSignature) {
  auto token = *SignJwt(*key_, SampleClaims());
  token[token.size() - 5] = token[token.size() - 5] == 'A' ? 'B' : 'A';
  EXPECT_EQ(Reason(Verify(token)), "Invalid token: bad signature");
}

TEST_F(JwtTest, RejectsTamperedPayload) {
  auto token = *SignJwt(*key_, SampleClaims());
  auto parts = *SplitCompact(token);
  Claims c = SampleClaims();
  c.roles = {"admins"};
  std::string forged = std::string(parts.header) + "." + Base64UrlEncode(ClaimsToJson(c)) + "." +
                       std::string(parts.signature);
  EXPECT_EQ(Reason(Verify(forged)), "Invalid token: bad signature");
}

TEST_F(JwtTest, RejectsExpiredHonouringLeeway) {
  auto token = *SignJwt(*key_, SampleClaims());
  int64_t exp = kNow + 3600;
  EXPECT_TRUE(Verify(token, exp + options_.leeway_seconds - 1));
  EXPECT_EQ(Reason(Verify(token, exp + options_.leeway_seconds)), "Invalid token: expired");
}

TEST_F(JwtTest, ExpLeewayIsSeparateFromClockSkewLeeway) {
  auto token = *SignJwt(*key_, SampleClaims());
  int64_t exp = kNow + 3600;
  VerifyOptions strict = options_;
  strict.exp_leeway_seconds = 0;
  EXPECT_TRUE(VerifyJwt(token, keys_, strict, exp - 1));
  auto at_exp = VerifyJwt(token, keys_, strict, exp);
  ASSERT_FALSE(at_exp);
  EXPECT_EQ(at_exp.error().message, "Invalid token: expired");
  // nbf keeps its leeway under the strict exp.
  Claims c = SampleClaims();
  c.nbf = kNow + 10;
  EXPECT_TRUE(VerifyJwt(*SignJwt(*key_, c), keys_, strict, kNow));
}

TEST_F(JwtTest, RejectsNotYetValid) {
  Claims c = SampleClaims();
  c.nbf = kNow + 600;
  auto token = *SignJwt(*key_, c);
  EXPECT_EQ(Reason(Verify(token)), "Invalid token: not yet valid");
  EXPECT_TRUE(Verify(token, kNow + 600 - options_.leeway_seconds));
}

TEST_F(JwtTest, RejectsIssuedInTheFuture) {
  Claims c = SampleClaims();
  c.iat = kNow + 3000;
  EXPECT_EQ(Reason(Verify(*SignJwt(*key_, c))), "Invalid token: issued in the future");
}

TEST_F(JwtTest, RejectsMissingExpWhenRequired) {
  Claims c = SampleClaims();
  c.exp.reset();
  auto token = *SignJwt(*key_, c);
  EXPECT_EQ(Reason(Verify(token)), "Invalid token: missing exp");
  options_.require_exp = false;
  EXPECT_TRUE(Verify(token));
}

// The attack: a holder of the real signing key (or a bug) mints a token valid for a year. Its
// signature is good; the lifetime cap refuses it. A token at exactly the cap is accepted.
TEST_F(JwtTest, LifetimeCapRefusesALongLivedTokenWithAGoodSignature) {
  options_.max_lifetime_seconds = 3600;
  EXPECT_TRUE(Verify(*SignJwt(*key_, SampleClaims())));  // exp − iat == 3600
  Claims year = SampleClaims();
  year.exp = kNow + 365 * 86400;
  EXPECT_EQ(Reason(Verify(*SignJwt(*key_, year))), "Invalid token: lifetime too long");
  Claims one_more = SampleClaims();
  one_more.exp = kNow + 3601;
  EXPECT_EQ(Reason(Verify(*SignJwt(*key_, one_more))), "Invalid token: lifetime too long");
  // Backdating iat to hide the lifetime makes exp − iat larger, not smaller; leaving iat out
  // is refused outright.
  Claims no_iat = SampleClaims();
  no_iat.iat.reset();
  EXPECT_EQ(Reason(Verify(*SignJwt(*key_, no_iat))), "Invalid token: missing iat");
  // Without the cap (external issuers) the long token is still accepted.
  options_.max_lifetime_seconds.reset();
  EXPECT_TRUE(Verify(*SignJwt(*key_, year)));
}

TEST_F(JwtTest, RejectsWrongAudienceAndIssuer) {
  Claims c = SampleClaims();
  c.aud = {"someone-else"};
  EXPECT_EQ(Reason(Verify(*SignJwt(*key_, c))), "Invalid token: wrong audience");
  c = SampleClaims();
  c.iss = "evil";
  EXPECT_EQ(Reason(Verify(*SignJwt(*key_, c))), "Invalid token: wrong issuer");
}

TEST_F(JwtTest, RejectsAlgNone) {
  std::string claims = ClaimsToJson(SampleClaims());
  std::string unsigned_token = Base64UrlEncode(R"({"alg":"none","kid":"k1"})") + "." +
                               Base64UrlEncode(claims) + ".";
  EXPECT_EQ(Reason(Verify(unsigned_token)), "Invalid token: malformed");
  std::string with_sig = unsigned_token + "AAAA";
  EXPECT_EQ(Reason(Verify(with_sig)), "Invalid token: unsupported algorithm");
  std::string none_cased = Base64UrlEncode(R"({"alg":"None","kid":"k1"})") + "." +
                           Base64UrlEncode(claims) + ".AAAA";
  EXPECT_EQ(Reason(Verify(none_cased)), "Invalid token: unsupported algorithm");
}

TEST_F(JwtTest, RejectsHmacSignedWithThePublicKey) {
  // The classic confusion: HS256 keyed with the verifier's public key bytes.
  auto jwk = Ed25519PublicJwk(keys_[0]);
  ASSERT_TRUE(jwk);
  std::string pub = *Base64UrlDecode(std::string_view(jwk->at("x").as_string()));
  std::string input = Base64UrlEncode(R"({"alg":"HS256","kid":"k1"})") + "." +
                      Base64UrlEncode(ClaimsToJson(SampleClaims()));
  unsigned char mac[32];
  unsigned int len = 0;
  HMAC(EVP_sha256(), pub.data(), static_cast<int>(pub.size()),
       reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac, &len);
  std::string token =
      input + "." + Base64UrlEncode(std::string_view(reinterpret_cast<char*>(mac), len));
  EXPECT_EQ(Reason(Verify(token)), "Invalid token: unsupported algorithm");
}

TEST_F(JwtTest, RejectsAlgThatDiffersFromTheKeysPinnedAlg) {
  // An RS256 token naming the Ed25519 key's kid, validly signed by some RSA key.
  auto rsa = testing::GenerateKey("RSA", "2048");
  std::string token = testing::MakeToken(R"({"alg":"RS256","kid":"k1"})",
                                         ClaimsToJson(SampleClaims()), JwsAlg::kRS256, rsa.get());
  EXPECT_EQ(Reason(Verify(token)), "Invalid token: algorithm mismatch");
}

TEST_F(JwtTest, RejectsUnknownKid) {
  auto other = *SigningKey::GenerateEd25519("k2");
  EXPECT_EQ(Reason(Verify(*SignJwt(other, SampleClaims()))), "Invalid token: unknown key");
}

TEST_F(JwtTest, RejectsSignatureFromAnotherKeyWithTheSameKid) {
  auto impostor = *SigningKey::GenerateEd25519("k1");
  EXPECT_EQ(Reason(Verify(*SignJwt(impostor, SampleClaims()))), "Invalid token: bad signature");
}

TEST_F(JwtTest, KidIsOptionalOnlyWithASingleKey) {
  std::string token = testing::MakeToken(R"({"alg":"EdDSA"})", ClaimsToJson(SampleClaims()),
                                         JwsAlg::kEdDSA, key_->pkey());
  EXPECT_TRUE(Verify(token));
  keys_.push_back(SigningKey::GenerateEd25519("k2")->Verifier());
  EXPECT_EQ(Reason(Verify(token)), "Invalid token: unknown key");
}

TEST_F(JwtTest, RejectsMalformedStructureAndBase64) {
  auto token = *SignJwt(*key_, SampleClaims());
  EXPECT_EQ(Reason(Verify("")), "Invalid token: malformed");
  EXPECT_EQ(Reason(Verify("a.b")), "Invalid token: malformed");
  EXPECT_EQ(Reason(Verify(token + ".x")), "Invalid token: malformed");
  EXPECT_EQ(Reason(Verify("=" + token)), "Invalid token: malformed");
  auto parts = *SplitCompact(token);
  std::string bad_sig = std::string(parts.signing_input) + ".***";
  EXPECT_EQ(Reason(Verify(bad_sig)), "Invalid token: malformed");
}

TEST_F(JwtTest, RejectsMalformedJson) {
  std::string claims = ClaimsToJson(SampleClaims());
  auto t1 = testing::MakeToken("{not json", claims, JwsAlg::kEdDSA, key_->pkey());
  EXPECT_EQ(Reason(Verify(t1)), "Invalid token: malformed");
  auto t2 = testing::MakeToken(R"({"alg":"EdDSA","kid":"k1"})", "[1,2]", JwsAlg::kEdDSA,
                               key_->pkey());
  EXPECT_EQ(Reason(Verify(t2)), "Invalid token: malformed claims");
  auto t3 = testing::MakeToken(R"({"alg":"EdDSA","kid":"k1"})", R"({"exp":"tomorrow"})",
                               JwsAlg::kEdDSA, key_->pkey());
  EXPECT_EQ(Reason(Verify(t3)), "Invalid token: malformed claims");
  auto t4 = testing::MakeToken(R"({"alg":"EdDSA","kid":7})", claims, JwsAlg::kEdDSA,
                               key_->pkey());
  EXPECT_EQ(Reason(Verify(t4)), "Invalid token: malformed");
}

TEST_F(JwtTest, RejectsCriticalHeaderExtensions) {
  auto token = testing::MakeToken(R"({"alg":"EdDSA","kid":"k1","crit":["exp"]})",
                                  ClaimsToJson(SampleClaims()), JwsAlg::kEdDSA, key_->pkey());
  EXPECT_EQ(Reason(Verify(token)), "Invalid token: unsupported header");
}

TEST_F(JwtTest, RejectsOversizedTokens) {
  Claims c = SampleClaims();
  c.roles.assign(2000, "role-with-a-longish-name");
  EXPECT_EQ(Reason(Verify(*SignJwt(*key_, c))), "Invalid token: too large");
}

TEST_F(JwtTest, ErrorsAreNotAuthorizedAndNeverEchoTheToken) {
  auto token = *SignJwt(*key_, SampleClaims());
  token.back() = token.back() == 'A' ? 'B' : 'A';
  auto r = Verify(token);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kNotAuthorized);
  EXPECT_EQ(r.error().detail.find(token), std::string::npos);
}

// RFC 8037 Appendix A.1 (key) and A.4 (Ed25519 JWS of "Example of Ed25519 signing").
TEST(JwtRfc8037Test, Ed25519TestVector) {
  auto d = *Base64UrlDecode("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A");
  auto priv = WrapPkey(EVP_PKEY_new_raw_private_key(
      EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(d.data()), d.size()));
  ASSERT_TRUE(priv);
  const std::string input = "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc";
  const std::string expected_sig =
      "hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg";
  EXPECT_EQ(Base64UrlDecode("eyJhbGciOiJFZERTQSJ9"), R"({"alg":"EdDSA"})");
  auto sig = SignBytes(JwsAlg::kEdDSA, priv.get(), input);
  ASSERT_TRUE(sig);
  EXPECT_EQ(Base64UrlEncode(*sig), expected_sig);

  boost::json::object jwk{{"kty", "OKP"},
                          {"crv", "Ed25519"},
                          {"x", "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}};
  auto pub = ParseJwk(jwk);
  ASSERT_TRUE(pub) << pub.error().message;
  EXPECT_TRUE(VerifyBytes(JwsAlg::kEdDSA, pub->key.get(), input,
                          *Base64UrlDecode(expected_sig)));
  EXPECT_FALSE(VerifyBytes(JwsAlg::kEdDSA, pub->key.get(), input + "x",
                           *Base64UrlDecode(expected_sig)));
}

}  // namespace
}  // namespace firn::auth
