// Owner-only directories and files (app/private_file.h), under umask 000 where the defaults
// would leave them readable by everybody.
#include "app/private_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "../support/file_modes.h"

namespace firn::app {
namespace {

namespace fs = std::filesystem;

using firn::testing::ModeOf;
using firn::testing::ReadFile;

class PrivateFileTest : public firn::testing::UmaskZeroTest {
 protected:
  void SetUp() override {
    UmaskZeroTest::SetUp();
    root_ = dir_;
  }
  std::filesystem::path root_;
};

TEST_F(PrivateFileTest, ADataDirectoryIsCreated0700AndALooserOneIsTightened) {
  const fs::path dir = root_ / "a" / "data";
  ASSERT_TRUE(EnsurePrivateDirectory(dir));
  EXPECT_EQ(ModeOf(dir), 0700);
  ASSERT_EQ(::chmod(dir.c_str(), 0755), 0);
  ASSERT_TRUE(EnsurePrivateDirectory(dir));
  EXPECT_EQ(ModeOf(dir), 0700);
  std::ofstream(root_ / "file").flush();
  EXPECT_FALSE(EnsurePrivateDirectory(root_ / "file"));  // not a directory
}

TEST_F(PrivateFileTest, APrivateFileIs0600CompleteAndNeverReplaced) {
  const fs::path f = root_ / "secret";
  ASSERT_TRUE(WritePrivateFile(f, "first\n"));
  EXPECT_EQ(ModeOf(f), 0600);
  EXPECT_EQ(ReadFile(f), "first\n");
  auto again = WritePrivateFile(f, "second\n");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(ReadFile(f), "first\n");
  for (const auto& e : fs::directory_iterator(root_)) {
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
  }
  EXPECT_FALSE(WritePrivateFile(root_ / "missing-dir" / "x", "x"));
}

TEST_F(PrivateFileTest, TighteningALooseFileClearsGroupAndOtherBits) {
  const fs::path f = root_ / "loose";
  std::ofstream(f).flush();
  ASSERT_EQ(::chmod(f.c_str(), 0664), 0);
  ASSERT_TRUE(TightenToOwnerOnly(f, "test file"));
  EXPECT_EQ(ModeOf(f), 0600);
}

}  // namespace
}  // namespace firn::app
