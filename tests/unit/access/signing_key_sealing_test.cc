// Sealed signing keys in the access records: SealSigningKeys (migration and KEK rotation), the
// refusal of a wrong KEK before anything is written, and a running snapshot that keeps a key
// another process re-sealed under a KEK it does not hold.
#include <gtest/gtest.h>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include "access/access_records.h"
#include "access/bootstrap.h"
#include "access_test_support.h"

namespace firn::access {
namespace {

using testing::kNow;

auth::KeyEncryptionKeys Keks(std::string text, std::vector<std::string> others = {}) {
  std::vector<auth::KeyEncryptionKey> o;
  for (auto& t : others) o.push_back(*auth::KeyEncryptionKey::FromText(Secret(std::move(t))));
  return auth::KeyEncryptionKeys(*auth::KeyEncryptionKey::FromText(Secret(std::move(text))),
                                 std::move(o));
}

const std::string kK1 = "first key-encryption key, long enough....";
const std::string kK2 = "second key-encryption key, long enough...";

std::vector<store::AccessRecord> KeyRows(testing::FakeAccessStore& store) {
  std::vector<store::AccessRecord> out;
  const store::AccessRows rows = *store.LoadAccess();
  for (const auto& r : rows.records) {
    if (r.kind == store::AccessKind::kSigningKey) out.push_back(r);
  }
  return out;
}

// A realm whose only key row is what a version before sealing wrote.
std::string PlantPlaintextKey(testing::FakeAccessStore& store) {
  auto rows = KeyRows(store);
  EXPECT_EQ(rows.size(), 1u);
  auto key = *DecodeSigningKey(rows[0], testing::TestKeks());
  store::AccessRecord legacy = rows[0];
  boost::json::object o;
  o["alg"] = "EdDSA";
  o["private_key_pem"] = key.private_key_pem.Reveal();
  o["created_at"] = key.created_at;
  o["active"] = true;
  o["verify_until"] = 0;
  legacy.body = boost::json::serialize(o);
  EXPECT_TRUE(store.ApplyAccessWrites({{store::AccessWrite::Op::kUpsert, legacy, {}}}, nullptr,
                                      kNow * 1000));
  return key.private_key_pem.Reveal();
}

TEST(SigningKeySealingTest, BootstrapStoresTheKeySealedNeverInTheClear) {
  testing::FakeAccessStore store;
  ASSERT_TRUE(Bootstrap(store, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
  auto rows = KeyRows(store);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].body.find("PRIVATE KEY"), std::string::npos) << rows[0].body;
  EXPECT_EQ(InspectSigningKey(rows[0])->kek_id, testing::TestKeks().primary().id());
}

TEST(SigningKeySealingTest, PlaintextRowsFromAnEarlierVersionAreSealedKeepingTheKey) {
  testing::FakeAccessStore store;
  ASSERT_TRUE(Bootstrap(store, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
  std::string pem = PlantPlaintextKey(store);
  ASSERT_NE(KeyRows(store)[0].body.find("PRIVATE KEY"), std::string::npos);

  auto result = SealSigningKeys(store, testing::TestKeks(), SealMode::kPlaintextOnly, kNow);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->sealed, 1);
  auto row = KeyRows(store)[0];
  EXPECT_EQ(row.body.find("PRIVATE KEY"), std::string::npos) << row.body;
  EXPECT_EQ(row.body.find("private_key_pem"), std::string::npos);
  EXPECT_EQ(DecodeSigningKey(row, testing::TestKeks())->private_key_pem.Reveal(), pem);
  // A second start finds nothing to do.
  auto again = SealSigningKeys(store, testing::TestKeks(), SealMode::kPlaintextOnly, kNow);
  EXPECT_EQ(again->sealed, 0);
  EXPECT_EQ(again->kept, 1);
  EXPECT_EQ(again->access_version, 0);
}

// The attack (or the operator's mistake): start with another KEK. Refused, naming both ids,
// and nothing is written — no plaintext row is sealed under the wrong KEK, no new key.
TEST(SigningKeySealingTest, AWrongKekIsRefusedBeforeAnythingIsWritten) {
  testing::FakeAccessStore store;
  ASSERT_TRUE(Bootstrap(store, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
  ASSERT_TRUE(Bootstrap(store, testing::AliceOptions("r2"), testing::TestKeks(), kNow * 1000));
  const auto before = store.LoadAccess()->version;
  auto wrong = Keks(kK1);
  auto sealed = SealSigningKeys(store, wrong, SealMode::kPlaintextOnly, kNow);
  ASSERT_FALSE(sealed);
  EXPECT_EQ(sealed.error().kind, ErrorKind::kIllegalArgument);
  EXPECT_NE(sealed.error().message.find(testing::TestKeks().primary().id()), std::string::npos);
  EXPECT_NE(sealed.error().message.find(wrong.primary().id()), std::string::npos);
  auto rotated = RotateSigningKeys(store, "r1", wrong, 3600, kNow);
  ASSERT_FALSE(rotated);
  EXPECT_EQ(store.LoadAccess()->version, before);
}

TEST(SigningKeySealingTest, ATamperedSealIsRefused) {
  testing::FakeAccessStore store;
  ASSERT_TRUE(Bootstrap(store, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
  auto row = KeyRows(store)[0];
  auto pos = row.body.find("\"sealed_private_key\":\"") + 22;
  row.body[pos] = row.body[pos] == 'A' ? 'B' : 'A';
  ASSERT_TRUE(store.ApplyAccessWrites({{store::AccessWrite::Op::kUpsert, row, {}}}, nullptr, 1));
  auto sealed = SealSigningKeys(store, testing::TestKeks(), SealMode::kPlaintextOnly, kNow);
  ASSERT_FALSE(sealed);
  EXPECT_NE(sealed.error().message.find("does not open"), std::string::npos);
}

TEST(SigningKeySealingTest, KekRotationResealsEveryRowAndOnlyThePreviousKekStillOpensOldRows) {
  testing::FakeAccessStore store;
  auto k1 = Keks(kK1);
  ASSERT_TRUE(Bootstrap(store, testing::AliceOptions("r1"), k1, kNow * 1000));
  ASSERT_TRUE(RotateSigningKeys(store, "r1", k1, 3600, kNow));  // two key rows
  auto both = Keks(kK2, {kK1});
  auto result = SealSigningKeys(store, both, SealMode::kAll, kNow);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->resealed, 2);
  for (const auto& row : KeyRows(store)) {
    EXPECT_EQ(InspectSigningKey(row)->kek_id, both.primary().id());
  }
  EXPECT_TRUE(SealSigningKeys(store, Keks(kK2), SealMode::kPlaintextOnly, kNow));
  EXPECT_FALSE(SealSigningKeys(store, k1, SealMode::kPlaintextOnly, kNow));
}

TEST(SigningKeySealingTest, ARunningSnapshotKeepsAKeyReSealedUnderAKekItDoesNotHold) {
  testing::FakeAccessStore store;
  auto k1 = Keks(kK1);
  ASSERT_TRUE(Bootstrap(store, testing::AliceOptions("r1"), k1, kNow * 1000));
  auto held = *BuildAccessSnapshot(*store.LoadAccess(), kNow, k1);
  const std::string kid = held->FindRealm("r1")->keys->active().kid();
  ASSERT_TRUE(SealSigningKeys(store, Keks(kK2, {kK1}), SealMode::kAll, kNow));

  // Without the earlier snapshot the realm has no usable key under K1 alone...
  auto cold = *BuildAccessSnapshot(*store.LoadAccess(), kNow, k1);
  EXPECT_FALSE(cold->FindRealm("r1")->keys);
  // ...with it, the running instance keeps the same key and still signs and verifies.
  auto warm = *BuildAccessSnapshot(*store.LoadAccess(), kNow, k1, held.get());
  ASSERT_TRUE(warm->FindRealm("r1")->keys);
  EXPECT_EQ(warm->FindRealm("r1")->keys->active().kid(), kid);
  auth::Claims c;
  c.iat = kNow;
  c.exp = kNow + 60;
  auto token = warm->FindRealm("r1")->keys->Sign(c);
  ASSERT_TRUE(token);
  EXPECT_TRUE(held->FindRealm("r1")->keys->Verify(*token, {}, kNow));
  // A restarted instance with the new KEK opens the rows itself.
  auto restarted = *BuildAccessSnapshot(*store.LoadAccess(), kNow, Keks(kK2));
  EXPECT_EQ(restarted->FindRealm("r1")->keys->active().kid(), kid);
}

}  // namespace
}  // namespace firn::access
