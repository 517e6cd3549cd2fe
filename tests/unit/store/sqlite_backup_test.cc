// BackupSqliteDatabase: an online copy that is one committed state of the source.
#include "store/sqlite/sqlite_backup.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "store/sqlite/sqlite_catalog_store.h"

namespace firn::store::sqlite {
namespace {

namespace fs = std::filesystem;

class SqliteBackupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/firn-backup-test.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

TEST_F(SqliteBackupTest, CopyHoldsEveryCommittedPointer) {
  auto src = OpenSqliteStore(Path("src.db"));
  ASSERT_TRUE(src);
  ASSERT_TRUE((*src)->CreateNamespace({}, {"a"}, {{"k", "v"}}));
  ASSERT_TRUE((*src)->CreateObject({}, {{"a"}, "t"}, ObjectKind::kTable, "file:/m1"));
  ASSERT_TRUE((*src)->SwapPointer({}, {{"a"}, "t"}, ObjectKind::kTable, "file:/m1", "file:/m2"));

  auto stats = BackupSqliteDatabase(Path("src.db"), Path("copy.db"));
  ASSERT_TRUE(stats) << stats.error().message << " / " << stats.error().detail;
  EXPECT_GT(stats->pages, 0);
  EXPECT_GT(stats->bytes, 0);
  EXPECT_FALSE(fs::exists(Path("copy.db-wal")));

  auto copy = OpenSqliteStore(Path("copy.db"));
  ASSERT_TRUE(copy);
  EXPECT_EQ((*copy)->LoadPointer({}, {{"a"}, "t"}, ObjectKind::kTable)->metadata_location,
            "file:/m2");
  EXPECT_EQ((*copy)->LoadNamespace({}, {"a"})->at("k"), "v");
}

TEST_F(SqliteBackupTest, CopyWhileAnotherThreadCommitsIsOneCommittedState) {
  auto src = OpenSqliteStore(Path("src.db"));
  ASSERT_TRUE(src);
  ASSERT_TRUE((*src)->CreateNamespace({}, {"a"}, {}));
  ASSERT_TRUE((*src)->CreateObject({}, {{"a"}, "t"}, ObjectKind::kTable, "file:/0"));
  std::atomic<bool> stop{false};
  std::atomic<int> committed{0};
  std::thread writer([&] {
    for (int i = 0; !stop; ++i) {
      // Each commit moves the pointer and adds a namespace: both in one state or neither.
      ASSERT_TRUE((*src)->SwapPointer({}, {{"a"}, "t"}, ObjectKind::kTable,
                                      "file:/" + std::to_string(i),
                                      "file:/" + std::to_string(i + 1)));
      ASSERT_TRUE((*src)->CreateNamespace({}, {"n" + std::to_string(i + 1)}, {}));
      committed = i + 1;
    }
  });
  while (committed < 20) std::this_thread::yield();
  // The default single step reads one WAL snapshot while the writer keeps committing.
  auto stats = BackupSqliteDatabase(Path("src.db"), Path("copy.db"));
  const int after_backup = committed;
  while (committed < after_backup + 5) std::this_thread::yield();  // writer was never blocked
  stop = true;
  writer.join();
  ASSERT_TRUE(stats) << stats.error().message << " / " << stats.error().detail;

  auto copy = OpenSqliteStore(Path("copy.db"));
  ASSERT_TRUE(copy);
  auto ptr = (*copy)->LoadPointer({}, {{"a"}, "t"}, ObjectKind::kTable);
  ASSERT_TRUE(ptr);
  const int at = std::stoi(ptr->metadata_location.substr(6));
  EXPECT_GE(at, 20);
  // Namespaces n1..n(at) or n1..n(at-1) (the swap and the create are separate commits).
  auto listed = (*copy)->ListNamespaces({}, {}, {});
  ASSERT_TRUE(listed);
  const int namespaces = static_cast<int>(listed->items.size()) - 1;  // minus "a"
  EXPECT_TRUE(namespaces == at || namespaces == at - 1) << at << " vs " << namespaces;
}

TEST_F(SqliteBackupTest, SteppedCopyRestartedByEveryCommitGivesUpAtTheDeadline) {
  auto src = OpenSqliteStore(Path("src.db"));
  ASSERT_TRUE(src);
  ASSERT_TRUE((*src)->CreateNamespace({}, {"a"}, {}));
  for (int i = 0; i < 200; ++i) {  // enough pages that one page per step takes many steps
    ASSERT_TRUE((*src)->CreateNamespace({}, {"a", std::string(500, 'x') + std::to_string(i)},
                                        {}));
  }
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int i = 0; !stop; ++i) {
      ASSERT_TRUE((*src)->UpdateNamespaceProperties({}, {"a"}, {}, {{"i", std::to_string(i)}}));
    }
  });
  BackupOptions stepped;
  stepped.pages_per_step = 1;
  // Paced so one full pass takes far longer than a commit, even on a loaded CI machine
  // (with 1 ms pauses a whole pass could slip between two fsync'd commits).
  stepped.pause_between_steps = std::chrono::milliseconds(20);
  stepped.deadline = std::chrono::seconds(1);
  auto stats = BackupSqliteDatabase(Path("src.db"), Path("copy.db"), stepped);
  stop = true;
  writer.join();
  ASSERT_FALSE(stats);
  EXPECT_EQ(stats.error().kind, ErrorKind::kServiceUnavailable);
  EXPECT_FALSE(fs::exists(Path("copy.db")));
}

TEST_F(SqliteBackupTest, ExistingDestinationIsRefusedAndLeftAlone) {
  ASSERT_TRUE(OpenSqliteStore(Path("src.db")));
  { std::ofstream(Path("copy.db")) << "keep me"; }
  auto stats = BackupSqliteDatabase(Path("src.db"), Path("copy.db"));
  ASSERT_FALSE(stats);
  EXPECT_EQ(stats.error().kind, ErrorKind::kAlreadyExists);
  std::ifstream in(Path("copy.db"));
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "keep me");
}

TEST_F(SqliteBackupTest, MissingSourceIsNotFoundAndNonCatalogIsRefused) {
  auto missing = BackupSqliteDatabase(Path("nope.db"), Path("copy.db"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);

  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(Path("plain.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE x (y)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto plain = BackupSqliteDatabase(Path("plain.db"), Path("copy.db"));
  ASSERT_FALSE(plain);
  EXPECT_EQ(plain.error().kind, ErrorKind::kIllegalArgument);
  EXPECT_FALSE(fs::exists(Path("copy.db")));
}

}  // namespace
}  // namespace firn::store::sqlite
