#include "access/access_state.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "access_test_support.h"
#include "store/sqlite/sqlite_catalog_store.h"

namespace firn::access {
namespace {

using testing::kNow;

class AccessStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("firn_access_state_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::shared_ptr<store::AccessStore> Open() {
    auto s = store::OpenSqliteStore((dir_ / "firn.db").string());
    EXPECT_TRUE(s) << s.error().message;
    return std::shared_ptr<store::AccessStore>(std::move(*s));
  }

  std::filesystem::path dir_;
};

TEST_F(AccessStateTest, StartLoadsTheCurrentSnapshot) {
  auto store = Open();
  ASSERT_TRUE(Bootstrap(*store, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
  AccessState state(store, "i1", testing::SharedTestKeks());
  ASSERT_TRUE(state.Start());
  auto snap = state.Current();
  ASSERT_TRUE(snap);
  EXPECT_TRUE(snap->FindPrincipal("r1", "alice"));
  EXPECT_TRUE(snap->FindCatalog("r1", "wh"));
  state.Stop();
}

TEST_F(AccessStateTest, ChangesPropagateToAnotherInstanceBeforeAwaitReturns) {
  auto store_a = Open();
  auto store_b = Open();
  ASSERT_TRUE(Bootstrap(*store_a, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
  AccessStateOptions options;
  options.poll_interval = std::chrono::milliseconds(20);
  AccessState a(store_a, "instance-a", testing::SharedTestKeks(), options);
  AccessState b(store_b, "instance-b", testing::SharedTestKeks(), options);
  ASSERT_TRUE(a.Start());
  ASSERT_TRUE(b.Start());
  ASSERT_FALSE(b.Current()->FindPrincipal("r1", "bob"));

  // A write through instance a, then a's wait: b must have the change when it returns.
  testing::AddPrincipal(*store_a, "r1", "bob", {"reader"});
  auto version = store_a->AccessVersion();
  ASSERT_TRUE(version);
  ASSERT_TRUE(a.AwaitPropagation(*version));
  EXPECT_TRUE(a.Current()->FindPrincipal("r1", "bob"));
  EXPECT_GE(b.Current()->version, *version);
  EXPECT_TRUE(b.Current()->FindPrincipal("r1", "bob"));
  a.Stop();
  b.Stop();
}

TEST_F(AccessStateTest, RefreshKeepsTheSnapshotWhenUnchanged) {
  auto store = Open();
  ASSERT_TRUE(Bootstrap(*store, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
  AccessState state(store, "i1", testing::SharedTestKeks());
  ASSERT_TRUE(state.Refresh());
  auto first = state.Current();
  ASSERT_TRUE(state.Refresh());
  EXPECT_EQ(state.Current(), first);  // same object: nothing was rebuilt
}

TEST_F(AccessStateTest, FailedRefreshKeepsServingTheLastSnapshot) {
  auto fake = std::make_shared<testing::FakeAccessStore>();
  ASSERT_TRUE(Bootstrap(*fake, testing::AliceOptions("r1"), testing::TestKeks(), kNow * 1000));
  AccessState state(fake, "i1", testing::SharedTestKeks());
  ASSERT_TRUE(state.Start());
  auto snap = state.Current();
  fake->SetFailing(true);
  EXPECT_FALSE(state.Refresh());
  EXPECT_EQ(state.Current(), snap);
  auto s = state.AwaitPropagation(snap->version + 1);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::kServiceUnavailable);
  state.Stop();
}

}  // namespace
}  // namespace firn::access
