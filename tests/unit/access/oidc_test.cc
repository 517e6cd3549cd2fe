// External issuers: JWTs of another issuer verified against its JWKS (file), with custom
// subject and roles claims mapped to a principal and trusted principal roles.
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "access/authenticator.h"
#include "access_test_support.h"
#include "auth/jwks.h"
#include "common/encoding.h"

namespace firn::access {
namespace {

using testing::kNow;

// Signs an arbitrary payload object with `key` (the test plays the identity provider).
std::string SignPayload(const auth::SigningKey& key, const boost::json::object& payload) {
  boost::json::object header{{"alg", "EdDSA"}, {"typ", "JWT"}, {"kid", key.kid()}};
  std::string input = Base64UrlEncode(boost::json::serialize(header)) + "." +
                      Base64UrlEncode(boost::json::serialize(payload));
  auto sig = auth::SignBytes(key.alg(), key.pkey(), input);
  return input + "." + Base64UrlEncode(*sig);
}

class OidcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Bootstrap(store_, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
    snap_ = testing::Load(store_);
    key_ = std::make_unique<auth::SigningKey>(*auth::SigningKey::GenerateEd25519("idp-1"));
    jwks_ = std::filesystem::temp_directory_path() /
            ("firn_oidc_" + std::to_string(::getpid()) + ".json");
    WriteJwks({key_.get()});
    ExternalIssuer issuer;
    issuer.issuer = "https://idp.example";
    issuer.audience = "firn";
    issuer.jwks_file = jwks_.string();
    issuer.realm = "r1";
    issuer.subject_claim = "preferred_username";
    issuer.roles_claim = "realm_access.roles";
    issuer.role_prefix = "firn:";
    config_.external_issuers.push_back(issuer);
  }
  void TearDown() override { std::filesystem::remove(jwks_); }

  void WriteJwks(std::vector<const auth::SigningKey*> keys) {
    boost::json::array arr;
    for (const auto* k : keys) arr.push_back(*auth::Ed25519PublicJwk(k->Verifier()));
    std::ofstream(jwks_) << boost::json::serialize(boost::json::object{{"keys", arr}});
  }
  boost::json::object Payload() {
    return {{"iss", "https://idp.example"},
            {"aud", "firn"},
            {"sub", "f3a1-opaque"},
            {"preferred_username", "dana"},
            {"realm_access", {{"roles", {"firn:analyst", "other:x", "firn:etl"}}}},
            {"iat", kNow},
            {"exp", kNow + 600}};
  }

  testing::FakeAccessStore store_;
  std::shared_ptr<const AccessSnapshot> snap_;
  std::unique_ptr<auth::SigningKey> key_;
  std::filesystem::path jwks_;
  AuthConfig config_;
};

TEST_F(OidcTest, CustomClaimsMapToPrincipalAndTrustedRoles) {
  Authenticator auth(config_);
  ASSERT_TRUE(auth.Start());
  auto caller = auth.Authenticate("r1", "Bearer " + SignPayload(*key_, Payload()), *snap_, kNow);
  ASSERT_TRUE(caller) << caller.error().message;
  EXPECT_EQ((*caller)->subject.principal, "ext:dana");  // no principal needed
  EXPECT_TRUE((*caller)->subject.trusted_roles);
  EXPECT_FALSE((*caller)->subject.all_roles);
  EXPECT_EQ((*caller)->subject.active_roles, (std::vector<std::string>{"analyst", "etl"}));
  EXPECT_TRUE((*caller)->external);
  EXPECT_TRUE((*caller)->authorization_enabled());
}

TEST_F(OidcTest, WrongAudienceRealmOrSignatureIsRefused) {
  Authenticator auth(config_);
  ASSERT_TRUE(auth.Start());
  auto p = Payload();
  p["aud"] = "someone-else";
  EXPECT_FALSE(auth.Authenticate("r1", "Bearer " + SignPayload(*key_, p), *snap_, kNow));
  std::string good = SignPayload(*key_, Payload());
  auto other_realm = auth.Authenticate("r2", "Bearer " + good, *snap_, kNow);
  ASSERT_FALSE(other_realm);
  EXPECT_EQ(other_realm.error().kind, ErrorKind::kNotAuthorized);
  auto stranger = auth::SigningKey::GenerateEd25519("idp-1");  // same kid, other key
  EXPECT_FALSE(auth.Authenticate("r1", "Bearer " + SignPayload(*stranger, Payload()), *snap_, kNow));
}

TEST_F(OidcTest, MissingSubjectClaimIsRefused) {
  Authenticator auth(config_);
  ASSERT_TRUE(auth.Start());
  auto p = Payload();
  p.erase("preferred_username");
  auto caller = auth.Authenticate("r1", "Bearer " + SignPayload(*key_, p), *snap_, kNow);
  ASSERT_FALSE(caller);
  EXPECT_EQ(caller.error().message, "Invalid token: no subject");
}

TEST_F(OidcTest, UnknownKidReloadsTheJwksOnce) {
  Authenticator auth(config_);
  ASSERT_TRUE(auth.Start());
  auto rotated = auth::SigningKey::GenerateEd25519("idp-2");
  WriteJwks({key_.get(), &*rotated});
  std::string token = SignPayload(*rotated, Payload());
  // Start() just fetched, so the refetch is rate-limited until 30 s have passed.
  int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                    std::chrono::system_clock::now().time_since_epoch()).count();
  auto p = Payload();
  p["iat"] = now;
  p["exp"] = now + 600;
  token = SignPayload(*rotated, p);
  EXPECT_FALSE(auth.Authenticate("r1", "Bearer " + token, *snap_, now));
  auto later = auth.Authenticate("r1", "Bearer " + token, *snap_, now + 31);
  ASSERT_TRUE(later) << later.error().message;
  EXPECT_EQ((*later)->subject.principal, "ext:dana");
}

TEST_F(OidcTest, FirnTokensStillWorkBesideAnExternalIssuer) {
  Authenticator auth(config_);
  ASSERT_TRUE(auth.Start());
  auth::Claims c;
  c.iss = "firn";
  c.sub = snap_->FindPrincipal("r1", "alice")->id;
  c.realm = "r1";
  c.scope = "PRINCIPAL_ROLE:ALL";
  c.iat = kNow;  // Firn issues every token with iat (its lifetime is checked)
  c.exp = kNow + 60;
  c.ver = 1;
  auto caller = auth.Authenticate("r1", "Bearer " + *snap_->FindRealm("r1")->keys->Sign(c),
                                  *snap_, kNow);
  ASSERT_TRUE(caller);
  EXPECT_FALSE((*caller)->external);
  EXPECT_EQ((*caller)->subject.principal, "alice");
}

TEST_F(OidcTest, ExternalSubjectNeverPassesForAFirnPrincipal) {
  Authenticator auth(config_);
  ASSERT_TRUE(auth.Start());
  auto p = Payload();
  p["preferred_username"] = "alice";  // the Firn admin's name
  auto caller = auth.Authenticate("r1", "Bearer " + SignPayload(*key_, p), *snap_, kNow);
  ASSERT_TRUE(caller) << caller.error().message;
  EXPECT_EQ((*caller)->subject.principal, "ext:alice");
  // Its grants come from the token's roles only: none of alice's service_admin powers.
  EXPECT_FALSE((*caller)->subject.all_roles);
  EXPECT_EQ((*caller)->subject.active_roles, (std::vector<std::string>{"analyst", "etl"}));
}

TEST_F(OidcTest, MissingAudienceFailsStart) {
  config_.external_issuers[0].audience.clear();
  Authenticator auth(config_);
  auto started = auth.Start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().kind, ErrorKind::kIllegalArgument);
  EXPECT_NE(started.error().message.find("audience"), std::string::npos);
}

TEST_F(OidcTest, ExternalTokensKeepTheExpLeeway) {
  Authenticator auth(config_);
  ASSERT_TRUE(auth.Start());
  // Another clock: a few seconds past exp is tolerated for an external issuer only.
  EXPECT_TRUE(auth.Authenticate("r1", "Bearer " + SignPayload(*key_, Payload()), *snap_,
                                kNow + 605));
}

TEST_F(OidcTest, MissingJwksFileFailsStart) {
  config_.external_issuers[0].jwks_file = "/nonexistent/jwks.json";
  Authenticator auth(config_);
  EXPECT_FALSE(auth.Start());
}

}  // namespace
}  // namespace firn::access
