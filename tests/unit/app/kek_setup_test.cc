// Where the key-encryption key comes from, and what a start does with it: the SQLite default
// file (generated owner-only beside the database's directory), PostgreSQL's refusal without
// one, the refusal of a wrong or missing KEK over sealed rows, and KEK rotation.
#include "app/kek_setup.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../access/access_test_support.h"
#include "../support/file_modes.h"
#include "access/access_records.h"
#include "app/private_file.h"

namespace firn::app {
namespace {

namespace fs = std::filesystem;
using access::testing::kNow;

const std::string kK1 = "first key-encryption key, long enough....";
const std::string kK2 = "second key-encryption key, long enough...";

using firn::testing::ModeOf;

class KekSetupTest : public firn::testing::UmaskZeroTest {
 protected:
  void SetUp() override {
    UmaskZeroTest::SetUp();
    root_ = dir_;
    fs::create_directories(root_ / "data");
    config_.data_dir = (root_ / "data").string();
    config_.db_url = "sqlite://" + (root_ / "data" / "firn.db").string();
  }
  fs::path DefaultFile() const { return root_ / "data.kek"; }
  std::vector<store::AccessRecord> KeyRows() {
    std::vector<store::AccessRecord> out;
    const store::AccessRows rows = *store_.LoadAccess();
    for (const auto& r : rows.records) {
      if (r.kind == store::AccessKind::kSigningKey) out.push_back(r);
    }
    return out;
  }
  void BootstrapWith(const auth::KeyEncryptionKeys& keks) {
    ASSERT_TRUE(access::Bootstrap(store_, access::testing::AliceOptions("r1"), keks, kNow * 1000));
  }

  fs::path root_;
  ServerConfig config_;
  access::testing::FakeAccessStore store_;
};

TEST(DefaultKekPathTest, IsASiblingOfTheDatabaseDirectory) {
  EXPECT_EQ(DefaultKekPath("/var/lib/firn/data/firn.db"), "/var/lib/firn/data.kek");
  EXPECT_EQ(DefaultKekPath("/var/lib/firn/data//firn.db"), "/var/lib/firn/data.kek");
  EXPECT_EQ(DefaultKekPath("/firn.db"), "");
}

TEST_F(KekSetupTest, TheSqliteDefaultIsGeneratedOwnerOnlyOnceAndThenReused) {
  auto first = ResolveKeks(store_, config_, true);  // under umask 000
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_TRUE(first->generated);
  EXPECT_EQ(first->default_file, DefaultFile().string());
  EXPECT_EQ(ModeOf(DefaultFile()), 0600);
  EXPECT_FALSE(fs::exists(root_ / "data" / "data.kek"));
  auto second = ResolveKeks(store_, config_, true);
  ASSERT_TRUE(second);
  EXPECT_FALSE(second->generated);
  EXPECT_EQ(second->keks->primary().id(), first->keks->primary().id());
}

TEST_F(KekSetupTest, PostgresWithoutAKekIsRefused) {
  config_.db_url = "postgresql://firn@127.0.0.1:5432/catalog";
  auto r = ResolveKeks(store_, config_, true);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kIllegalArgument);
  EXPECT_NE(r.error().message.find("PostgreSQL needs a key-encryption key"), std::string::npos);
  EXPECT_FALSE(fs::exists(DefaultFile()));
  config_.kek = Secret(kK1);
  EXPECT_TRUE(ResolveKeks(store_, config_, true));
  config_.kek = Secret("too short");
  EXPECT_FALSE(ResolveKeks(store_, config_, true));
}

// The attack: the KEK file is gone (or never copied with a stolen database). Never a fresh KEK
// over sealed rows: refused, naming the KEK the rows need.
TEST_F(KekSetupTest, SealedRowsWithoutTheirKekRefuseAndNoKekIsGenerated) {
  BootstrapWith(access::testing::TestKeks());
  auto r = ResolveKeks(store_, config_, true);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find(access::testing::TestKeks().primary().id()),
            std::string::npos);
  EXPECT_FALSE(fs::exists(DefaultFile()));
  auto prepared = PrepareKeyEncryption(store_, config_);
  ASSERT_FALSE(prepared);
  config_.kek = Secret(kK1);  // a KEK, but the wrong one
  prepared = PrepareKeyEncryption(store_, config_);
  ASSERT_FALSE(prepared);
  EXPECT_NE(prepared.error().message.find("which is not configured"), std::string::npos);
}

TEST_F(KekSetupTest, PrepareSealsPlaintextRowsOfAnEarlierVersion) {
  BootstrapWith(access::testing::TestKeks());
  auto row = KeyRows()[0];
  auto key = *access::DecodeSigningKey(row, access::testing::TestKeks());
  row.body = R"({"alg":"EdDSA","private_key_pem":")" + std::string("PEM-TEXT") +
             R"(","created_at":1,"active":true,"verify_until":0})";
  ASSERT_TRUE(store_.ApplyAccessWrites({{store::AccessWrite::Op::kUpsert, row, {}}}, nullptr, 1));
  auto keks = PrepareKeyEncryption(store_, config_);  // generates the default, seals the row
  ASSERT_TRUE(keks) << keks.error().message;
  auto sealed = KeyRows()[0];
  EXPECT_EQ(sealed.body.find("PEM-TEXT"), std::string::npos);
  EXPECT_EQ(access::InspectSigningKey(sealed)->kek_id, (*keks)->primary().id());
  EXPECT_EQ(access::DecodeSigningKey(sealed, **keks)->private_key_pem.Reveal(), "PEM-TEXT");
}

TEST_F(KekSetupTest, RotationOnTheDefaultFileReplacesItAndRetiresTheOldKek) {
  auto first = ResolveKeks(store_, config_, true);
  ASSERT_TRUE(first);
  BootstrapWith(*first->keks);
  auto rotation = RotateKek(store_, config_, std::nullopt);
  ASSERT_TRUE(rotation) << rotation.error().message;
  EXPECT_EQ(rotation->previous_id, first->keks->primary().id());
  EXPECT_EQ(rotation->resealed, 1);
  EXPECT_FALSE(fs::exists(DefaultFile().string() + ".next"));
  EXPECT_EQ(ModeOf(DefaultFile()), 0600);
  auto now = ResolveKeks(store_, config_, false);
  ASSERT_TRUE(now);
  EXPECT_EQ(now->keks->primary().id(), rotation->next_id);
  EXPECT_EQ(access::InspectSigningKey(KeyRows()[0])->kek_id, rotation->next_id);
  EXPECT_TRUE(PrepareKeyEncryption(store_, config_));
}

// A rotation that stopped after staging and re-sealing (before the file moved into place):
// the next start still opens every row, and a rerun finishes the job.
TEST_F(KekSetupTest, AnInterruptedRotationStillOpensAndARerunFinishesIt) {
  auto first = ResolveKeks(store_, config_, true);
  ASSERT_TRUE(first);
  BootstrapWith(*first->keks);
  const fs::path staged = DefaultFile().string() + ".next";
  ASSERT_TRUE(WritePrivateFile(staged, kK2 + "\n"));
  auto k2 = *auth::KeyEncryptionKey::FromText(Secret(kK2));
  ASSERT_TRUE(access::SealSigningKeys(store_, auth::KeyEncryptionKeys(k2, {first->keks->primary()}),
                                      access::SealMode::kAll, kNow));
  EXPECT_TRUE(PrepareKeyEncryption(store_, config_));  // the staged KEK opens the rows
  auto rerun = RotateKek(store_, config_, std::nullopt);
  ASSERT_TRUE(rerun) << rerun.error().message;
  EXPECT_EQ(rerun->next_id, k2.id());
  EXPECT_FALSE(fs::exists(staged));
  EXPECT_EQ(ResolveKeks(store_, config_, false)->keks->primary().id(), k2.id());
}

TEST_F(KekSetupTest, RotationWithAConfiguredKekNeedsTheNewOneAndThePreviousStillOpens) {
  config_.kek = Secret(kK1);
  auto k1 = ResolveKeks(store_, config_, true);
  ASSERT_TRUE(k1);
  EXPECT_FALSE(fs::exists(DefaultFile()));
  BootstrapWith(*k1->keks);
  EXPECT_FALSE(RotateKek(store_, config_, std::nullopt));
  EXPECT_FALSE(RotateKek(store_, config_, Secret(kK1)));  // the same KEK
  auto rotation = RotateKek(store_, config_, Secret(kK2));
  ASSERT_TRUE(rotation) << rotation.error().message;
  EXPECT_EQ(rotation->resealed, 1);
  EXPECT_FALSE(PrepareKeyEncryption(store_, config_));  // only the old KEK: refused
  config_.kek = Secret(kK2);
  EXPECT_TRUE(PrepareKeyEncryption(store_, config_));
  config_.kek = Secret(kK1);
  config_.previous_kek = Secret(kK2);  // an instance not yet switched over, with both
  EXPECT_TRUE(PrepareKeyEncryption(store_, config_));
}

TEST_F(KekSetupTest, KekSettingsComeFromAFileOrTheEnvironment) {
  std::ofstream(root_ / "ops.kek") << kK1 << "\n";
  ServerConfig c;
  ASSERT_TRUE(ApplySetting("kek-file", (root_ / "ops.kek").string(), c));
  EXPECT_EQ(c.kek.Reveal(), kK1);
  EXPECT_FALSE(ApplySetting("kek_file", (root_ / "missing").string(), c));
  ::setenv("FIRN_PREVIOUS_KEK", kK2.c_str(), 1);
  ServerConfig e;
  ASSERT_TRUE(ApplyEnvironment(e));
  ::unsetenv("FIRN_PREVIOUS_KEK");
  EXPECT_EQ(e.previous_kek.Reveal(), kK2);
  EXPECT_EQ(fmt::format("{}", e.previous_kek), "***");
}

}  // namespace
}  // namespace firn::app
