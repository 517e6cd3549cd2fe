// Named server-side S3 key sets (s3-key-sets): read from their files, never echoed in an error,
// and refused when malformed; the vendor's settings carry them.
#include "app/storage_settings.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace firn::app {
namespace {

class StorageSettingsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("firn_storage_settings_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    config_.s3_endpoint = "http://127.0.0.1:8333";
    config_.s3_access_key_id = "server-key";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const std::filesystem::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }

  std::filesystem::path dir_;
  ServerConfig config_;
};

TEST_F(StorageSettingsTest, KeySetsAreReadFromTheirFiles) {
  const std::string a = Write("a.keys", "# tenant a\naccess_key_id = AKA\n"
                                        "secret_access_key = secret-a\n");
  const std::string b = Write("b.keys", "access_key_id=AKB\r\nsecret_access_key=secret-b\r\n"
                                        "session_token = token-b\r\n");
  ASSERT_TRUE(ApplySetting("s3-key-sets", "tenant-a=" + a + ", tenant_b=" + b, config_));
  auto sets = S3KeySetsOf(config_);
  ASSERT_TRUE(sets) << sets.error().message;
  ASSERT_EQ(sets->size(), 2u);
  EXPECT_EQ(sets->at("tenant-a").access_key_id, "AKA");
  EXPECT_EQ(sets->at("tenant-a").secret_access_key.Reveal(), "secret-a");
  EXPECT_TRUE(sets->at("tenant-a").session_token.empty());
  EXPECT_EQ(sets->at("tenant_b").session_token.Reveal(), "token-b");
  auto vending = VendingSettingsOf(config_);
  ASSERT_TRUE(vending && *vending);
  EXPECT_EQ((*vending)->key_sets.at("tenant_b").access_key_id, "AKB");
}

TEST_F(StorageSettingsTest, MalformedKeySetsAreRefusedWithoutEchoingAKey) {
  const std::string good = Write("good.keys", "access_key_id = AK\nsecret_access_key = s3cr3t\n");
  const std::string no_secret = Write("no-secret.keys", "access_key_id = AK\n");
  const std::string stray = Write("stray.keys", "access_key_id = AK\nsecret_access_key = s3cr3t\n"
                                                "region = us-east-1\n");
  const std::string no_eq = Write("no-eq.keys", "s3cr3t-on-its-own\n");
  for (const std::string& list : std::vector<std::string>{
           std::string("bad name=") + good, "x" + std::string(65, 'y') + "=" + good,
        std::string("nameonly"), "a=" + good + ",a=" + good, "a=" + no_secret, "a=" + stray, "a=" + no_eq,
        "a=" + (dir_ / "absent.keys").string()}) {
    config_.s3_key_sets = list;
    auto sets = S3KeySetsOf(config_);
    ASSERT_FALSE(sets) << list;
    EXPECT_EQ(sets.error().kind, ErrorKind::kIllegalArgument);
    EXPECT_EQ(sets.error().message.find("s3cr3t"), std::string::npos) << sets.error().message;
  }
}

TEST_F(StorageSettingsTest, KeySetsNeedTheServersS3Connection) {
  config_.s3_endpoint.clear();
  config_.s3_access_key_id.clear();
  EXPECT_TRUE(VendingSettingsOf(config_));  // nothing configured: no vending, no error
  config_.s3_key_sets = "a=" + Write("a.keys", "access_key_id=A\nsecret_access_key=S\n");
  auto refused = VendingSettingsOf(config_);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kIllegalArgument);
}

}  // namespace
}  // namespace firn::app
