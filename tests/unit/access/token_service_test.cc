#include "access/token_service.h"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include "access_test_support.h"
#include "common/encoding.h"

namespace firn::access {
namespace {

using testing::kNow;

std::string B64(std::string_view s) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < s.size(); i += 3) {
    uint32_t n = (uint8_t(s[i]) << 16) | (uint8_t(s[i + 1]) << 8) | uint8_t(s[i + 2]);
    out += {t[n >> 18], t[(n >> 12) & 63], t[(n >> 6) & 63], t[n & 63]};
  }
  if (i + 1 == s.size()) {
    uint32_t n = uint8_t(s[i]) << 16;
    out += {t[n >> 18], t[(n >> 12) & 63], '=', '='};
  } else if (i + 2 == s.size()) {
    uint32_t n = (uint8_t(s[i]) << 16) | (uint8_t(s[i + 1]) << 8);
    out += {t[n >> 18], t[(n >> 12) & 63], t[(n >> 6) & 63], '='};
  }
  return out;
}

class TokenServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Bootstrap(store_, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
    testing::AddPrincipal(store_, "r1", "bob", {"reader", "writer"});
    Reload();
  }
  void Reload() { snap_ = testing::Load(store_); }

  TokenResponse Post(std::string body, std::string authorization = "",
                     std::string address = "10.0.0.1", int64_t now = kNow) {
    return service_.Handle({"r1", std::move(body), std::move(authorization), address}, now);
  }
  static boost::json::object Json(const TokenResponse& r) {
    return boost::json::parse(r.body).as_object();
  }
  static std::string Str(const TokenResponse& r, std::string_view k) {
    return std::string(Json(r).at(k).as_string());
  }

  testing::FakeAccessStore store_;
  std::shared_ptr<const AccessSnapshot> snap_;
  Authenticator auth_{AuthConfig{}};
  TokenServiceOptions options_{.max_failures_per_source = 3, .max_failures_per_client = 5};
  TokenService service_{auth_, [this] { return snap_; }, options_};
};

TEST_F(TokenServiceTest, ClientCredentialsInFormIssuesAWorkingToken) {
  auto r = Post("grant_type=client_credentials&client_id=bob-id&client_secret=bob-secret"
                "&scope=PRINCIPAL_ROLE%3AALL");
  ASSERT_EQ(r.status, 200) << r.body;
  auto o = Json(r);
  EXPECT_EQ(o.at("token_type").as_string(), "bearer");
  EXPECT_EQ(o.at("expires_in").as_int64(), 3600);
  EXPECT_EQ(o.at("issued_token_type").as_string(), "urn:ietf:params:oauth:token-type:access_token");
  EXPECT_EQ(o.at("scope").as_string(), "PRINCIPAL_ROLE:ALL");
  auto caller = auth_.Authenticate("r1", "Bearer " + Str(r, "access_token"), *snap_, kNow);
  ASSERT_TRUE(caller);
  EXPECT_EQ((*caller)->subject.principal, "bob");
  EXPECT_TRUE((*caller)->subject.all_roles);
}

TEST_F(TokenServiceTest, ClientCredentialsInBasicAreUrlDecoded) {
  // RFC 6749 §2.3.1: id and secret are form-urlencoded before base64.
  testing::AddPrincipal(store_, "r1", "x:y", {});
  Reload();
  auto r = Post("grant_type=client_credentials&scope=catalog", "Basic " + B64("x%3Ay-id:x%3Ay-secret"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Str(r, "scope"), "PRINCIPAL_ROLE:ALL");
}

TEST_F(TokenServiceTest, BasicCredentialsFollowFormRulesAndRefuseBrokenEscapes) {
  // '+' is a space in form-urlencoded credentials; an encoded '+' stays a plus.
  testing::AddPrincipal(store_, "r1", "a b", {});
  testing::AddPrincipal(store_, "r1", "c+d", {});
  Reload();
  EXPECT_EQ(Post("grant_type=client_credentials", "Basic " + B64("a+b-id:a+b-secret")).status, 200);
  EXPECT_EQ(Post("grant_type=client_credentials", "Basic " + B64("c%2Bd-id:c%2Bd-secret")).status,
            200);
  // A truncated or non-hex escape is a malformed request, not a lookup of some other client.
  for (const char* creds : {"bob-id%:bob-secret", "bob-id:bob-secret%zz", "bob-id%2:x"}) {
    auto r = Post("grant_type=client_credentials", "Basic " + B64(creds));
    EXPECT_EQ(r.status, 400) << creds;
    EXPECT_EQ(r.body.find("access_token"), std::string::npos) << creds;
  }
}

TEST_F(TokenServiceTest, WrongSecretIsInvalidClient401) {
  auto r = Post("grant_type=client_credentials&client_id=bob-id&client_secret=nope");
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(Str(r, "error"), "invalid_client");
  auto unknown = Post("grant_type=client_credentials&client_id=ghost&client_secret=nope");
  EXPECT_EQ(unknown.status, 401);
  EXPECT_EQ(unknown.body, r.body);  // an unknown id looks exactly like a wrong secret
  auto basic = Post("grant_type=client_credentials", "Basic " + B64("bob-id:nope"));
  EXPECT_EQ(basic.status, 401);
  bool challenged = false;
  for (const auto& [k, v] : basic.headers) challenged |= k == "WWW-Authenticate";
  EXPECT_TRUE(challenged);
}

TEST_F(TokenServiceTest, PreviousSecretWorksAfterRotation) {
  PrincipalInfo bob = *snap_->FindPrincipal("r1", "bob");
  bob.previous_secret_hash = bob.secret_hash;
  bob.secret_hash = *auth::HashSecretScrypt(Secret("new-secret"));
  ASSERT_TRUE(store_.ApplyAccessWrites(
      {{store::AccessWrite::Op::kUpsert, EncodePrincipal("r1", bob), {}}}, nullptr, 1));
  Reload();
  EXPECT_EQ(Post("grant_type=client_credentials&client_id=bob-id&client_secret=new-secret").status,
            200);
  EXPECT_EQ(Post("grant_type=client_credentials&client_id=bob-id&client_secret=bob-secret").status,
            200);
  EXPECT_EQ(Post("grant_type=client_credentials&client_id=bob-id&client_secret=older").status, 401);
}

TEST_F(TokenServiceTest, ScopesSelectHeldRolesOnly) {
  std::string base = "grant_type=client_credentials&client_id=bob-id&client_secret=bob-secret";
  auto one = Post(base + "&scope=PRINCIPAL_ROLE:reader");
  ASSERT_EQ(one.status, 200) << one.body;
  EXPECT_EQ(Str(one, "scope"), "PRINCIPAL_ROLE:reader");
  auto caller = auth_.Authenticate("r1", "Bearer " + Str(one, "access_token"), *snap_, kNow);
  ASSERT_TRUE(caller);
  EXPECT_FALSE((*caller)->subject.all_roles);
  EXPECT_EQ((*caller)->subject.active_roles, std::vector<std::string>{"reader"});
  auto two = Post(base + "&scope=PRINCIPAL_ROLE:writer+PRINCIPAL_ROLE:reader");
  ASSERT_EQ(two.status, 200);
  EXPECT_EQ(Str(two, "scope"), "PRINCIPAL_ROLE:reader PRINCIPAL_ROLE:writer");
  auto bad = Post(base + "&scope=PRINCIPAL_ROLE:service_admin");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(Str(bad, "error"), "invalid_scope");
  EXPECT_EQ(Str(Post(base + "&scope=openid"), "error"), "invalid_scope");
}

TEST_F(TokenServiceTest, BadRequestsUseOAuthErrors) {
  EXPECT_EQ(Str(Post("client_id=a"), "error"), "invalid_request");
  EXPECT_EQ(Str(Post("grant_type=password"), "error"), "unsupported_grant_type");
  EXPECT_EQ(Str(Post("grant_type=client_credentials"), "error"), "invalid_request");
  EXPECT_EQ(Str(Post("grant_type=client_credentials&grant_type=x"), "error"), "invalid_request");
  EXPECT_EQ(Str(Post("grant_type=%zz"), "error"), "invalid_request");
  EXPECT_EQ(Post("grant_type=client_credentials", "Basic !!!").status, 400);
}

TEST_F(TokenServiceTest, TokenExchangeRefreshesForTheSamePrincipal) {
  auto first = Post("grant_type=client_credentials&client_id=bob-id&client_secret=bob-secret"
                    "&scope=PRINCIPAL_ROLE:reader");
  ASSERT_EQ(first.status, 200);
  std::string subject = Str(first, "access_token");
  auto next = Post("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange"
                   "&subject_token=" + subject +
                   "&subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aaccess_token",
                   "Bearer " + subject, "10.0.0.1", kNow + 60);
  ASSERT_EQ(next.status, 200) << next.body;
  EXPECT_EQ(Str(next, "scope"), "PRINCIPAL_ROLE:reader");
  EXPECT_NE(Str(next, "access_token"), subject);
  auto caller = auth_.Authenticate("r1", "Bearer " + Str(next, "access_token"), *snap_, kNow + 60);
  ASSERT_TRUE(caller);
  EXPECT_EQ((*caller)->subject.principal, "bob");
  EXPECT_EQ((*caller)->client_id, "bob-id");

  auto garbage = Post("grant_type=urn:ietf:params:oauth:grant-type:token-exchange"
                      "&subject_token=abc.def.ghi");
  EXPECT_EQ(garbage.status, 400);
  EXPECT_EQ(Str(garbage, "error"), "invalid_grant");
  // An expired subject token cannot be exchanged.
  auto late = Post("grant_type=urn:ietf:params:oauth:grant-type:token-exchange&subject_token=" +
                       subject, "", "10.0.0.1", kNow + 7200);
  EXPECT_EQ(Str(late, "error"), "invalid_grant");
}

TEST_F(TokenServiceTest, ExpiredSubjectTokenIsRefreshedWithClientCredentials) {
  // Iceberg Java's fallback: exchange an expired token, authenticating with Basic credentials.
  auto first = Post("grant_type=client_credentials&client_id=bob-id&client_secret=bob-secret"
                    "&scope=PRINCIPAL_ROLE:reader");
  ASSERT_EQ(first.status, 200);
  const std::string subject = Str(first, "access_token");
  const std::string exchange =
      "grant_type=urn:ietf:params:oauth:grant-type:token-exchange&scope=PRINCIPAL_ROLE:reader"
      "&subject_token=" + subject;
  auto refreshed = Post(exchange, "Basic " + B64("bob-id:bob-secret"), "10.0.0.1", kNow + 7200);
  ASSERT_EQ(refreshed.status, 200) << refreshed.body;
  auto caller = auth_.Authenticate("r1", "Bearer " + Str(refreshed, "access_token"), *snap_,
                                   kNow + 7200);
  ASSERT_TRUE(caller);
  EXPECT_EQ((*caller)->subject.principal, "bob");

  // Wrong client secret: still invalid_client, never a token.
  auto wrong = Post(exchange, "Basic " + B64("bob-id:nope"), "10.0.0.1", kNow + 7200);
  EXPECT_EQ(wrong.status, 401);
  // A valid subject token of bob with another principal's client credentials is refused.
  auto other = Post(exchange, "Basic " + B64("alice-id:alice-secret"), "10.0.0.1", kNow + 60);
  EXPECT_EQ(other.status, 400);
  EXPECT_EQ(Str(other, "error"), "invalid_grant");
}

TEST_F(TokenServiceTest, RepeatedFailuresFromOneAddressAreThrottled) {
  std::string bad = "grant_type=client_credentials&client_id=bob-id&client_secret=nope";
  std::string good = "grant_type=client_credentials&client_id=bob-id&client_secret=bob-secret";
  for (int i = 0; i < 3; ++i) EXPECT_EQ(Post(bad, "", "10.0.0.1").status, 401);
  auto r = Post(good, "", "10.0.0.1");
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(Str(r, "error"), "slow_down");
  std::string retry;
  for (const auto& [k, v] : r.headers) {
    if (k == "Retry-After") retry = v;
  }
  EXPECT_EQ(retry, "30");
  // The same client from another address is not locked out.
  EXPECT_EQ(Post(good, "", "10.0.0.2").status, 200);
  // After the lockout the right secret works again from the first address too.
  EXPECT_EQ(Post(good, "", "10.0.0.1", kNow + 31).status, 200);
}

TEST_F(TokenServiceTest, FailuresFromManyAddressesThrottleTheClientEverywhere) {
  std::string bad = "grant_type=client_credentials&client_id=bob-id&client_secret=nope";
  std::string good = "grant_type=client_credentials&client_id=bob-id&client_secret=bob-secret";
  // Five addresses, each below its own limit of 3, reach the client's limit of 5 together.
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(Post(bad, "", "10.0.0." + std::to_string(i)).status, 401);
  }
  EXPECT_EQ(Post(good, "", "10.0.0.9").status, 429);
  EXPECT_EQ(Post(good, "", "10.0.0.9", kNow + 31).status, 200);
}

TEST_F(TokenServiceTest, FailuresOfOtherClientIdsDoNotThrottleAValidClient) {
  // Formerly an address with enough failures locked out everyone behind it.
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(Post("grant_type=client_credentials&client_id=c" + std::to_string(i) +
                   "&client_secret=x").status, 401);
  }
  EXPECT_EQ(Post("grant_type=client_credentials&client_id=bob-id&client_secret=bob-secret").status,
            200);
}

TEST_F(TokenServiceTest, OverlongRealmOrClientIdIsInvalidClientWithoutAHash) {
  uint64_t before = service_.secret_verifications();
  auto r = service_.Handle({std::string(300, 'r'), "grant_type=client_credentials"
                            "&client_id=bob-id&client_secret=bob-secret", "", "10.0.0.1"}, kNow);
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(Post("grant_type=client_credentials&client_id=" + std::string(300, 'c') +
                 "&client_secret=x").status, 401);
  EXPECT_EQ(service_.secret_verifications(), before);
}

TEST_F(TokenServiceTest, UnknownRealmIsInvalidClient) {
  auto r = service_.Handle({"nowhere", "grant_type=client_credentials&client_id=bob-id"
                            "&client_secret=bob-secret", "", ""}, kNow);
  EXPECT_EQ(r.status, 401);
}

}  // namespace
}  // namespace firn::access
