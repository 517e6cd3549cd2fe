#include "auth/secrets.h"

#include <gtest/gtest.h>

#include <set>

#include "common/encoding.h"

namespace firn::auth {
namespace {

// Cheap parameters keep the suite fast; one test runs the real defaults.
constexpr ScryptParams kFast{10, 8, 1};

TEST(SecretsTest, GeneratedSecretsNeverStartWithADash) {
  // One draw in 64 would start with '-' without the redraw; 4,000 draws all pass only if
  // the generator refuses them (a broken one fails with probability 1 - 1e-27).
  for (int i = 0; i < 4000; ++i) {
    Secret s = GenerateClientSecret();
    ASSERT_NE(s.Reveal().front(), '-') << "secret " << i << " reads as a command-line option";
  }
}

TEST(SecretsTest, GeneratedSecretsAre32RandomBytesBase64Url) {
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    Secret s = GenerateClientSecret();
    EXPECT_EQ(s.Reveal().size(), 43u);
    auto raw = Base64UrlDecode(s.Reveal());
    ASSERT_TRUE(raw);
    EXPECT_EQ(raw->size(), 32u);
    seen.insert(s.Reveal());
  }
  EXPECT_EQ(seen.size(), 50u);
  std::string id = GenerateClientId();
  EXPECT_EQ(id.size(), 16u);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(SecretsTest, ScryptHashVerifiesAndRejectsMismatch) {
  Secret s = GenerateClientSecret();
  auto hash = HashSecretScrypt(s, kFast);
  ASSERT_TRUE(hash);
  EXPECT_TRUE(hash->starts_with("$scrypt$ln=10,r=8,p=1$"));
  EXPECT_EQ(hash->find(s.Reveal()), std::string::npos);
  EXPECT_TRUE(VerifySecret(s, *hash));
  EXPECT_FALSE(VerifySecret(Secret(s.Reveal() + "x"), *hash));
  EXPECT_FALSE(VerifySecret(Secret(""), *hash));
}

TEST(SecretsTest, SaltMakesEqualSecretsHashDifferently) {
  Secret s("same secret");
  EXPECT_NE(*HashSecretScrypt(s, kFast), *HashSecretScrypt(s, kFast));
}

TEST(SecretsTest, DefaultScryptParametersWork) {
  Secret s = GenerateClientSecret();
  auto hash = HashSecretScrypt(s);
  ASSERT_TRUE(hash);
  EXPECT_TRUE(hash->starts_with("$scrypt$ln=14,r=8,p=5$"));
  EXPECT_TRUE(VerifySecret(s, *hash));
  EXPECT_FALSE(NeedsRehash(*hash));
}

TEST(SecretsTest, Pbkdf2HashVerifiesAndRejectsMismatch) {
  Secret s = GenerateClientSecret();
  auto hash = HashSecretPbkdf2(s, {1000});
  ASSERT_TRUE(hash);
  EXPECT_TRUE(hash->starts_with("$pbkdf2-sha256$i=1000$"));
  EXPECT_TRUE(VerifySecret(s, *hash));
  EXPECT_FALSE(VerifySecret(Secret("nope"), *hash));
}

TEST(SecretsTest, TamperedOrMalformedHashesVerifyFalse) {
  Secret s("secret");
  std::string hash = *HashSecretScrypt(s, kFast);
  std::string flipped = hash;
  flipped[flipped.size() - 3] = flipped[flipped.size() - 3] == 'A' ? 'B' : 'A';
  EXPECT_FALSE(VerifySecret(s, flipped));
  EXPECT_FALSE(VerifySecret(s, ""));
  EXPECT_FALSE(VerifySecret(s, "$scrypt$ln=10$x$y"));
  EXPECT_FALSE(VerifySecret(s, "$md5$x$y$z"));
  // A tampered row must not make us allocate absurd memory.
  std::string huge = hash;
  huge.replace(huge.find("ln=10"), 5, "ln=40");
  EXPECT_FALSE(VerifySecret(s, huge));
  EXPECT_FALSE(VerifySecret(
      s, "$pbkdf2-sha256$i=0$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"));
}

TEST(SecretsTest, NeedsRehashWhenWeakerThanTheTarget) {
  Secret s("secret");
  EXPECT_TRUE(NeedsRehash(*HashSecretScrypt(s, kFast)));
  EXPECT_TRUE(NeedsRehash(*HashSecretPbkdf2(s, {1000})));
  EXPECT_FALSE(NeedsRehash(*HashSecretScrypt(s, kFast), kFast));
  EXPECT_TRUE(NeedsRehash("garbage"));
}

}  // namespace
}  // namespace firn::auth
