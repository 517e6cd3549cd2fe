#include "access/authenticator.h"

#include <gtest/gtest.h>

#include "access_test_support.h"
#include "common/encoding.h"

namespace firn::access {
namespace {

using testing::kNow;

class AuthenticatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Bootstrap(store_, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
    ASSERT_TRUE(Bootstrap(store_, testing::AliceOptions("r2"), testing::TestKeks(), kNow * 1000));
    testing::AddPrincipal(store_, "r1", "bob", {"reader", "writer"});
    snap_ = testing::Load(store_);
  }

  auth::Claims BobClaims(std::string realm = "r1") {
    auth::Claims c;
    c.iss = "firn";
    c.sub = "bob-uuid";
    c.realm = std::move(realm);
    c.roles = {"reader"};
    c.scope = "PRINCIPAL_ROLE:reader";
    c.client_id = "bob-id";
    c.iat = kNow;
    c.exp = kNow + 3600;
    c.ver = 1;
    return c;
  }
  std::string Sign(const auth::Claims& c, std::string_view realm = "r1") {
    return *snap_->FindRealm(realm)->keys->Sign(c);
  }
  Result<std::shared_ptr<const auth::Caller>> Auth(std::string_view header,
                                                   std::string_view realm = "r1",
                                                   int64_t now = kNow) {
    return auth_.Authenticate(realm, header, *snap_, now);
  }

  testing::FakeAccessStore store_;
  std::shared_ptr<const AccessSnapshot> snap_;
  Authenticator auth_{AuthConfig{}};
};

TEST_F(AuthenticatorTest, ValidTokenYieldsCallerWithTokenRoles) {
  auto caller = Auth("Bearer " + Sign(BobClaims()));
  ASSERT_TRUE(caller) << caller.error().message;
  EXPECT_EQ((*caller)->subject.realm, "r1");
  EXPECT_EQ((*caller)->subject.principal, "bob");
  EXPECT_FALSE((*caller)->subject.all_roles);
  EXPECT_EQ((*caller)->subject.active_roles, std::vector<std::string>{"reader"});
  EXPECT_EQ((*caller)->client_id, "bob-id");
  EXPECT_TRUE((*caller)->authorization_enabled());
  EXPECT_FALSE((*caller)->external);
}

TEST_F(AuthenticatorTest, SchemeIsCaseInsensitiveAndScopeAllActivatesAllRoles) {
  auto c = BobClaims();
  c.scope = "PRINCIPAL_ROLE:ALL";
  auto caller = Auth("bEaReR   " + Sign(c));
  ASSERT_TRUE(caller);
  EXPECT_TRUE((*caller)->subject.all_roles);
  c.scope = "catalog";
  caller = Auth("Bearer " + Sign(c));
  ASSERT_TRUE(caller);
  EXPECT_TRUE((*caller)->subject.all_roles);
}

TEST_F(AuthenticatorTest, MissingOrMalformedHeaderIs401) {
  for (std::string_view h : {"", "Bearer", "Bearer ", "Basic YTpi", "Bearer a b", "token"}) {
    auto caller = Auth(h);
    ASSERT_FALSE(caller) << h;
    EXPECT_EQ(caller.error().kind, ErrorKind::kNotAuthorized) << h;
  }
  EXPECT_EQ(Auth("").error().message, "Authentication required");
}

TEST_F(AuthenticatorTest, ExpiredTokenIs401) {
  auto c = BobClaims();
  c.exp = kNow - 100;
  auto caller = Auth("Bearer " + Sign(c));
  ASSERT_FALSE(caller);
  EXPECT_EQ(caller.error().kind, ErrorKind::kNotAuthorized);
  // A cached token also stops working at exp.
  std::string t = Sign(BobClaims());
  ASSERT_TRUE(Auth("Bearer " + t));
  EXPECT_FALSE(Auth("Bearer " + t, "r1", kNow + 4000));
}

TEST_F(AuthenticatorTest, FirnTokenIsRefusedAtExpWithoutLeeway) {
  std::string t = Sign(BobClaims());  // exp = kNow + 3600
  EXPECT_TRUE(Auth("Bearer " + t, "r1", kNow + 3599));
  auto at_exp = Auth("Bearer " + t, "r1", kNow + 3600);
  ASSERT_FALSE(at_exp);
  EXPECT_EQ(at_exp.error().kind, ErrorKind::kNotAuthorized);
  // Never verified before (no cache entry): refused a second after exp too.
  auto c = BobClaims();
  c.exp = kNow - 1;
  EXPECT_FALSE(Auth("Bearer " + Sign(c)));
}

TEST_F(AuthenticatorTest, FirnTokenKeepsClockSkewLeewayForIat) {
  auto c = BobClaims();
  c.iat = kNow + 5;  // another instance's clock is slightly ahead
  EXPECT_TRUE(Auth("Bearer " + Sign(c)));
}

TEST_F(AuthenticatorTest, TokenOfAnotherRealmIsRefused) {
  std::string t = Sign(BobClaims());
  auto caller = Auth("Bearer " + t, "r2");  // r2 has other keys
  ASSERT_FALSE(caller);
  EXPECT_EQ(caller.error().kind, ErrorKind::kNotAuthorized);
  // Even signed by the right keys, a realm claim that differs is refused.
  auto forged = Auth("Bearer " + Sign(BobClaims("r2"), "r1"), "r1");
  ASSERT_FALSE(forged);
  EXPECT_EQ(forged.error().message, "Invalid token: wrong realm");
  EXPECT_FALSE(Auth("Bearer " + t, "nope"));
}

TEST_F(AuthenticatorTest, RotatedCredentialsRevokeOlderTokens) {
  std::string t = Sign(BobClaims());
  ASSERT_TRUE(Auth("Bearer " + t));  // cached now
  testing::AddPrincipal(store_, "r1", "bob", {"reader"}, /*credential_version=*/2);
  snap_ = testing::Load(store_);
  auto caller = Auth("Bearer " + t);
  ASSERT_FALSE(caller);
  EXPECT_EQ(caller.error().message, "Invalid token: revoked");
  auto c = BobClaims();
  c.ver = 2;
  EXPECT_TRUE(Auth("Bearer " + Sign(c)));
}

// The attack: a token carrying a version the principal has not reached yet (ver+1) would
// outlive the next rotation. It is refused before and after that rotation, from the cache too.
TEST_F(AuthenticatorTest, AHigherVerThanTheCurrentCredentialVersionIsRefused) {
  auto ahead = BobClaims();
  ahead.ver = 2;
  std::string t = Sign(ahead);
  auto before = Auth("Bearer " + t);
  ASSERT_FALSE(before);
  EXPECT_EQ(before.error().message, "Invalid token: revoked");
  auto missing = BobClaims();
  missing.ver.reset();
  EXPECT_FALSE(Auth("Bearer " + Sign(missing)));

  testing::AddPrincipal(store_, "r1", "bob", {"reader"}, /*credential_version=*/2);
  snap_ = testing::Load(store_);
  ASSERT_TRUE(Auth("Bearer " + t));  // now current: accepted (and cached)
  ahead.ver = 3;
  EXPECT_FALSE(Auth("Bearer " + Sign(ahead)));
  testing::AddPrincipal(store_, "r1", "bob", {"reader"}, /*credential_version=*/3);
  snap_ = testing::Load(store_);
  auto cached = Auth("Bearer " + t);  // the cached ver-2 token after the next rotation
  ASSERT_FALSE(cached);
  EXPECT_EQ(cached.error().message, "Invalid token: revoked");
}

// The attack: a token signed by the realm's real key with a lifetime far beyond the configured
// one (a leaked key, or a token minted before the lifetime was lowered) is refused.
TEST_F(AuthenticatorTest, ATokenLivingLongerThanTheConfiguredLifetimeIsRefused) {
  auto c = BobClaims();
  c.exp = kNow + 30 * 86400;
  auto caller = Auth("Bearer " + Sign(c));
  ASSERT_FALSE(caller);
  EXPECT_EQ(caller.error().message, "Invalid token: lifetime too long");
  // A server configured with a shorter lifetime refuses even the standard hour.
  AuthConfig short_lived;
  short_lived.token_lifetime_seconds = 600;
  Authenticator strict(short_lived);
  auto hour = strict.Authenticate("r1", "Bearer " + Sign(BobClaims()), *snap_, kNow);
  ASSERT_FALSE(hour);
  EXPECT_EQ(hour.error().message, "Invalid token: lifetime too long");
  EXPECT_TRUE(Auth("Bearer " + Sign(BobClaims())));  // control: 3600 s under the default
}

TEST_F(AuthenticatorTest, DeletedPrincipalIsRefused) {
  std::string t = Sign(BobClaims());
  ASSERT_TRUE(Auth("Bearer " + t));
  store::AccessRecord key;
  key.realm = "r1";
  key.kind = store::AccessKind::kPrincipal;
  key.name = "bob";
  ASSERT_TRUE(store_.ApplyAccessWrites({{store::AccessWrite::Op::kDelete, key, {}}}, nullptr, 1));
  snap_ = testing::Load(store_);
  auto caller = Auth("Bearer " + t);
  ASSERT_FALSE(caller);
  EXPECT_EQ(caller.error().message, "Invalid token: unknown principal");
}

TEST_F(AuthenticatorTest, AlgNoneAndTamperedTokensAreRefused) {
  std::string none = Base64UrlEncode(R"({"alg":"none","typ":"JWT"})") + "." +
                     Base64UrlEncode(auth::ClaimsToJson(BobClaims())) + ".x";
  EXPECT_FALSE(Auth("Bearer " + none));
  std::string t = Sign(BobClaims());
  auto c = BobClaims();
  c.roles = {"writer"};
  size_t a = t.find('.'), b = t.rfind('.');
  std::string tampered =
      t.substr(0, a + 1) + Base64UrlEncode(auth::ClaimsToJson(c)) + t.substr(b);
  auto caller = Auth("Bearer " + tampered);
  ASSERT_FALSE(caller);
  EXPECT_EQ(caller.error().kind, ErrorKind::kNotAuthorized);
}

TEST_F(AuthenticatorTest, WrongIssuerIsRefused) {
  auto c = BobClaims();
  c.iss = "someone-else";
  EXPECT_FALSE(Auth("Bearer " + Sign(c)));
}

TEST_F(AuthenticatorTest, DisabledAuthenticationYieldsAnonymousCallerWithoutGrants) {
  AuthConfig config;
  config.enabled = false;
  Authenticator off(config);
  auto caller = off.Authenticate("r1", "", *snap_, kNow);
  ASSERT_TRUE(caller);
  EXPECT_FALSE((*caller)->authorization_enabled());
  EXPECT_EQ((*caller)->subject.realm, "r1");
}

TEST(ParseBearerTest, ExtractsTheToken) {
  EXPECT_EQ(*ParseBearer("Bearer abc"), "abc");
  EXPECT_EQ(*ParseBearer("  BEARER\tabc  "), "abc");
  EXPECT_FALSE(ParseBearer("Bearerabc"));
  EXPECT_FALSE(ParseBearer("Basic abc"));
}

}  // namespace
}  // namespace firn::access
