// Security properties of the token endpoint: exchange never widens roles, every failed
// attempt costs the same, throttling survives a full table, is per realm, and a brute-forcer
// cannot lock out another client from its own address.
#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include "access/token_service.h"
#include "auth/secrets.h"
#include "access_test_support.h"

namespace firn::access {
namespace {

using testing::kNow;

constexpr std::string_view kExchange =
    "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange&subject_token=";

class TokenServiceSecurityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Bootstrap(store_, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
    ASSERT_TRUE(Bootstrap(store_, testing::AliceOptions("r2"), testing::TestKeks(), kNow * 1000));
    testing::AddPrincipal(store_, "r1", "bob", {"reader", "writer"});
    testing::AddPrincipal(store_, "r2", "bob", {"reader"});
    snap_ = testing::Load(store_);
  }
  TokenResponse Post(TokenService& service, std::string body, std::string address = "10.0.0.1",
                     std::string realm = "r1") {
    return service.Handle({std::move(realm), std::move(body), "", std::move(address)}, kNow);
  }
  TokenResponse Post(std::string body, std::string address = "10.0.0.1",
                     std::string realm = "r1") {
    return Post(service_, std::move(body), std::move(address), std::move(realm));
  }
  static std::string Str(const TokenResponse& r, std::string_view k) {
    return std::string(boost::json::parse(r.body).as_object().at(k).as_string());
  }
  std::string ReaderToken() {
    auto r = Post("grant_type=client_credentials&client_id=bob-id&client_secret=bob-secret"
                  "&scope=PRINCIPAL_ROLE:reader");
    EXPECT_EQ(r.status, 200) << r.body;
    return Str(r, "access_token");
  }

  // r1's bob gets a new secret: a rotation keeps the old one as previous, a reset does not.
  void SetBobsSecret(const std::string& secret, bool keep_previous) {
    PrincipalInfo bob = *snap_->FindPrincipal("r1", "bob");
    auto hash = auth::HashSecretScrypt(Secret(secret));
    ASSERT_TRUE(hash);
    bob.previous_secret_hash = keep_previous ? bob.secret_hash : "";
    bob.secret_hash = *hash;
    ASSERT_TRUE(store_.ApplyAccessWrites(
        {{store::AccessWrite::Op::kUpsert, EncodePrincipal("r1", bob), {}}}, nullptr, 1));
    snap_ = testing::Load(store_);
  }

  testing::FakeAccessStore store_;
  std::shared_ptr<const AccessSnapshot> snap_;
  Authenticator auth_{AuthConfig{}};
  TokenService service_{auth_, [this] { return snap_; },
                        TokenServiceOptions{.max_failures_per_client = 3}};
};

TEST_F(TokenServiceSecurityTest, ExchangeCannotWidenToAllRoles) {
  std::string subject = ReaderToken();
  for (std::string scope : {"PRINCIPAL_ROLE%3AALL", "catalog"}) {
    auto r = Post(std::string(kExchange) + subject + "&scope=" + scope);
    EXPECT_EQ(r.status, 400) << scope;
    EXPECT_EQ(Str(r, "error"), "invalid_scope") << scope;
  }
}

TEST_F(TokenServiceSecurityTest, ExchangeCannotAddAHeldButInactiveRole) {
  auto r = Post(std::string(kExchange) + ReaderToken() + "&scope=PRINCIPAL_ROLE%3Awriter");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Str(r, "error"), "invalid_scope");
}

TEST_F(TokenServiceSecurityTest, ExchangeKeepsOrNarrowsTheSubjectScope) {
  std::string subject = ReaderToken();
  auto same = Post(std::string(kExchange) + subject);
  ASSERT_EQ(same.status, 200) << same.body;
  EXPECT_EQ(Str(same, "scope"), "PRINCIPAL_ROLE:reader");
  auto all = Post("grant_type=client_credentials&client_id=bob-id&client_secret=bob-secret");
  ASSERT_EQ(all.status, 200);
  auto narrowed = Post(std::string(kExchange) + Str(all, "access_token") +
                       "&scope=PRINCIPAL_ROLE%3Awriter");
  ASSERT_EQ(narrowed.status, 200) << narrowed.body;
  EXPECT_EQ(Str(narrowed, "scope"), "PRINCIPAL_ROLE:writer");
}

TEST_F(TokenServiceSecurityTest, EveryAttemptCostsTwoVerifications) {
  // Unknown id, known id without a previous secret, known id with one: all the same cost.
  PrincipalInfo rotated = *snap_->FindPrincipal("r1", "bob");
  rotated.name = "carol";
  rotated.id = "carol-uuid";
  rotated.client_id = "carol-id";
  rotated.previous_secret_hash = rotated.secret_hash;
  ASSERT_TRUE(store_.ApplyAccessWrites(
      {{store::AccessWrite::Op::kUpsert, EncodePrincipal("r1", rotated), {}}}, nullptr, 1));
  snap_ = testing::Load(store_);
  for (std::string id : {"nobody", "bob-id", "carol-id"}) {
    uint64_t before = service_.secret_verifications();
    EXPECT_EQ(Post("grant_type=client_credentials&client_id=" + id + "&client_secret=x",
                   "10.0.0.2").status,
              401);
    EXPECT_EQ(service_.secret_verifications() - before, 2u) << id;
  }
  // The previous secret still works (rotation semantics unchanged).
  EXPECT_EQ(Post("grant_type=client_credentials&client_id=carol-id&client_secret=bob-secret",
                 "10.0.0.3").status,
            200);
}

constexpr std::string_view kBob = "grant_type=client_credentials&client_id=bob-id&client_secret=";

TEST_F(TokenServiceSecurityTest, ARightSecretIsHashedOnceThenCheckedByTheCache) {
  uint64_t runs = service_.secret_verifications();
  ASSERT_EQ(Post(std::string(kBob) + "bob-secret").status, 200);
  EXPECT_EQ(service_.secret_verifications() - runs, 2u);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(Post(std::string(kBob) + "bob-secret", "10.0.0." + std::to_string(7 + i)).status,
              200);
  }
  EXPECT_EQ(service_.secret_verifications() - runs, 2u) << "a cached secret ran scrypt again";
  EXPECT_EQ(service_.cached_verifications(), 3u);
}

TEST_F(TokenServiceSecurityTest, AGuessAfterACachedSecretStillCostsTwoRunsAndFails) {
  ASSERT_EQ(Post(std::string(kBob) + "bob-secret").status, 200);
  for (std::string guess : {"bob-secreT", "bob-secret ", "", "x"}) {
    uint64_t runs = service_.secret_verifications();
    auto r = Post(std::string(kBob) + guess, "10.0.0.2");
    EXPECT_NE(r.status, 200) << guess;
    if (!guess.empty()) {
      EXPECT_EQ(service_.secret_verifications() - runs, 2u) << guess;
    }
  }
  EXPECT_EQ(service_.cached_verifications(), 0u);
}

TEST_F(TokenServiceSecurityTest, AResetSecretMissesTheCacheAndTheOldOneIsRefused) {
  ASSERT_EQ(Post(std::string(kBob) + "bob-secret").status, 200);
  SetBobsSecret("new-secret", /*keep_previous=*/false);
  uint64_t runs = service_.secret_verifications();
  EXPECT_EQ(Post(std::string(kBob) + "bob-secret", "10.0.0.3").status, 401);
  EXPECT_EQ(service_.secret_verifications() - runs, 2u);
  EXPECT_EQ(Post(std::string(kBob) + "new-secret", "10.0.0.3").status, 200);
  EXPECT_EQ(service_.cached_verifications(), 0u);
}

TEST_F(TokenServiceSecurityTest, ARotatedSecretStaysCachedWhileItIsThePreviousOne) {
  ASSERT_EQ(Post(std::string(kBob) + "bob-secret").status, 200);
  SetBobsSecret("next-secret", /*keep_previous=*/true);
  EXPECT_EQ(Post(std::string(kBob) + "bob-secret").status, 200);
  EXPECT_EQ(service_.cached_verifications(), 1u);
}

TEST_F(TokenServiceSecurityTest, TheCacheIsPerRealmAndCanBeSwitchedOff) {
  ASSERT_EQ(Post(std::string(kBob) + "bob-secret", "10.0.0.1", "r1").status, 200);
  uint64_t runs = service_.secret_verifications();
  ASSERT_EQ(Post(std::string(kBob) + "bob-secret", "10.0.0.1", "r2").status, 200);
  EXPECT_EQ(service_.secret_verifications() - runs, 2u) << "r2's bob used r1's entry";
  TokenService off(auth_, [this] { return snap_; }, TokenServiceOptions{.verified_secrets = 0});
  for (int i = 0; i < 2; ++i) ASSERT_EQ(Post(off, std::string(kBob) + "bob-secret").status, 200);
  EXPECT_EQ(off.secret_verifications(), 4u);
  EXPECT_EQ(off.cached_verifications(), 0u);
}

TEST_F(TokenServiceSecurityTest, MissingDummyHashRefusesEveryRequest) {
  TokenServiceOptions o;
  o.make_dummy_hash = []() -> Result<std::string> {
    return Fail(ErrorKind::kInternal, "no entropy");
  };
  TokenService broken(auth_, [this] { return snap_; }, o);
  EXPECT_FALSE(broken.status());
  auto unknown = Post(broken, "grant_type=client_credentials&client_id=x&client_secret=y");
  EXPECT_EQ(unknown.status, 500);
  auto known =
      Post(broken, "grant_type=client_credentials&client_id=bob-id&client_secret=bob-secret");
  EXPECT_EQ(known.status, 500);
  EXPECT_TRUE(service_.status());
}

TEST_F(TokenServiceSecurityTest, FullTableKeepsLockoutsAndEvictsTheOldestUnlocked) {
  TokenServiceOptions o{.max_failures_per_client = 2, .max_tracked = 2};
  TokenService service(auth_, [this] { return snap_; }, o);
  auto fail = [&](std::string id) {
    return Post(service, "grant_type=client_credentials&client_id=" + id + "&client_secret=x", "")
        .status;
  };
  EXPECT_EQ(fail("a"), 401);  // a: one failure, not locked
  EXPECT_EQ(fail("b"), 401);
  EXPECT_EQ(fail("b"), 401);  // b: locked
  EXPECT_EQ(fail("c"), 401);  // table full: evicts a, never b
  EXPECT_EQ(fail("b"), 429);
  EXPECT_EQ(fail("c"), 401);  // c: locked too
  // Full of lockouts: a new key cannot be tracked, so it is throttled.
  EXPECT_EQ(fail("d"), 429);
  EXPECT_EQ(fail("b"), 429);
}

TEST_F(TokenServiceSecurityTest, ThrottlingIsPerRealm) {
  std::string bad = "grant_type=client_credentials&client_id=bob-id&client_secret=nope";
  for (int i = 0; i < 3; ++i) EXPECT_EQ(Post(bad, "10.0.1." + std::to_string(i)).status, 401);
  std::string good = "grant_type=client_credentials&client_id=bob-id&client_secret=bob-secret";
  EXPECT_EQ(Post(good, "10.0.2.1", "r1").status, 429);
  EXPECT_EQ(Post(good, "10.0.2.1", "r2").status, 200);
}

TEST_F(TokenServiceSecurityTest, BruteForcerOnOneAddressDoesNotLockOutAnotherClientThere) {
  // The attack: from 127.0.0.1, wrong secrets for alice (a real client) and for random ids,
  // interleaved with bob logging in from the same address.
  TokenServiceOptions o{.max_failures_per_source = 5, .max_failures_per_client = 50};
  o.make_dummy_hash = [] {  // cheap hashes: the test makes ~90 failed attempts
    return auth::HashSecretScrypt(Secret("dummy"), auth::ScryptParams{.log2_n = 4, .r = 8, .p = 1});
  };
  TokenService service(auth_, [this] { return snap_; }, o);
  const std::string attacker = "127.0.0.1";
  const std::string bob = "grant_type=client_credentials&client_id=bob-id&client_secret=bob-secret";
  int alice_429 = 0;
  for (int i = 0; i < 40; ++i) {
    const std::string guess =
        "grant_type=client_credentials&client_id=alice-id&client_secret=guess" + std::to_string(i);
    int status = Post(service, guess, attacker).status;
    EXPECT_TRUE(status == 401 || status == 429) << status;
    alice_429 += status == 429;
    EXPECT_EQ(Post(service, "grant_type=client_credentials&client_id=random" + std::to_string(i) +
                                "&client_secret=x", attacker).status,
              401);
    if (i % 8 == 0) {
      EXPECT_EQ(Post(service, bob, attacker).status, 200) << "round " << i;
    }
  }
  EXPECT_EQ(alice_429, 35);  // locked after 5 failures; every later guess refused unhashed
  EXPECT_EQ(Post(service, bob, attacker).status, 200);
  // The victim is still throttled from the attacker's address, even with the right secret...
  EXPECT_EQ(Post(service, "grant_type=client_credentials&client_id=alice-id"
                          "&client_secret=alice-secret", attacker).status,
            429);
  // ...and logs in from its own.
  EXPECT_EQ(Post(service, "grant_type=client_credentials&client_id=alice-id"
                          "&client_secret=alice-secret", "10.1.1.1").status,
            200);
}

}  // namespace
}  // namespace firn::access
