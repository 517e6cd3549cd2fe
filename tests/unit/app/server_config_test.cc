#include "app/server_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace firn::app {
namespace {

// A data directory for Finalize under the temporary directory, unique to this process.
std::string TempDataDir(const std::string& name) {
  return (std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()))).string();
}

// ApplyEnvironment with one variable set for the call only.
Status ApplyEnvironmentWith(const char* name, const char* value, ServerConfig& config) {
  ::setenv(name, value, 1);
  Status st = ApplyEnvironment(config);
  ::unsetenv(name);
  return st;
}

class ServerConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("firn_server_config_" + std::to_string(::getpid()));
    config_.data_dir = dir_.string();
    config_.oidc_issuer = "https://idp.example";
    config_.oidc_jwks_file = "/tmp/jwks.json";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
  ServerConfig config_;
};

TEST_F(ServerConfigTest, OidcIssuerWithoutAudienceIsRefused) {
  auto st = Finalize(config_);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::kIllegalArgument);
  EXPECT_NE(st.error().message.find("oidc-audience"), std::string::npos);
}

TEST_F(ServerConfigTest, OidcIssuerWithAudienceIsAccepted) {
  config_.oidc_audience = "firn";
  EXPECT_TRUE(Finalize(config_));
}

TEST(ServerConfigLimitsTest, EachLimitIsASettingByNameFileAndEnvironment) {
  ServerConfig c;
  ASSERT_TRUE(ApplySetting("max-property-key-bytes", "32", c));
  ASSERT_TRUE(ApplySetting("max_property_value_bytes", "100", c));
  ASSERT_TRUE(ApplySetting("max-properties-bytes", "4096", c));
  ASSERT_TRUE(ApplySetting("max-properties", "7", c));
  ASSERT_TRUE(ApplySetting("max-metadata-file-bytes", "2048", c));
  EXPECT_EQ(c.max_property_key_bytes, 32u);
  EXPECT_EQ(c.max_property_value_bytes, 100u);
  EXPECT_EQ(c.max_properties_bytes, 4096u);
  EXPECT_EQ(c.max_properties, 7u);
  EXPECT_EQ(c.max_metadata_file_bytes, 2048u);

  const auto file = std::filesystem::temp_directory_path() /
                    ("firn_limits_" + std::to_string(::getpid()) + ".toml");
  { std::ofstream(file) << "max-properties = 9\n"; }
  ServerConfig from_file;
  ASSERT_TRUE(ApplyConfigFile(file.string(), from_file));
  std::filesystem::remove(file);
  EXPECT_EQ(from_file.max_properties, 9u);

  ServerConfig from_env;
  ASSERT_TRUE(ApplyEnvironmentWith("FIRN_MAX_PROPERTY_VALUE_BYTES", "1234", from_env));
  EXPECT_EQ(from_env.max_property_value_bytes, 1234u);
}

TEST(ServerConfigLimitsTest, ZeroOrGarbageLimitsAreRefused) {
  ServerConfig c;
  for (const char* key : {"max-property-key-bytes", "max-property-value-bytes",
                          "max-properties-bytes", "max-properties", "max-metadata-file-bytes"}) {
    for (const char* value : {"0", "-1", "ten", ""}) {
      auto st = ApplySetting(key, value, c);
      ASSERT_FALSE(st) << key << "=" << value;
      EXPECT_EQ(st.error().kind, ErrorKind::kIllegalArgument);
    }
  }
  EXPECT_FALSE(ApplySetting("max-metadata-file-bytes", "1023", c));  // below 1 KiB
}

TEST(ServerLimitsConfigTest, ConnectionAndBodyLimitsComeFromFileEnvironmentAndFlags) {
  ServerConfig c;
  EXPECT_EQ(c.max_connections, 1024);
  EXPECT_EQ(c.max_inflight_body_bytes, uint64_t{256} << 20);
  const auto file = std::filesystem::temp_directory_path() /
                    ("firn_limits_" + std::to_string(::getpid()) + ".toml");
  {
    std::ofstream out(file);
    out << "max-connections = 300\nmax_inflight_body_bytes = 33554432\n";
  }
  ASSERT_TRUE(ApplyConfigFile(file.string(), c));
  std::filesystem::remove(file);
  EXPECT_EQ(c.max_connections, 300);
  EXPECT_EQ(c.max_inflight_body_bytes, uint64_t{32} << 20);
  ASSERT_TRUE(ApplyEnvironmentWith("FIRN_MAX_CONNECTIONS", "400", c));
  EXPECT_EQ(c.max_connections, 400);
  ASSERT_TRUE(ApplySetting("max-inflight-body-bytes", "50000000", c));  // a --flag
  EXPECT_EQ(c.max_inflight_body_bytes, 50000000u);
  EXPECT_FALSE(ApplySetting("max-connections", "0", c));
  EXPECT_FALSE(ApplySetting("max-connections", "many", c));
}

TEST(ServerLimitsConfigTest, InflightBudgetBelowTheBodyLimitIsRefused) {
  ServerConfig c;
  c.data_dir = TempDataDir("firn_limits_dir_");
  c.max_body_bytes = 16u << 20;
  c.max_inflight_body_bytes = 8u << 20;
  auto st = Finalize(c);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("max-inflight-body-bytes"), std::string::npos);
  c.max_inflight_body_bytes = 16u << 20;
  EXPECT_TRUE(Finalize(c));
  std::filesystem::remove_all(c.data_dir);
}

// --event-sink-urls is a setting by name and environment, and a malformed prefix stops the
// start before anything is written (docs/events.md, "Where sinks may point").
TEST(ServerConfigEventSinkUrlsTest, AMalformedPrefixIsRefusedAtStart) {
  ServerConfig c;
  c.data_dir = TempDataDir("firn_sink_urls_dir_");
  ASSERT_TRUE(ApplySetting("event-sink-urls", "https://hooks.example.com/,hooks.internal", c));
  auto st = Finalize(c);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::kIllegalArgument);
  EXPECT_NE(st.error().message.find("--event-sink-urls"), std::string::npos);
  ServerConfig env;
  env.data_dir = c.data_dir;
  ASSERT_TRUE(ApplyEnvironmentWith("FIRN_EVENT_SINK_URLS",
                                   "https://hooks.example.com/,http://10.1.2.3:8080/in", env));
  EXPECT_EQ(env.event_sink_urls, "https://hooks.example.com/,http://10.1.2.3:8080/in");
  EXPECT_TRUE(Finalize(env));
  std::filesystem::remove_all(c.data_dir);
}

// Production keeps its one-minute floor for --token-lifetime; only FIRN_TEST_MODE=on in the
// environment admits shorter lifetimes (expiry tests), and no flag or config file can set it.
TEST(ServerConfigTokenLifetimeTest, BelowAMinuteOnlyInTestModeFromTheEnvironment) {
  ServerConfig c;
  c.data_dir = TempDataDir("firn_lifetime_dir_");
  ASSERT_TRUE(ApplySetting("token-lifetime", "5", c));  // a --flag; checked by Finalize
  auto st = Finalize(c);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::kIllegalArgument);
  EXPECT_NE(st.error().message.find(">= 60"), std::string::npos) << st.error().message;
  c.token_lifetime = kMinTokenLifetimeSeconds;
  EXPECT_TRUE(Finalize(c));

  EXPECT_FALSE(ApplySetting("test-mode", "on", c));  // not a setting: environment only
  EXPECT_FALSE(ApplySetting("token-lifetime", "0", c));  // below even test mode's floor
  ServerConfig test;
  test.data_dir = c.data_dir;
  ASSERT_TRUE(ApplyEnvironmentWith("FIRN_TEST_MODE", "on", test));
  EXPECT_TRUE(test.test_mode);
  ASSERT_TRUE(ApplySetting("token-lifetime", "5", test));
  EXPECT_TRUE(Finalize(test));
  EXPECT_EQ(test.token_lifetime, 5);

  ServerConfig garbage;
  EXPECT_FALSE(ApplyEnvironmentWith("FIRN_TEST_MODE", "yes please", garbage));
  EXPECT_FALSE(garbage.test_mode);
  std::filesystem::remove_all(c.data_dir);
}

}  // namespace
}  // namespace firn::app
