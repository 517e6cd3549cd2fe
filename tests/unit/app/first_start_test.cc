#include "app/first_start.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../access/access_test_support.h"
#include "access/access_snapshot.h"
#include "auth/secrets.h"

namespace firn::app {
namespace {

// Records what the credentials file held when the bootstrap committed; can fail that write.
class ObservingStore : public access::testing::FakeAccessStore {
 public:
  Result<int64_t> ApplyAccessWrites(const std::vector<store::AccessWrite>& writes,
                                    const store::AuditEntry* audit, int64_t now_ms) override {
    std::ifstream in(file);
    std::stringstream s;
    s << in.rdbuf();
    file_at_commit = s.str();
    if (fail_writes) return Fail(ErrorKind::kServiceUnavailable, "down");
    return FakeAccessStore::ApplyAccessWrites(writes, audit, now_ms);
  }
  std::filesystem::path file;
  std::string file_at_commit;
  bool fail_writes = false;
};

class FirstStartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::unsetenv("FIRN_BOOTSTRAP_CREDENTIALS");
    ::unsetenv("FIRN_BOOTSTRAP_CREDENTIALS_FILE");
    dir_ = std::filesystem::temp_directory_path() /
           ("firn_first_start_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    config_.data_dir = dir_.string();
    config_.catalog_name = "wh";
    config_.warehouse = "file://" + dir_.string() + "/warehouse";
  }
  void TearDown() override {
    ::unsetenv("FIRN_BOOTSTRAP_CREDENTIALS");
    std::filesystem::remove_all(dir_);
  }
  std::shared_ptr<const access::AccessSnapshot> Snapshot() {
    return *access::BuildAccessSnapshot(*store_.LoadAccess(), 0, access::testing::TestKeks());
  }
  std::string CredentialsFile() {
    std::ifstream in(dir_ / "admin-credentials");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::filesystem::path dir_;
  ServerConfig config_;
  access::testing::FakeAccessStore store_;
};

TEST_F(FirstStartTest, BootstrapsAndWritesGeneratedCredentialsTo0600File) {
  ASSERT_TRUE(PrepareAccess(store_, config_, access::testing::TestKeks()));
  struct stat st {};
  ASSERT_EQ(::stat((dir_ / "admin-credentials").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600);
  std::string text = CredentialsFile();
  auto secret_at = text.find("client_secret=");
  ASSERT_NE(secret_at, std::string::npos);
  std::string secret = text.substr(secret_at + 14);
  secret.pop_back();  // newline
  auto snap = Snapshot();
  const auto* admin = snap->FindPrincipal("default", "admin");
  ASSERT_TRUE(admin);
  EXPECT_NE(text.find("client_id=" + admin->client_id), std::string::npos);
  EXPECT_TRUE(auth::VerifySecret(Secret(secret), admin->secret_hash));
  EXPECT_TRUE(snap->FindCatalog("default", "wh"));
}

TEST_F(FirstStartTest, SecondStartChangesNothing) {
  ASSERT_TRUE(PrepareAccess(store_, config_, access::testing::TestKeks()));
  std::string before = CredentialsFile();
  size_t records = store_.record_count();
  ASSERT_TRUE(PrepareAccess(store_, config_, access::testing::TestKeks()));
  EXPECT_EQ(CredentialsFile(), before);
  EXPECT_EQ(store_.record_count(), records);
}

TEST_F(FirstStartTest, ExistingCredentialsFileIsNeverOverwritten) {
  std::ofstream(dir_ / "admin-credentials") << "keep me\n";
  auto st = PrepareAccess(store_, config_, access::testing::TestKeks());
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(CredentialsFile(), "keep me\n");
  EXPECT_EQ(store_.record_count(), 0u);
}

TEST_F(FirstStartTest, SuppliedCredentialsAreUsedAndNotWritten) {
  ::setenv("FIRN_BOOTSTRAP_CREDENTIALS", "default,my-id,my-secret", 1);
  ASSERT_TRUE(PrepareAccess(store_, config_, access::testing::TestKeks()));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "admin-credentials"));
  auto snap = Snapshot();
  const auto* admin = snap->FindPrincipal("default", "admin");
  ASSERT_TRUE(admin);
  EXPECT_EQ(admin->client_id, "my-id");
  EXPECT_TRUE(auth::VerifySecret(Secret("my-secret"), admin->secret_hash));
}

TEST_F(FirstStartTest, CredentialsAreOnDiskBeforeTheBootstrapCommits) {
  ObservingStore store;
  store.file = dir_ / "admin-credentials";
  ASSERT_TRUE(PrepareAccess(store, config_, access::testing::TestKeks()));
  EXPECT_NE(store.file_at_commit.find("client_secret="), std::string::npos);
  EXPECT_EQ(store.file_at_commit, CredentialsFile());
}

TEST_F(FirstStartTest, FailedBootstrapRemovesTheCredentialsFile) {
  ObservingStore store;
  store.file = dir_ / "admin-credentials";
  store.fail_writes = true;
  ASSERT_FALSE(PrepareAccess(store, config_, access::testing::TestKeks()));
  EXPECT_NE(store.file_at_commit.find("client_secret="), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "admin-credentials"));
  // Nothing left behind: the next start bootstraps normally.
  store.fail_writes = false;
  EXPECT_TRUE(PrepareAccess(store, config_, access::testing::TestKeks()));
  EXPECT_TRUE(std::filesystem::exists(dir_ / "admin-credentials"));
}

TEST_F(FirstStartTest, AuthOffOnlyEnsuresTheCatalog) {
  config_.auth = false;
  ASSERT_TRUE(PrepareAccess(store_, config_, access::testing::TestKeks()));
  auto snap = Snapshot();
  EXPECT_TRUE(snap->FindCatalog("default", "wh"));
  EXPECT_FALSE(snap->FindPrincipal("default", "admin"));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "admin-credentials"));
}

}  // namespace
}  // namespace firn::app
