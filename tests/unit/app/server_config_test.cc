#include "app/server_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace firn::app {
namespace {

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

}  // namespace
}  // namespace firn::app
