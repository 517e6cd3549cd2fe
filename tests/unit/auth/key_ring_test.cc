#include "auth/key_ring.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace firn::auth {
namespace {

constexpr int64_t kNow = 1'700'000'000;

Claims ClaimsFor(int64_t now) {
  Claims c;
  c.sub = "7";
  c.iat = now;
  c.exp = now + 3600;
  return c;
}

TEST(KeyRingTest, SignsWithTheActiveKeyAndVerifies) {
  auto ring = KeyRing::CreateEd25519(kNow);
  ASSERT_TRUE(ring);
  auto token = ring->Sign(ClaimsFor(kNow));
  ASSERT_TRUE(token);
  EXPECT_TRUE(ring->Verify(*token, {}, kNow));
  EXPECT_EQ(ring->active().alg(), JwsAlg::kEdDSA);
}

TEST(KeyRingTest, RotationKeepsOldTokensValidDuringTheOverlapOnly) {
  auto ring = *KeyRing::CreateEd25519(kNow);
  auto old_token = *ring.Sign(ClaimsFor(kNow));
  auto rotated = ring.RotateEd25519(kNow + 10, 600);
  ASSERT_TRUE(rotated);
  EXPECT_NE(rotated->active().kid(), ring.active().kid());
  EXPECT_EQ(rotated->size(), 2u);
  EXPECT_TRUE(rotated->Verify(old_token, {}, kNow + 500));
  auto after = rotated->Verify(old_token, {}, kNow + 611);
  ASSERT_FALSE(after);
  EXPECT_EQ(after.error().message, "Invalid token: unknown key");
  auto new_token = *rotated->Sign(ClaimsFor(kNow + 20));
  EXPECT_TRUE(rotated->Verify(new_token, {}, kNow + 700));
  EXPECT_FALSE(ring.Verify(new_token, {}, kNow + 20));  // the old ring never learns new keys
}

TEST(KeyRingTest, RotationDropsRetireesWhoseWindowEnded) {
  auto ring = *KeyRing::CreateEd25519(kNow);
  auto r2 = *ring.RotateEd25519(kNow + 1, 100);
  auto r3 = *r2.RotateEd25519(kNow + 200, 100);
  EXPECT_EQ(r3.size(), 2u);
}

TEST(KeyRingTest, StoredFormRoundTripsAndHidesThePem) {
  auto ring = *(*KeyRing::CreateEd25519(kNow)).RotateEd25519(kNow + 5, 3600);
  auto rows = ring.ToStored();
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_TRUE((*rows)[0].active);
  EXPECT_FALSE((*rows)[1].active);
  EXPECT_EQ((*rows)[1].verify_until, kNow + 5 + 3600);
  EXPECT_NE((*rows)[0].private_key_pem.Reveal().find("BEGIN PRIVATE KEY"), std::string::npos);
  EXPECT_EQ(fmt::format("{}", (*rows)[0].private_key_pem), "***");

  auto loaded = KeyRing::FromStored(*rows, kNow + 10);
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(loaded->active().kid(), ring.active().kid());
  auto token = *ring.Sign(ClaimsFor(kNow + 10));
  EXPECT_TRUE(loaded->Verify(token, {}, kNow + 10));
  auto token_from_loaded = *loaded->Sign(ClaimsFor(kNow + 10));
  EXPECT_TRUE(ring.Verify(token_from_loaded, {}, kNow + 10));
}

TEST(KeyRingTest, FromStoredDropsExpiredRetireesAndNeedsExactlyOneActive) {
  auto rows = *(*(*KeyRing::CreateEd25519(kNow)).RotateEd25519(kNow, 60)).ToStored();
  EXPECT_EQ(KeyRing::FromStored(rows, kNow + 61)->size(), 1u);
  auto no_active = rows;
  no_active[0].active = false;
  no_active[0].verify_until = kNow + 1000;
  EXPECT_FALSE(KeyRing::FromStored(no_active, kNow));
  auto two_active = rows;
  two_active[1].active = true;
  EXPECT_FALSE(KeyRing::FromStored(two_active, kNow));
  auto garbage = rows;
  garbage[0].private_key_pem = Secret("-----BEGIN PRIVATE KEY-----\nAAAA\n");
  auto r = KeyRing::FromStored(garbage, kNow);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.find("AAAA"), std::string::npos);
}

TEST(KeyRingTest, RotateRefusesAReusedKid) {
  auto ring = *KeyRing::CreateEd25519(kNow);
  auto same = *SigningKey::GenerateEd25519(ring.active().kid());
  EXPECT_FALSE(ring.Rotate(std::move(same), kNow, 60));
}

}  // namespace
}  // namespace firn::auth
