#include "auth/token_cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "auth/key_ring.h"

namespace firn::auth {
namespace {

constexpr int64_t kNow = 1'700'000'000;

std::shared_ptr<const Claims> ClaimsExpiringAt(int64_t exp, std::string sub = "p") {
  auto c = std::make_shared<Claims>();
  c->sub = std::move(sub);
  c->exp = exp;
  return c;
}

TEST(TokenCacheTest, MissThenHitReturnsTheSameClaims) {
  TokenCache cache;
  EXPECT_EQ(cache.Lookup("tok", kNow), nullptr);
  auto claims = ClaimsExpiringAt(kNow + 60);
  cache.Insert("tok", claims, kNow);
  EXPECT_EQ(cache.Lookup("tok", kNow), claims);
  EXPECT_EQ(cache.Lookup("tok2", kNow), nullptr);
}

TEST(TokenCacheTest, EntriesDieAtTokenExpiry) {
  TokenCache cache;
  cache.Insert("tok", ClaimsExpiringAt(kNow + 60), kNow);
  EXPECT_NE(cache.Lookup("tok", kNow + 59), nullptr);
  EXPECT_EQ(cache.Lookup("tok", kNow + 60), nullptr);
}

TEST(TokenCacheTest, DoesNotCacheTokensWithoutExpOrAlreadyExpired) {
  TokenCache cache;
  auto no_exp = std::make_shared<Claims>();
  cache.Insert("a", no_exp, kNow);
  cache.Insert("b", ClaimsExpiringAt(kNow), kNow);
  EXPECT_EQ(cache.size(), 0u);
}

TEST(TokenCacheTest, StaysWithinItsBoundEvictingSoonestExpiryFirst) {
  TokenCache cache(/*max_entries=*/8, /*stripes=*/1);
  for (int i = 0; i < 8; ++i) {
    cache.Insert("t" + std::to_string(i), ClaimsExpiringAt(kNow + 100 + i), kNow);
  }
  cache.Insert("late", ClaimsExpiringAt(kNow + 1000), kNow);
  EXPECT_EQ(cache.size(), 8u);
  EXPECT_EQ(cache.Lookup("t0", kNow), nullptr);  // soonest to expire went first
  EXPECT_NE(cache.Lookup("t7", kNow), nullptr);
  EXPECT_NE(cache.Lookup("late", kNow), nullptr);
}

TEST(TokenCacheTest, VerifyCachedVerifiesOnceThenServesFromCache) {
  auto ring = *KeyRing::CreateEd25519(kNow);
  Claims c;
  c.sub = "9";
  c.exp = kNow + 600;
  auto token = *ring.Sign(c);
  auto keys = ring.VerificationKeysAt(kNow);
  TokenCache cache;
  auto first = VerifyCached(cache, token, keys, {}, kNow);
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)->sub, "9");
  // With no keys at all, only the cache can answer.
  auto second = VerifyCached(cache, token, {}, {}, kNow + 1);
  ASSERT_TRUE(second);
  EXPECT_EQ(*second, *first);
  auto bad = VerifyCached(cache, token + "x", keys, {}, kNow);
  EXPECT_FALSE(bad);
  EXPECT_EQ(cache.size(), 1u);
}

TEST(TokenCacheTest, ConcurrentHitsAndInsertsAreSafe) {
  TokenCache cache(1024, 16);
  std::vector<std::string> tokens;
  for (int i = 0; i < 64; ++i) tokens.push_back("token-" + std::to_string(i));
  for (auto& t : tokens) cache.Insert(t, ClaimsExpiringAt(kNow + 600, t), kNow);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int th = 0; th < 4; ++th) {
    threads.emplace_back([&, th] {
      for (int i = 0; i < 20000; ++i) {
        const auto& t = tokens[(i + th) % tokens.size()];
        auto hit = cache.Lookup(t, kNow);
        if (!hit || hit->sub != t) wrong++;
        if (i % 100 == 0) cache.Insert(t, ClaimsExpiringAt(kNow + 600, t), kNow);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace firn::auth
