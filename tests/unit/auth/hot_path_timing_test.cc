// Hot-path (and snapshot-rebuild) costs, printed and never asserted (timings on a shared
// 2-core box are noise-prone).
// Run: firn_auth_test --gtest_filter='HotPathTiming*'. Build type matters: read Release numbers.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "auth/authorizer.h"
#include "auth/key_encryption.h"
#include "auth/key_ring.h"
#include "auth/token_cache.h"

namespace firn::auth {
namespace {

constexpr int64_t kNow = 1'700'000'000;

template <typename F>
double NanosPerOp(int iterations, F&& f) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) f();
  auto ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start);
  return ns.count() / iterations;
}

TEST(HotPathTimingTest, TokenCheckCachedVersusFullVerify) {
  auto ring = *KeyRing::CreateEd25519(kNow);
  Claims c;
  c.iss = "firn";
  c.sub = "1234567890";
  c.realm = "POLARIS";
  c.roles = {"engineers", "readers"};
  c.scope = "PRINCIPAL_ROLE:ALL";
  c.jti = "6f1c7f0a-2b7e-4a57-9d0e-5c1b0f6f8a11";
  c.iat = kNow;
  c.exp = kNow + 3600;
  c.ver = 1;
  std::string token = *ring.Sign(c);
  auto keys = ring.VerificationKeysAt(kNow);
  TokenCache cache;
  // Fill the cache with other tokens so lookups are not in an empty map.
  for (int i = 0; i < 5000; ++i) {
    c.jti = std::to_string(i);
    cache.Insert(*ring.Sign(c), std::make_shared<const Claims>(c), kNow);
  }
  ASSERT_TRUE(VerifyCached(cache, token, keys, {}, kNow));

  volatile bool sink = false;
  double hit = NanosPerOp(200000, [&] {
    auto r = VerifyCached(cache, token, keys, {}, kNow);
    sink = sink ^ static_cast<bool>(r);
  });
  double verify = NanosPerOp(2000, [&] {
    auto r = VerifyJwt(token, keys, {}, kNow);
    sink = sink ^ static_cast<bool>(r);
  });
  std::printf("[timing] token %zu bytes: cached check %.0f ns/op, full Ed25519 verify %.0f ns/op\n",
              token.size(), hit, verify);
}

TEST(HotPathTimingTest, AuthorizeOnADeepTable) {
  GrantSnapshotBuilder b;
  ASSERT_TRUE(b.AssignPrincipalRole("POLARIS", "alice", "analyst"));
  ASSERT_TRUE(b.AssignPrincipalRole("POLARIS", "alice", "etl"));
  ASSERT_TRUE(b.AssignCatalogRole("POLARIS", "analyst", "wild", "reader"));
  ASSERT_TRUE(b.AssignCatalogRole("POLARIS", "etl", "wild", "writer"));
  // 1,000 namespaces with grants, so the maps are not trivially small.
  for (int i = 0; i < 1000; ++i) {
    Resource ns{"POLARIS", "wild", {"db", "ns" + std::to_string(i)}, std::nullopt, std::nullopt};
    ASSERT_TRUE(b.Grant(ns, "reader", Privilege::kTABLE_READ_DATA));
  }
  Resource db{"POLARIS", "wild", {"db"}, std::nullopt, std::nullopt};
  ASSERT_TRUE(b.Grant(db, "writer", Privilege::kTABLE_WRITE_DATA));
  auto snap = b.Build(1);
  Subject alice{"POLARIS", "alice", {}, true};
  Resource table{"POLARIS", "wild", {"db", "ns500", "a", "b"}, "orders", std::nullopt};

  volatile bool sink = false;
  double allow = NanosPerOp(200000, [&] {
    sink = sink ^ Authorize(*snap, alice, Privilege::kTABLE_READ_PROPERTIES, table).allowed;
  });
  double deny_path = NanosPerOp(200000, [&] {
    sink = sink ^ Authorize(*snap, alice, Privilege::kTABLE_DROP, table).allowed;
  });
  ASSERT_TRUE(Authorize(*snap, alice, Privilege::kTABLE_READ_PROPERTIES, table));
  std::printf("[timing] Authorize depth 4 + table: allow %.0f ns/op, deny %.0f ns/op\n", allow,
              deny_path);
}

// Not per request: what a snapshot rebuild pays per stored signing key since keys are sealed
// (open the row with the KEK, then parse the PEM as before).
TEST(HotPathTimingTest, OpeningASealedSigningKey) {
  auto ring = *KeyRing::CreateEd25519(kNow);
  auto rows = *ring.ToStored();
  auto kek = *KeyEncryptionKey::FromText(Secret(std::string(43, 'k')));
  const std::string aad = "[\"firn signing key v1\",\"default\",\"kid\",\"EdDSA\"]";
  std::string sealed = *kek.Seal(rows[0].private_key_pem, aad);
  volatile bool sink = false;
  double open = NanosPerOp(20000, [&] { sink = sink ^ static_cast<bool>(kek.Open(sealed, aad)); });
  double parse = NanosPerOp(20000, [&] {
    sink = sink ^ static_cast<bool>(SigningKey::FromPem("kid", JwsAlg::kEdDSA,
                                                        rows[0].private_key_pem));
  });
  double derive = NanosPerOp(2000, [&] {
    sink = sink ^ static_cast<bool>(KeyEncryptionKey::FromText(Secret(std::string(43, 'k'))));
  });
  std::printf("[timing] sealed key (%zu chars): open %.0f ns, PEM parse %.0f ns; KEK derive "
              "(once per start) %.0f ns\n", sealed.size(), open, parse, derive);
}

}  // namespace
}  // namespace firn::auth
