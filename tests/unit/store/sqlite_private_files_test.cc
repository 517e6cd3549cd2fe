// The SQLite catalog's files hold secrets (hashes, sealed keys): owner-only from the first byte,
// looser ones tightened, deleted rows zeroed, and a backup copy owner-only too.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../support/file_modes.h"

#include "store/sqlite/sqlite_backup.h"
#include "store/sqlite/sqlite_catalog_store.h"
#include "store/sqlite/sqlite_connection.h"

namespace firn::store::sqlite {
namespace {

namespace fs = std::filesystem;

using SqlitePrivateFilesTest = firn::testing::UmaskZeroTest;
using firn::testing::ModeOf;
using firn::testing::ReadFile;

AccessRecord SecretRow(std::string body) {
  AccessRecord r;
  r.realm = "r";
  r.kind = AccessKind::kSigningKey;
  r.name = "kid";
  r.body = std::move(body);
  return r;
}

TEST_F(SqlitePrivateFilesTest, DatabaseWalAndShmAreOwnerOnlyUnderUmask000) {
  auto store = OpenSqliteStore(Path("firn.db"));
  ASSERT_TRUE(store) << store.error().detail;
  ASSERT_TRUE((*store)->CreateNamespace({}, {"a"}, {}));
  EXPECT_EQ(ModeOf(Path("firn.db")), 0600);
  ASSERT_TRUE(fs::exists(Path("firn.db-wal")));
  EXPECT_EQ(ModeOf(Path("firn.db-wal")), 0600);
  EXPECT_EQ(ModeOf(Path("firn.db-shm")), 0600);
}

TEST_F(SqlitePrivateFilesTest, LooserExistingFilesAreTightened) {
  { ASSERT_TRUE(OpenSqliteStore(Path("firn.db"))); }
  for (const char* f : {"firn.db"}) ASSERT_EQ(::chmod(Path(f).c_str(), 0644), 0);
  std::ofstream(Path("firn.db-wal")).flush();  // a stale, world-readable -wal
  ASSERT_EQ(::chmod(Path("firn.db-wal").c_str(), 0666), 0);
  auto store = OpenSqliteStore(Path("firn.db"));
  ASSERT_TRUE(store) << store.error().detail;
  EXPECT_EQ(ModeOf(Path("firn.db")), 0600);
  EXPECT_EQ(ModeOf(Path("firn.db-wal")), 0600);
}

// The attack: read a deleted or overwritten secret back out of the file's free space or the
// WAL. After the delete and CheckpointAndTruncateWal, neither holds a byte of it.
TEST_F(SqlitePrivateFilesTest, ADeletedSecretLeavesNoBytesInTheFileOrTheWal) {
  const std::string marker = "SECRET-MARKER-0123456789-abcdefghijklmnopqrstuvwxyz";
  auto store = OpenSqliteStore(Path("firn.db"));
  ASSERT_TRUE(store);
  ASSERT_TRUE((*store)->ApplyAccessWrites(
      {{AccessWrite::Op::kCreate, SecretRow("{\"k\":\"" + marker + "\"}"), {}}}, nullptr, 1));
  ASSERT_TRUE(CheckpointAndTruncateWal(Path("firn.db")));
  ASSERT_NE(ReadFile(Path("firn.db")).find(marker), std::string::npos) << "control: it was there";
  ASSERT_TRUE((*store)->ApplyAccessWrites(
      {{AccessWrite::Op::kDelete, SecretRow(""), std::nullopt}}, nullptr, 2));
  ASSERT_TRUE(CheckpointAndTruncateWal(Path("firn.db")));
  EXPECT_EQ(ReadFile(Path("firn.db")).find(marker), std::string::npos);
  EXPECT_EQ(fs::file_size(Path("firn.db-wal")), 0u);
}

TEST_F(SqlitePrivateFilesTest, ABackupCopyIsOwnerOnly) {
  auto store = OpenSqliteStore(Path("firn.db"));
  ASSERT_TRUE(store);
  ASSERT_TRUE((*store)->CreateNamespace({}, {"a"}, {}));
  auto stats = BackupSqliteDatabase(Path("firn.db"), Path("copy.db"));
  ASSERT_TRUE(stats) << stats.error().detail;
  EXPECT_EQ(ModeOf(Path("copy.db")), 0600);
}

}  // namespace
}  // namespace firn::store::sqlite
